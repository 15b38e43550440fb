; Local bindings (@local.definition.<kind>) and the nodes that bound their
; visibility (@local.scope). A binding whose pattern also captures
; @local.after becomes visible only after that node. The first pattern that
; captures a node wins.
;
; C# puts a pattern or `out` variable declared in an `if` condition or an
; expression statement in the enclosing block (`if (!(o is int i)) return;`
; leaves `i` usable after the `if`), so `if_statement` is no scope; `while`,
; `for`, `foreach`, `using`, `catch` and switch sections are.

(method_declaration) @local.scope
(constructor_declaration) @local.scope
(destructor_declaration) @local.scope
(operator_declaration) @local.scope
(conversion_operator_declaration) @local.scope
(indexer_declaration) @local.scope
(accessor_declaration) @local.scope
(local_function_statement) @local.scope
(delegate_declaration) @local.scope
(lambda_expression) @local.scope
(anonymous_method_expression) @local.scope
(block) @local.scope
(switch_section) @local.scope
(switch_expression_arm) @local.scope
(while_statement) @local.scope
(for_statement) @local.scope
(foreach_statement) @local.scope
(using_statement) @local.scope
(fixed_statement) @local.scope
(catch_clause) @local.scope
(query_expression) @local.scope
(class_declaration) @local.scope
(struct_declaration) @local.scope
(record_declaration) @local.scope
(interface_declaration) @local.scope

; Parameters. A record's positional parameters are its properties (symbols),
; not locals.
(method_declaration parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(method_declaration parameters: (parameter_list name: (identifier) @local.definition.parameter))
(constructor_declaration parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(constructor_declaration parameters: (parameter_list name: (identifier) @local.definition.parameter))
(local_function_statement parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(local_function_statement parameters: (parameter_list name: (identifier) @local.definition.parameter))
(operator_declaration parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(conversion_operator_declaration parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(indexer_declaration parameters: (bracketed_parameter_list (parameter name: (identifier) @local.definition.parameter)))
(delegate_declaration parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(lambda_expression parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(lambda_expression parameters: (implicit_parameter) @local.definition.parameter)
(anonymous_method_expression parameters: (parameter_list (parameter name: (identifier) @local.definition.parameter)))
; Primary constructors of classes and structs (C# 12).
(class_declaration (parameter_list (parameter name: (identifier) @local.definition.parameter)))
(struct_declaration (parameter_list (parameter name: (identifier) @local.definition.parameter)))

; Local variables: visible after their declarator.
(local_declaration_statement
  (variable_declaration
    (variable_declarator name: (identifier) @local.definition.variable) @local.after))
(local_declaration_statement
  (variable_declaration
    (variable_declarator (tuple_pattern name: (identifier) @local.definition.variable)) @local.after))
(for_statement
  initializer: (variable_declaration
    (variable_declarator name: (identifier) @local.definition.variable) @local.after))
(using_statement
  (variable_declaration
    (variable_declarator name: (identifier) @local.definition.variable) @local.after))
(fixed_statement
  (variable_declaration
    (variable_declarator name: (identifier) @local.definition.variable) @local.after))

; foreach: visible in the body, not in the collection expression.
(foreach_statement left: (identifier) @local.definition.variable right: _ @local.after)
(foreach_statement left: (tuple_pattern name: (identifier) @local.definition.variable) right: _ @local.after)
(foreach_statement
  left: (tuple_pattern (tuple_pattern name: (identifier) @local.definition.variable))
  right: _ @local.after)

; catch (Exception e)
(catch_declaration name: (identifier) @local.definition.variable)

; `out var x`, `out int x` and deconstruction (`var (a, b) = t`).
(declaration_expression name: (identifier) @local.definition.variable)
(parenthesized_variable_designation (identifier) @local.definition.variable)

; Pattern variables: `is string s`, `case Point { X: var x } p`, `var (a, b)`.
(declaration_pattern name: (identifier) @local.definition.pattern)
(var_pattern name: (identifier) @local.definition.pattern)
(recursive_pattern name: (identifier) @local.definition.pattern)
(list_pattern name: (identifier) @local.definition.pattern)

; LINQ range variables.
(from_clause name: (identifier) @local.definition.range_variable)
(let_clause (identifier) @local.definition.range_variable)
(join_clause (identifier) @local.definition.range_variable . "in")
(join_into_clause (identifier) @local.definition.range_variable)
(query_expression "into" . (identifier) @local.definition.range_variable)

; Generic type parameters, visible in their declaration.
(type_parameter name: (identifier) @local.definition.type_parameter)
