; Rust declarations. Capture the declaration as @definition.<tag> and its name
; as @name. When several patterns tag the same node the first one wins, so
; the specific patterns (methods) come before the general ones (functions).

; Methods and associated items of impls and traits.
(impl_item
  body: (declaration_list
    (function_item name: (identifier) @name) @definition.method))

(trait_item
  body: (declaration_list
    (function_item name: (identifier) @name) @definition.method))

(trait_item
  body: (declaration_list
    (function_signature_item name: (identifier) @name) @definition.method))

(trait_item
  body: (declaration_list
    (associated_type name: (type_identifier) @name) @definition.associated_type))

(impl_item
  body: (declaration_list
    (const_item name: (identifier) @name) @definition.constant))

; Impls are named after their self type.
(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
    (reference_type type: (type_identifier) @name)
    (primitive_type) @name
    (reference_type type: (primitive_type) @name)
  ]) @definition.impl

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant name: (identifier) @name) @definition.variant
(field_declaration name: (field_identifier) @name) @definition.field
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type_alias
(mod_item name: (identifier) @name) @definition.module
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.static
(macro_definition name: (identifier) @name) @definition.macro
