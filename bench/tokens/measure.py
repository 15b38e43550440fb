#!/usr/bin/env python3
"""Tokens an agent reads for a question: lingo's default text answer, lingo's
JSON answer and the `grep` output it would otherwise read, counted with a
real tokenizer (o200k_base, via the lingo-token-count binary).

Questions are chosen systematically: the declarations bench/accuracy sampled
for a project (every Nth declaration after a seed; see BENCHMARKS.md), every
Kth of them taken in turn for each kind of question, so that each kind gets
different declarations. Kinds and the grep an agent would run instead:

  references   find_references at the declaration    grep -rnw NAME .
  definition   find_definition at a reference site   grep -rnwE '(decl keywords) NAME' .
  callers      get_call_hierarchy incoming           grep -rn 'NAME(' .
  callees      get_call_hierarchy outgoing           the declaration's lines (sed -n a,bp FILE)
  outline      outline of the declaration's file     grep -nE '(decl keywords)' FILE
  search       search_symbols NAME                   grep -rn NAME .
  dependents   dependents_of the declaration         grep -rnw N . for NAME and for each
                                                     dependent N lingo found: the greps
                                                     that reach the same transitive
                                                     answer (the first one alone is
                                                     reported too, as "direct")

A dependents_of asked by a bare name that several declarations of the file
carry answers SYMBOL_AMBIGUOUS with the candidates; the question is then
asked again with the candidate declared on the sampled line, as an agent
would, and both answers are counted.

Usage: measure.py --lingo BIN --counter BIN --out results.json PROJECT_DIR:ACCURACY_JSON...
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "accuracy"))
from clients import McpClient  # noqa: E402

KINDS = ["references", "definition", "callers", "callees", "outline", "search", "dependents"]
PER_KIND = 2  # questions of each kind per project (--per-kind)

# Declaration keywords per language, for the greps that look for declarations.
DECLARATION = {
    "rust": r"\b(fn|struct|enum|trait|type|const|static|mod|union|impl)\b",
    "go": r"^\s*(func|type|var|const)\b|^\s+[A-Za-z_][A-Za-z0-9_]*\s+[^=]+$",
    "typescript": r"\b(function|class|interface|type|enum|const|let|var)\b|^\s+[A-Za-z_$#][\w$]*\s*[(:]",
    "csharp": r"\b(class|struct|interface|enum|record|delegate|event)\b|^\s*(public|private|protected|internal|static)\b",
}
DEFINITION_WORDS = {
    "rust": "fn|struct|enum|trait|type|const|static|mod|union",
    "go": r"func( \([^)]*\))?|type|var|const",
    "typescript": "function|class|interface|type|enum|const|let|var|get|set",
    "csharp": r"class|struct|interface|enum|record|delegate|void|[A-Za-z_<>\[\],]+",
}
CALLABLE = {"function", "method", "constructor"}


def grep(root: Path, args: list[str]) -> str:
    done = subprocess.run(
        ["grep", "--exclude-dir=.git", *args], cwd=root, capture_output=True, text=True, errors="replace"
    )
    return done.stdout


def questions(language: str, root: Path, sample: list[dict], per_kind: int = PER_KIND) -> list[dict]:
    """The questions for one project: per kind, PER_KIND declarations taken
    in turn from the sample (each kind starts further along)."""
    out = []
    usable = [s for s in sample if s.get("truth")]
    for k, kind in enumerate(KINDS):
        candidates = usable
        if kind in ("callers", "callees"):
            candidates = [s for s in usable if s["kind"] in CALLABLE]
        if not candidates:
            continue
        step = max(1, len(candidates) // (per_kind * len(KINDS)))
        start = (k * per_kind * step) % len(candidates)
        picked = [candidates[(start + i * step) % len(candidates)] for i in range(per_kind)]
        for symbol in picked:
            out.append(question(language, root, kind, symbol))
    return out


def question(language: str, root: Path, kind: str, symbol: dict) -> dict:
    name, path = symbol["name"], symbol["file"]
    at = {"path": path, "line": symbol["line"], "character": symbol["character"]}
    if kind == "references":
        call = ("find_references", at)
        grep_args = ["-rnw", "--", name, "."]
    elif kind == "definition":
        site = symbol["truth"][0]
        call = ("find_definition", {"path": site["file"], "line": site["line"], "character": site["character"]})
        grep_args = ["-rnwE", "--", rf"({DEFINITION_WORDS[language]})\s+{name}", "."]
    elif kind == "callers":
        call = ("get_call_hierarchy", {**at, "direction": "incoming"})
        grep_args = ["-rn", "--", f"{name}(", "."]
    elif kind == "callees":
        call = ("get_call_hierarchy", {**at, "direction": "outgoing"})
        grep_args = None  # the declaration's own lines, below
    elif kind == "outline":
        call = ("outline", {"path": path})
        grep_args = ["-nE", "--", DECLARATION[language], path]
    elif kind == "search":
        call = ("search_symbols", {"query": name})
        grep_args = ["-rn", "--", name, "."]
    else:
        call = ("dependents_of", {"file_path": path, "symbol": name})
        grep_args = ["-rnw", "--", name, "."]
    return {
        "kind": kind, "name": name, "file": path, "line": symbol["line"],
        "tool": call[0], "arguments": call[1], "grep": grep_args,
    }


def dependent_names(text: str) -> list[str]:
    """The names of the nodes a dependents_of answer lists under `## Nodes`
    (`name:` or `name#2:` at the start of a line), each once."""
    names: dict[str, None] = {}
    in_nodes = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_nodes = line == "## Nodes"
        elif in_nodes and line.endswith(":") and not line.startswith(" "):
            names[line[:-1].split("#", 1)[0]] = None
    return list(names)


def ask(client: McpClient, q: dict, extra: dict) -> tuple[dict, str]:
    """The answer to a question and its text; an ambiguous dependents_of is
    asked again with the sampled declaration's candidate, and the text is
    both answers'."""
    result = client.request("tools/call", {"name": q["tool"], "arguments": {**q["arguments"], **extra}})
    text = "".join(c.get("text", "") for c in result.get("content", []))
    error = (result.get("structuredContent") or {}).get("error") or {}
    if q["kind"] != "dependents" or error.get("code") != "SYMBOL_AMBIGUOUS":
        return result, text
    wanted = f"{q['file']}:{q['line'] + 1} "
    candidates = error.get("details", {}).get("candidates", [])
    chosen = next((c for c in candidates if c.startswith(wanted)), None)
    if chosen is None:
        return result, text
    retry = {**q["arguments"], "symbol": chosen.rsplit(" ", 1)[-1], **extra}
    result = client.request("tools/call", {"name": q["tool"], "arguments": retry})
    return result, text + "".join(c.get("text", "") for c in result.get("content", []))


def declaration_lines(client: McpClient, q: dict) -> str:
    """What an agent reads to see what a function calls: its source."""
    _, answer = client.call("node_source", {"path": q["file"], "symbol": q["name"], "format": "json"})
    return answer.get("source", "") if isinstance(answer, dict) else ""


def count(counter: str, texts: dict[str, str]) -> dict[str, int]:
    lines = "\n".join(json.dumps({"id": k, "text": v}) for k, v in texts.items())
    done = subprocess.run([counter], input=lines, capture_output=True, text=True, check=True)
    return {item["id"]: item["tokens"] for item in map(json.loads, done.stdout.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lingo", required=True)
    parser.add_argument("--counter", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--per-kind", type=int, default=PER_KIND, help="questions of each kind per project")
    parser.add_argument("projects", nargs="+", help="PROJECT_DIR:ACCURACY_JSON")
    options = parser.parse_args()

    rows = []
    for spec in options.projects:
        root_text, sample_path = spec.split(":", 1)
        root = Path(root_text)
        accuracy = json.loads(Path(sample_path).read_text())
        language, project = accuracy["language"], accuracy["project"]
        client = McpClient([options.lingo, "serve", "--toolsets", "all", "--root", str(root)], log=Path(options.out).with_suffix(".log"))
        client.initialize()
        for q in questions(language, root, accuracy["symbols"], options.per_kind):
            result, text = ask(client, q, {})
            _, json_text = ask(client, q, {"format": "json"})
            grep_text = grep(root, q["grep"]) if q["grep"] else declaration_lines(client, q)
            direct_text = grep_text
            if q["kind"] == "dependents" and not result.get("isError"):
                for name in dependent_names(text):
                    if name != q["name"]:
                        grep_text += grep(root, ["-rnw", "--", name, "."])
            tokens = count(options.counter, {"lingo": text, "json": json_text, "grep": grep_text, "direct": direct_text})
            rows.append({
                "language": language, "project": project, **q,
                "is_error": bool(result.get("isError")),
                "lingo_tokens": tokens["lingo"], "json_tokens": tokens["json"], "grep_tokens": tokens["grep"],
                "grep_direct_tokens": tokens["direct"],
                "lingo_bytes": len(text.encode()), "grep_lines": grep_text.count("\n"),
                "lingo_head": text.splitlines()[0] if text else "",
            })
        client.close()
    Path(options.out).write_text(json.dumps(rows, indent=1) + "\n")
    report(rows)


def report(rows: list[dict]) -> None:
    def summary(group: list[dict]) -> str:
        # A grep that printed nothing answered nothing: such questions are
        # counted apart, not as ones lingo lost or won.
        answered = [r for r in group if r["grep_tokens"] > 0]
        ratios = [r["lingo_tokens"] / r["grep_tokens"] for r in answered] or [0.0]
        no_more = sum(r["lingo_tokens"] <= r["grep_tokens"] for r in answered)
        share = no_more / len(answered) if answered else 0.0
        return (
            f"| {len(group)} | {len(group) - len(answered)} | {no_more} ({share:.0%}) | {statistics.median(ratios):.2f} "
            f"| {sum(r['lingo_tokens'] for r in group)} | {sum(r['json_tokens'] for r in group)} "
            f"| {sum(r['grep_tokens'] for r in group)} |"
        )

    head = (
        "| questions | grep printed nothing | lingo <= grep (of the rest) | median lingo/grep "
        "| lingo tokens | lingo JSON tokens | grep tokens |"
    )
    print(f"| group {head}\n|---{'|---' * 7}|")
    for language in dict.fromkeys(r["language"] for r in rows):
        print(f"| {language} {summary([r for r in rows if r['language'] == language])}")
    for kind in KINDS:
        group = [r for r in rows if r["kind"] == kind]
        if group:
            print(f"| {kind} {summary(group)}")
    print(f"| all {summary(rows)}")
    bytes_per_token = sum(r["lingo_bytes"] for r in rows) / max(sum(r["lingo_tokens"] for r in rows), 1)
    print(f"\nlingo text: {bytes_per_token:.2f} bytes per o200k token; errors answered: {sum(r['is_error'] for r in rows)}")
    print("\n| language | kind | name | lingo | JSON | grep (lines) | lingo's first line |\n|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['language']} | {r['kind']} | `{r['name']}` | {r['lingo_tokens']} | {r['json_tokens']} "
            f"| {r['grep_tokens']} ({r['grep_lines']}) | {r['lingo_head'][:90].replace('|', '/')} |"
        )


if __name__ == "__main__":
    main()
