; TypeScript locals: the dialect's bindings (parameters) first.
; include: typescript/locals, locals
