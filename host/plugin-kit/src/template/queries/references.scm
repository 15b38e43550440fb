; The uses of names. A pattern captures the using node as
; @reference.<kind> and the name as @name; kinds: call, reference, type,
; import, extends, implements, write, and ignore (claims the name so that
; later patterns skip it, reports nothing). @receiver is the value a member
; is reached through (`p` in `p.name`), @qualifier the path before a name
; (`pkg` in `pkg.Name`). When several patterns tag one name, the first wins:
; put specific patterns before catch-alls.
;
;   (call_expression function: (identifier) @name) @reference.call
;   (identifier) @name @reference.reference
