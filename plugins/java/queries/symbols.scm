; Java declarations. Capture the declaration as @definition.<tag> and its
; name as @name. When several patterns tag the same node the first one wins,
; so the specific patterns come before the general ones.

; The package clause: the file's package, named in full (`a.b.c`).
(package_declaration [(identifier) (scoped_identifier)] @name) @definition.package

; Types, top-level, nested and local.
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation_type
(enum_constant name: (identifier) @name) @definition.enum_member
; An anonymous class, `new Base(..) { .. }`: a class whose members shadow
; the locals around it, named `<anonymous Base>` (`symbol_name`), at its
; body's `{`.
(object_creation_expression (class_body . "{" @name)) @definition.anonymous_class

; A record's components are its fields (each read through a public accessor
; of the same name).
(record_declaration
  parameters: (formal_parameters
    (formal_parameter name: (identifier) @name) @definition.record_component))

; Members
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
(annotation_type_element_declaration name: (identifier) @name) @definition.annotation_element

; Fields: one symbol per declarator (`int a, b;`). `static final` fields and
; the fields of an interface (implicitly `static final`) are constants.
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name) @definition.constant)
(field_declaration
  (modifiers "final" "static")
  declarator: (variable_declarator name: (identifier) @name) @definition.constant)
(field_declaration
  declarator: (variable_declarator name: (identifier) @name) @definition.field)
(constant_declaration
  declarator: (variable_declarator name: (identifier) @name) @definition.constant)
