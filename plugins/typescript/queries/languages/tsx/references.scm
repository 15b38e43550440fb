; TSX references: TypeScript's and JSX's patterns, then the shared ones.
; include: typescript/references, jsx/references, references
