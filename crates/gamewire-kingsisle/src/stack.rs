//! A guard against stack overflow in the recursive decoders and encoders.
//!
//! The depth limit counts nesting levels, but what a level costs in stack bytes depends
//! on the build (a debug build's frames are several times larger) and a thread may have
//! as little as 2 MiB (Rust's default for spawned threads). So each recursion also checks
//! how much stack it has used since the entry point, by comparing the addresses of two
//! locals (safe code: the addresses are only compared, never dereferenced).

/// Stack bytes a decode or encode may use below its entry point, unless
/// [`set_stack_budget`] gave the thread another budget.
pub const STACK_BUDGET: usize = 1 << 20;

thread_local! {
    static BUDGET: std::cell::Cell<usize> = const { std::cell::Cell::new(STACK_BUDGET) };
}

/// Sets the stack bytes that decodes and encodes started later on this thread may use
/// (default [`STACK_BUDGET`], 1 MiB, safe on Rust's 2 MiB threads). A thread spawned with
/// a bigger stack can raise it so that deep documents (up to the depth limits) fit.
pub fn set_stack_budget(bytes: usize) {
    BUDGET.with(|b| b.set(bytes));
}

/// The stack position at an entry point, and the budget then in force.
#[derive(Debug, Clone, Copy)]
pub struct StackGuard {
    base: usize,
    budget: usize,
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
        StackGuard {
            base: here(),
            budget: BUDGET.with(|b| b.get()),
        }
    }

    /// True while less than the budget of stack bytes are used since [`StackGuard::new`].
    #[inline(always)]
    pub fn ok(&self) -> bool {
        self.base.abs_diff(here()) < self.budget
    }
}

impl Default for StackGuard {
    fn default() -> Self {
        Self::new()
    }
}

/// The message of a stack-budget error.
pub const TOO_DEEP: &str =
    "nesting too deep: the stack budget is used up (kingsisle::set_stack_budget raises it)";
