; Uses of names. The first pattern that tags a name wins: names that are no
; reference first, then imports, calls, base classes, writes, types, and
; last the catch-alls.

; Not references: a keyword argument's name (the callee's parameter), the
; modules an import statement names (the import facts hold them).
(keyword_argument name: (identifier) @name) @reference.ignore
(import_statement name: (dotted_name (identifier) @name) @reference.ignore)
(import_statement
  name: (aliased_import name: (dotted_name (identifier) @name)) @reference.ignore)
(import_statement
  name: (aliased_import alias: (identifier) @name) @reference.ignore)
(import_from_statement module_name: (dotted_name (identifier) @name) @reference.ignore)
(import_from_statement
  module_name: (relative_import (dotted_name (identifier) @name)) @reference.ignore)
(future_import_statement (dotted_name (identifier) @name) @reference.ignore)
(import_from_statement
  name: (aliased_import alias: (identifier) @name) @reference.ignore)

; The names `from m import a, b as c` brings in.
(import_from_statement name: (dotted_name (identifier) @name) @reference.import)
(import_from_statement
  name: (aliased_import name: (dotted_name (identifier) @name)) @reference.import)

; Calls, and decorators (called with the definition).
(call
  function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call
(call function: (identifier) @name) @reference.call
(decorator (identifier) @name) @reference.call
(decorator
  (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

; Base classes.
(class_definition
  superclasses: (argument_list (identifier) @name @reference.extends))
(class_definition
  superclasses: (argument_list
    (attribute object: (_) @receiver attribute: (identifier) @name) @reference.extends))

; Writes.
(assignment left: (identifier) @name) @reference.write
(assignment
  left: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.write
(assignment left: (pattern_list (identifier) @name)) @reference.write
(augmented_assignment left: (identifier) @name) @reference.write
(augmented_assignment
  left: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.write

; Types in annotations: `x: T`, `-> T`, `list[T]`, `T | None`, `m.T`.
(type (identifier) @name) @reference.type
(type (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.type
(generic_type (identifier) @name) @reference.type
(type (binary_operator left: (identifier) @name) @reference.type)
(type (binary_operator right: (identifier) @name) @reference.type)
(type (subscript value: (identifier) @name) @reference.type)
(type (subscript value: (attribute object: (_) @receiver attribute: (identifier) @name) @reference.type))

; The names a module's `__all__` lists, as its own names.
(module
  (expression_statement
    (assignment
      left: (identifier) @_all (#eq? @_all "__all__")
      right: [(list (string (string_content) @name) @reference.reference)
              (tuple (string (string_content) @name) @reference.reference)])))

; Everything else: attributes read, names read.
(attribute object: (_) @receiver attribute: (identifier) @name) @reference.reference
(identifier) @name @reference.reference
