; JavaScript-only declarations, appended to ../symbols.scm.

; Class fields: `x = 1;`, `static s;`, `#p = 2;`.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field
