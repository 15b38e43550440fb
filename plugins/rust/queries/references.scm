; Uses of names. The reference is tagged @reference.<kind> and its name is
; @name; @qualifier is the path before a name and @receiver marks a name
; reached through a value. The first pattern that captures a name wins, so
; the specific patterns come first and the catch-alls last.

; Calls
(call_expression
  function: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.call
(call_expression
  function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: [
      (identifier) @name
      (scoped_identifier path: (_) @qualifier name: (identifier) @name)
      (field_expression value: (_) @receiver field: (field_identifier) @name)
    ])) @reference.call
(call_expression function: (identifier) @name) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(macro_invocation macro: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.call

; Names brought in by `use` (the import itself is reported by imports()).
; A `use_list` only occurs in `use` trees, at any depth.
(use_declaration
  argument: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.import
(use_declaration argument: (identifier) @name) @reference.import
(use_as_clause
  path: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.import
(use_as_clause path: (identifier) @name) @reference.import
(use_list
  (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.import
(use_list (identifier) @name) @reference.import

; Trait implementations
(impl_item trait: (type_identifier) @name) @reference.implements
(impl_item trait: (generic_type type: (type_identifier) @name)) @reference.implements
(impl_item trait: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)) @reference.implements
(impl_item trait: (generic_type type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name))) @reference.implements

; Supertraits (`trait A: B + m::C<T>`); bounds on generic parameters are
; plain type references.
(trait_item
  bounds: (trait_bounds
    [
      (type_identifier) @name
      (generic_type type: (type_identifier) @name)
      (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
      (generic_type type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name))
    ])) @reference.extends

; A named argument of a formatting macro (`format!("{a}", a = 1)`): the
; arguments of such macros are parsed as the elements of an array.
(array_expression (assignment_expression left: (identifier) @name) @reference.ignore)

; Writes
(assignment_expression left: (identifier) @name) @reference.write
(compound_assignment_expr left: (identifier) @name) @reference.write
(assignment_expression left: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.write
(compound_assignment_expr left: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.write
(assignment_expression left: (unary_expression (identifier) @name)) @reference.write
(compound_assignment_expr left: (unary_expression (identifier) @name)) @reference.write

; Fields named in struct literals and struct patterns (`Span { start: 0,
; .. }`, `Span { start: s, .. } = span`): members of the literal's type,
; which is their receiver. A shorthand initialiser (`Span { start }`) names
; both the field and the local it reads: the field is captured on the
; initialiser node (the same bytes, another node), the local by the
; catch-all below. A shorthand in a pattern (`let Span { start, .. } = s`)
; declares a local and reads the field.
(struct_expression
  name: [(type_identifier) (scoped_type_identifier)] @receiver
  body: (field_initializer_list
    (field_initializer field: (field_identifier) @name) @reference.write))
(struct_expression
  name: [(type_identifier) (scoped_type_identifier)] @receiver
  body: (field_initializer_list
    (shorthand_field_initializer) @name @reference.write))
(struct_pattern
  type: [(type_identifier) (scoped_type_identifier)] @receiver
  (field_pattern name: (field_identifier) @name) @reference.reference)
(struct_pattern
  type: [(type_identifier) (scoped_type_identifier)] @receiver
  (field_pattern name: (shorthand_field_identifier) @name) @reference.reference)

; Lifetimes and loop labels (`'a`, `'outer`) are not names of items or
; bindings: claim them so that the catch-alls below skip them.
(lifetime (identifier) @name) @reference.ignore
(label (identifier) @name) @reference.ignore

; `impl Deref for Guard { type Target = Inner; }`: a `Guard` reaches an
; `Inner`'s members it lacks itself (auto-deref), as a supertype's. Held by
; the `Target` item, a member of the `impl`.
((impl_item
  trait: [
    (type_identifier) @_trait
    (scoped_type_identifier name: (type_identifier) @_trait)
  ]
  body: (declaration_list
    (type_item
      name: (type_identifier) @_target
      type: [
        (type_identifier) @name
        (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
        (generic_type type: (type_identifier) @name)
        (generic_type type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name))
      ]) @reference.extends))
  (#eq? @_trait "Deref")
  (#eq? @_target "Target"))

; Types
(scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name) @reference.type
(type_identifier) @name @reference.type

; Struct literals and patterns
(struct_expression name: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)) @reference.type

; Paths in expressions
(scoped_identifier path: (_) @qualifier name: (identifier) @name) @reference.reference
(field_expression value: (_) @receiver field: (field_identifier) @name) @reference.reference
(identifier) @name @reference.reference
