"""The category of a reference site, read from the source text around it.

This is the benchmark's own classification of the *truth* (the sites the
reference tool lists), so that recall can be reported per kind of use. It
knows no types and is not lingo's logic: a few rules on the text before and
after the name, first match wins.

  import          inside a use/import statement: Rust `use a::{b, c};`,
                  TypeScript `import {..} from` / `export {..} [from]`, Go `import`,
                  a C# `using` directive, Python `import a.b`, `from a import (b, c)`,
                  a string of `__all__ = [..]` (the export list).
  qualified path  `Q::name`, or `Q.name` where Q names a module or a type:
                  an identifier starting uppercase in Rust and TypeScript (not
                  an ALL_CAPS constant), a TypeScript `import * as Q`, a Go
                  imported package name (when the declaration is not a member:
                  a local variable may shadow the package); in C#, where
                  values are capitalised too, a Q that Roslyn binds to a type
                  or namespace (the `qualifier` it reports with the site); in
                  Python an uppercase Q as in TypeScript, or a dotted chain
                  `m.a.name` whose first name the file binds by an import
                  (`import m`, `import m as n`, `from p import m` of a name
                  not capitalised), when the declaration is not a member.
  chained call    `f(..).name`, `f(..)?.name`, `a[i].name`: the receiver is a
                  call result or another expression, not a named value.
  call through a typed value
                  `x.name(..)` or `x.name` where x is a value: a lowercase
                  identifier (field chains `a.b.name` included), `self.`,
                  `this.`, `super.`, Python's `cls.` and `super().`.
  type use        a type declaration's name in a type position: after `:`,
                  `->`, `<`, `&`, Rust's `,` (generic arguments), `dyn`,
                  `impl`, `for`, `as`, `new`, `extends`, `implements`, `|`,
                  Go's `*`, `[]`, `map[K]`, `chan`, C#'s `(` (a cast, a
                  parameter), `is`, `typeof(`, or a parameter/variable
                  name; Python's annotations (`x: Name`, `-> Name`, also
                  as a string `"Name"`), `|`, a subscript's arguments
                  (`Optional[Name]`, `dict[str, Name]`), a base class
                  `class A(Name)`, `isinstance(x, Name)`, `except Name`;
                  not when followed by `::` or `.` (nor, in Rust and
                  Python, by `(`: a constructor call).
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
    "java": re.compile(r"(<|,|\(|\bnew|\bextends|\bimplements|\bthrows|\binstanceof|\bfinal"
                       r"|\bstatic|\bpublic|\bprivate|\bprotected|\babstract|\breturn\s+new|@)\s*$"),
}
JAVA_IMPORT = re.compile(r"^\s*import\s")
PY_IMPORT = re.compile(r"^\s*(from\s+[\w.]+\s+)?import\b")
# the text before a name inside the statement's continuation lines: names, `as`, commas
PY_IMPORT_CONTINUED = re.compile(r"^[\w\s,]*$")
PY_TYPE_BEFORE = re.compile(r"(:|->|\||\bexcept\*?\s*\(?\s*([\w.]+\s*,\s*)*"
                            r"|\b(isinstance|issubclass)\s*\(.*,\s*\(?\s*([\w.]+\s*,\s*)*"
                            r"|^\s*class\s+\w+\s*(\[[^\]]*\])?\s*\(([^()]*,)?)\s*$")
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


def py_modules(lines: list[str]) -> set[str]:
    """Names a Python file binds to modules: every part of `import a.b`, the
    alias of `import a.b as c`, and the names of `from p import m [as n]`
    that are not capitalised (modules, functions, values: only a module is
    followed by `.name` of a module-level declaration)."""
    names = set()
    text = "\n".join(t.split("#")[0] for t in lines)
    for m in re.finditer(r"^[ \t]*import[ \t]+([^\n;]+)", text, re.M):
        for part in m.group(1).split(","):
            am = re.match(r"\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$", part)
            if am:
                names.update([am.group(2)] if am.group(2) else am.group(1).split("."))
    for m in re.finditer(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(\([^)]*\)|[^\n;]*(\\\n[^\n;]*)*)", text, re.M):
        for part in m.group(1).strip("()").replace("\\\n", " ").split(","):
            am = re.match(r"\s*(\w+)(?:\s+as\s+(\w+))?\s*$", part)
            if am and not am.group(1)[0].isupper():
                names.add(am.group(2) or am.group(1))
    return names


def py_in_import(lines: list[str], line: int, before: str) -> bool:
    """Whether a Python site is inside an import statement: on its first
    line, or on a continuation line of a parenthesised or backslashed one."""
    if PY_IMPORT.match(before.split(";")[-1]):
        return True
    if not PY_IMPORT_CONTINUED.match(before):
        return False
    for i in range(line - 1, max(line - 40, -1), -1):
        text = lines[i].split("#")[0].rstrip()
        if PY_IMPORT.match(text):
            return text.endswith(("(", ",", "\\"))
        if not re.match(r"^[\w\s,]*[,\\]$", text):
            return False  # every line between continues the statement
    return False


def py_in_all(lines: list[str], line: int, before: str) -> bool:
    """Whether a Python site is a string of `__all__ = [..]` (`+=`, a tuple):
    the module's export list, as TypeScript's `export {..}`."""
    if not re.search(r"[\"']$", before):
        return False
    for i in range(line, max(line - 200, -1), -1):
        text = before if i == line else lines[i].split("#")[0]
        if re.match(r"^\s*__all__\s*\+?=\s*[\[(]", text):
            return True
        if not re.match(r"^[\s\w\"',\[\]()+]*$", text) or (i < line and re.search(r"[\])]\s*$", text)):
            return False
    return False


def py_type_position(context: str, lines: list[str], line: int) -> bool:
    """Whether the text before a name puts it in a Python type position."""
    c = re.sub(r"[\"']$", "", context.rstrip()).rstrip()  # a string annotation, "Name"
    if PY_TYPE_BEFORE.search(c):
        return True
    # the arguments of a subscript of a name: Optional[Name], Callable[[A], Name],
    # also over lines (the lines above without comments and strings)
    above = [re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '""', t).split("#")[0]
             for t in lines[max(line - 10, 0):line]]
    c = "\n".join(above + [c])
    stack = []
    for i, ch in enumerate(c):
        if ch in "([{":
            stack.append((ch, i))
        elif ch in ")]}" and stack:
            stack.pop()
    for ch, i in reversed(stack):
        if ch != "[":
            return False
        if re.search(r"[\w\]]\s*$", c[:i]):
            return True
    return False


def in_import(lang: str, lines: list[str], line: int, before: str) -> bool:
    """Whether the site is inside an import/use statement: walk back over
    lines that hold only path characters to the statement's first line."""
    if lang == "python":
        return py_in_import(lines, line, before) or py_in_all(lines, line, before)
    start = {"rust": RUST_USE, "typescript": TS_IMPORT, "go": re.compile(r"^\s*import\b"),
             "csharp": CSHARP_USING, "java": JAVA_IMPORT}[lang]
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
        # Python: a line's first name continues the line above only inside a
        # subscript or a list (not after a block's `:`)
        if lang != "python" or context.strip() or previous.endswith(("[", ",", "|")):
            context = previous + context.strip()
    if context.endswith("::"):
        return "qualified path"
    if lang == "python" and re.search(r"\bsuper\s*\([^()]*\)\s*\.$", context):
        return "call through a typed value"  # `super().name`, as `super.name`
    if re.search(r"([)\]]|\bawait)\s*[?!]?\s*\.$", context):
        return "chained call"
    m = re.search(r"([\w$]+)\s*[?!]?\s*\.$", context)
    if m:
        q = m.group(1)
        if lang == "python":
            first = re.search(r"([\w.]*?)\s*\.$", context).group(1).split(".")[0]
            if first in (modules or ()) and not is_member:
                return "qualified path"
            modules = ()
        if lang == "go":
            return "qualified path" if q in (modules or ()) and not is_member else "call through a typed value"
        if lang == "csharp" and qualifier:
            return "qualified path" if qualifier == "type" else "call through a typed value"
        if q in (modules or ()) or (q[0].isupper() and not (len(q) > 1 and q.isupper())):
            return "qualified path"
        return "call through a typed value"
    # Rust `Name(..)`, Python `Name(..)`: a constructor
    follows = ("::", ".", "(") if lang in ("rust", "python") else ("::", ".")
    if is_type and not after.lstrip().startswith(follows):
        if lang == "python":
            return "type use" if py_type_position(context, lines, line) else "other"
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
        ("python", "from .models import @Request", "Request", True, "import"),
        ("python", "from .models import (\n    PreparedRequest,\n    @Request,\n)", "Request", True, "import"),
        ("python", "from .utils import a, \\\n    @to_key_val_list", "to_key_val_list", False, "import"),
        ("python", "import os\n@main()", "main", False, "other"),
        ("python", "__all__ = [\n    \"a\",\n    \"@main\",\n]", "main", False, "import"),
        ("python", "__all__ = (\"a\", \"@main\")", "main", False, "import"),
        ("python", "__all__ = [\"a\"]\nx = [\n    \"@main\",\n]", "main", False, "other"),
        ("python", "x = (\n    a,\n    @b,\n)", "b", False, "other"),
        ("python", "import click\nclick.@command()", "command", False, "qualified path"),
        ("python", "from . import utils\nutils.@to_key_val_list(x)", "to_key_val_list", False, "qualified path"),
        ("python", "import click.core\nclick.core.@Context(cmd)", "Context", True, "qualified path"),
        ("python", "Session.@request(self)", "request", False, "qualified path"),
        ("python", "self.@prepare_body(data)", "prepare_body", False, "call through a typed value"),
        ("python", "super().@__init__(name)", "__init__", False, "call through a typed value"),
        ("python", "from . import utils\nutils.@x = 1", "x", False, "call through a typed value", True),
        ("python", "get_ctx().@invoke(f)", "invoke", False, "chained call"),
        ("python", "def f(ctx: @Context) -> None:", "Context", True, "type use"),
        ("python", "def f(ctx) -> \"@Context\":", "Context", True, "type use"),
        ("python", "x: t.Optional[@Context] = None", "Context", True, "type use"),
        ("python", "cb: t.Callable[[int], @Context]", "Context", True, "type use"),
        ("python", "x: int | @Context", "Context", True, "type use"),
        ("python", "class Group(@Command):", "Command", True, "type use"),
        ("python", "class Group(Base, @Command, metaclass=M):", "Command", True, "type use"),
        ("python", "if isinstance(x, (str, @Command)):", "Command", True, "type use"),
        ("python", "except @Abort:", "Abort", True, "type use"),
        ("python", "raise @Abort()", "Abort", True, "other"),
        ("python", "cb: t.Callable[\n    [int], @Context\n]", "Context", True, "type use"),
        ("python", "cb: t.Optional[\n    @Context\n]", "Context", True, "type use"),
        ("python", "if x:\n    @Context", "Context", True, "other"),
        ("python", "cmd = @Command(name)", "Command", True, "other"),
        ("python", "return f(a, @Command)", "Command", True, "other"),
    ]
    bad = 0
    for lang, src, name, is_type, want, *member in cases:
        modules = {"cmp"} if lang == "go" else py_modules(src.replace("@", "").split("\n")) \
            if lang == "python" else {"ns"}
        qualifier = member[1] if len(member) > 1 else None
        got = one(lang, src, name, is_type, modules, bool(member and member[0]), qualifier)
        if got != want:
            bad += 1
            print(f"FAIL {lang} {src!r}: {got}, want {want}")
    print(f"{len(cases) - bad} passed, {bad} failed")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    _check()
