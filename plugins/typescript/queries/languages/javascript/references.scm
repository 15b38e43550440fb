; JavaScript references: JavaScript's and JSX's patterns, then the
; shared ones.
; include: javascript/references, jsx/references, references
