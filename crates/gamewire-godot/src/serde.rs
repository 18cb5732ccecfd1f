//! serde.
