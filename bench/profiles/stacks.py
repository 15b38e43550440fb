"""Reading `perf script` output: one sample per blank-line-separated block,
its first line `comm pid time: ...`, then one frame per line, leaf first."""
import re


def samples(lines):
    """Yield (comm, time, frames) per sample, frames leaf first, names only."""
    header, frames = None, []
    for line in lines:
        if not line.strip():
            if header is not None and frames:
                yield header[0], header[1], frames
            header, frames = None, []
        elif line[0] not in "\t ":
            found = re.match(r"(\S+)\s+\d+\s+([\d.]+):", line)
            header = (found.group(1), float(found.group(2))) if found else None
        else:
            parts = line.strip().split(" ", 1)
            if len(parts) == 2:
                name = parts[1].rsplit(" (", 1)[0]
                frames.append(re.sub(r"\+0x[0-9a-f]+$", "", name))
    if header is not None and frames:
        yield header[0], header[1], frames


def short(frame, width=140):
    """A frame's name without wasmtime's `wasm[0]::function[N]::` prefix."""
    return re.sub(r"^wasm\[0\]::function\[\d+\]::", "", frame)[:width]
