//! Tool errors: stable codes, the field at fault, suggestions.
