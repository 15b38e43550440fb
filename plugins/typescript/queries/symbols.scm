; Declarations shared by JavaScript, TypeScript and TSX. Capture the
; declaration as @definition.<tag> and its name as @name; when several
; patterns tag the same name the first one wins. The dialect's own patterns
; (typescript/, javascript/) are appended after these.

; Methods of classes and object literals: constructors and accessors first.
((method_definition
  name: (property_identifier) @name) @definition.constructor
  (#eq? @name "constructor"))
(method_definition
  "get"
  name: [(property_identifier) (private_property_identifier)] @name) @definition.getter
(method_definition
  "set"
  name: [(property_identifier) (private_property_identifier)] @name) @definition.setter
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; Functions, and functions bound to names (`const f = () => ...`).
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (arrow_function)) @definition.arrow_function
(variable_declarator
  name: (identifier) @name
  value: [(function_expression) (generator_function)]) @definition.function

; An anonymous default export is named `default`, as importers name it.
(export_statement
  "default" @name
  value: (arrow_function)) @definition.arrow_function
(export_statement
  "default" @name
  value: [(function_expression) (generator_function)]) @definition.function

; Classes, named class expressions included.
(class_declaration name: (_) @name) @definition.class
(class name: (_) @name) @definition.class

; Module-level variables and constants (inside functions they are locals).
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name) @definition.constant))
(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))
(program
  (lexical_declaration
    kind: "let"
    (variable_declarator name: (identifier) @name) @definition.variable))
(program
  (export_statement
    declaration: (lexical_declaration
      kind: "let"
      (variable_declarator name: (identifier) @name) @definition.variable)))
(program
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))
(program
  (export_statement
    declaration: (variable_declaration
      (variable_declarator name: (identifier) @name) @definition.variable)))
