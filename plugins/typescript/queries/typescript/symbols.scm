; TypeScript and TSX declarations, appended to ../symbols.scm.

; Classes: abstract ones, and their members.
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.field
; Bodiless methods (abstract, overloads, interface members) and functions
; (overloads, `declare function`) are signatures: they get no metrics.
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method_signature
(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method_signature)
(interface_body
  (method_signature
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method_signature)
(type_alias_declaration
  value: (object_type
    (method_signature name: (property_identifier) @name) @definition.method_signature))
(function_signature name: (identifier) @name) @definition.function_signature

; Constructor parameter properties (`constructor(private readonly a: A)`)
; are fields of the class, which is their container's name.
(class_declaration
  name: (_) @container
  body: (class_body
    (method_definition
      parameters: (formal_parameters
        [
          (required_parameter (accessibility_modifier) pattern: (identifier) @name)
          (optional_parameter (accessibility_modifier) pattern: (identifier) @name)
        ] @definition.field))))
(abstract_class_declaration
  name: (_) @container
  body: (class_body
    (method_definition
      parameters: (formal_parameters
        [
          (required_parameter (accessibility_modifier) pattern: (identifier) @name)
          (optional_parameter (accessibility_modifier) pattern: (identifier) @name)
        ] @definition.field))))
(class
  name: (_) @container
  body: (class_body
    (method_definition
      parameters: (formal_parameters
        [
          (required_parameter (accessibility_modifier) pattern: (identifier) @name)
          (optional_parameter (accessibility_modifier) pattern: (identifier) @name)
        ] @definition.field))))

; Interfaces and their members.
(interface_declaration name: (type_identifier) @name) @definition.interface
; Members of interfaces and of object types that type aliases name; those
; of other type literals (parameter types) are not declarations.
(interface_body
  (property_signature name: (property_identifier) @name) @definition.property)
(type_alias_declaration
  value: (object_type
    (property_signature name: (property_identifier) @name) @definition.property))

(type_alias_declaration name: (type_identifier) @name) @definition.type_alias

(enum_declaration name: (identifier) @name) @definition.enum
(enum_assignment name: (property_identifier) @name) @definition.enum_member
(enum_assignment name: (string (string_fragment) @name)) @definition.enum_member
(enum_body name: (property_identifier) @name @definition.enum_member)
(enum_body name: (string (string_fragment) @name) @definition.enum_member)

; `namespace A.B {}`, `module M {}`, `declare module "m" {}`.
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: (identifier) @name) @definition.module
(module name: (string (string_fragment) @name)) @definition.module

; Variables of namespaces and ambient declarations (`declare const x: T;`).
(internal_module
  body: (statement_block
    [
      (lexical_declaration
        kind: "const"
        (variable_declarator name: (identifier) @name) @definition.constant)
      (export_statement
        declaration: (lexical_declaration
          kind: "const"
          (variable_declarator name: (identifier) @name) @definition.constant))
    ]))
(module
  body: (statement_block
    [
      (lexical_declaration
        kind: "const"
        (variable_declarator name: (identifier) @name) @definition.constant)
      (export_statement
        declaration: (lexical_declaration
          kind: "const"
          (variable_declarator name: (identifier) @name) @definition.constant))
    ]))
(internal_module
  body: (statement_block
    [
      (lexical_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
      (export_statement
        declaration: [
          (lexical_declaration
            (variable_declarator name: (identifier) @name) @definition.variable)
          (variable_declaration
            (variable_declarator name: (identifier) @name) @definition.variable)
        ])
    ]))
(module
  body: (statement_block
    [
      (lexical_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
      (export_statement
        declaration: [
          (lexical_declaration
            (variable_declarator name: (identifier) @name) @definition.variable)
          (variable_declaration
            (variable_declarator name: (identifier) @name) @definition.variable)
        ])
    ]))
(program
  (ambient_declaration
    (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))
(program
  (ambient_declaration
    [
      (lexical_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration
        (variable_declarator name: (identifier) @name) @definition.variable)
    ]))
(program
  (export_statement
    declaration: (ambient_declaration
      (lexical_declaration
        kind: "const"
        (variable_declarator name: (identifier) @name) @definition.constant))))
