; JSX references (JavaScript and TSX), placed before ../references.scm.

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
