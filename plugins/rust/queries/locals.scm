; Local bindings (@local.definition.<kind>) and the nodes that bound their
; visibility (@local.scope).

(function_item) @local.scope
(closure_expression) @local.scope
(block) @local.scope
(match_arm) @local.scope
(for_expression) @local.scope
(if_expression) @local.scope
(while_expression) @local.scope

(parameter pattern: (identifier) @local.definition.parameter)
(parameter pattern: (mut_pattern (identifier) @local.definition.parameter))
(closure_parameters (identifier) @local.definition.parameter)
(closure_parameters (parameter pattern: (identifier) @local.definition.parameter))
(let_declaration pattern: (identifier) @local.definition.variable)
(let_declaration pattern: (mut_pattern (identifier) @local.definition.variable))
(let_declaration pattern: (tuple_pattern (identifier) @local.definition.variable))
(let_condition pattern: (_ (identifier) @local.definition.pattern))
(for_expression pattern: (identifier) @local.definition.variable)
(for_expression pattern: (tuple_pattern (identifier) @local.definition.variable))
(match_pattern (identifier) @local.definition.pattern)
(match_pattern (_ (identifier) @local.definition.pattern))
(tuple_struct_pattern type: (_) (identifier) @local.definition.pattern)
(field_pattern (shorthand_field_identifier) @local.definition.pattern)
(type_parameters (type_parameter name: (type_identifier) @local.definition.type_parameter))
