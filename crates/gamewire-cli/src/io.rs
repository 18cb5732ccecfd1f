//! Input and output for the CLI: stdin/stdout or files; outputs streamed through a buffer,
//! atomically over regular files, in place into special files; strict JSON input.

use crate::{CliError, CliResult};
use gamewire_core::json_text::{self, TextOptions};
use std::cell::RefCell;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// Inputs already read, handed to the next [`read_input`] of their path on this
    /// thread (see [`hold`]); stdin is held as `-`.
    static HELD: RefCell<Vec<(PathBuf, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
}

/// Whether [`Output::finish`] syncs each file before renaming it (see [`sync_each`]).
static SYNC_EACH: AtomicBool = AtomicBool::new(true);

/// Chooses whether each atomically written output is synced to disk before it is
/// renamed over its target (the default). `convert` turns this off and syncs the
/// file systems it wrote to once at the end (see [`sync_file_systems`]).
pub fn sync_each(on: bool) {
    SYNC_EACH.store(on, Ordering::Relaxed);
}

/// Flushes to disk everything written to the file systems holding `dirs` (one
/// `syncfs` per file system); folders that do not exist are passed over.
#[cfg(target_os = "linux")]
pub fn sync_file_systems(dirs: &[PathBuf]) -> CliResult {
    use std::os::unix::fs::MetadataExt;
    let mut done = Vec::new();
    for d in dirs.iter().filter(|d| d.is_dir()) {
        let f = std::fs::File::open(d).map_err(|e| format!("cannot sync {}: {e}", d.display()))?;
        let dev = f.metadata()?.dev();
        if !done.contains(&dev) {
            rustix::fs::syncfs(&f).map_err(|e| format!("cannot sync {}: {e}", d.display()))?;
            done.push(dev);
        }
    }
    Ok(())
}

/// Flushes to disk everything written below `dirs` (a sync of each folder).
#[cfg(not(target_os = "linux"))]
pub fn sync_file_systems(dirs: &[PathBuf]) -> CliResult {
    for d in dirs.iter().filter(|d| d.is_dir()) {
        std::fs::File::open(d)
            .and_then(|f| f.sync_all())
            .map_err(|e| format!("cannot sync {}: {e}", d.display()))?;
    }
    Ok(())
}

/// Hands `data`, already read from `path` (`None` or `-`: stdin), to the next
/// [`read_input`] of that path on this thread: a command that looked at its input first
/// (`encode FORMAT` checking for a header) passes it on without reading it again.
pub fn hold(path: Option<&Path>, data: Vec<u8>) {
    let key = path.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
    HELD.with(|h| h.borrow_mut().push((key, data)));
}

/// Reads the whole input: the file at `path`, or stdin when `path` is `None` or `-`.
pub fn read_input(path: Option<&Path>) -> CliResult<Vec<u8>> {
    let key = path.unwrap_or(Path::new("-"));
    let held = HELD.with(|h| {
        let mut h = h.borrow_mut();
        let i = h.iter().position(|(q, _)| q == key)?;
        Some(h.swap_remove(i).1)
    });
    if let Some(data) = held {
        return Ok(data);
    }
    match path {
        Some(p) if p != Path::new("-") => {
            std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()).into())
        }
        _ => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(buf)
        }
    }
}

/// Writes `bytes` to the destination `path` names (see [`Output::create`]). Binary
/// bytes (not UTF-8 text, or holding a NUL) are refused when stdout is a terminal.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> CliResult {
    let to_stdout = path.map_or(true, |p| {
        p == Path::new("-") || p == Path::new("/dev/stdout")
    });
    if to_stdout && is_binary(bytes) && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(format!(
            "refusing to write {} bytes of binary data to the terminal: name a file with -o, \
             or redirect stdout",
            bytes.len()
        )
        .into());
    }
    let mut out = Output::create(path)?;
    out.write_all(bytes)?;
    out.finish()
}

/// Writes `bytes` to the regular file `path` with [`Output::create_file`]: never
/// through a symbolic link, never to stdout, replacing an existing file only when
/// `replace` is set.
pub fn write_file(path: &Path, bytes: &[u8], replace: bool) -> CliResult {
    let mut out = Output::create_file(path, replace)?;
    out.write_all(bytes)?;
    out.finish()
}

/// True for bytes a terminal would show as garbage: not UTF-8, or holding a NUL.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.contains(&0) || std::str::from_utf8(bytes).is_err()
}

/// Writes one JSON document (pretty or compact, then a newline) to the destination `path`
/// names, streamed: no copy of the text is built in memory.
pub fn write_json<T: serde::Serialize + ?Sized>(
    path: Option<&Path>,
    value: &T,
    pretty: bool,
) -> CliResult {
    let mut out = Output::create(path)?;
    out.json(value, pretty)?;
    out.finish()
}

/// Where `-o` sends the output, chosen before anything is written.
#[derive(Debug, PartialEq, Eq)]
enum Dest {
    /// The process's stdout (`-`, no `-o`, or `/dev/stdout`).
    Stdout,
    /// A FIFO, a device or a `/dev/fd`-style path: opened and written in place.
    Direct(PathBuf),
    /// A regular file or a new path: a temporary file beside it, renamed over it at the
    /// end. The path is the final target of any symbolic links.
    Atomic(PathBuf),
}

/// Links to a file descriptor of this process (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`): their targets are not paths, so they are opened, never replaced.
fn is_fd_link(p: &Path) -> bool {
    p.starts_with("/dev/fd")
        || p.starts_with("/proc")
        || [
            Path::new("/dev/stdout"),
            Path::new("/dev/stderr"),
            Path::new("/dev/stdin"),
        ]
        .contains(&p)
}

fn is_stdout_path(p: &Path) -> bool {
    [
        Path::new("/dev/stdout"),
        Path::new("/dev/fd/1"),
        Path::new("/proc/self/fd/1"),
    ]
    .contains(&p)
}

/// Symbolic links followed before giving up, as the kernel does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Chooses the destination for `path`: symbolic links are followed to their final target
/// (so the target is replaced, not the link); special files are written in place.
fn destination(path: Option<&Path>) -> CliResult<Dest> {
    let given = match path {
        Some(p) if p != Path::new("-") => p,
        _ => return Ok(Dest::Stdout),
    };
    let mut p = given.to_path_buf();
    for _ in 0..MAX_LINKS {
        if is_stdout_path(&p) {
            return Ok(Dest::Stdout);
        }
        if is_fd_link(&p) {
            return Ok(Dest::Direct(p));
        }
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let dir = parent_dir(&p);
                return match std::fs::metadata(&dir) {
                    Ok(m) if m.is_dir() => Ok(Dest::Atomic(p)),
                    Ok(_) => Err(format!(
                        "cannot write {}: {} is not a folder",
                        given.display(),
                        dir.display()
                    )
                    .into()),
                    Err(_) => Err(format!(
                        "cannot write {}: the folder {} does not exist",
                        given.display(),
                        dir.display()
                    )
                    .into()),
                };
            }
            Err(e) => return Err(format!("cannot write {}: {e}", given.display()).into()),
        };
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(&p)
                .map_err(|e| format!("cannot write {}: {e}", given.display()))?;
            p = if target.is_absolute() {
                target
            } else {
                parent_dir(&p).join(target)
            };
        } else if ft.is_file() {
            return Ok(Dest::Atomic(p));
        } else if ft.is_dir() {
            return Err(format!("cannot write {}: it is a folder", given.display()).into());
        } else {
            return Ok(Dest::Direct(p));
        }
    }
    Err(format!(
        "cannot write {}: more than {MAX_LINKS} symbolic links (a loop?)",
        given.display()
    )
    .into())
}

/// The folder `p` is in: its parent, or `.` for a bare file name.
pub(crate) fn parent_dir(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file waiting to be renamed over its target.
struct Pending {
    tmp: tempfile::TempPath,
    target: PathBuf,
    /// Written by [`Output::create_file`]: the target is never followed if it is a
    /// symbolic link, and is replaced only when `replace` is set.
    no_follow: bool,
    replace: bool,
}

/// An output being written, buffered: to stdout, in place to a special file, or to a
/// temporary file that [`Output::finish`] renames over the target. Dropping an
/// unfinished output removes its temporary file, so a failed run leaves the target as
/// it was. Every write error names the destination.
pub struct Output {
    w: std::io::BufWriter<Box<dyn Write + Send>>,
    /// Set when writing a temporary file.
    pending: Option<Pending>,
    /// A file to sync before the rename.
    file: Option<std::fs::File>,
    label: String,
}

/// Output buffer size.
const OUT_BUF: usize = 1 << 16;

impl Output {
    /// Opens the destination `path` names: stdout for `None`, `-` or `/dev/stdout`; a
    /// FIFO, device node or `/dev/fd/N` is opened and written in place; anything else
    /// (a regular file, possibly behind symbolic links, or a new path) is written to a
    /// temporary file in the target's folder and renamed over the target by
    /// [`Output::finish`].
    pub fn create(path: Option<&Path>) -> CliResult<Output> {
        let label = path.map_or("stdout".to_owned(), |p| p.display().to_string());
        match destination(path)? {
            Dest::Stdout => Ok(Output {
                w: std::io::BufWriter::with_capacity(OUT_BUF, stdout_sink()?),
                pending: None,
                file: None,
                label: if path.is_some_and(|p| p != Path::new("-")) {
                    label
                } else {
                    "stdout".to_owned()
                },
            }),
            Dest::Direct(p) => {
                let regular = std::fs::metadata(&p).is_ok_and(|m| m.is_file());
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(regular)
                    .open(&p)
                    .map_err(|e| format!("cannot open {label} for writing: {e}"))?;
                Ok(Output {
                    w: std::io::BufWriter::with_capacity(OUT_BUF, Box::new(f)),
                    pending: None,
                    file: None,
                    label,
                })
            }
            Dest::Atomic(target) => Output::through_temp(label, target, false, true),
        }
    }

    /// Opens `path` as a regular file in its folder, whatever its name (`-` and
    /// `/dev/stdout` included: no name means stdout here), never through a symbolic
    /// link: an existing link at `path` is refused, as is a folder or a special file.
    /// The output goes to a temporary file created exclusively in `path`'s folder
    /// (`O_CREAT | O_EXCL`: never an existing file or link), which [`Output::finish`]
    /// renames onto `path`; a rename replaces the directory entry itself, so even a link
    /// put there meanwhile is replaced, not written through. Without `replace`, an
    /// existing file is refused, and one that appears before the rename is left as it is
    /// (the rename does not replace).
    pub fn create_file(path: &Path, replace: bool) -> CliResult<Output> {
        let label = path.display().to_string();
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!(
                    "cannot write {label}: it is a symbolic link, and outputs are never \
                     written through one"
                )
                .into())
            }
            Ok(m) if m.is_dir() => {
                return Err(format!("cannot write {label}: it is a folder").into())
            }
            Ok(m) if !m.is_file() => {
                return Err(format!(
                    "cannot write {label}: it is not a regular file (a named pipe, device \
                     or socket)"
                )
                .into())
            }
            Ok(_) if !replace => return Err(format!("cannot write {label}: it exists").into()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot write {label}: {e}").into()),
        }
        Output::through_temp(label, path.to_path_buf(), true, replace)
    }

    /// An output to a temporary file created exclusively in `target`'s folder, which
    /// [`Output::finish`] renames onto `target` (see [`Pending`]).
    fn through_temp(
        label: String,
        target: PathBuf,
        no_follow: bool,
        replace: bool,
    ) -> CliResult<Output> {
        let dir = parent_dir(&target);
        let tmp = tempfile::Builder::new()
            .prefix(".gamewire-")
            .tempfile_in(&dir)
            .map_err(|e| {
                format!(
                    "cannot write {label}: cannot create a file in {}: {e}",
                    dir.display()
                )
            })?;
        let (f, tmp) = tmp.into_parts();
        let sync = f
            .try_clone()
            .map_err(|e| format!("cannot write {label}: {e}"))?;
        Ok(Output {
            w: std::io::BufWriter::with_capacity(OUT_BUF, Box::new(f)),
            pending: Some(Pending {
                tmp,
                target,
                no_follow,
                replace,
            }),
            file: Some(sync),
            label,
        })
    }

    /// Writes `value` as JSON (pretty with [`CappedPretty`], or compact) and a newline.
    pub fn json<T: serde::Serialize + ?Sized>(&mut self, value: &T, pretty: bool) -> CliResult {
        let res = if pretty {
            let mut ser = serde_json::Serializer::with_formatter(&mut *self, CappedPretty::new());
            value.serialize(&mut ser)
        } else {
            value.serialize(&mut serde_json::Serializer::new(&mut *self))
        };
        res.map_err(|e| match e.io_error_kind() {
            // The I/O error already names the destination.
            Some(kind) => std::io::Error::new(kind, e.to_string()).into(),
            None => CliError::from(e),
        })?;
        self.write_all(b"\n")?;
        Ok(())
    }

    /// Flushes the output; for a temporary file, syncs it, gives it the permissions of
    /// the file it replaces (or 0644) and renames it over the target.
    pub fn finish(mut self) -> CliResult {
        self.flush()?;
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let label = &self.label;
        if let Some(f) = &self.file {
            if SYNC_EACH.load(Ordering::Relaxed) {
                f.sync_all()
                    .map_err(|e| format!("cannot write {label}: {e}"))?;
            }
            // A temporary file is private (0600); give the output the permissions of
            // the file it replaces, or the usual ones for a new file.
            // Never the permissions of a link's target.
            let old = match p.no_follow {
                true => std::fs::symlink_metadata(&p.target)
                    .ok()
                    .filter(|m| m.is_file()),
                false => std::fs::metadata(&p.target).ok(),
            };
            let perms = match old {
                Some(m) => m.permissions(),
                None => default_permissions(),
            };
            f.set_permissions(perms)
                .map_err(|e| format!("cannot set the permissions of {label}: {e}"))?;
        }
        if p.replace {
            p.tmp
                .persist(&p.target)
                .map_err(|e| format!("cannot replace {}: {}", p.target.display(), e.error))?;
        } else {
            p.tmp.persist_noclobber(&p.target).map_err(|e| {
                if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                    format!(
                        "cannot write {}: it appeared while it was being written; left as it is",
                        p.target.display()
                    )
                } else {
                    format!("cannot write {}: {}", p.target.display(), e.error)
                }
            })?;
        }
        Ok(())
    }

    fn named(&self, e: std::io::Error) -> std::io::Error {
        std::io::Error::new(e.kind(), format!("cannot write {}: {e}", self.label))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.w.write(buf).map_err(|e| self.named(e))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.w.write_all(buf).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush().map_err(|e| self.named(e))
    }
}

/// Stdout as a file of its own (a duplicate of descriptor 1), so that every write error
/// is seen: Rust's `Stdout` treats a closed descriptor (`EBADF`) as success.
#[cfg(unix)]
fn stdout_sink() -> CliResult<Box<dyn Write + Send>> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| format!("cannot write stdout: {e}"))?;
    let f = std::fs::File::from(fd);
    if stdout_was_closed(&f) {
        return Err(
            "cannot write stdout: it was closed when gamewire started (>&-); \
                    redirect it to a file or to /dev/null"
                .into(),
        );
    }
    Ok(Box::new(f))
}

/// An error when stdout was closed before the run (`>&-`; see [`Output::create`]), for
/// commands that print to stdout without an [`Output`].
pub fn check_stdout_open() -> CliResult {
    #[cfg(unix)]
    stdout_sink()?;
    Ok(())
}

/// True when descriptor 1 was closed before the process started (`>&-`): Rust's
/// runtime then put `/dev/null` there, which would take the output without a word.
fn stdout_was_closed(_f: &std::fs::File) -> bool {
    crate::stdout_at_start::was_closed()
}

#[cfg(not(unix))]
fn stdout_sink() -> CliResult<Box<dyn Write + Send>> {
    Ok(Box::new(std::io::stdout()))
}

#[cfg(unix)]
fn default_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

#[cfg(not(unix))]
fn default_permissions() -> std::fs::Permissions {
    let mut p = tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.permissions())
        .expect("a temporary file");
    p.set_readonly(false);
    p
}

pub use gamewire::core::json_out::CappedPretty;
#[cfg(test)]
use gamewire::core::json_out::PRETTY_DEPTH;

/// Deepest JSON nesting accepted on input. Engine formats nest up to 1024 levels, and a
/// tagged value can take up to three JSON levels per engine level.
pub const MAX_JSON_DEPTH: usize = 4096;

/// How the CLI reads JSON text: nesting up to [`MAX_JSON_DEPTH`]; a repeated key is an
/// error unless `last_key_wins`.
fn text_options(last_key_wins: bool) -> TextOptions {
    TextOptions::new(MAX_JSON_DEPTH).last_key_wins(last_key_wins)
}

/// Parses a stream of JSON documents (one or more, separated by white space) strictly
/// ([`gamewire_core::json_text`]): integers past 64 bits and repeated keys are errors,
/// named by document, line and column.
pub fn parse_json_stream(bytes: &[u8], last_key_wins: bool) -> CliResult<Vec<serde_json::Value>> {
    Ok(json_text::parse_stream(
        bytes,
        &text_options(last_key_wins),
    )?)
}

/// Parses one JSON document strictly, naming the line and column of an error.
#[allow(dead_code)] // not every format's build uses it
pub fn parse_json(bytes: &[u8], last_key_wins: bool) -> CliResult<serde_json::Value> {
    Ok(json_text::parse(bytes, &text_options(last_key_wins))?)
}

/// True when the error is a closed stdout pipe (`gamewire ... | head`): not a failure.
pub fn is_broken_pipe(e: &(dyn std::error::Error + Send + Sync + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_input_is_read_once() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.bin");
        std::fs::write(&input, b"on disk").unwrap();
        hold(Some(&input), b"held".to_vec());
        assert_eq!(read_input(Some(&input)).unwrap(), b"held");
        assert_eq!(read_input(Some(&input)).unwrap(), b"on disk");
        hold(None, b"piped".to_vec());
        assert_eq!(read_input(Some(Path::new("-"))).unwrap(), b"piped");
    }

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.bin");
        std::fs::write(&p, b"old contents").unwrap();
        write_output(Some(&p), b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let fresh = dir.path().join("fresh.bin");
            write_output(Some(&fresh), b"x").unwrap();
            assert_eq!(
                std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
                0o644
            );
        }
        // No temporary files left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn json_streams_and_deep_nesting() {
        let docs = parse_json_stream(b" 1 [2] {\"a\": \"]\"}\n", false).unwrap();
        assert_eq!(docs.len(), 3);
        let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
        // Deep parsing recurses: give it the stack the CLI's worker thread has.
        let parsed = std::thread::Builder::new()
            .stack_size(crate::WORKER_STACK)
            .spawn(move || {
                parse_json(deep.as_bytes(), false)
                    .map(std::mem::forget)
                    .is_ok()
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(parsed);
        let too_deep = "[".repeat(100_000);
        let err = parse_json(too_deep.as_bytes(), false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("limit of 4096 at line 1 column 4097"), "{err}");
        assert!(parse_json(b"[1, 2", false).is_err());
        assert!(parse_json(b"  ", false).is_err());
        assert!(parse_json(b"1 2", false).is_err());
        assert!(parse_json(b"{\"a\": 1, \"a\": 2}", false).is_err());
        assert!(parse_json(b"{\"a\": 1, \"a\": 2}", true).is_ok());
    }

    #[test]
    fn destinations_special_files_links_and_folders() {
        assert_eq!(destination(None).unwrap(), Dest::Stdout);
        assert_eq!(destination(Some(Path::new("-"))).unwrap(), Dest::Stdout);
        assert_eq!(
            destination(Some(Path::new("/dev/stdout"))).unwrap(),
            Dest::Stdout
        );
        #[cfg(target_os = "linux")]
        assert_eq!(
            destination(Some(Path::new("/dev/null"))).unwrap(),
            Dest::Direct(PathBuf::from("/dev/null"))
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let fresh = d.join("new.json");
        assert_eq!(
            destination(Some(&fresh)).unwrap(),
            Dest::Atomic(fresh.clone())
        );
        let err = destination(Some(&d.join("no-such/out.json")))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the folder") && err.contains("no-such"),
            "{err}"
        );
        assert!(destination(Some(d))
            .unwrap_err()
            .to_string()
            .contains("folder"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            std::fs::write(d.join("real.json"), b"x").unwrap();
            symlink("real.json", d.join("link.json")).unwrap();
            symlink(d.join("link.json"), d.join("link2.json")).unwrap();
            assert_eq!(
                destination(Some(&d.join("link2.json"))).unwrap(),
                Dest::Atomic(d.join("real.json"))
            );
            // A dangling link creates its target.
            symlink("later.json", d.join("dangling.json")).unwrap();
            assert_eq!(
                destination(Some(&d.join("dangling.json"))).unwrap(),
                Dest::Atomic(d.join("later.json"))
            );
            symlink("loop-b", d.join("loop-a")).unwrap();
            symlink("loop-a", d.join("loop-b")).unwrap();
            let err = destination(Some(&d.join("loop-a")))
                .unwrap_err()
                .to_string();
            assert!(err.contains("symbolic links"), "{err}");
            // Writing through the link replaces the target and keeps the link.
            write_output(Some(&d.join("link2.json")), b"new").unwrap();
            assert!(std::fs::symlink_metadata(d.join("link.json"))
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(std::fs::read(d.join("real.json")).unwrap(), b"new");
        }
    }

    #[cfg(unix)]
    #[test]
    fn create_file_never_follows_a_link_and_replaces_only_when_asked() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("outside.txt"), b"keep").unwrap();
        symlink(d.join("outside.txt"), d.join("link.json")).unwrap();
        for replace in [false, true] {
            let err = write_file(&d.join("link.json"), b"x", replace)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("link.json") && err.contains("symbolic link"),
                "{err}"
            );
        }
        assert_eq!(std::fs::read(d.join("outside.txt")).unwrap(), b"keep");
        let err = write_file(&d.join("outside.txt"), b"x", false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("exists"), "{err}");
        write_file(&d.join("outside.txt"), b"new", true).unwrap();
        assert_eq!(std::fs::read(d.join("outside.txt")).unwrap(), b"new");
        assert!(write_file(d, b"x", true)
            .unwrap_err()
            .to_string()
            .contains("folder"));
        // A file that appears before the rename is left as it is without `replace`.
        let mut out = Output::create_file(&d.join("late.json"), false).unwrap();
        out.write_all(b"mine").unwrap();
        std::fs::write(d.join("late.json"), b"theirs").unwrap();
        let err = out.finish().unwrap_err().to_string();
        assert!(err.contains("late.json"), "{err}");
        assert_eq!(std::fs::read(d.join("late.json")).unwrap(), b"theirs");
        // No temporary files left behind.
        assert_eq!(std::fs::read_dir(d).unwrap().count(), 3);
    }

    fn capped(v: &serde_json::Value) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, CappedPretty::new());
        serde::Serialize::serialize(v, &mut ser).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn capped_pretty_matches_serde_json_when_shallow_and_is_compact_deeper() {
        let v = serde_json::json!({"a": [1, {"b": [], "c": {}}, [[2]]], "d": "x", "e": null});
        assert_eq!(capped(&v), serde_json::to_string_pretty(&v).unwrap());
        let mut deep = serde_json::json!(1);
        for _ in 0..200 {
            deep = serde_json::json!([deep, {"k": 2}]);
        }
        let text = capped(&deep);
        let back: serde_json::Value = {
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            serde::Deserialize::deserialize(&mut de).unwrap()
        };
        assert_eq!(back, deep);
        // Lines only for the first PRETTY_DEPTH levels; no line indented further.
        assert!(
            text.lines().count() < 6 * PRETTY_DEPTH,
            "{}",
            text.lines().count()
        );
        let widest = text.lines().map(|l| l.len() - l.trim_start().len()).max();
        assert_eq!(widest, Some(2 * PRETTY_DEPTH));
    }

    #[test]
    fn failed_write_leaves_no_file() {
        let p = Path::new("/nonexistent-dir-gamewire/out.bin");
        assert!(write_output(Some(p), b"x").is_err());
        assert!(!p.exists());
    }
}
