; Uses of names shared by JavaScript, TypeScript and TSX. The reference is
; tagged @reference.<kind> and its name is @name; @qualifier is the path
; before a name and @receiver marks a name reached through a value. The
; first pattern that captures a name wins: the dialect's own patterns
; (typescript/, javascript/) come before these, and the catch-alls are last.

; `require("m")` is an import, not a call.
((call_expression
  function: (identifier) @name
  arguments: (arguments . (string) .)) @reference.ignore
  (#eq? @name "require"))

; Calls and `new`.
(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)) @reference.call

; Writes.
(assignment_expression left: (identifier) @name) @reference.write
(augmented_assignment_expression left: (identifier) @name) @reference.write
(update_expression argument: (identifier) @name) @reference.write
(assignment_expression
  left: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.write
(augmented_assignment_expression
  left: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.write
(update_expression
  argument: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.write

; Imports and re-exports name what another module exports. In `a as b` both
; names refer to it (as tsserver counts them; a rename changes only `a`). The
; local names default and namespace imports bind are declarations, and so is
; the alias of a local `export { a as b }`, which no import resolves.
(import_specifier alias: (identifier) @name) @reference.import
(import_specifier name: (identifier) @name) @reference.import
(import_clause (identifier) @name) @reference.ignore
(namespace_import (identifier) @name) @reference.ignore
(namespace_export (_) @name) @reference.ignore
(export_statement
  (export_clause (export_specifier alias: (_) @name))
  source: (_)) @reference.import
(export_specifier alias: (_) @name) @reference.ignore
(export_statement
  (export_clause (export_specifier name: (identifier) @name))
  source: (_)) @reference.import
; A named function expression's name is visible only inside itself.
(function_expression name: (identifier) @name) @reference.ignore

; Properties read by destructuring a value (`const { kind, value } = this`,
; `const { a: x } = options`): members of the value's type, which is their
; receiver. A shorthand also declares the local of that name. Not the
; names a `require("m")` destructures: those are imports.
(variable_declarator
  name: (object_pattern
    (shorthand_property_identifier_pattern) @name @reference.reference)
  value: [
    (this) (identifier) (member_expression) (subscript_expression)
    (parenthesized_expression) (new_expression)
    (call_expression function: (member_expression))
  ] @receiver)
(variable_declarator
  name: (object_pattern
    (pair_pattern key: (property_identifier) @name) @reference.reference)
  value: [
    (this) (identifier) (member_expression) (subscript_expression)
    (parenthesized_expression) (new_expression)
    (call_expression function: (member_expression))
  ] @receiver)
((variable_declarator
  name: (object_pattern
    (shorthand_property_identifier_pattern) @name @reference.reference)
  value: (call_expression function: (identifier) @_callee) @receiver)
  (#not-eq? @_callee "require"))
((variable_declarator
  name: (object_pattern
    (pair_pattern key: (property_identifier) @name) @reference.reference)
  value: (call_expression function: (identifier) @_callee) @receiver)
  (#not-eq? @_callee "require"))
(variable_declarator
  name: (object_pattern
    (object_assignment_pattern
      left: (shorthand_property_identifier_pattern) @name) @reference.reference)
  value: [
    (this) (identifier) (member_expression) (subscript_expression)
    (parenthesized_expression) (new_expression)
    (call_expression function: (member_expression))
  ] @receiver)
((variable_declarator
  name: (object_pattern
    (object_assignment_pattern
      left: (shorthand_property_identifier_pattern) @name) @reference.reference)
  value: (call_expression function: (identifier) @_callee) @receiver)
  (#not-eq? @_callee "require"))

; An object literal's keys (`{ kind: "array" }`) are properties of the type
; the literal is given to, which the source does not name there: member
; references without a known receiver (labelled guesses).
(object
  (pair key: (property_identifier) @name) @reference.write) @receiver
; So is the name of a method written in one (`{ override(ctx) { .. } }`),
; which also declares it.
(object
  (method_definition name: (property_identifier) @name) @reference.write) @receiver

; A shorthand key (`{ method, body }`) is the property of the literal's
; type and, at the same bytes, a read of the value of that name.
(object
  (shorthand_property_identifier) @name @shorthand @reference.write) @receiver

; Member access and bare names.
(member_expression
  object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) @reference.reference
(shorthand_property_identifier) @name @reference.reference
(identifier) @name @reference.reference
