// A minimal LSP server over javac's Compiler Tree API, the Java truth of
// bench/accuracy: it parses and attributes every .java file under the
// source directories named on the command line (one compilation, no
// annotation processing), reports the compile errors on stderr and in
// serverInfo, then answers, over stdio with Content-Length framing:
//
//   initialize, shutdown, exit
//   textDocument/documentSymbol  hierarchical: types and their members
//                                (detail: the modifiers, "constructor")
//   textDocument/references      every name in the sources that javac binds
//                                to the element named at the position: the
//                                identifiers, member selections, `new T(..)`
//                                of a constructor, method references
//   textDocument/definition      the declaration of that element, when it is
//                                in the sources
//
//   java --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
//        -cp DIR JavacRefs --source ROOT/src/main/java [--source ...]
//
// Compiled with javac 17 by bench/accuracy/run.sh.

import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;

import javax.lang.model.element.*;
import javax.tools.*;
import java.io.*;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class JavacRefs {
    /** A place in a source file: the file's URI and a zero-based line and UTF-16 column. */
    record Place(String uri, int line, int character, int length) {}

    /** Per file: its text and the start of each line. */
    record Source(String uri, String text, int[] lineStarts) {
        Place place(int offset, int length) {
            int line = Arrays.binarySearch(lineStarts, offset);
            if (line < 0) line = -line - 2;
            return new Place(uri, line, offset - lineStarts[line], length);
        }
    }

    static final Map<String, Source> sources = new HashMap<>();
    /** Every named occurrence of an element: its uses, and its declaration. */
    static final Map<Element, List<Place>> uses = new HashMap<>();
    static final Map<Element, Place> declarations = new HashMap<>();
    /** Per file, every occurrence in source order: (place, element). */
    static final Map<String, List<Map.Entry<Place, Element>>> occurrences = new HashMap<>();
    /** Per file, the document symbols. */
    static final Map<String, List<Object>> symbols = new HashMap<>();
    static int errors = 0;

    public static void main(String[] args) throws Exception {
        List<Path> roots = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--source")) roots.add(Paths.get(args[i + 1]));
        }
        InputStream in = new BufferedInputStream(System.in);
        OutputStream out = new BufferedOutputStream(System.out);
        while (true) {
            String body = read(in);
            if (body == null) return;
            @SuppressWarnings("unchecked")
            Map<String, Object> message = (Map<String, Object>) new Json(body).value();
            String method = (String) message.get("method");
            Object id = message.get("id");
            @SuppressWarnings("unchecked")
            Map<String, Object> params = (Map<String, Object>) message.getOrDefault("params", Map.of());
            Object result = null;
            switch (method == null ? "" : method) {
                case "initialize" -> {
                    load(roots);
                    result = Map.of(
                            "capabilities", Map.of("referencesProvider", true, "definitionProvider", true,
                                    "documentSymbolProvider", true),
                            "serverInfo", Map.of("name", "JavacRefs",
                                    "version", "javac " + System.getProperty("java.version") + "; " + errors + " compile errors"));
                }
                case "textDocument/documentSymbol" -> result = symbols.getOrDefault(uriOf(params), List.of());
                case "textDocument/references" -> result = references(params);
                case "textDocument/definition" -> result = definition(params);
                case "shutdown" -> result = null;
                case "exit" -> { return; }
                default -> { if (id == null) continue; }
            }
            if (id == null) continue;
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("jsonrpc", "2.0");
            response.put("id", id);
            response.put("result", result);
            byte[] bytes = Json.write(response).getBytes(StandardCharsets.UTF_8);
            out.write(("Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
        }
    }

    /** One message's body, or null at the end of the input. */
    static String read(InputStream in) throws IOException {
        int length = -1;
        StringBuilder line = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) return null;
            if (c == '\n') {
                String header = line.toString().trim();
                line.setLength(0);
                if (header.isEmpty()) break;
                if (header.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(header.substring(15).trim());
                }
            } else {
                line.append((char) c);
            }
        }
        byte[] body = in.readNBytes(length);
        return new String(body, StandardCharsets.UTF_8);
    }

    static String uriOf(Map<String, Object> params) {
        @SuppressWarnings("unchecked")
        Map<String, Object> document = (Map<String, Object>) params.get("textDocument");
        return (String) document.get("uri");
    }

    /** The element named at the request's position. */
    static Element at(Map<String, Object> params) {
        @SuppressWarnings("unchecked")
        Map<String, Object> position = (Map<String, Object>) params.get("position");
        int line = ((Number) position.get("line")).intValue();
        int character = ((Number) position.get("character")).intValue();
        for (Map.Entry<Place, Element> entry : occurrences.getOrDefault(uriOf(params), List.of())) {
            Place p = entry.getKey();
            if (p.line() == line && p.character() <= character && character <= p.character() + p.length()) {
                return entry.getValue();
            }
        }
        return null;
    }

    static Object references(Map<String, Object> params) {
        Element element = at(params);
        if (element == null) return List.of();
        return uses.getOrDefault(element, List.of()).stream().map(JavacRefs::location).collect(Collectors.toList());
    }

    static Object definition(Map<String, Object> params) {
        Element element = at(params);
        Place declared = element == null ? null : declarations.get(element);
        return declared == null ? List.of() : List.of(location(declared));
    }

    static Map<String, Object> location(Place p) {
        return Map.of("uri", p.uri(), "range", range(p.line(), p.character(), p.line(), p.character() + p.length()));
    }

    static Map<String, Object> range(int l1, int c1, int l2, int c2) {
        return Map.of("start", Map.of("line", l1, "character", c1), "end", Map.of("line", l2, "character", c2));
    }

    /** Parse and attribute every source file, then index what each name binds to. */
    static void load(List<Path> roots) throws IOException {
        List<File> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> files.add(p.toFile()));
            }
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager manager = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        JavacTask task = (JavacTask) compiler.getTask(null, manager, diagnostics,
                List.of("-proc:none", "-Xlint:none", "-nowarn"), null, manager.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors++;
                System.err.println(d);
            }
        }
        Trees trees = Trees.instance(task);
        for (CompilationUnitTree unit : units) {
            String text = unit.getSourceFile().getCharContent(true).toString();
            List<Integer> starts = new ArrayList<>(List.of(0));
            for (int i = 0; i < text.length(); i++) if (text.charAt(i) == '\n') starts.add(i + 1);
            String uri = unit.getSourceFile().toUri().toString();
            Source source = new Source(uri, text, starts.stream().mapToInt(Integer::intValue).toArray());
            sources.put(uri, source);
            new Indexer(trees, unit, source).scan(unit, null);
        }
        for (List<Map.Entry<Place, Element>> list : occurrences.values()) {
            list.sort(Comparator.comparingInt((Map.Entry<Place, Element> e) -> e.getKey().line())
                    .thenComparingInt(e -> e.getKey().character()));
        }
    }

    /** Records every declaration and every name javac bound to an element. */
    static final class Indexer extends TreePathScanner<Void, Void> {
        final Trees trees;
        final CompilationUnitTree unit;
        final Source source;
        final SourcePositions positions;
        final Deque<List<Object>> children = new ArrayDeque<>();

        Indexer(Trees trees, CompilationUnitTree unit, Source source) {
            this.trees = trees;
            this.unit = unit;
            this.source = source;
            this.positions = trees.getSourcePositions();
            List<Object> top = new ArrayList<>();
            symbols.put(source.uri(), top);
            children.push(top);
        }

        void use(Element element, int offset, String name) {
            if (element == null || offset < 0 || name.isEmpty()) return;
            // Only where the name is written (not a compiler-made `super()`).
            if (!source.text().startsWith(name, offset)) return;
            Place place = source.place(offset, name.length());
            uses.computeIfAbsent(element, e -> new ArrayList<>()).add(place);
            occurrences.computeIfAbsent(source.uri(), u -> new ArrayList<>()).add(Map.entry(place, element));
        }

        /** A declaration: its name is where javac's tree says it is. */
        void declare(Tree tree, String name, int kind, String detail, Runnable inside) {
            Element element = trees.getElement(getCurrentPath());
            int offset = nameAfter(((JCTree) tree).pos, name);
            if (element == null || name.isEmpty() || !source.text().startsWith(name, offset)) {
                if (inside != null) inside.run();
                return;
            }
            Place place = source.place(offset, name.length());
            declarations.put(element, place);
            occurrences.computeIfAbsent(source.uri(), u -> new ArrayList<>()).add(Map.entry(place, element));
            long start = positions.getStartPosition(unit, tree), end = positions.getEndPosition(unit, tree);
            Place from = source.place((int) Math.max(start, 0), 0), to = source.place((int) Math.max(end, start), 0);
            List<Object> mine = new ArrayList<>();
            Map<String, Object> symbol = new LinkedHashMap<>();
            symbol.put("name", name);
            symbol.put("kind", kind);
            symbol.put("detail", detail);
            symbol.put("range", range(from.line(), from.character(), to.line(), to.character()));
            symbol.put("selectionRange", range(place.line(), place.character(), place.line(), place.character() + name.length()));
            symbol.put("children", mine);
            children.peek().add(symbol);
            children.push(mine);
            try {
                if (inside != null) inside.run();
            } finally {
                children.pop();
            }
        }

        /** Where `name` is written at or after `from` (a type's tree starts at
         *  its `class` keyword), as a whole word before the body. */
        int nameAfter(int from, String name) {
            String text = source.text();
            for (int at = Math.max(from, 0); at >= 0 && at < text.length(); at++) {
                char c = text.charAt(at);
                if (c == '{' || c == ';' || c == '(') break;
                if (text.startsWith(name, at)
                        && (at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1)))
                        && (at + name.length() >= text.length()
                            || !Character.isJavaIdentifierPart(text.charAt(at + name.length())))) {
                    return at;
                }
            }
            return from;
        }

        static String modifiers(ModifiersTree modifiers) {
            return modifiers.getFlags().stream().map(Modifier::toString).collect(Collectors.joining(" "));
        }

        @Override
        public Void visitClass(ClassTree tree, Void unused) {
            int kind = switch (tree.getKind()) {
                case INTERFACE, ANNOTATION_TYPE -> 11;
                case ENUM -> 10;
                default -> 5;
            };
            declare(tree, tree.getSimpleName().toString(), kind, modifiers(tree.getModifiers()),
                    () -> super.visitClass(tree, null));
            return null;
        }

        @Override
        public Void visitMethod(MethodTree tree, Void unused) {
            // A default constructor javac made: not in the source.
            if (positions.getEndPosition(unit, tree) == Diagnostic.NOPOS) return null;
            boolean constructor = tree.getName().contentEquals("<init>");
            String name = constructor ? ((ClassTree) getCurrentPath().getParentPath().getLeaf()).getSimpleName().toString()
                    : tree.getName().toString();
            String detail = modifiers(tree.getModifiers()) + (constructor ? " constructor" : "");
            declare(tree, name, constructor ? 9 : 6, detail.trim(), () -> super.visitMethod(tree, null));
            return null;
        }

        @Override
        public Void visitVariable(VariableTree tree, Void unused) {
            Element element = trees.getElement(getCurrentPath());
            if (element != null && (element.getKind() == ElementKind.FIELD || element.getKind() == ElementKind.ENUM_CONSTANT)) {
                boolean constant = element.getKind() == ElementKind.ENUM_CONSTANT;
                declare(tree, tree.getName().toString(), constant ? 22 : 8, modifiers(tree.getModifiers()),
                        () -> super.visitVariable(tree, null));
                return null;
            }
            return super.visitVariable(tree, null);
        }

        @Override
        public Void visitIdentifier(IdentifierTree tree, Void unused) {
            use(trees.getElement(getCurrentPath()), (int) positions.getStartPosition(unit, tree), tree.getName().toString());
            return super.visitIdentifier(tree, null);
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
            String name = tree.getIdentifier().toString();
            long end = positions.getEndPosition(unit, tree);
            use(trees.getElement(getCurrentPath()), (int) (end - name.length()), name);
            return super.visitMemberSelect(tree, null);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
            String name = tree.getName().toString();
            long end = positions.getEndPosition(unit, tree);
            if (!name.equals("<init>")) use(trees.getElement(getCurrentPath()), (int) (end - name.length()), name);
            return super.visitMemberReference(tree, null);
        }

        /** `new T(..)` uses T's constructor, written as T's name. */
        @Override
        public Void visitNewClass(NewClassTree tree, Void unused) {
            Element constructor = trees.getElement(getCurrentPath());
            Tree type = tree.getIdentifier();
            if (type instanceof ParameterizedTypeTree parameterized) type = parameterized.getType();
            String name = type instanceof IdentifierTree id ? id.getName().toString()
                    : type instanceof MemberSelectTree select ? select.getIdentifier().toString() : "";
            long end = positions.getEndPosition(unit, type);
            if (constructor != null && tree.getClassBody() == null) use(constructor, (int) (end - name.length()), name);
            return super.visitNewClass(tree, null);
        }
    }

    /** Just enough JSON: parse one value; write maps, lists, strings, numbers, booleans, null. */
    static final class Json {
        final String s;
        int i = 0;

        Json(String s) { this.s = s; }

        Object value() {
            skip();
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> map = new LinkedHashMap<>();
                skip();
                if (s.charAt(i) == '}') { i++; return map; }
                while (true) {
                    skip();
                    String key = string();
                    skip();
                    i++; // ':'
                    map.put(key, value());
                    skip();
                    if (s.charAt(i++) == '}') return map;
                }
            }
            if (c == '[') {
                i++;
                List<Object> list = new ArrayList<>();
                skip();
                if (s.charAt(i) == ']') { i++; return list; }
                while (true) {
                    list.add(value());
                    skip();
                    if (s.charAt(i++) == ']') return list;
                }
            }
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return true; }
            if (s.startsWith("false", i)) { i += 5; return false; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String number = s.substring(start, i);
            return number.contains(".") || number.contains("e") || number.contains("E")
                    ? (Object) Double.parseDouble(number) : (Object) Long.parseLong(number);
        }

        void skip() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

        String string() {
            StringBuilder out = new StringBuilder();
            i++; // opening quote
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return out.toString();
                if (c != '\\') { out.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> { out.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                    default -> out.append(e);
                }
            }
        }

        static String write(Object v) {
            StringBuilder out = new StringBuilder();
            write(v, out);
            return out.toString();
        }

        static void write(Object v, StringBuilder out) {
            if (v == null) out.append("null");
            else if (v instanceof String str) {
                out.append('"');
                for (char c : str.toCharArray()) {
                    switch (c) {
                        case '"' -> out.append("\\\"");
                        case '\\' -> out.append("\\\\");
                        case '\n' -> out.append("\\n");
                        case '\r' -> out.append("\\r");
                        case '\t' -> out.append("\\t");
                        default -> { if (c < 0x20) out.append(String.format("\\u%04x", (int) c)); else out.append(c); }
                    }
                }
                out.append('"');
            } else if (v instanceof Map<?, ?> map) {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) out.append(',');
                    first = false;
                    write(e.getKey().toString(), out);
                    out.append(':');
                    write(e.getValue(), out);
                }
                out.append('}');
            } else if (v instanceof Collection<?> list) {
                out.append('[');
                boolean first = true;
                for (Object o : list) {
                    if (!first) out.append(',');
                    first = false;
                    write(o, out);
                }
                out.append(']');
            } else out.append(v);
        }
    }
}
