; Uses of names. The reference is tagged @reference.<kind> and its name is
; @name; @qualifier is the path before a name and @receiver marks a name
; reached through a value. The first pattern that captures a name wins, so
; the specific patterns come first and the catch-alls last.
;
; `A.b.m()` is ambiguous in Java syntax: `A` may be a type (or package) or a
; value. A dotted chain of plain identifiers that starts with a capital
; letter (`Math`, `Map.Entry`) is taken as a path, following Java's naming
; conventions; anything else (`list`, `this`, a call's result, `java.util`)
; is a value, and the name a member.

; ---------------------------------------------------------------------------
; Names that declare or label rather than refer: claimed so that the
; catch-alls below skip them.

(package_declaration (identifier) @name) @reference.ignore
(package_declaration (scoped_identifier (identifier) @name)) @reference.ignore
(labeled_statement (identifier) @name) @reference.ignore
(break_statement (identifier) @name) @reference.ignore
(continue_statement (identifier) @name) @reference.ignore
(element_value_pair key: (identifier) @name) @reference.ignore
(module_declaration name: (identifier) @name) @reference.ignore
(requires_module_directive module: (identifier) @name) @reference.ignore
(exports_module_directive (identifier) @name) @reference.ignore
(opens_module_directive (identifier) @name) @reference.ignore
; `var x = ...` states no type.
((type_identifier) @name (#eq? @name "var")) @reference.ignore

; ---------------------------------------------------------------------------
; Imports: the last segment of the imported path. `import a.b.*;` names no
; declaration.

; `import static a.B.*;` names the type `B` (written as a type is,
; capitalised); `import a.b.*;` names a package.
(import_declaration
  (scoped_identifier scope: (_) @qualifier name: (identifier) @name)
  (asterisk)
  (#match? @name "^[A-Z]")) @reference.type
(import_declaration (scoped_identifier name: (identifier) @name) (asterisk)) @reference.ignore
(import_declaration
  (scoped_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.import
; An import of a nested type or a static member (`import a.Outer.Inner;`,
; `import static a.B.m;`) names the type around it too: the segment before
; the last, when it is written as a type is (capitalised).
(import_declaration
  (scoped_identifier
    scope: (scoped_identifier scope: (_) @qualifier name: (identifier) @name)
    (#match? @name "^[A-Z]"))) @reference.type

; Annotations name the annotation type.
(marker_annotation name: (identifier) @name) @reference.type
(marker_annotation
  name: (scoped_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.type
(annotation name: (identifier) @name) @reference.type
(annotation
  name: (scoped_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.type

; The other segments of dotted names (packages of imports, annotations,
; module directives).
(scoped_identifier name: (identifier) @name) @reference.ignore
(scoped_identifier scope: (identifier) @name) @reference.ignore

; ---------------------------------------------------------------------------
; Supertypes: `extends` of a class and of an interface, `implements`.

(superclass
  [
    (type_identifier) @name
    (generic_type . (type_identifier) @name)
    (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
    (generic_type . (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))
  ]) @reference.extends
(extends_interfaces
  (type_list
    [
      (type_identifier) @name
      (generic_type . (type_identifier) @name)
      (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
      (generic_type . (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))
    ])) @reference.extends
(super_interfaces
  (type_list
    [
      (type_identifier) @name
      (generic_type . (type_identifier) @name)
      (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
      (generic_type . (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))
    ])) @reference.implements

; ---------------------------------------------------------------------------
; Calls and object creation.

(method_invocation
  object: [(identifier) (field_access)] @qualifier
  name: (identifier) @name
  (#match? @qualifier "^[A-Z][A-Za-z0-9_$]*([.][A-Za-z_$][A-Za-z0-9_$]*)*$")
  (#not-match? @qualifier "[.](this|super)$")) @reference.call
(method_invocation object: _ @receiver name: (identifier) @name) @reference.call
(method_invocation name: (identifier) @name) @reference.call

; An anonymous class's `new Base(..) { .. }` names the type it extends or
; implements, for the anonymous class's base list.
(object_creation_expression
  type: [
    (type_identifier) @name
    (generic_type . (type_identifier) @name)
    (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
    (generic_type . (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))
  ]
  (class_body)) @reference.extends
(object_creation_expression
  type: [
    (type_identifier) @name
    (generic_type . (type_identifier) @name)
    (scoped_type_identifier . (_) @qualifier (type_identifier) @name .)
    (generic_type . (scoped_type_identifier . (_) @qualifier (type_identifier) @name .))
  ]) @reference.call

; `Type::method`, `value::method`.
(method_reference
  . [(identifier) (field_access)] @qualifier
  (identifier) @name .
  (#match? @qualifier "^[A-Z][A-Za-z0-9_$]*([.][A-Za-z_$][A-Za-z0-9_$]*)*$")
  (#not-match? @qualifier "[.](this|super)$")) @reference.reference
(method_reference
  . [(type_identifier) (scoped_type_identifier) (generic_type)] @qualifier
  (identifier) @name .) @reference.reference
(method_reference . _ @receiver (identifier) @name .) @reference.reference

; ---------------------------------------------------------------------------
; Writes

(assignment_expression left: (identifier) @name) @reference.write
(assignment_expression
  left: (field_access
    object: [(identifier) (field_access)] @qualifier
    field: (identifier) @name)
  (#match? @qualifier "^[A-Z][A-Za-z0-9_$]*([.][A-Za-z_$][A-Za-z0-9_$]*)*$")
  (#not-match? @qualifier "[.](this|super)$")) @reference.write
(assignment_expression
  left: (field_access object: _ @receiver field: (identifier) @name)) @reference.write
(update_expression (identifier) @name) @reference.write
(update_expression
  (field_access
    object: [(identifier) (field_access)] @qualifier
    field: (identifier) @name)
  (#match? @qualifier "^[A-Z][A-Za-z0-9_$]*([.][A-Za-z_$][A-Za-z0-9_$]*)*$")
  (#not-match? @qualifier "[.](this|super)$")) @reference.write
(update_expression (field_access object: _ @receiver field: (identifier) @name)) @reference.write

; ---------------------------------------------------------------------------
; Types: a qualified type names its last segment; the segments before it
; that start with a lower-case letter are packages, not types.

(scoped_type_identifier
  (scoped_type_identifier (type_identifier) @name .)
  (#match? @name "^[a-z]")) @reference.ignore
(scoped_type_identifier
  . (type_identifier) @name
  (#match? @name "^[a-z]")) @reference.ignore
(scoped_type_identifier . (_) @qualifier (type_identifier) @name .) @reference.type
(type_identifier) @name @reference.type

; ---------------------------------------------------------------------------
; Member access that is not a call.

(field_access
  object: [(identifier) (field_access)] @qualifier
  field: (identifier) @name
  (#match? @qualifier "^[A-Z][A-Za-z0-9_$]*([.][A-Za-z_$][A-Za-z0-9_$]*)*$")
  (#not-match? @qualifier "[.](this|super)$")) @reference.reference
(field_access object: _ @receiver field: (identifier) @name) @reference.reference

; Everything else that names something.
(identifier) @name @reference.reference
