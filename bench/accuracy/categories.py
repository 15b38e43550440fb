"""The category of a reference site, read from the source text around it.

This is the benchmark's own classification of the *truth* (the sites the
reference tool lists), so that recall can be reported per kind of use. It
knows no types and is not lingo's logic: a few rules on the text before and
after the name, first match wins.

  import          inside a use/import statement: Rust `use a::{b, c};`,
                  TypeScript `import {..} from` / `export {..} [from]`, Go `import`,
                  a C# `using` directive.
  qualified path  `Q::name`, or `Q.name` where Q names a module or a type:
                  an identifier starting uppercase in Rust and TypeScript (not
                  an ALL_CAPS constant), a TypeScript `import * as Q`, a Go
                  imported package name (when the declaration is not a member:
                  a local variable may shadow the package); in C#, where
                  values are capitalised too, a Q that Roslyn binds to a type
                  or namespace (the `qualifier` it reports with the site).
  chained call    `f(..).name`, `f(..)?.name`, `a[i].name`: the receiver is a
                  call result or another expression, not a named value.
  call through a typed value
                  `x.name(..)` or `x.name` where x is a value: a lowercase
                  identifier (field chains `a.b.name` included), `self.`,
                  `this.`, `super.`.
  type use        a type declaration's name in a type position: after `:`,
                  `->`, `<`, `&`, Rust's `,` (generic arguments), `dyn`,
                  `impl`, `for`, `as`, `new`, `extends`, `implements`, `|`,
                  Go's `*`, `[]`, `map[K]`, `chan`, C#'s `(` (a cast, a
                  parameter), `is`, `typeof(`, or a parameter/variable
                  name; not when followed by `::` or `.` (nor, in Rust, by
                  `(`: a tuple struct's constructor).
  other           anything else: a bare name (`f(..)`, `Name::f`, `Name {..}`,
                  a value passed along).

`python3 categories.py` checks the rules on a few examples.
"""

from __future__ import annotations

import re

CATEGORIES = ["import", "qualified path", "call through a typed value", "chained call", "type use", "other"]

RUST_USE = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?use\s")
TS_IMPORT = re.compile(r"^\s*(import\b|export\s+(type\s+)?[{*])")
PATH_ONLY = re.compile(r"^[\w$\s,{}*:]*$")  # a line inside a use tree / import list

TYPE_BEFORE = {
    "rust": re.compile(r"((?<!:):|->|<|,|&|&\s*mut|&'\w+|\bdyn|\bimpl|\bfor|\bas|\bwhere)\s*$"),
    "typescript": re.compile(r"(:|<|\||&|\bnew|\bextends|\bimplements|\bas|\bkeyof|\btypeof"
                             r"|\binstanceof|\bsatisfies|\bis|\breadonly|\[\])\s*$"),
    "go": re.compile(r"(\*|\[\]|\]|\bmap\[|\bchan|<-|\.\(|\.\.\.|\))\s*$"),
    "csharp": re.compile(r"(:|<|,|\(|\bnew|\bas|\bis|\btypeof\s*\(|\bdefault\s*\(|\bsizeof\s*\(|\bout"
                         r"|\bref|\bin|\bparams|\bthis|\breadonly|\bstatic|\bconst|\bpublic|\bprivate"
                         r"|\bprotected|\binternal|\boverride|\bvirtual|\babstract|\bsealed|\bpartial"
                         r"|\bevent|\breturn\s+new)\s*$"),
}
CSHARP_USING = re.compile(r"^\s*(global\s+)?using\s+(static\s+)?(?![(\s])[\w.\s=<>,]*$")
# `Name x`, `Name[] x`, `Name? x`, `Name<T> x`: a declaration's type
CSHARP_TYPE_AFTER = re.compile(r"^(\s*\?|\s*\[[\s,]*\]|\s*<[\w\s,.<>\[\]?]*>)*\s+@?[A-Za-z_]\w*\s*([=;,)]|$|\{|=>)")
GO_KEYWORDS = {"return", "case", "go", "defer", "if", "else", "for", "range", "switch", "select",
               "package", "import", "goto", "break", "continue", "fallthrough", "func", "type",
               "var", "const", "struct", "interface", "default"}


def prefix(text: str, character: int) -> str:
    """The text before a UTF-16 column."""
    return text.encode("utf-16-le")[: character * 2].decode("utf-16-le", errors="replace")


def go_imports(lines: list[str]) -> set[str]:
    """Package names a Go file imports (alias, or the path's last element)."""
    names, block = set(), False
    for text in lines:
        s = text.strip()
        if s.startswith("import ("):
            block = True
            continue
        if block and s.startswith(")"):
            block = False
            continue
        m = re.match(r'^(?:import\s+)?([\w.]+\s+)?"([^"]+)"', s) if block or s.startswith("import ") else None
        if m:
            alias = (m.group(1) or "").strip()
            parts = m.group(2).split("/")
            last = parts[-1] if not re.fullmatch(r"v\d+", parts[-1]) or len(parts) < 2 else parts[-2]
            name = alias or re.sub(r"\.v\d+$", "", last).removeprefix("go-").replace("-", "_")
            if name not in ("_", "."):
                names.add(name)
    return names


def ts_namespaces(lines: list[str]) -> set[str]:
    return {m.group(1) for text in lines for m in re.finditer(r"\*\s+as\s+([\w$]+)", text)}


def in_import(lang: str, lines: list[str], line: int, before: str) -> bool:
    """Whether the site is inside an import/use statement: walk back over
    lines that hold only path characters to the statement's first line."""
    start = {"rust": RUST_USE, "typescript": TS_IMPORT, "go": re.compile(r"^\s*import\b"),
             "csharp": CSHARP_USING}[lang]
    text = before
    for back in range(0, 40):
        if start.match(text):
            return back == 0 or ";" not in text
        if lang == "go" and text.strip() == "import (":
            return True
        if not PATH_ONLY.match(text) or line - back - 1 < 0:
            return False
        if lang == "go" and not re.match(r'^\s*([\w.]+\s+)?"[^"]*"\s*$', text) and back > 0:
            return False
        text = lines[line - back - 1]
    return False


def classify(lang: str, lines: list[str], line: int, character: int, name: str,
             is_type: bool, modules: set[str] | None = None, is_member: bool = False,
             qualifier: str | None = None) -> str:
    """The category of the site at (line, UTF-16 character) naming `name`.
    `is_type`: the declaration is a type; `is_member`: a method or field
    (never reached as `package.name` in Go); `modules`: names that denote
    modules in this file (Go imports, TS namespace imports), see go_imports
    and ts_namespaces; `qualifier` (C#): what Roslyn binds the `Q` of a
    `Q.name` to, "type" (or namespace) or "value"."""
    text = lines[line] if line < len(lines) else ""
    before = prefix(text, character)
    after = text[len(before) + len(name):]
    if in_import(lang, lines, line, before):
        return "import"
    context = before.rstrip()
    if context.strip() in ("", ".", "?.", "::") and line > 0:
        # `.name` continuing a chain from the line above
        previous = next((lines[i].rstrip() for i in range(line - 1, max(line - 4, -1), -1)
                         if lines[i].strip()), "")
        context = previous + context.strip()
    if context.endswith("::"):
        return "qualified path"
    if re.search(r"([)\]]|\bawait)\s*[?!]?\s*\.$", context):
        return "chained call"
    m = re.search(r"([\w$]+)\s*[?!]?\s*\.$", context)
    if m:
        q = m.group(1)
        if lang == "go":
            return "qualified path" if q in (modules or ()) and not is_member else "call through a typed value"
        if lang == "csharp" and qualifier:
            return "qualified path" if qualifier == "type" else "call through a typed value"
        if q in (modules or ()) or (q[0].isupper() and not (len(q) > 1 and q.isupper())):
            return "qualified path"
        return "call through a typed value"
    follows = ("::", ".", "(") if lang == "rust" else ("::", ".")  # Rust `Name(..)`: a constructor
    if is_type and not after.lstrip().startswith(follows):
        if TYPE_BEFORE[lang].search(context):
            return "type use"
        if lang == "go":
            m = re.search(r"\b([A-Za-z_]\w*)\s+$", before)
            if m and m.group(1) not in GO_KEYWORDS:
                return "type use"
        if lang == "csharp" and CSHARP_TYPE_AFTER.match(after):
            return "type use"
        if lang == "typescript" and re.match(r"^\s*(export\s+)?type\s+\w+.*=\s*$", context):
            return "type use"
    return "other"


def _check() -> None:
    def one(lang, src, name, is_type, modules, is_member, qualifier=None):
        lines = src.split("\n")
        i = next(i for i, t in enumerate(lines) if "@" in t)
        lines[i] = lines[i].replace("@", "")
        col = len(lines[i][: lines[i].index(name, src.split("\n")[i].index("@"))])
        return classify(lang, lines, i, col, name, is_type, modules, is_member, qualifier)

    cases = [
        ("rust", "use crate::{\n    ast::{self, @Span},\n};", "Span", True, "import"),
        ("rust", "pub(crate) use self::@parse::Parser;", "parse", False, "import"),
        ("rust", "let x = Hir::@empty();", "empty", False, "qualified path"),
        ("rust", "self.@pop()", "pop", False, "call through a typed value"),
        ("rust", "foo.bar()?.@iter()", "iter", False, "chained call"),
        ("rust", "x.iter()\n    .@map(f)", "map", False, "chained call"),
        ("rust", "fn f(x: &@Hir) -> Hir {", "Hir", True, "type use"),
        ("rust", "impl fmt::Display for @Hir {", "Hir", True, "type use"),
        ("rust", "let h = @Hir::empty();", "Hir", True, "other"),
        ("rust", "iter: Splice<'a, @UnitValue<I>, T>,", "UnitValue", True, "type use"),
        ("rust", "f(a, @UnitValue(x))", "UnitValue", True, "other"),
        ("rust", "let v = @parse(x);", "parse", False, "other"),
        ("typescript", "import {\n  a,\n  @Subject,\n} from './Subject';", "Subject", True, "import"),
        ("typescript", "export { @map } from './map';", "map", False, "import"),
        ("typescript", "export class A extends @Subject<T> {", "Subject", True, "type use"),
        ("typescript", "this.@destination.next(x);", "destination", False, "call through a typed value"),
        ("typescript", "const s = new @Subject<T>();", "Subject", True, "type use"),
        ("typescript", "Observable.@create(f)", "create", False, "qualified path"),
        ("typescript", "import * as ns from 'x';\nns.@foo()", "foo", False, "qualified path"),
        ("go", 'import (\n\t"fmt"\n)\nfunc f() { cmp.@Equal(a, b) }', "Equal", False, "qualified path"),
        ("go", "func (s *@Set) String() string {", "Set", True, "type use"),
        ("go", "var x @Option", "Option", True, "type use"),
        ("go", "m := map[@Name]*Flag{}", "Name", True, "type use"),
        ("go", "return @Option(nil)", "Option", True, "other"),
        ("go", "f.@String()", "String", False, "call through a typed value"),
        ("go", "cmp.@Changed = true", "Changed", False, "call through a typed value", True),
        ("go", "\ts := x.y()\n\ts.a().@Error()", "Error", False, "chained call"),
        ("csharp", "using KeePassLib.@Utility;", "Utility", False, "import"),
        ("csharp", "using (var s = new @Stream())", "Stream", True, "type use"),
        ("csharp", "public static @PwDatabase Open(string path)", "PwDatabase", True, "type use"),
        ("csharp", "@PwEntry[] entries = x;", "PwEntry", True, "type use"),
        ("csharp", "var x = (@PwEntry)o;", "PwEntry", True, "type use"),
        ("csharp", "class A : @Base, IDisposable {", "Base", True, "type use"),
        ("csharp", "@PwEntry.Create()", "PwEntry", True, "other"),
        ("csharp", "m_pwDatabase.@RootGroup.Entries", "RootGroup", False, "call through a typed value"),
        ("csharp", "Program.@Config.UI", "Config", False, "qualified path", False, "type"),
        ("csharp", "Program.Config.@UI", "UI", False, "call through a typed value", False, "value"),
        ("csharp", "GetEntry().@Strings.Get(x)", "Strings", False, "chained call"),
    ]
    bad = 0
    for lang, src, name, is_type, want, *member in cases:
        modules = {"cmp"} if lang == "go" else {"ns"}
        qualifier = member[1] if len(member) > 1 else None
        got = one(lang, src, name, is_type, modules, bool(member and member[0]), qualifier)
        if got != want:
            bad += 1
            print(f"FAIL {lang} {src!r}: {got}, want {want}")
    print(f"{len(cases) - bad} passed, {bad} failed")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    _check()
