; Local bindings. Python's scopes are functions, lambdas and
; comprehensions; a binding outside them is a module or class variable,
; which symbols.scm declares (LOCALS_NEED_A_SCOPE drops it here).

(function_definition) @local.scope
(lambda) @local.scope
(list_comprehension) @local.scope
(set_comprehension) @local.scope
(dictionary_comprehension) @local.scope
(generator_expression) @local.scope

; Parameters.
(parameters (identifier) @local.definition.parameter)
(parameters (default_parameter name: (identifier) @local.definition.parameter))
(parameters (typed_parameter (identifier) @local.definition.parameter))
(parameters (typed_default_parameter name: (identifier) @local.definition.parameter))
(parameters (list_splat_pattern (identifier) @local.definition.parameter))
(parameters (dictionary_splat_pattern (identifier) @local.definition.parameter))
(parameters (typed_parameter (list_splat_pattern (identifier) @local.definition.parameter)))
(parameters (typed_parameter (dictionary_splat_pattern (identifier) @local.definition.parameter)))
(lambda_parameters (identifier) @local.definition.parameter)
(lambda_parameters (default_parameter name: (identifier) @local.definition.parameter))
(lambda_parameters (list_splat_pattern (identifier) @local.definition.parameter))
(lambda_parameters (dictionary_splat_pattern (identifier) @local.definition.parameter))

; Variables: assignments, loop and `with` targets, `except ... as e`,
; and `:=`.
(assignment left: (identifier) @local.definition.variable)
(assignment left: (pattern_list (identifier) @local.definition.variable))
(assignment left: (tuple_pattern (identifier) @local.definition.variable))
(for_statement left: (identifier) @local.definition.variable)
(for_statement left: (pattern_list (identifier) @local.definition.variable))
(for_statement left: (tuple_pattern (identifier) @local.definition.variable))
; A comprehension's variables are read before their `for` too
; (`[x.name for x in xs]`): visible from the comprehension's start.
(list_comprehension
  (for_in_clause left: [
    (identifier) @local.definition.variable
    (pattern_list (identifier) @local.definition.variable)
    (tuple_pattern (identifier) @local.definition.variable)
  ])) @local.from
(set_comprehension
  (for_in_clause left: [
    (identifier) @local.definition.variable
    (pattern_list (identifier) @local.definition.variable)
    (tuple_pattern (identifier) @local.definition.variable)
  ])) @local.from
(dictionary_comprehension
  (for_in_clause left: [
    (identifier) @local.definition.variable
    (pattern_list (identifier) @local.definition.variable)
    (tuple_pattern (identifier) @local.definition.variable)
  ])) @local.from
(generator_expression
  (for_in_clause left: [
    (identifier) @local.definition.variable
    (pattern_list (identifier) @local.definition.variable)
    (tuple_pattern (identifier) @local.definition.variable)
  ])) @local.from
; `with f() as x`, `except E as e`, `case [a] as b`.
(as_pattern alias: (as_pattern_target (identifier) @local.definition.variable))
(named_expression name: (identifier) @local.definition.variable)
