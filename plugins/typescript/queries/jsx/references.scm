; JSX references (JavaScript and TSX), placed before ../references.scm.

; A component's attributes (`<Filter onSelect={f} />`) are the keys of the
; props object it is called with: members of its first parameter's type,
; reached through the component's name (context.rs). An intrinsic
; element's (`<div id="x">`) are the platform's.
((jsx_opening_element
   name: (identifier) @receiver
   attribute: (jsx_attribute (property_identifier) @name) @reference.write)
  (#match? @receiver "^[A-Z]"))
((jsx_self_closing_element
   name: (identifier) @receiver
   attribute: (jsx_attribute (property_identifier) @name) @reference.write)
  (#match? @receiver "^[A-Z]"))
(jsx_opening_element
  name: (member_expression) @receiver
  attribute: (jsx_attribute (property_identifier) @name) @reference.write)
(jsx_self_closing_element
  name: (member_expression) @receiver
  attribute: (jsx_attribute (property_identifier) @name) @reference.write)

; JSX components (capitalised); lowercase tags are intrinsic elements.
((jsx_opening_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_closing_element name: (identifier) @name) @reference.reference
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.call
(jsx_closing_element
  name: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.reference
(jsx_opening_element name: (identifier) @name) @reference.ignore
(jsx_self_closing_element name: (identifier) @name) @reference.ignore
(jsx_closing_element name: (identifier) @name) @reference.ignore
