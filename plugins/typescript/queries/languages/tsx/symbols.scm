; TSX declarations: as TypeScript's.
; include: symbols, typescript/symbols
