; Uses of names. The reference is tagged @reference.<kind> and its name is
; @name; @qualifier is the package before a name in a type (`pkg.Type`) and
; @receiver the operand of a selector (`x.name`). A selector whose operand
; is an imported package's name (`fmt.Println`) is a qualified name, not a
; member access: the plugin's `qualifying_names` hook says which names are
; packages. The first pattern that captures a name wins, so the specific
; patterns come first and the catch-alls last.

; The blank identifier names nothing, and the predeclared types are not
; declared in any file.
((identifier) @name @reference.ignore (#eq? @name "_"))
((identifier) @name @reference.ignore
  (#any-of? @name
    "any" "bool" "byte" "comparable" "complex64" "complex128" "error"
    "float32" "float64" "int" "int8" "int16" "int32" "int64" "rune"
    "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr"))
((type_identifier) @name @reference.ignore
  (#any-of? @name
    "any" "bool" "byte" "comparable" "complex64" "complex128" "error"
    "float32" "float64" "int" "int8" "int16" "int32" "int64" "rune"
    "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr"))

; Parameter names of interface methods and function types declare nothing
; that a body could use.
(method_elem
  parameters: (parameter_list
    [
      (parameter_declaration name: (identifier) @name)
      (variadic_parameter_declaration name: (identifier) @name)
    ])) @reference.ignore
(method_elem
  result: (parameter_list (parameter_declaration name: (identifier) @name))) @reference.ignore
(function_type
  parameters: (parameter_list
    [
      (parameter_declaration name: (identifier) @name)
      (variadic_parameter_declaration name: (identifier) @name)
    ])) @reference.ignore
(function_type
  result: (parameter_list (parameter_declaration name: (identifier) @name))) @reference.ignore

; Calls
(call_expression
  function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression
  function: (parenthesized_expression
    (selector_expression operand: (_) @receiver field: (field_identifier) @name))) @reference.call
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (parenthesized_expression (identifier) @name)) @reference.call
; Explicit type arguments (`Collect[string](xs, f)`); an element of a slice
; of functions called (`handlers[i](x)`) reads the same.
(call_expression function: (index_expression operand: (identifier) @name)) @reference.call
(call_expression
  function: (index_expression
    operand: (selector_expression operand: (_) @receiver field: (field_identifier) @name))) @reference.call
; A generic function called with explicit type arguments (`Map[int](xs)`)
; parses as a conversion to a generic type; it is far more often a call.
(type_conversion_expression
  type: (generic_type type: (type_identifier) @name)) @reference.call
(type_conversion_expression
  type: (generic_type
    type: (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))) @reference.call

; Embedding: an embedded struct field or an interface embedding another
; interface is reported as `extends`.
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (pointer_type (type_identifier) @name)
    (pointer_type (generic_type type: (type_identifier) @name))
  ]) @reference.extends
(field_declaration
  !name
  type: [
    (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)
    (generic_type type: (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))
    (pointer_type (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))
    (pointer_type (generic_type type: (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)))
  ]) @reference.extends
(interface_type
  (type_elem
    .
    [
      (type_identifier) @name
      (generic_type type: (type_identifier) @name)
    ]
    .)) @reference.extends
(interface_type
  (type_elem
    .
    [
      (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)
      (generic_type type: (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))
    ]
    .)) @reference.extends

; Writes: assignments, `x++`, `x--`, and range clauses that assign.
(assignment_statement
  left: (expression_list (identifier) @name)) @reference.write
(assignment_statement
  left: (expression_list
    (selector_expression operand: (_) @receiver field: (field_identifier) @name))) @reference.write
(inc_statement (identifier) @name) @reference.write
(dec_statement (identifier) @name) @reference.write
(inc_statement (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.write
(dec_statement (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.write
(range_clause left: (expression_list (identifier) @name) "=") @reference.write

; Keys of composite literals: expressions in a map literal, field names
; (reached through the literal's type) in any other.
(composite_literal
  type: (map_type)
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @name)) @reference.reference))
(composite_literal
  type: [(type_identifier) (qualified_type)] @receiver
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @name)) @reference.reference))
; The keys of an element literal whose type is elided (`[]test{{label: ..}}`,
; `map[string]*T{"a": {Name: ..}}`): fields of the slice's, array's or
; map's element type, which is their receiver.
(composite_literal
  type: [
    (slice_type element: [(type_identifier) (qualified_type)] @receiver)
    (slice_type element: (pointer_type [(type_identifier) (qualified_type)] @receiver))
    (array_type element: [(type_identifier) (qualified_type)] @receiver)
    (array_type element: (pointer_type [(type_identifier) (qualified_type)] @receiver))
    (map_type value: [(type_identifier) (qualified_type)] @receiver)
    (map_type value: (pointer_type [(type_identifier) (qualified_type)] @receiver))
  ]
  body: (literal_value
    [
      (literal_element
        (literal_value
          (keyed_element key: (literal_element (identifier) @name)) @reference.reference))
      (keyed_element
        value: (literal_element
          (literal_value
            (keyed_element key: (literal_element (identifier) @name)) @reference.reference)))
    ]))
(keyed_element
  key: (literal_element (identifier) @name) @receiver) @reference.reference

; Types
(qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name) @reference.type
(type_identifier) @name @reference.type

; Names in expressions
(selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.reference
(identifier) @name @reference.reference
