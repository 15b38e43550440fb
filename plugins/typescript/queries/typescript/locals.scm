; TypeScript and TSX parameters and type parameters, placed before
; ../locals.scm.

[
  (function_signature)
  (method_signature)
  (abstract_method_signature)
  (abstract_class_declaration)
  (interface_declaration)
  (type_alias_declaration)
  (call_signature)
  (construct_signature)
  (function_type)
  (constructor_type)
  (index_signature)
  (conditional_type)
] @local.scope

(required_parameter pattern: (identifier) @local.definition.parameter)
(optional_parameter pattern: (identifier) @local.definition.parameter)
(required_parameter pattern: (rest_pattern (identifier) @local.definition.parameter))

(type_parameter name: (type_identifier) @local.definition.type_parameter)
(mapped_type_clause name: (type_identifier) @local.definition.type_parameter)
(infer_type (type_identifier) @local.definition.type_parameter)
