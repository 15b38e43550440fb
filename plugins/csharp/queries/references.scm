; Uses of names. The reference is tagged @reference.<kind> and its name is
; @name; @qualifier is the path before a name and @receiver marks a name
; reached through a value. The first pattern that captures a name wins, so
; the specific patterns come first and the catch-alls last.
;
; `A.B.M()` is ambiguous in C# syntax: `A.B` may be a namespace or type path
; or a value. A dotted chain of plain identifiers that starts with a capital
; letter (`Console`, `System.IO.File`) is taken as a path, following .NET
; naming conventions; anything else (`obj`, `_field`, `this`, a call's
; result) is a value, and the name a member.

; ---------------------------------------------------------------------------
; Names that declare or label rather than refer: claimed so that the
; catch-alls below skip them.

(using_directive name: (identifier) @name) @reference.ignore
(namespace_declaration name: (qualified_name name: (identifier) @name)) @reference.ignore
(file_scoped_namespace_declaration name: (qualified_name name: (identifier) @name)) @reference.ignore
(qualified_name qualifier: (identifier) @name) @reference.ignore
(qualified_name qualifier: (qualified_name name: (identifier) @name)) @reference.ignore
(alias_qualified_name alias: (identifier) @name) @reference.ignore
(argument name: (identifier) @name) @reference.ignore
(attribute_argument name: (identifier) @name) @reference.ignore
(labeled_statement (identifier) @name) @reference.ignore
(goto_statement (identifier) @name) @reference.ignore
(tuple_element name: (identifier) @name) @reference.ignore
(extern_alias_directive name: (identifier) @name) @reference.ignore
(type_parameter_constraints_clause . (identifier) @name) @reference.type
(enum_declaration (base_list (identifier) @name)) @reference.type
(invocation_expression function: (identifier) @name (#eq? @name "nameof")) @reference.ignore

; ---------------------------------------------------------------------------
; Constructor initializers: `: this(..)` calls a constructor of the class,
; `: base(..)` one of its base class (named so by the plugin).

(constructor_initializer "this" @name) @reference.call
(constructor_initializer "base" @name) @reference.call

; ---------------------------------------------------------------------------
; using directives: the last segment of the imported path.

(using_directive
  [
    (identifier) @name
    (qualified_name qualifier: (_) @qualifier name: (identifier) @name)
    (alias_qualified_name name: (identifier) @name)
  ]) @reference.import

; ---------------------------------------------------------------------------
; Base lists. Syntax cannot tell a base class from an interface; C# puts the
; base class first. The first entry of a class's or record's base list is
; reported as `extends`, the others as `implements`; every entry of a
; struct's base list is `implements` and every entry of an interface's is
; `extends` (interface inheritance). The host can refine a class's first
; entry once it resolves to an interface.

(class_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
    ])) @reference.extends
(record_declaration
  (base_list .
    [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
      (primary_constructor_base_type
        type: [
          (identifier) @name
          (generic_name (identifier) @name)
          (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
        ])
    ])) @reference.extends
(interface_declaration
  (base_list
    [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
    ])) @reference.extends
(_
  (base_list
    [
      (identifier) @name
      (generic_name (identifier) @name)
      (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
    ])) @reference.implements

; ---------------------------------------------------------------------------
; Calls and object creation.

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: [(identifier) (member_access_expression)] @qualifier
    name: [(identifier) @name (generic_name (identifier) @name)])
  (#match? @qualifier "^[A-Z][A-Za-z0-9_]*([.][A-Za-z_][A-Za-z0-9_]*)*$")) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: [(predefined_type) (qualified_name) (alias_qualified_name) (generic_name)] @qualifier
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: _ @receiver
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
(invocation_expression
  function: (conditional_access_expression
    (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)])) @receiver) @reference.call
(conditional_access_expression
  (invocation_expression
    function: (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]) @receiver)) @reference.call

(object_creation_expression
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
    (nullable_type type: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.call

; ---------------------------------------------------------------------------
; Attributes name the attribute class (`[Obsolete]` is `ObsoleteAttribute`).

(attribute
  name: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name qualifier: (_) @qualifier name: [(identifier) @name (generic_name (identifier) @name)])
  ]) @reference.type

; ---------------------------------------------------------------------------
; Writes

; `new T { Name = value }`: `Name` is a member of the created object (not a
; name in scope: `Signature = sig` sets the property even where a type
; `Signature` is in scope); its receiver is the `new` expression.
(object_creation_expression
  initializer: (initializer_expression
    (assignment_expression left: (identifier) @name) @reference.write)) @receiver
(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression
  left: (member_access_expression
    expression: [(identifier) (member_access_expression)] @qualifier
    name: (identifier) @name)
  (#match? @qualifier "^[A-Z][A-Za-z0-9_]*([.][A-Za-z_][A-Za-z0-9_]*)*$")) @reference.write
(assignment_expression
  left: (member_access_expression expression: _ @receiver name: (identifier) @name)) @reference.write
(postfix_unary_expression . (identifier) @name . ["++" "--"]) @reference.write
(prefix_unary_expression . ["++" "--"] . (identifier) @name) @reference.write
(argument "out" . (identifier) @name) @reference.write
(argument "ref" . (identifier) @name) @reference.write

; ---------------------------------------------------------------------------
; Types: every node in a type position, and the names a qualified type
; name ends with.

(qualified_name
  qualifier: (_) @qualifier
  name: [(identifier) @name (generic_name (identifier) @name)]) @reference.type
(alias_qualified_name
  alias: (_) @qualifier
  name: [(identifier) @name (generic_name (identifier) @name)]) @reference.type
(generic_name (identifier) @name) @reference.type
(_ type: (identifier) @name) @reference.type
(_ returns: (identifier) @name) @reference.type
(type_argument_list (identifier) @name) @reference.type
(base_list (identifier) @name) @reference.type
(as_expression right: (identifier) @name) @reference.type
(is_expression right: (identifier) @name) @reference.type
(explicit_interface_specifier (identifier) @name) @reference.type
(type_parameter_constraint type: (identifier) @name) @reference.type

; ---------------------------------------------------------------------------
; Member access that is not a call.

(member_access_expression
  expression: [(identifier) (member_access_expression)] @qualifier
  name: (identifier) @name
  (#match? @qualifier "^[A-Z][A-Za-z0-9_]*([.][A-Za-z_][A-Za-z0-9_]*)*$")) @reference.reference
(member_access_expression
  expression: [(predefined_type) (qualified_name) (alias_qualified_name) (generic_name)] @qualifier
  name: (identifier) @name) @reference.reference
(member_access_expression expression: _ @receiver name: (identifier) @name) @reference.reference
(member_binding_expression name: (identifier) @name) @receiver @reference.reference

; Everything else that names something.
(identifier) @name @reference.reference
