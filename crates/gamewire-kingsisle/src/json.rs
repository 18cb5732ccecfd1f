//! The JSON mapping.
