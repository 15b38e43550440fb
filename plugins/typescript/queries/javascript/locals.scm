; JavaScript parameters, placed before ../locals.scm.

(formal_parameters (identifier) @local.definition.parameter)
(formal_parameters (assignment_pattern left: (identifier) @local.definition.parameter))
(formal_parameters (rest_pattern (identifier) @local.definition.parameter))
