; Local bindings (@local.definition.<kind>) and the nodes that bound their
; visibility (@local.scope). A binding whose pattern also captures
; @local.after becomes visible only after that node. The first pattern that
; captures a node wins.
;
; A pattern variable (`o instanceof Foo f`) is in scope where the condition
; is known true, which may reach past its `if` (`if (!(o instanceof Foo f))
; return;`), so `if_statement` is no scope: the binding lives in the block.

(method_declaration) @local.scope
(constructor_declaration) @local.scope
(compact_constructor_declaration) @local.scope
(lambda_expression) @local.scope
(block) @local.scope
(switch_block) @local.scope
(switch_rule) @local.scope
(for_statement) @local.scope
(enhanced_for_statement) @local.scope
(catch_clause) @local.scope
(try_with_resources_statement) @local.scope
(class_declaration) @local.scope
(interface_declaration) @local.scope
(record_declaration) @local.scope

; Parameters. A record's components are its fields (symbols), not locals.
(method_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @local.definition.parameter)))
(method_declaration
  parameters: (formal_parameters
    (spread_parameter (variable_declarator name: (identifier) @local.definition.parameter))))
(constructor_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @local.definition.parameter)))
(constructor_declaration
  parameters: (formal_parameters
    (spread_parameter (variable_declarator name: (identifier) @local.definition.parameter))))
(lambda_expression
  parameters: (formal_parameters (formal_parameter name: (identifier) @local.definition.parameter)))
(lambda_expression parameters: (identifier) @local.definition.parameter)
(lambda_expression parameters: (inferred_parameters (identifier) @local.definition.parameter))

; Local variables: visible after their declarator.
(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @local.definition.variable) @local.after)

; for (T x : xs): visible in the body, not in the collection expression.
(enhanced_for_statement name: (identifier) @local.definition.variable value: _ @local.after)

; try (T r = open()) and catch (E e)
(resource name: (identifier) @local.definition.variable value: _ @local.after)
(catch_formal_parameter name: (identifier) @local.definition.variable)

; Pattern variables: `o instanceof Foo f`, `case Foo f`, record patterns.
(instanceof_expression name: (identifier) @local.definition.pattern)
(type_pattern (identifier) @local.definition.pattern)
(record_pattern_component (identifier) @local.definition.pattern)

; Type parameters of a type, method or constructor, visible in it.
(type_parameter . (type_identifier) @local.definition.type_parameter)
