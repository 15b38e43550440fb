//! tools
