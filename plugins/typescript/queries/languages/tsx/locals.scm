; TSX locals: as TypeScript's.
; include: typescript/locals, locals
