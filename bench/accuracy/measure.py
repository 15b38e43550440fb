#!/usr/bin/env python3
"""Reference accuracy of lingo's `find_references` against a language's own
reference tool (an LSP server), on one project. For C# the tool is Roslyn's
SymbolFinder behind the small LSP server of roslyn/RoslynRefs.cs; for Python,
pyright (pyright-langserver).

1. Candidates: the declarations the LSP server lists
   (textDocument/documentSymbol) at module level or inside a type (not
   inside a function body): functions, methods, classes/structs, enums,
   interfaces/traits, fields, properties, constants and variables. Files
   that say they are generated ("DO NOT EDIT", "@generated" in their first
   lines) give no candidates. No name is filtered out.
2. Systematic sample: candidates sorted by (file, line, column); a start
   offset in [0, N) drawn from the seed, then every Nth, N =
   ceil(candidates / --sample). A picked declaration the tool finds no
   reference to is skipped (and recorded), not replaced. C# adds one
   declaration for each of a few common names (an overriding `ToString`, an
   `Equals`, a constructor, a `Name` property, a `Dispose`): among the
   declarations of that name and kind, the one the seed draws.
3. Truth: textDocument/references at the name (includeDeclaration false),
   inside the project, less other module- or type-level declarations
   (overriding members; Python: overload signatures, a name's other
   `def`, aliases `as X`; TypeScript: the `y` of `import`/`export { x as
   y }`) and comment lines (`//`, `/* */`; Python `#`). Each
   site gets a category (categories.py) and is marked `merged` when the
   tool's own go-to-definition there lands on another declaration (a
   reference the tool lists because one method overrides or implements
   another, e.g. tsserver's `x.complete()` on an `Observer`). Roslyn says so itself: a location
   it found only for a symbol it cascaded to (an override, an
   implementation, a type's constructor) is marked merged with that symbol.
4. lingo (`lingo serve --root DIR`) gets `find_references` at the same
   position, include_declaration false, paged until done. lingo sites the
   truth lacks but the tool's go-to-definition confirms join the truth;
   those where it finds nothing are recorded as `unverifiable`.
5. report.py compares them.

Standard library only. Writes one JSON file with every symbol's raw results.
"""

from __future__ import annotations

import argparse
from collections import Counter
import datetime
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from categories import classify, go_imports, py_modules, ts_namespaces  # noqa: E402
from clients import LspClient, LspError, McpClient, file_uri, uri_path  # noqa: E402

# LSP SymbolKind numbers.
KIND_NAMES = {5: "class", 6: "method", 7: "property", 8: "field", 10: "enum", 11: "interface",
              12: "function", 13: "variable", 14: "constant", 23: "struct"}
TYPE_KINDS = {"class", "enum", "interface", "struct"}
MEMBER_KINDS = {"method", "field", "property"}
# Containers a sampled declaration may sit in (module, namespace, package,
# class, enum, interface, struct, object = a Rust impl block).
CONTAINER_KINDS = {2, 3, 4, 5, 10, 11, 23, 19}
GENERATED_MARKS = ("do not edit", "@generated", "automatically generated")

SKIP_DIRS = {".git", "node_modules", "target", "vendor", "testdata", "dist", "__pycache__"}


class Language:
    name: str
    # LSP symbol kinds sampled beyond KIND_NAMES (only through common_names)
    extra_kinds: dict = {}
    # the tool marks the references it found for related symbols itself
    # (Roslyn), instead of go-to-definition deciding (mark_merged)
    marks_related = False
    server_info: dict | None = None
    language_id: str
    extensions: tuple[str, ...]
    argv: list[str]
    env: dict = {}
    init_options = None
    experimental = None
    # tsserver finds a file's project only when the file is open; the others
    # read the disk (rust-analyzer's answers even vary with open files).
    open_files = False

    def configuration(self, section):
        return None

    def language_id_of(self, path: Path) -> str:
        return self.language_id

    def wait_ready(self, client: LspClient, root: Path) -> None:
        pass

    def version(self) -> str:
        return ""


class Rust(Language):
    name = "rust"
    language_id = "rust"
    extensions = (".rs",)
    experimental = {"serverStatusNotification": True}
    settings = {
        # every feature: lingo reads every file, whatever its cfg
        "cargo": {"buildScripts": {"enable": False}, "features": "all"},
        "procMacro": {"enable": False},
        "checkOnSave": False,
    }

    def __init__(self, tool: str):
        self.argv = [tool]
        self.init_options = self.settings

    def configuration(self, section):
        return self.settings if section in (None, "rust-analyzer") else None

    def wait_ready(self, client, root):
        message = client.wait_notification(
            lambda m: m["method"] == "experimental/serverStatus"
            and m["params"].get("quiescent"),
            timeout=1200,
        )
        if message is None:
            raise SystemExit("rust-analyzer did not become quiescent in 20 minutes")
        if message["params"].get("health") != "ok":
            print(f"rust-analyzer health: {message['params']}", file=sys.stderr)

    def version(self):
        return subprocess.run(self.argv + ["--version"], capture_output=True, text=True).stdout.strip()


class TypeScript(Language):
    name = "typescript"
    language_id = "typescript"
    extensions = (".ts", ".tsx")
    open_files = True

    def language_id_of(self, path: Path) -> str:
        # tsserver parses JSX only in a file opened as typescriptreact
        return "typescriptreact" if path.suffix == ".tsx" else "typescript"

    def __init__(self, tool_dir: str):
        tool_dir = Path(tool_dir)
        self.tool_dir = tool_dir
        self.argv = [str(tool_dir / "node_modules/.bin/typescript-language-server"), "--stdio"]
        self.init_options = {
            "tsserver": {"path": str(tool_dir / "node_modules/typescript/lib")},
            "preferences": {"includeCompletionsForModuleExports": False},
        }

    def version(self):
        ts = json.loads((self.tool_dir / "node_modules/typescript/package.json").read_text())["version"]
        tls = json.loads((self.tool_dir / "node_modules/typescript-language-server/package.json").read_text())["version"]
        return f"typescript {ts} (tsserver) via typescript-language-server {tls}"


class Go(Language):
    name = "go"
    language_id = "go"
    extensions = (".go",)

    def __init__(self, tool: str, gopath: str):
        self.argv = [tool]
        self.env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GO111MODULE": "on",
                    "GOPATH": gopath, "GOCACHE": os.path.join(gopath, "cache")}

    def version(self):
        gopls = subprocess.run(self.argv + ["version"], capture_output=True, text=True).stdout
        go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
        return f"gopls {' '.join(gopls.split())} ({go})"


class CSharp(Language):
    name = "csharp"
    language_id = "csharp"
    extensions = (".cs",)
    extra_kinds = {9: "constructor"}
    marks_related = True
    # (label, kind, name, detail word): one declaration each, drawn by the seed
    common_names = [("ToString override", "method", "ToString", "override"),
                    ("Equals", "method", "Equals", None),
                    ("constructor", "constructor", None, None),
                    ("Name property", "property", "Name", None),
                    ("Dispose", "method", "Dispose", None)]

    def __init__(self, exe: str, root: Path, csprojs: list[str]):
        self.argv = ["mono", exe]
        for c in csprojs:
            self.argv += ["--csproj", str(root / c)]

    def version(self):
        return (self.server_info or {}).get("version", "")


class Java(Language):
    """javac's Compiler Tree API through javac/JavacRefs.java: the source
    directories run.sh names are one compilation; every name javac binds
    is a reference of what it binds to."""
    name = "java"
    language_id = "java"
    extensions = (".java",)
    extra_kinds = {9: "constructor"}
    common_names = [("toString override", "method", "toString", None),
                    ("equals", "method", "equals", None),
                    ("constructor", "constructor", None, None)]

    def __init__(self, classes: str, root: Path, source_dirs: list[str]):
        self.argv = ["java", "--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                     "-Xss16m", "-cp", classes, "JavacRefs"]
        for d in source_dirs:
            self.argv += ["--source", str(root / d)]

    def version(self):
        return (self.server_info or {}).get("version", "")


class Python(Language):
    """pyright's language server. The project's pyrightconfig.json (run.sh
    writes one: every source directory, `src` on the import path, basic
    mode) says what it analyses; its references search every file of it,
    open or not."""
    name = "python"
    language_id = "python"
    extensions = (".py",)
    # asked for "python", "python.analysis", "pyright"; pyrightconfig.json wins
    settings = {"analysis": {"typeCheckingMode": "basic", "diagnosticMode": "openFilesOnly",
                             "autoSearchPaths": True, "useLibraryCodeForTypes": True}}

    def __init__(self, tool_dir: str):
        self.tool_dir = Path(tool_dir)
        self.argv = [str(self.tool_dir / "node_modules/.bin/pyright-langserver"), "--stdio"]

    def configuration(self, section):
        if section == "python":
            return self.settings
        if section == "python.analysis":
            return self.settings["analysis"]
        return {} if section == "pyright" else None

    def wait_ready(self, client, root):
        # until the workspace's files are enumerated, pyright answers for none
        message = client.wait_notification(
            lambda m: m["method"] == "window/logMessage"
            and re.match(r"Found \d+ source files?", m["params"].get("message", "")),
            timeout=600,
        )
        if message is None:
            raise SystemExit("pyright did not list the project's source files in 10 minutes")

    def version(self):
        pyright = json.loads((self.tool_dir / "node_modules/pyright/package.json").read_text())["version"]
        python = subprocess.run(["python3", "--version"], capture_output=True, text=True).stdout.strip()
        return f"pyright {pyright} (pyright-langserver; {python} on the PATH)"


def source_files(root: Path, extensions) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith(extensions) and not f.endswith(".d.ts"):
                out.append(Path(dirpath) / f)
    return out


def identifier_at(line: str, character: int) -> str:
    """The identifier starting at a UTF-16 column (ASCII sources assumed for
    identifiers; columns before it are converted from UTF-16)."""
    encoded = line.encode("utf-16-le")
    prefix = encoded[: character * 2].decode("utf-16-le", errors="replace")
    rest = line[len(prefix):]
    ident = ""
    for ch in rest:
        if ch.isalnum() or ch in "_$":
            ident += ch
        else:
            break
    return ident


def generated(lines: list[str]) -> bool:
    head = "\n".join(lines[:5]).lower()
    return any(mark in head for mark in GENERATED_MARKS)


def declarations(client: LspClient, lang: Language, root: Path, files: list[Path]):
    """(sampling candidates, every declaration name position of any kind,
    generated files)."""
    found = []
    positions: set[tuple[str, int, int]] = set()
    generated_files = []
    kinds = {**KIND_NAMES, **lang.extra_kinds}
    for path in files:
        try:
            symbols = client.request("textDocument/documentSymbol",
                                     {"textDocument": {"uri": file_uri(path)}}) or []
        except LspError as e:
            # a file outside every project the tool loaded (C#: not in the .csproj)
            print(f"[{lang.name}] {path.relative_to(root)}: {str(e)[:200]}", file=sys.stderr)
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        rel = path.relative_to(root).as_posix()
        is_generated = generated(lines)
        if is_generated:
            generated_files.append(rel)

        def walk(items, parents):
            for s in items:
                if "selectionRange" not in s:  # flat SymbolInformation: not expected
                    continue
                kind = s["kind"]
                sel = s["selectionRange"]["start"]
                sel_text = lines[sel["line"]] if sel["line"] < len(lines) else ""
                inside_types = all(p in CONTAINER_KINDS for p in parents)
                if inside_types and identifier_at(sel_text, sel["character"]) == s["name"]:
                    # a module- or type-level declaration's own name (not `impl
                    # Name` headers; not locals, such as `const { kind } = this`,
                    # which also read a property)
                    positions.add((rel, sel["line"], sel["character"]))
                if kind in kinds and inside_types and not is_generated:
                    start = s["selectionRange"]["start"]
                    text = lines[start["line"]] if start["line"] < len(lines) else ""
                    ident = identifier_at(text, start["character"])
                    name = s["name"]
                    if ident and (name == ident or name.endswith(ident) or ident in name):
                        found.append({
                            "name": ident,
                            "lsp_name": name,
                            "kind": kinds[kind],
                            "detail": s.get("detail") or "",
                            "file": rel,
                            "line": start["line"],
                            "character": start["character"],
                        })
                walk(s.get("children") or [], parents + [kind])

        walk(symbols, [])
    # One entry per position (servers may list a symbol twice).
    unique = {(d["file"], d["line"], d["character"]): d for d in found}
    return [unique[k] for k in sorted(unique)], positions, generated_files


def in_comment(root: Path, ref: dict, cache: dict, lang: str = "") -> bool:
    """Whether a reference sits on a comment line (doc links such as JSDoc
    `{@link Name}`); lingo indexes code only. Python: after a `#` (`//` is
    floor division there, a line may start with `*`)."""
    lines = cache.get(ref["file"])
    if lines is None:
        lines = cache[ref["file"]] = (root / ref["file"]).read_text(errors="replace").split("\n")
    text = lines[ref["line"]] if ref["line"] < len(lines) else ""
    before = text[: ref["character"]].lstrip()
    code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|`[^`]*`', '""', before)  # strings out
    if lang == "python":
        return "#" in code
    # `* text` continues a block comment; `*x` is a dereference
    return before.startswith(("//", "/*")) or re.match(r"\*(\s|/|$)", before) is not None or "//" in code


def python_declaration(root: Path, ref: dict, cache: dict) -> bool:
    """Whether a Python site is itself a declaration of the name that
    documentSymbol does not list (it lists a name once): an `@overload`
    signature, a second `def` or `class` of the name (`if WIN: def getchar
    .. else: def getchar`), the `X` of an alias `import .. as X` or `from
    . import X as X`. pyright lists these among the references."""
    lines = cache.get(ref["file"])
    if lines is None:
        lines = cache[ref["file"]] = (root / ref["file"]).read_text(errors="replace").split("\n")
    text = lines[ref["line"]] if ref["line"] < len(lines) else ""
    return re.search(r"(^\s*(async\s+)?def|^\s*class|\bas)\s+$", text[: ref["character"]]) is not None


def typescript_alias(root: Path, ref: dict, cache: dict) -> bool:
    """Whether a TypeScript site is the `y` of an import or export
    specifier `x as y` (`export { nativeEnumType as nativeEnum }`): the
    declaration of another name, as the `X` of Python's `import .. as X`
    is. tsserver lists it among the references of `x`; a type assertion's
    `v as T` is not one (its `as` is outside an `import {`/`export {`
    list)."""
    lines = cache.get(ref["file"])
    if lines is None:
        lines = cache[ref["file"]] = (root / ref["file"]).read_text(errors="replace").split("\n")
    text = lines[ref["line"]] if ref["line"] < len(lines) else ""
    if re.search(r"[\w$]\s+as\s+$", text[: ref["character"]]) is None:
        return False
    # The innermost `{` still open before the site, at most 200 lines up.
    before = "\n".join(lines[max(0, ref["line"] - 200): ref["line"]] + [text[: ref["character"]]])
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        c = before[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                return re.search(r"\b(import|export)(\s+type)?\s*$", before[:i]) is not None
            depth -= 1
    return False


def truth_references(client: LspClient, root: Path, decl) -> list[dict]:
    result = client.request(
        "textDocument/references",
        {
            "textDocument": {"uri": file_uri(root / decl["file"])},
            "position": {"line": decl["line"], "character": decl["character"]},
            "context": {"includeDeclaration": False},
        },
    ) or []
    refs = {}
    for loc in result:
        path = uri_path(loc["uri"])
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            continue  # outside the project (standard library, dependencies)
        start, end = loc["range"]["start"], loc["range"]["end"]
        if (rel, start["line"], start["character"]) == (decl["file"], decl["line"], decl["character"]):
            continue
        refs[(rel, start["line"], start["character"])] = {
            "file": rel, "line": start["line"], "character": start["character"],
            "end_line": end["line"], "end_character": end["character"],
        }
        if loc.get("direct") is False:  # Roslyn: found for a related symbol only
            refs[(rel, start["line"], start["character"])]["merged"] = [loc.get("related", "")]
        if loc.get("qualifier"):  # Roslyn: what the `Q` of `Q.name` is, for categories.py
            refs[(rel, start["line"], start["character"])]["qualifier"] = loc["qualifier"]
    return [refs[k] for k in sorted(refs)]


def definition(client: LspClient, root: Path, site) -> list | None:
    """Where the reference tool's go-to-definition at a site leads: (file,
    start, end) of each target inside the project; None when the tool does
    not analyse that file (gopls: excluded by a build tag). Asked at the
    last character of the site's range, which lies in the name."""
    character = site["end_character"] - 1 if site["end_line"] == site["line"] else site["character"]
    try:
        result = client.request(
            "textDocument/definition",
            {"textDocument": {"uri": file_uri(root / site["file"])},
             "position": {"line": site["line"], "character": max(character, site["character"])}},
        ) or []
    except LspError:
        return None
    if isinstance(result, dict):
        result = [result]
    targets = []
    for loc in result:
        uri = loc.get("targetUri") or loc.get("uri")
        rng = loc.get("targetSelectionRange") or loc.get("range")
        try:
            rel = uri_path(uri).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            rel = None  # outside the project
        start, end = rng["start"], rng["end"]
        targets.append((rel, (start["line"], start["character"]), (end["line"], end["character"])))
    return targets


def lands_on(decl, targets) -> bool:
    return any(rel == decl["file"] and start <= (decl["line"], decl["character"]) <= end
               for rel, start, end in targets)


def cross_check(client: LspClient, root: Path, decl) -> None:
    """Adds to the truth the lingo sites that the reference tool's
    references missed but its go-to-definition confirms (rust-analyzer's
    reference search is not deterministic inside macro calls). Sites where
    the tool finds no definition at all (code it does not analyse, such as
    Rust under an inactive `#[cfg]`, or a file gopls excludes by build tag)
    are recorded as `unverifiable`: the tool cannot judge them."""
    from report import match

    pairs = match(decl["truth"], decl["lingo"]["references"])
    matched = set(pairs.values())
    for j, site in enumerate(decl["lingo"]["references"]):
        if j in matched:
            continue
        targets = definition(client, root, site)
        if not targets:
            decl.setdefault("unverifiable", []).append(site)
        elif lands_on(decl, targets):
            decl["truth"].append({
                "file": site["file"], "line": site["line"], "character": site["character"],
                "end_line": site["end_line"], "end_character": site["end_character"],
                "source": "definition",
            })
    decl["truth"].sort(key=lambda t: (t["file"], t["line"], t["character"]))


def mark_merged(client: LspClient, root: Path, decl, cache: dict) -> None:
    """Marks the truth sites that spell the declaration's name but where the
    tool's go-to-definition leads to other declarations only (never to
    `decl`): the tool listed them because `decl` overrides or implements, or
    is implemented by, the member they name. (Sites spelled otherwise, such
    as Rust's `Self`, stay ordinary truth.)"""
    for t in decl["truth"]:
        if t["file"] not in cache:
            cache[t["file"]] = (root / t["file"]).read_text(errors="replace").split("\n")
        lines = cache[t["file"]]
        if identifier_at(lines[t["line"]] if t["line"] < len(lines) else "", t["character"]) != decl["name"]:
            continue
        targets = definition(client, root, t)
        if targets and not lands_on(decl, targets):
            t["merged"] = [f"{rel}:{start[0] + 1}" for rel, start, _ in targets][:3]


def categorize(lang: Language, root: Path, decl, cache: dict) -> None:
    """Puts the category (categories.py) and the line's text on each truth site."""
    declared = (root / decl["file"]).read_text(errors="replace").split("\n")[decl["line"]]
    # a type: by its symbol kind, or a type alias (`type Name`, listed as a variable;
    # Python also `Name: TypeAlias = ..`, `Name = TypeVar(..)`)
    name = re.escape(decl["name"])
    is_type = decl["kind"] in TYPE_KINDS or re.search(rf"\btype\s+{name}\b", declared) or (
        lang.name == "python" and re.search(
            rf"^\s*{name}\s*(:\s*([\w.]+\.)?TypeAlias\b|=\s*([\w.]+\.)?(TypeVar|ParamSpec|TypeVarTuple|NewType)\s*\()",
            declared))
    for t in decl["truth"]:
        if t["file"] not in cache:
            lines = (root / t["file"]).read_text(encoding="utf-8", errors="replace").split("\n")
            modules = go_imports(lines) if lang.name == "go" else ts_namespaces(lines) \
                if lang.name == "typescript" else py_modules(lines) if lang.name == "python" else set()
            cache[t["file"]] = (lines, modules)
        lines, modules = cache[t["file"]]
        t["category"] = classify(lang.name, lines, t["line"], t["character"], decl["name"],
                                 bool(is_type), modules, decl["kind"] in MEMBER_KINDS, t.get("qualifier"))
        t["text"] = lines[t["line"]].strip()[:160] if t["line"] < len(lines) else ""


def lingo_references(lingo: McpClient, decl) -> dict:
    out = {"error": None, "symbol": None, "references": [], "completeness": None}
    offset = 0
    while True:
        is_error, payload = lingo.call("find_references", {
            "path": decl["file"], "line": decl["line"], "character": decl["character"],
            "include_declaration": False, "limit": 5000, "offset": offset, "format": "json",
        })
        if is_error:
            out["error"] = payload.get("error", payload)
            return out
        out["symbol"] = payload.get("symbol")
        out["completeness"] = payload.get("completeness")
        for r in payload.get("references", []):
            rng = r["range"]
            out["references"].append({
                "file": r["file_path"],
                "line": rng["start"]["line"], "character": rng["start"]["character"],
                "end_line": rng["end"]["line"], "end_character": rng["end"]["character"],
                "resolution": r.get("resolution"), "confidence": r.get("confidence"),
                "kind": r.get("kind"),
                "line_text": r.get("line_text"),
            })
        pagination = payload.get("pagination", {})
        if not pagination.get("has_more"):
            return out
        offset = pagination["next_offset"]


def lingo_checkout_commit() -> str:
    repo = Path(__file__).resolve().parents[2]
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no",
                            "--", ".", ":!bench"], capture_output=True, text=True).stdout.strip()
    return commit + ("+uncommitted changes" if dirty else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", required=True, choices=["rust", "typescript", "go", "csharp", "java", "python"])
    ap.add_argument("--source-dir", action="append", default=[],
                    help="Java: a source directory javac compiles, relative to --root (repeatable)")
    ap.add_argument("--root", required=True, type=Path)
    ap.add_argument("--project", required=True, help="project name and version, for the record")
    ap.add_argument("--lingo", required=True, help="path to the lingo binary")
    ap.add_argument("--lingo-commit", help="the commit the binary was built at (default: HEAD now)")
    ap.add_argument("--tool", help="rust-analyzer / gopls binary, or the npm dir of typescript-language-server"
                    " or pyright")
    ap.add_argument("--gopath", default="/tmp/lingo-accuracy/gopath")
    ap.add_argument("--csproj", action="append", default=[],
                    help="C#: a project file (relative to --root) for the Roslyn server to load")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--sample", type=int, default=80)
    ap.add_argument("--only-overloads", action="store_true",
                    help="draw from overloaded methods and constructors only (a name declared twice or "
                         "more as a method or constructor in one file)")
    ap.add_argument("--sample-under", action="append", default=[],
                    help="draw the sample from declarations in files under this folder (relative to"
                         " --root; repeatable); the truth and lingo still cover the whole root")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--logs", type=Path, default=Path("/tmp/lingo-accuracy/logs"))
    args = ap.parse_args()
    root = args.root.resolve()
    args.logs.mkdir(parents=True, exist_ok=True)

    lang: Language = {
        "rust": lambda: Rust(args.tool or os.path.expanduser("~/.cargo/bin/rust-analyzer")),
        "typescript": lambda: TypeScript(args.tool or "/tmp/lingo-accuracy/ts-tools"),
        "go": lambda: Go(args.tool or "gopls", args.gopath),
        "csharp": lambda: CSharp(args.tool or "/tmp/lingo-accuracy/cs-tools/lib/RoslynRefs.exe", root, args.csproj),
        "java": lambda: Java(args.tool or "/tmp/lingo-accuracy/java-tools", root, args.source_dir),
        "python": lambda: Python(args.tool or "/tmp/lingo-accuracy/py-tools"),
    }[args.lang]()

    # The commit lingo was measured at: as run.sh saw it when it copied the
    # binary, or the checkout's HEAD now, "+uncommitted changes" if dirty.
    lingo_commit = args.lingo_commit or lingo_checkout_commit()

    files = source_files(root, lang.extensions)
    t0 = time.monotonic()
    client = LspClient(lang.argv, cwd=root, env=lang.env, log=args.logs / f"{args.out.stem}-lsp.log")
    client.configuration = lang.configuration
    lang.server_info = (client.initialize(root, lang.init_options, lang.experimental) or {}).get("serverInfo")
    if lang.open_files:
        for f in files:
            client.did_open(f, lang.language_id_of(f))
    lang.wait_ready(client, root)
    print(f"[{lang.name}] {lang.version()} ready in {time.monotonic() - t0:.0f} s; {len(files)} files",
          file=sys.stderr)

    every, declared_at, generated_files = declarations(client, lang, root, files)
    # C#: constructors (extra_kinds) are drawn through common_names only
    decls = [d for d in every if d["kind"] in KIND_NAMES.values()]
    if args.only_overloads:
        callable_kinds = {"method", "function", "constructor"}
        per_file_name = Counter((d["file"], d["name"]) for d in every if d["kind"] in callable_kinds)
        decls = [d for d in every
                 if d["kind"] in callable_kinds and per_file_name[(d["file"], d["name"])] >= 2]
    if args.sample_under:
        folders = tuple(f.strip("/") + "/" for f in args.sample_under)
        decls = [d for d in decls if d["file"].startswith(folders)]
    step = max(1, math.ceil(len(decls) / args.sample))
    start = random.Random(args.seed).randrange(step)
    picked = decls[start::step]
    for label, kind, name, detail in ([] if args.only_overloads else getattr(lang, "common_names", [])):
        matches = [d for d in every if d["kind"] == kind and (name is None or d["name"] == name)
                   and (detail is None or detail in d["detail"].split())]
        if matches:
            pick = matches[random.Random(f"{args.seed} {label}").randrange(len(matches))]
            if pick not in picked:
                picked.append({**pick, "common_name": label})
    print(f"[{lang.name}] {len(decls)} candidate declarations; every {step}th from {start}: "
          f"{len(picked)} picked", file=sys.stderr)

    sample, skipped_unreferenced, text_cache, skipped_unanalyzed = [], [], {}, []
    for decl in picked:
        where = f"{decl['kind']} {decl['name']} {decl['file']}:{decl['line'] + 1}"
        refs, excluded = [], []
        try:
            truth = truth_references(client, root, decl)
        except LspError as e:
            # e.g. gopls on a file whose build tags exclude it
            skipped_unanalyzed.append(f"{where}: {e}")
            continue
        for r in truth:
            if (r["file"], r["line"], r["character"]) in declared_at:
                # tsserver lists overriding and implementing declarations too
                excluded.append({**r, "why": "declaration"})
            elif lang.name == "python" and python_declaration(root, r, text_cache):
                excluded.append({**r, "why": "declaration"})
            elif lang.name == "typescript" and typescript_alias(root, r, text_cache):
                excluded.append({**r, "why": "declaration"})
            elif in_comment(root, r, text_cache, lang.name):
                excluded.append({**r, "why": "comment"})
            else:
                refs.append(r)
        if not refs:
            skipped_unreferenced.append(where)
            continue
        for r in refs:
            r["source"] = "references"
        sample.append({**decl, "truth": refs, "excluded": excluded})
    print(f"[{lang.name}] sampled {len(sample)} (skipped {len(skipped_unreferenced)} without references)",
          file=sys.stderr)
    if not lang.marks_related:
        for decl in sample:
            mark_merged(client, root, decl, text_cache)

    lingo = McpClient([args.lingo, "serve", "--toolsets", "all", "--root", str(root)], log=args.logs / f"{args.out.stem}-lingo.log")
    lingo.initialize()
    # Asked only once the first index is complete: an answer from a
    # snapshot the first index is still filling would miss what it has not
    # reached yet (at most ten minutes).
    deadline = time.monotonic() + 600
    while True:
        _, health = lingo.call("health_check", {"format": "json"})
        state = health.get("workspace", {}).get("state") if isinstance(health, dict) else None
        if state == "Ready" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    for decl in sample:
        decl["lingo"] = lingo_references(lingo, decl)
    lingo.close()

    categories_cache = {}
    for decl in sample:
        cross_check(client, root, decl)
        categorize(lang, root, decl, categories_cache)
    client.close()

    plugins = health.get("plugins") if isinstance(health, dict) else None
    record = {
        "language": lang.name,
        "lingo_commit": lingo_commit,
        "lingo_binary_mtime": datetime.datetime.fromtimestamp(
            os.stat(args.lingo).st_mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "project": args.project,
        "root": str(root),
        "reference_tool": lang.version(),
        "lingo_plugins": plugins,
        "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "seed": args.seed,
        "sample_target": args.sample,
        "sample_under": args.sample_under,
        "candidates": len(decls),
        "step": step,
        "start": start,
        "picked": len(picked),
        "skipped_unreferenced": skipped_unreferenced,
        "skipped_unanalyzed": skipped_unanalyzed,
        "generated_files": generated_files,
        "files": len(files),
        "lines": sum(len(f.read_text(errors="replace").splitlines()) for f in files),
        "symbols": sample,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"[{lang.name}] wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
