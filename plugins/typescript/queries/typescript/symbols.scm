; TypeScript and TSX declarations, appended to ../symbols.scm.

; Classes: abstract ones, and their members.
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.field
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method
(method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method
; Constructor parameter properties: `constructor(private readonly a: A)`.
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name) @definition.field
(optional_parameter
  (accessibility_modifier)
  pattern: (identifier) @name) @definition.field

; Overloads and ambient functions: `function f(): void;`.
(function_signature name: (identifier) @name) @definition.function

; Interfaces and their members.
(interface_declaration name: (type_identifier) @name) @definition.interface
(property_signature name: (property_identifier) @name) @definition.property

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
([(internal_module) (module)]
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
([(internal_module) (module)]
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
