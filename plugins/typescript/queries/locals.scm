; Local bindings (@local.definition.<kind>) shared by JavaScript, TypeScript
; and TSX, and the nodes that bound their visibility (@local.scope). The
; dialect's own patterns (parameters) come before these. Module-level
; declarations are symbols, not locals, except destructured ones.

[
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
  (class_declaration)
  (class)
  (statement_block)
  (class_static_block)
  (switch_body)
  (for_statement)
  (for_in_statement)
  (catch_clause)
] @local.scope

; `x => ...`
(arrow_function parameter: (identifier) @local.definition.parameter)

; `catch (e)`, `for (const x of xs)`, `for (let i = 0; ...)`.
(catch_clause parameter: (identifier) @local.definition.variable)
(for_in_statement kind: _ left: (identifier) @local.definition.variable)
(for_statement
  initializer: [
    (lexical_declaration (variable_declarator name: (identifier) @local.definition.variable))
    (variable_declaration (variable_declarator name: (identifier) @local.definition.variable))
  ])

; `let`, `const` and `var` in blocks (static blocks have one too) and
; switch cases.
(statement_block
  [
    (lexical_declaration (variable_declarator name: (identifier) @local.definition.variable))
    (variable_declaration (variable_declarator name: (identifier) @local.definition.variable))
  ])
(switch_case
  [
    (lexical_declaration (variable_declarator name: (identifier) @local.definition.variable))
    (variable_declaration (variable_declarator name: (identifier) @local.definition.variable))
  ])
(switch_default
  [
    (lexical_declaration (variable_declarator name: (identifier) @local.definition.variable))
    (variable_declaration (variable_declarator name: (identifier) @local.definition.variable))
  ])

; Destructuring, wherever it binds.
(object_pattern (shorthand_property_identifier_pattern) @local.definition.pattern)
(object_pattern (pair_pattern value: (identifier) @local.definition.pattern))
(object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition.pattern)
(array_pattern (identifier) @local.definition.pattern)
(rest_pattern (identifier) @local.definition.pattern)
(assignment_pattern left: (identifier) @local.definition.pattern)
