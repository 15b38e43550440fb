; JavaScript locals: the dialect's bindings (parameters) first.
; include: javascript/locals, locals
