; Local bindings (@local.definition.<kind>) and the nodes that bound their
; visibility (@local.scope). A binding whose pattern also captures
; @local.after becomes visible only after that node: Go scopes a variable
; declared in a function from the end of its declaration (`x := x + 1`
; reads the outer `x`). Package-level names are symbols, not locals.

(function_declaration) @local.scope
(method_declaration) @local.scope
(func_literal) @local.scope
(type_spec) @local.scope
(type_alias) @local.scope
(block) @local.scope
(if_statement) @local.scope
(for_statement) @local.scope
(expression_switch_statement) @local.scope
(type_switch_statement) @local.scope
(expression_case) @local.scope
(type_case) @local.scope
(communication_case) @local.scope
(default_case) @local.scope

; Receivers, parameters and named results of functions, methods and
; function literals (not the parameter names of a function type).
(method_declaration
  receiver: (parameter_list (parameter_declaration name: (identifier) @local.definition.receiver)))
((function_declaration
  parameters: (parameter_list
    [
      (parameter_declaration name: (identifier) @local.definition.parameter)
      (variadic_parameter_declaration name: (identifier) @local.definition.parameter)
    ]))
  (#not-eq? @local.definition.parameter "_"))
((method_declaration
  parameters: (parameter_list
    [
      (parameter_declaration name: (identifier) @local.definition.parameter)
      (variadic_parameter_declaration name: (identifier) @local.definition.parameter)
    ]))
  (#not-eq? @local.definition.parameter "_"))
((func_literal
  parameters: (parameter_list
    [
      (parameter_declaration name: (identifier) @local.definition.parameter)
      (variadic_parameter_declaration name: (identifier) @local.definition.parameter)
    ]))
  (#not-eq? @local.definition.parameter "_"))
(function_declaration
  result: (parameter_list (parameter_declaration name: (identifier) @local.definition.result)))
(method_declaration
  result: (parameter_list (parameter_declaration name: (identifier) @local.definition.result)))
(func_literal
  result: (parameter_list (parameter_declaration name: (identifier) @local.definition.result)))

(type_parameter_declaration name: (identifier) @local.definition.type_parameter)
; A generic type's receiver names its type parameters anew: `func (p
; *List[T]) Push(v T)`.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @local.definition.type_parameter)))
        (pointer_type
          (generic_type type_arguments: (type_arguments (type_elem (type_identifier) @local.definition.type_parameter))))
      ])))

; `x, y := ...` (in statements and in `if`, `for` and `switch` headers).
((short_var_declaration
  left: (expression_list (identifier) @local.definition.variable)) @local.after
  (#not-eq? @local.definition.variable "_"))

; `var` and `const` in a function body: visible after their spec.
((statement_list (var_declaration (var_spec name: (identifier) @local.definition.variable) @local.after))
  (#not-eq? @local.definition.variable "_"))
((statement_list
  (var_declaration (var_spec_list (var_spec name: (identifier) @local.definition.variable) @local.after)))
  (#not-eq? @local.definition.variable "_"))
((statement_list (const_declaration (const_spec name: (identifier) @local.definition.constant) @local.after))
  (#not-eq? @local.definition.constant "_"))

; `for k, v := range xs`: visible in the body, not in the range expression.
((range_clause
  left: (expression_list (identifier) @local.definition.variable)
  ":="
  right: (_) @local.after)
  (#not-eq? @local.definition.variable "_"))

; `switch v := x.(type)`: visible in the cases.
(type_switch_statement
  alias: (expression_list (identifier) @local.definition.variable)
  value: (_) @local.after)

; `case v := <-ch:` of a `select`.
((receive_statement
  left: (expression_list (identifier) @local.definition.variable)
  ":=") @local.after
  (#not-eq? @local.definition.variable "_"))
