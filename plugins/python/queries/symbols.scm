; Python declarations: classes; functions, methods (a function directly in
; a class body, decorated or not) and properties;
; class attributes and the attributes `__init__` assigns on `self`; module
; variables, constants (named in capitals, by convention) and type aliases.
; When several patterns tag one node the first wins: specific ones first.

; Methods (`__init__` among them: an initialiser, which calls of the class
; reach implicitly, so its references are the calls written to it, as
; Python's own tools count them).
; `@property` (and `@cached_property`, `@x.setter`...): read, not called.
(class_definition
  body: (block
    (decorated_definition
      (decorator
        [(identifier) @_decorator
         (attribute attribute: (identifier) @_decorator)]
        (#match? @_decorator "^(property|cached_property|getter|setter|deleter)$"))
      definition: (function_definition name: (identifier) @name) @definition.property)))
(class_definition
  body: (block
    (function_definition name: (identifier) @name) @definition.method))
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition name: (identifier) @name) @definition.method)))

(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; Class attributes: `x = 1`, `x: int`, `x: int = 1` in the class body.
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; `self.x = ...` in a method, directly or one block down (`if`, `with`,
; `try`, `for`): a member of the class around it (`@container`), not of the
; method. The first declaration of a name in a class is the one
; (`REPEATS_MERGED`): later assignments are writes to it.
(class_definition
  name: (identifier) @container
  body: (block
    [
      (function_definition body: (block (expression_statement
        (assignment
          left: (attribute
            object: (identifier) @_self (#eq? @_self "self")
            attribute: (identifier) @name)) @definition.field)))
      (decorated_definition definition: (function_definition body: (block (expression_statement
        (assignment
          left: (attribute
            object: (identifier) @_self (#eq? @_self "self")
            attribute: (identifier) @name)) @definition.field))))
      (function_definition body: (block (_ [
        (block (expression_statement
          (assignment
            left: (attribute
              object: (identifier) @_self (#eq? @_self "self")
              attribute: (identifier) @name)) @definition.field))
        (_ (block (expression_statement
          (assignment
            left: (attribute
              object: (identifier) @_self (#eq? @_self "self")
              attribute: (identifier) @name)) @definition.field)))
      ])))
    ]))


; Module level: a name assigned outside every function and class is a
; module variable, at any depth of the module's `if`, `for`, `while`,
; `with` and `try` blocks; so is a `for` or `with ... as` target there.
; These patterns match at any depth and `declares_within` keeps the
; matches no declaration holds (in a function they bind locals).
(assignment
  left: (identifier) @name (#match? @name "^[A-Z][A-Z0-9_]*$")) @definition.constant
(assignment left: (identifier) @name) @definition.variable
(assignment
  left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.variable
(for_statement left: (identifier) @name @definition.variable)
(for_statement
  left: [
    (pattern_list (identifier) @name @definition.variable)
    (tuple_pattern (identifier) @name @definition.variable)
  ])
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @name @definition.variable)))
(module
  (type_alias_statement left: (type (identifier) @name)) @definition.type_alias)
