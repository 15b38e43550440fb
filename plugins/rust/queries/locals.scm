; Local bindings (@local.definition.<kind>) and the nodes that bound their
; visibility (@local.scope). A binding whose pattern also captures
; @local.after becomes visible only after that node: the right-hand side of
; `let x = x + 1;` and the iterator of `for x in x` read the outer `x`.
; The first pattern that captures a node wins, so specific patterns come
; before the general ones at the end.

(function_item) @local.scope
(function_signature_item) @local.scope
(closure_expression) @local.scope
(block) @local.scope
(match_arm) @local.scope
(for_expression) @local.scope
(if_expression) @local.scope
(while_expression) @local.scope
(struct_item) @local.scope
(enum_item) @local.scope
(union_item) @local.scope
(trait_item) @local.scope
(impl_item) @local.scope
(type_item) @local.scope

; Parameters
(parameter pattern: (identifier) @local.definition.parameter)
(parameter pattern: (mut_pattern (identifier) @local.definition.parameter))
(closure_parameters (identifier) @local.definition.parameter)
(closure_parameters (mut_pattern (identifier) @local.definition.parameter))
(closure_parameters (parameter pattern: (identifier) @local.definition.parameter))
(closure_parameters (parameter pattern: (mut_pattern (identifier) @local.definition.parameter)))

; `let`: visible after the statement.
(let_declaration pattern: (identifier) @local.definition.variable) @local.after
(let_declaration pattern: (mut_pattern (identifier) @local.definition.variable)) @local.after
((let_declaration
  pattern: [
    (tuple_pattern (identifier) @local.definition.variable)
    (tuple_pattern (mut_pattern (identifier) @local.definition.variable))
    (tuple_pattern (tuple_pattern (identifier) @local.definition.variable))
    (tuple_pattern (tuple_pattern (mut_pattern (identifier) @local.definition.variable)))
    (tuple_struct_pattern type: (_) (identifier) @local.definition.variable)
    (slice_pattern (identifier) @local.definition.variable)
    (ref_pattern (identifier) @local.definition.variable)
    (reference_pattern (identifier) @local.definition.variable)
    (struct_pattern (field_pattern name: (shorthand_field_identifier) @local.definition.variable))
    (struct_pattern (field_pattern pattern: (identifier) @local.definition.variable))
  ]) @local.after
  (#match? @local.definition.variable "^[a-z_]"))

; `if let` / `while let`: visible after the condition.
(let_condition pattern: (identifier) @local.definition.pattern) @local.after
((let_condition
  pattern: [
    (tuple_pattern (identifier) @local.definition.pattern)
    (tuple_struct_pattern type: (_) (identifier) @local.definition.pattern)
    (slice_pattern (identifier) @local.definition.pattern)
    (ref_pattern (identifier) @local.definition.pattern)
    (reference_pattern (identifier) @local.definition.pattern)
    (struct_pattern (field_pattern name: (shorthand_field_identifier) @local.definition.pattern))
    (struct_pattern (field_pattern pattern: (identifier) @local.definition.pattern))
  ]) @local.after
  (#match? @local.definition.pattern "^[a-z_]"))

; `for`: visible in the body, not in the iterator expression.
(for_expression pattern: (identifier) @local.definition.variable value: (_) @local.after)
(for_expression
  pattern: (mut_pattern (identifier) @local.definition.variable)
  value: (_) @local.after)
((for_expression
  pattern: [
    (tuple_pattern (identifier) @local.definition.variable)
    (tuple_struct_pattern type: (_) (identifier) @local.definition.variable)
    (reference_pattern (identifier) @local.definition.variable)
    (struct_pattern (field_pattern name: (shorthand_field_identifier) @local.definition.variable))
  ]
  value: (_) @local.after)
  (#match? @local.definition.variable "^[a-z_]"))

; Bindings anywhere in a pattern (match arms, nested patterns). A bare
; identifier in a pattern is a binding unless it names a constant or a unit
; variant (`None`, `MAX`), which Rust spells with a capital. A match arm's
; pattern is its first child; an identifier in its guard (`x if ready`) is a
; use, not a binding.
((match_pattern . (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
((tuple_pattern (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
((tuple_struct_pattern type: (_) (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
((slice_pattern (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
((or_pattern (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
((captured_pattern . (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))
(ref_pattern (identifier) @local.definition.pattern)
(reference_pattern (identifier) @local.definition.pattern)
(mut_pattern (identifier) @local.definition.pattern)
(field_pattern name: (shorthand_field_identifier) @local.definition.pattern)
((field_pattern pattern: (identifier) @local.definition.pattern)
  (#match? @local.definition.pattern "^[a-z_]"))

; Generic parameters
(type_parameters (type_parameter name: (type_identifier) @local.definition.type_parameter))
