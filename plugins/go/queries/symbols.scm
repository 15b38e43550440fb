; Go declarations. Capture the declaration as @definition.<tag> and its name
; as @name; @container names the type a method belongs to when that is not
; its structural container (a method's receiver type, which may be declared
; in another file of the package). The first pattern that tags a name wins.

(package_clause (package_identifier) @name) @definition.package

; Methods: the receiver's type, behind a pointer and type arguments.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @container
        (pointer_type (type_identifier) @container)
        (generic_type type: (type_identifier) @container)
        (pointer_type (generic_type type: (type_identifier) @container))
        (parenthesized_type (type_identifier) @container)
        (parenthesized_type (pointer_type (type_identifier) @container))
      ]))
  name: (field_identifier) @name) @definition.method
(method_declaration name: (field_identifier) @name) @definition.method

(function_declaration name: (identifier) @name) @definition.function

; Named types: structs, interfaces, other definitions, and aliases.
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type_alias

(type_parameter_declaration name: (identifier) @name) @definition.type_parameter

; Struct fields. An embedded field is named after its type; the name is
; also an `extends` reference (see references.scm).
(field_declaration name: (field_identifier) @name) @definition.field
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
    (generic_type type: (type_identifier) @name)
    (generic_type type: (qualified_type name: (type_identifier) @name))
    (pointer_type (type_identifier) @name)
    (pointer_type (qualified_type name: (type_identifier) @name))
    (pointer_type (generic_type type: (type_identifier) @name))
    (pointer_type (generic_type type: (qualified_type name: (type_identifier) @name)))
  ]) @definition.embedded_field

; Interface methods.
(method_elem name: (field_identifier) @name) @definition.interface_method

; Package-level constants and variables; those of function bodies are locals.
; The blank identifier `_` declares nothing.
((source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
  (#not-eq? @name "_"))
((source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
  (#not-eq? @name "_"))
((source_file
  (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
  (#not-eq? @name "_"))
