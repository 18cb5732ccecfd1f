//! A guard against stack overflow in the recursive decoders and encoders.
//!
//! The depth limit counts nesting levels, but what a level costs in stack bytes depends
//! on the build (a debug build's frames are several times larger) and a thread may have
//! as little as 2 MiB (Rust's default for spawned threads). So each recursion also checks
//! how much stack it has used since the entry point, by comparing the addresses of two
//! locals (safe code: the addresses are only compared, never dereferenced).

/// Stack bytes a decode or encode may use below its entry point.
pub const STACK_BUDGET: usize = 1 << 20;

/// The stack position at an entry point.
#[derive(Debug, Clone, Copy)]
pub struct StackGuard {
    base: usize,
}

#[inline(always)]
fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

impl StackGuard {
    /// Remembers the current stack position.
    #[inline(always)]
    pub fn new() -> Self {
        StackGuard { base: here() }
    }

    /// True while less than [`STACK_BUDGET`] bytes of stack are used since [`StackGuard::new`].
    #[inline(always)]
    pub fn ok(&self) -> bool {
        self.base.abs_diff(here()) < STACK_BUDGET
    }
}

impl Default for StackGuard {
    fn default() -> Self {
        Self::new()
    }
}

/// The message of a stack-budget error.
pub const TOO_DEEP: &str = "nesting too deep: the 1 MiB stack budget is used up";
