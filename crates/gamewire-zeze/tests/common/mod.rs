//! What several test files share: random bean trees ([`random`]), the fixture and
//! sample files ([`files`]) and hostile solutions for code generation ([`hostile`]).
#![allow(dead_code)]

pub mod files;
pub mod hostile;
pub mod random;
