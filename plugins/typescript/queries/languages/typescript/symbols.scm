; TypeScript declarations: the shared patterns, then the dialect's own
; (which tag declarations the shared ones do not).
; include: symbols, typescript/symbols
