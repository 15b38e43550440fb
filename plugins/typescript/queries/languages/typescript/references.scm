; TypeScript references: the dialect's patterns first, so they win over
; the shared catch-alls.
; include: typescript/references, references
