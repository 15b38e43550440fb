; The declarations of a file. A pattern captures the declaring node as
; @definition.<tag> and its name as @name; the tag becomes the symbol's
; language kind, and its LSP kind through `Language::symbol_kind` (by
; default: function, method, class, struct, enum, interface, module,
; constant, variable, field, property...). @container names the declaration
; a member belongs to when nesting does not show it. Captures starting with
; `_` are for predicates (#eq?, #match?) and read by nobody.
;
; Run `lingo plugin test` on the fixtures, read the node kinds off
; `tree-sitter parse` or the grammar's node-types.json, then add patterns:
;
;   (function_declaration name: (identifier) @name) @definition.function
