; JavaScript declarations: the shared patterns, then the dialect's own.
; include: symbols, javascript/symbols
