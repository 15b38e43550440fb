; C# declarations. Capture the declaration as @definition.<tag> and its name
; as @name. When several patterns tag the same node the first one wins, so
; the specific patterns come before the general ones.

; Namespaces. A file-scoped namespace (`namespace A.B;`) is a node of its
; own; the plugin's `symbol_range` stretches it to the end of the file so
; that it contains every declaration after it.
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace

; Types
(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(record_declaration "struct" name: (identifier) @name) @definition.record_struct
(record_declaration name: (identifier) @name) @definition.record
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enum_member
(delegate_declaration name: (identifier) @name) @definition.delegate

; The positional parameters of a record are its public properties.
(record_declaration
  (parameter_list
    (parameter name: (identifier) @name) @definition.property))

; Members
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.destructor
(property_declaration name: (identifier) @name) @definition.property
(indexer_declaration "this" @name) @definition.indexer
(event_declaration name: (identifier) @name) @definition.event
(operator_declaration operator: _ @name) @definition.operator
(conversion_operator_declaration type: (_) @name) @definition.conversion_operator

; Fields and field-like events: one symbol per declarator (`int a, b;`).
(field_declaration
  (modifier "const")
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.constant))
(field_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.field))
(event_field_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.event))

; Local functions
(local_function_statement name: (identifier) @name) @definition.local_function
