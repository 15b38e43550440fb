// A minimal LSP server over Roslyn, the C# truth of bench/accuracy: it loads
// the projects named on the command line (old-style .csproj: Compile items,
// framework References, ProjectReferences, the Release DefineConstants) into
// an AdhocWorkspace with the mono framework assemblies, reports their compile
// errors on stderr and in serverInfo, then answers, over stdio with
// Content-Length framing:
//
//   initialize, shutdown, exit
//   textDocument/documentSymbol  hierarchical: namespaces, types, members
//                                (detail: the modifiers, "constructor")
//   textDocument/references      SymbolFinder.FindReferencesAsync; every
//                                location carries "direct": false when Roslyn
//                                found it only for a related symbol it
//                                cascaded to (overrides, implementations,
//                                constructors of a type...), with "related":
//                                that symbol and where it is declared
//   textDocument/definition      the declarations of the symbol the name at
//                                the position binds to
//
//   mono RoslynRefs.exe --framework /usr/lib/mono/4.5 --csproj A.csproj [--csproj B.csproj ...]
//
// Compiled with mcs against the Roslyn 3.7.0 netstandard2.0 assemblies
// (bench/accuracy/run.sh); RoslynRefs.exe.config redirects their
// dependencies to the versions that run.sh puts beside it.

using System;
using System.Collections.Generic;
using System.Composition.Hosting;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using System.Threading.Tasks;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Host.Mef;
using Microsoft.CodeAnalysis.Text;

static class RoslynRefs
{
    static Solution solution;
    static readonly Dictionary<string, DocumentId> byPath = new Dictionary<string, DocumentId>();
    static string serverVersion = "";

    static int Main(string[] args)
    {
        string framework = "/usr/lib/mono/4.5";
        var csprojs = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--framework") framework = args[++i];
            else if (args[i] == "--csproj") csprojs.Add(Path.GetFullPath(args[++i]));
            else { Console.Error.WriteLine("unknown argument " + args[i]); return 2; }
        }
        if (csprojs.Count == 0) { Console.Error.WriteLine("no --csproj"); return 2; }
        var workspace = new AdhocWorkspace(Host());
        solution = Load(workspace, csprojs, framework);
        int errors = 0;
        foreach (var project in solution.Projects)
        {
            var compilation = project.GetCompilationAsync().Result;
            var diagnostics = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
            errors += diagnostics.Count;
            Console.Error.WriteLine(string.Format("[roslyn] {0}: {1} documents, {2} compile errors",
                project.Name, project.DocumentIds.Count, diagnostics.Count));
            foreach (var d in diagnostics.Take(20)) Console.Error.WriteLine("  " + d);
        }
        var roslyn = typeof(Compilation).Assembly.GetName().Version;
        var mono = Type.GetType("Mono.Runtime");
        string monoVersion = mono == null ? Environment.Version.ToString()
            : (string)mono.GetMethod("GetDisplayName", BindingFlags.NonPublic | BindingFlags.Static).Invoke(null, null);
        serverVersion = string.Format("Roslyn {0} (Microsoft.CodeAnalysis, SymbolFinder) on mono {1}; {2} compile errors",
            roslyn, monoVersion.Split(' ')[0], errors);
        Console.Error.WriteLine("[roslyn] " + serverVersion);
        return Serve();
    }

    // A MEF host of Roslyn's workspace assemblies without the SQLite
    // persistent storage types (their SQLitePCLRaw dependency is absent and
    // the default host fails on them).
    static MefHostServices Host()
    {
        var types = new List<Type>();
        foreach (var assembly in MefHostServices.DefaultAssemblies)
        {
            Type[] all;
            try { all = assembly.GetTypes(); }
            catch (ReflectionTypeLoadException e) { all = e.Types.Where(t => t != null).ToArray(); }
            types.AddRange(all.Where(t => (t.Namespace ?? "").IndexOf("SQLite", StringComparison.Ordinal) < 0));
        }
        var container = new ContainerConfiguration().WithParts(types).CreateContainer();
        return MefHostServices.Create(container);
    }

    static Solution Load(AdhocWorkspace workspace, List<string> csprojs, string framework)
    {
        var ids = csprojs.ToDictionary(p => p, p => ProjectId.CreateNewId(Path.GetFileNameWithoutExtension(p)));
        var s = workspace.CurrentSolution;
        foreach (var csproj in csprojs)
        {
            var dir = Path.GetDirectoryName(csproj);
            var xml = XDocument.Load(csproj);
            var items = xml.Descendants().Where(e => e.Name.LocalName == "ItemGroup").SelectMany(e => e.Elements()).ToList();
            Func<string, string> local = p => Path.GetFullPath(Path.Combine(dir, p.Replace('\\', '/')));
            string assemblyName = xml.Descendants().Where(e => e.Name.LocalName == "AssemblyName").Select(e => e.Value.Trim()).FirstOrDefault()
                ?? Path.GetFileNameWithoutExtension(csproj);
            // The Release configuration's symbols, else the first group's.
            var defineGroups = xml.Descendants().Where(e => e.Name.LocalName == "DefineConstants").ToList();
            var release = defineGroups.FirstOrDefault(e => ((string)e.Parent.Attribute("Condition") ?? "").Contains("Release"))
                ?? defineGroups.FirstOrDefault();
            var defines = (release == null ? "" : release.Value).Split(new[] { ';', ',', ' ', '\n', '\r', '\t' }, StringSplitOptions.RemoveEmptyEntries);
            var references = new List<MetadataReference>();
            var names = new List<string> { "mscorlib" };
            names.AddRange(items.Where(e => e.Name.LocalName == "Reference")
                .Select(e => ((string)e.Attribute("Include")).Split(',')[0].Trim()));
            foreach (var name in names.Distinct())
            {
                var path = new[] { Path.Combine(framework, name + ".dll"), Path.Combine(framework, "Facades", name + ".dll") }
                    .FirstOrDefault(File.Exists);
                if (path == null) { Console.Error.WriteLine("[roslyn] " + csproj + ": no assembly " + name); continue; }
                references.Add(MetadataReference.CreateFromFile(path));
            }
            var parse = new CSharpParseOptions(LanguageVersion.Latest, DocumentationMode.Parse, SourceCodeKind.Regular, defines);
            var options = new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe: true);
            var id = ids[csproj];
            var projectReferences = items.Where(e => e.Name.LocalName == "ProjectReference")
                .Select(e => local((string)e.Attribute("Include")))
                .Where(ids.ContainsKey).Select(p => new ProjectReference(ids[p]));
            s = s.AddProject(ProjectInfo.Create(id, VersionStamp.Default, Path.GetFileNameWithoutExtension(csproj), assemblyName,
                LanguageNames.CSharp, filePath: csproj, compilationOptions: options, parseOptions: parse,
                metadataReferences: references, projectReferences: projectReferences));
            foreach (var file in items.Where(e => e.Name.LocalName == "Compile").Select(e => local((string)e.Attribute("Include"))).Distinct())
            {
                if (!File.Exists(file)) { Console.Error.WriteLine("[roslyn] missing " + file); continue; }
                var doc = DocumentId.CreateNewId(id, file);
                s = s.AddDocument(DocumentInfo.Create(doc, Path.GetFileName(file), filePath: file,
                    loader: TextLoader.From(TextAndVersion.Create(SourceText.From(File.ReadAllText(file), Encoding.UTF8), VersionStamp.Default, file))));
                if (!byPath.ContainsKey(file)) byPath[file] = doc;
            }
        }
        return s;
    }

    // --- LSP over stdio

    static int Serve()
    {
        var input = Console.OpenStandardInput();
        var output = Console.OpenStandardOutput();
        while (true)
        {
            var message = Read(input);
            if (message == null) return 0;
            var request = (Dictionary<string, object>)Json.Parse(message);
            object idValue;
            bool hasId = request.TryGetValue("id", out idValue);
            string method = (string)request["method"];
            object parameters;
            request.TryGetValue("params", out parameters);
            if (method == "exit") return 0;
            if (!hasId) continue;
            object result = null;
            Dictionary<string, object> error = null;
            try { result = Handle(method, parameters as Dictionary<string, object>); }
            catch (Exception e)
            {
                var inner = e is AggregateException ? ((AggregateException)e).Flatten().InnerException : e;
                error = new Dictionary<string, object> { { "code", -32603 }, { "message", inner.ToString() } };
            }
            var reply = new Dictionary<string, object> { { "jsonrpc", "2.0" }, { "id", idValue } };
            if (error != null) reply["error"] = error; else reply["result"] = result;
            var body = Encoding.UTF8.GetBytes(Json.Write(reply));
            var head = Encoding.ASCII.GetBytes("Content-Length: " + body.Length + "\r\n\r\n");
            output.Write(head, 0, head.Length);
            output.Write(body, 0, body.Length);
            output.Flush();
        }
    }

    static string Read(Stream input)
    {
        int length = -1;
        while (true)
        {
            var line = new StringBuilder();
            int b;
            while ((b = input.ReadByte()) != '\n')
            {
                if (b < 0) return null;
                if (b != '\r') line.Append((char)b);
            }
            if (line.Length == 0) break;
            var text = line.ToString();
            if (text.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
                length = int.Parse(text.Substring(15).Trim());
        }
        var buffer = new byte[length];
        int read = 0;
        while (read < length)
        {
            int n = input.Read(buffer, read, length - read);
            if (n <= 0) return null;
            read += n;
        }
        return Encoding.UTF8.GetString(buffer);
    }

    static object Handle(string method, Dictionary<string, object> p)
    {
        switch (method)
        {
            case "initialize":
                return new Dictionary<string, object> {
                    { "capabilities", new Dictionary<string, object> {
                        { "documentSymbolProvider", true }, { "referencesProvider", true }, { "definitionProvider", true } } },
                    { "serverInfo", new Dictionary<string, object> { { "name", "RoslynRefs" }, { "version", serverVersion } } } };
            case "shutdown":
                return null;
            case "textDocument/documentSymbol":
                return DocumentSymbols(DocumentOf(p));
            case "textDocument/references":
                return References(DocumentOf(p), PositionOf(p));
            case "textDocument/definition":
                return Definition(DocumentOf(p), PositionOf(p));
            default:
                throw new InvalidOperationException("unsupported method " + method);
        }
    }

    static Document DocumentOf(Dictionary<string, object> p)
    {
        var uri = (string)((Dictionary<string, object>)p["textDocument"])["uri"];
        var path = Path.GetFullPath(Uri.UnescapeDataString(new Uri(uri).AbsolutePath));
        DocumentId id;
        if (!byPath.TryGetValue(path, out id)) throw new InvalidOperationException("not in any project: " + path);
        return solution.GetDocument(id);
    }

    static LinePosition PositionOf(Dictionary<string, object> p)
    {
        var position = (Dictionary<string, object>)p["position"];
        return new LinePosition(Convert.ToInt32(position["line"]), Convert.ToInt32(position["character"]));
    }

    static Dictionary<string, object> Range(LinePositionSpan span)
    {
        return new Dictionary<string, object> {
            { "start", new Dictionary<string, object> { { "line", span.Start.Line }, { "character", span.Start.Character } } },
            { "end", new Dictionary<string, object> { { "line", span.End.Line }, { "character", span.End.Character } } } };
    }

    static Dictionary<string, object> LocationJson(Location location)
    {
        var span = location.GetLineSpan();
        return new Dictionary<string, object> { { "uri", new Uri(span.Path).AbsoluteUri }, { "range", Range(span.Span) } };
    }

    // --- documentSymbol

    static List<object> DocumentSymbols(Document document)
    {
        var root = document.GetSyntaxRootAsync().Result;
        var text = document.GetTextAsync().Result;
        var top = new List<object>();
        Walk(root, text, top);
        return top;
    }

    // LSP SymbolKind numbers.
    const int Namespace = 3, Class = 5, Method = 6, Property = 7, Field = 8, Constructor = 9, Enum = 10,
        Interface = 11, Constant = 14, EnumMember = 22, Struct = 23, Event = 24, Operator = 25;

    static void Walk(SyntaxNode node, SourceText text, List<object> into)
    {
        foreach (var child in node.ChildNodes())
        {
            var found = new List<Tuple<SyntaxToken, int>>();
            var member = child as MemberDeclarationSyntax;
            if (child is NamespaceDeclarationSyntax)
            {
                var name = ((NamespaceDeclarationSyntax)child).Name;
                var symbol = Symbol(name.ToString(), Namespace, "", child.Span, name.Span, text);
                into.Add(symbol);
                Walk(child, text, (List<object>)symbol["children"]);
                continue;
            }
            if (child is ClassDeclarationSyntax) found.Add(Tuple.Create(((ClassDeclarationSyntax)child).Identifier, Class));
            else if (child is StructDeclarationSyntax) found.Add(Tuple.Create(((StructDeclarationSyntax)child).Identifier, Struct));
            else if (child is InterfaceDeclarationSyntax) found.Add(Tuple.Create(((InterfaceDeclarationSyntax)child).Identifier, Interface));
            else if (child is EnumDeclarationSyntax) found.Add(Tuple.Create(((EnumDeclarationSyntax)child).Identifier, Enum));
            else if (child is DelegateDeclarationSyntax) found.Add(Tuple.Create(((DelegateDeclarationSyntax)child).Identifier, Class));
            else if (child is MethodDeclarationSyntax) found.Add(Tuple.Create(((MethodDeclarationSyntax)child).Identifier, Method));
            else if (child is ConstructorDeclarationSyntax) found.Add(Tuple.Create(((ConstructorDeclarationSyntax)child).Identifier, Constructor));
            else if (child is DestructorDeclarationSyntax) found.Add(Tuple.Create(((DestructorDeclarationSyntax)child).Identifier, Method));
            else if (child is PropertyDeclarationSyntax) found.Add(Tuple.Create(((PropertyDeclarationSyntax)child).Identifier, Property));
            else if (child is EventDeclarationSyntax) found.Add(Tuple.Create(((EventDeclarationSyntax)child).Identifier, Event));
            else if (child is EnumMemberDeclarationSyntax) found.Add(Tuple.Create(((EnumMemberDeclarationSyntax)child).Identifier, EnumMember));
            else if (child is IndexerDeclarationSyntax) found.Add(Tuple.Create(((IndexerDeclarationSyntax)child).ThisKeyword, Operator));
            else if (child is OperatorDeclarationSyntax) found.Add(Tuple.Create(((OperatorDeclarationSyntax)child).OperatorToken, Operator));
            else if (child is ConversionOperatorDeclarationSyntax) found.Add(Tuple.Create(((ConversionOperatorDeclarationSyntax)child).Type.GetFirstToken(), Operator));
            else if (child is BaseFieldDeclarationSyntax)
            {
                var field = (BaseFieldDeclarationSyntax)child;
                int kind = child is EventFieldDeclarationSyntax ? Event
                    : field.Modifiers.Any(SyntaxKind.ConstKeyword) ? Constant : Field;
                foreach (var v in field.Declaration.Variables) found.Add(Tuple.Create(v.Identifier, kind));
            }
            else continue;
            string detail = member == null ? "" : string.Join(" ", member.Modifiers.Select(m => m.Text));
            foreach (var f in found)
            {
                var symbol = Symbol(f.Item1.ValueText, f.Item2, detail, child.Span, f.Item1.Span, text);
                into.Add(symbol);
                if (child is BaseTypeDeclarationSyntax) Walk(child, text, (List<object>)symbol["children"]);
            }
        }
    }

    static Dictionary<string, object> Symbol(string name, int kind, string detail, TextSpan span, TextSpan selection, SourceText text)
    {
        return new Dictionary<string, object> {
            { "name", name }, { "kind", kind }, { "detail", detail },
            { "range", Range(text.Lines.GetLinePositionSpan(span)) },
            { "selectionRange", Range(text.Lines.GetLinePositionSpan(selection)) },
            { "children", new List<object>() } };
    }

    // --- references and definition

    static ISymbol SymbolAt(Document document, LinePosition position)
    {
        var text = document.GetTextAsync().Result;
        var model = document.GetSemanticModelAsync().Result;
        int offset = text.Lines.GetPosition(position);
        var token = model.SyntaxTree.GetRoot().FindToken(offset);
        for (var node = token.Parent; node != null; node = node.Parent)
        {
            var declared = model.GetDeclaredSymbol(node);
            if (declared != null && DeclaresAt(declared, token)) return declared;
            var info = model.GetSymbolInfo(node);
            var symbol = info.Symbol ?? info.CandidateSymbols.FirstOrDefault();
            if (symbol != null) return symbol;
            if (node is StatementSyntax || node is MemberDeclarationSyntax) break;
        }
        return SymbolFinder.FindSymbolAtPositionAsync(model, offset, solution.Workspace).Result;
    }

    static bool DeclaresAt(ISymbol symbol, SyntaxToken token)
    {
        return symbol.Locations.Any(l => l.IsInSource && l.SourceSpan == token.Span && l.SourceTree == token.SyntaxTree);
    }

    static bool Same(ISymbol a, ISymbol b)
    {
        return SymbolEqualityComparer.Default.Equals(a.OriginalDefinition, b.OriginalDefinition);
    }

    static string Where(ISymbol symbol)
    {
        var location = symbol.Locations.FirstOrDefault(l => l.IsInSource);
        if (location == null) return symbol.ToDisplayString();
        var span = location.GetLineSpan();
        return span.Path + ":" + (span.StartLinePosition.Line + 1);
    }

    static List<object> References(Document document, LinePosition position)
    {
        var symbol = SymbolAt(document, position);
        if (symbol == null) return new List<object>();
        var found = new Dictionary<string, Dictionary<string, object>>();
        foreach (var referenced in SymbolFinder.FindReferencesAsync(symbol, solution).Result)
        {
            bool direct = Same(referenced.Definition, symbol);
            foreach (var location in referenced.Locations)
            {
                if (location.IsImplicit || !location.Location.IsInSource) continue;
                var json = LocationJson(location.Location);
                var key = (string)json["uri"] + ":" + location.Location.SourceSpan.Start;
                Dictionary<string, object> existing;
                if (found.TryGetValue(key, out existing))
                {
                    if (direct) { existing["direct"] = true; existing.Remove("related"); }
                    continue;
                }
                json["direct"] = direct;
                var qualifier = Qualifier(location.Document, location.Location);
                if (qualifier != null) json["qualifier"] = qualifier;
                if (!direct) json["related"] = referenced.Definition.Kind + " " + referenced.Definition.ToDisplayString() + " at " + Where(referenced.Definition);
                found[key] = json;
            }
        }
        return found.Values.Cast<object>().ToList();
    }

    // For a name written `Q.name`: "type" when Q binds to a type or a
    // namespace, else "value" (bench/accuracy/categories.py).
    static string Qualifier(Document document, Location location)
    {
        var root = location.SourceTree.GetRoot();
        var name = root.FindToken(location.SourceSpan.Start).Parent;
        if (name is GenericNameSyntax || name is IdentifierNameSyntax)
        {
            ExpressionSyntax q = null;
            var parent = name.Parent;
            if (parent is MemberAccessExpressionSyntax && ((MemberAccessExpressionSyntax)parent).Name == name)
                q = ((MemberAccessExpressionSyntax)parent).Expression;
            else if (parent is QualifiedNameSyntax && ((QualifiedNameSyntax)parent).Right == name)
                return "type";
            else if (parent is MemberBindingExpressionSyntax)
                return "value";
            if (q == null) return null;
            if (q is ThisExpressionSyntax || q is BaseExpressionSyntax) return "value";
            var model = document.GetSemanticModelAsync().Result;
            var info = model.GetSymbolInfo(q);
            var symbol = info.Symbol ?? info.CandidateSymbols.FirstOrDefault();
            if (symbol == null) return null;
            return symbol is INamespaceOrTypeSymbol ? "type" : "value";
        }
        return null;
    }

    static List<object> Definition(Document document, LinePosition position)
    {
        var symbol = SymbolAt(document, position);
        if (symbol == null) return new List<object>();
        symbol = symbol.OriginalDefinition;
        return symbol.Locations.Where(l => l.IsInSource).Select(l => (object)LocationJson(l)).ToList();
    }
}

// JSON, as much as LSP messages need.
static class Json
{
    public static object Parse(string s)
    {
        int i = 0;
        var value = Value(s, ref i);
        return value;
    }

    static void Space(string s, ref int i)
    {
        while (i < s.Length && char.IsWhiteSpace(s[i])) i++;
    }

    static object Value(string s, ref int i)
    {
        Space(s, ref i);
        char c = s[i];
        if (c == '{')
        {
            var d = new Dictionary<string, object>();
            i++;
            Space(s, ref i);
            if (s[i] == '}') { i++; return d; }
            while (true)
            {
                Space(s, ref i);
                var key = (string)Value(s, ref i);
                Space(s, ref i);
                i++; // ':'
                d[key] = Value(s, ref i);
                Space(s, ref i);
                if (s[i++] == '}') return d;
            }
        }
        if (c == '[')
        {
            var l = new List<object>();
            i++;
            Space(s, ref i);
            if (s[i] == ']') { i++; return l; }
            while (true)
            {
                l.Add(Value(s, ref i));
                Space(s, ref i);
                if (s[i++] == ']') return l;
            }
        }
        if (c == '"')
        {
            var sb = new StringBuilder();
            i++;
            while (s[i] != '"')
            {
                if (s[i] == '\\')
                {
                    i++;
                    char e = s[i++];
                    switch (e)
                    {
                        case 'n': sb.Append('\n'); break;
                        case 't': sb.Append('\t'); break;
                        case 'r': sb.Append('\r'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'u': sb.Append((char)Convert.ToInt32(s.Substring(i, 4), 16)); i += 4; break;
                        default: sb.Append(e); break;
                    }
                }
                else sb.Append(s[i++]);
            }
            i++;
            return sb.ToString();
        }
        if (s.Substring(i).StartsWith("true")) { i += 4; return true; }
        if (s.Substring(i).StartsWith("false")) { i += 5; return false; }
        if (s.Substring(i).StartsWith("null")) { i += 4; return null; }
        int start = i;
        while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) i++;
        var number = s.Substring(start, i - start);
        long n;
        if (long.TryParse(number, out n)) return n;
        return double.Parse(number, System.Globalization.CultureInfo.InvariantCulture);
    }

    public static string Write(object value)
    {
        var sb = new StringBuilder();
        Write(value, sb);
        return sb.ToString();
    }

    static void Write(object value, StringBuilder sb)
    {
        if (value == null) sb.Append("null");
        else if (value is bool) sb.Append((bool)value ? "true" : "false");
        else if (value is string)
        {
            sb.Append('"');
            foreach (char c in (string)value)
            {
                if (c == '"') sb.Append("\\\"");
                else if (c == '\\') sb.Append("\\\\");
                else if (c < 0x20) sb.AppendFormat("\\u{0:x4}", (int)c);
                else sb.Append(c);
            }
            sb.Append('"');
        }
        else if (value is int || value is long) sb.Append(Convert.ToInt64(value));
        else if (value is IDictionary<string, object>)
        {
            sb.Append('{');
            bool first = true;
            foreach (var kv in (IDictionary<string, object>)value)
            {
                if (!first) sb.Append(',');
                first = false;
                Write(kv.Key, sb);
                sb.Append(':');
                Write(kv.Value, sb);
            }
            sb.Append('}');
        }
        else if (value is System.Collections.IEnumerable)
        {
            sb.Append('[');
            bool first = true;
            foreach (var item in (System.Collections.IEnumerable)value)
            {
                if (!first) sb.Append(',');
                first = false;
                Write(item, sb);
            }
            sb.Append(']');
        }
        else sb.Append(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture));
    }
}
