; TypeScript and TSX references, placed before ../references.scm.

; `class A extends B<T> implements I, ns.J<T>`.
(extends_clause value: (identifier) @name) @reference.extends
(extends_clause
  value: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.extends
(implements_clause
  [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
  ]) @reference.implements
(implements_clause
  [
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (generic_type
      name: (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name))
  ]) @reference.implements

; `interface A extends B, ns.C<T>`.
(extends_type_clause
  type: [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
  ]) @reference.extends
(extends_type_clause
  type: [
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (generic_type
      name: (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name))
  ]) @reference.extends

; Properties a parameter destructures from the type stated for it (`({ a,
; b: x, c = 1 }: Props) => ..`): members of `Props`, whose annotation is
; their receiver (context.rs types it). Not of an object type written
; there, whose members no name states.
(required_parameter
  pattern: (object_pattern
    (shorthand_property_identifier_pattern) @name @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)
(required_parameter
  pattern: (object_pattern
    (pair_pattern key: (property_identifier) @name) @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)
(required_parameter
  pattern: (object_pattern
    (object_assignment_pattern
      left: (shorthand_property_identifier_pattern) @name) @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)
(optional_parameter
  pattern: (object_pattern
    (shorthand_property_identifier_pattern) @name @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)
(optional_parameter
  pattern: (object_pattern
    (pair_pattern key: (property_identifier) @name) @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)
(optional_parameter
  pattern: (object_pattern
    (object_assignment_pattern
      left: (shorthand_property_identifier_pattern) @name) @reference.reference)
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)]) @receiver)

; `import x = require("m")` declares `x`; `[key: string]: T` declares `key`.
(import_require_clause (identifier) @name) @reference.ignore
(index_signature name: (identifier) @name) @reference.ignore

; A property named by a string in a type: `T["key"]` is `T`'s member; a
; string literal type elsewhere (`"onBOL" | "onBUOL"` indexing a value) is
; a key of a type the source does not say, so a use of any member of the
; name, by name only: a rename lists it rather than leave it behind.
(lookup_type
  (_) @receiver
  (literal_type (string (string_fragment) @name))) @reference.reference
(literal_type (string (string_fragment) @name) @receiver) @reference.reference

; Types.
(nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @reference.type
(type_identifier) @name @reference.type
