; JavaScript-only references, placed before ../references.scm.

; `class A extends B`, `class A extends ns.B`.
(class_heritage (identifier) @name) @reference.extends
(class_heritage
  (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @reference.extends
