//! Whether descriptor 1 (stdout) was open when the process started.
//!
//! Rust's runtime opens `/dev/null` on a closed descriptor 0, 1 or 2 before `main`, so a
//! stdout closed by the caller (`gamewire decode f >&-`) would take the output and
//! report success. Nothing left after that start-up tells its `/dev/null` from one the
//! caller opened on purpose (a shell's `>/dev/null`, Python's `subprocess.DEVNULL`,
//! which opens it read-write as the runtime does). So the one check is made before the
//! runtime's start-up: a function in the ELF `.init_array`, which the C runtime calls
//! before Rust's `main` machinery, tries to duplicate descriptor 1 and records whether
//! it could.
//!
//! This is the crate's one use of `unsafe_code` (the lint counts `#[link_section]`,
//! which places the function pointer): the function is an ordinary safe Rust
//! function taking no arguments (the C runtime's `argc, argv, envp` are ignored, as the
//! C calling convention allows) and touches only a descriptor and an atomic flag.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set before `main` when descriptor 1 was closed.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Runs before `main` (see the module docs).
#[cfg(target_os = "linux")]
extern "C" fn probe() {
    use std::os::fd::AsFd;
    if std::io::stdout().as_fd().try_clone_to_owned().is_err() {
        CLOSED.store(true, Ordering::Relaxed);
    }
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[link_section = ".init_array"]
static PROBE: extern "C" fn() = probe;

/// True when descriptor 1 was closed when the process started (Linux; elsewhere
/// always false).
pub fn was_closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}
