; Local bindings, which the host resolves before anything declared at the
; top: @local.scope on a node that opens a scope, @local.definition.<kind>
; on a binding's name (parameter, variable, pattern...), and @local.after on
; the node after which a binding is visible (a `let`'s whole statement).
;
;   (block) @local.scope
;   (parameter_declaration name: (identifier) @local.definition.parameter)
