//! What several test files share: random bean trees ([`random`]).
#![allow(dead_code)]

pub mod random;
