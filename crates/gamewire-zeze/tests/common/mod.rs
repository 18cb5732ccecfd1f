//! What several test files share: random bean trees ([`random`]) and the fixture and
//! sample files ([`files`]).
#![allow(dead_code)]

pub mod files;
pub mod random;
