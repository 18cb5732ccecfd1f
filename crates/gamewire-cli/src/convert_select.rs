//! Which files a `gamewire convert` run takes: the lists of `--files-from`, the input
//! list put in one order that every machine agrees on, and the part of it `--shard K/N`
//! names, so that N runs under any scheduler convert disjoint parts of one whole.

use crate::CliResult;
use std::collections::HashSet;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// `--shard K/N`: the K-th (from 1) of N parts of the input list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1 to `n`.
    pub k: usize,
    /// How many parts.
    pub n: usize,
}

impl Shard {
    /// Whether the file at `index` of the sorted input list belongs to this part: file
    /// `i` goes to part `i mod N + 1`, so parts differ in size by one file at most and
    /// each takes files from every folder of the list.
    pub fn takes(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Parses `K/N` for `--shard`, refusing a part that does not exist.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("{s:?} is not K/N (the K-th of N parts, e.g. 2/8)"))?;
    let num = |t: &str, what: &str| -> Result<usize, String> {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?}: {what} {t:?} is not a whole number"))
    };
    let (k, n) = (num(k, "K")?, num(n, "N")?);
    if n == 0 {
        return Err(format!("{s:?}: N must be at least 1 (the number of parts)"));
    }
    if k == 0 || k > n {
        return Err(format!(
            "{s:?}: K must be from 1 to {n} (parts are counted from 1)"
        ));
    }
    Ok(Shard { k, n })
}

/// Refuses `--files-from`, `--shard` and `--summary-json` with archives named on the
/// command line (a KingsIsle `.wad`, a Godot `.pck`): an archive is converted on its own,
/// entry by entry into its folder, which is not split into parts.
pub fn refuse_archives(args: &crate::convert::ConvertArgs) -> CliResult {
    if args.files_from.is_empty() && args.shard.is_none() && args.summary_json.is_none() {
        return Ok(());
    }
    if args.to != crate::convert::Target::Json {
        return Ok(());
    }
    for p in &args.inputs {
        if is_archive(p) {
            return Err(format!(
                "{}: an archive is converted on its own (convert ARCHIVE), not with \
                 --files-from, --shard or --summary-json",
                p.display()
            )
            .into());
        }
    }
    Ok(())
}

/// True when the file at `p` starts like an archive `convert` unpacks.
fn is_archive(p: &Path) -> bool {
    let mut head = Vec::with_capacity(16);
    let Ok(f) = std::fs::File::open(p) else {
        return false;
    };
    if f.take(16).read_to_end(&mut head).is_err() {
        return false;
    }
    #[cfg(feature = "godot")]
    if gamewire::godot::pck::sniff(&head) {
        return true;
    }
    gamewire::archive_kind(&head).is_some()
}

/// A file named in a `--files-from` list: its path and where it was named.
pub struct Listed {
    /// The path as the line gives it (relative to the current folder).
    pub path: PathBuf,
    /// The folder its output path under `--out-dir` is made relative to: the current
    /// folder for a relative path (so `a/b.dat` goes to `OUT/a/b.dat.json`), the root for
    /// an absolute one.
    pub base: PathBuf,
}

/// Reads the `--files-from` lists (`-`: standard input, at most once), one path a line;
/// blank lines are passed over and a line's final carriage return is dropped (lists
/// written on Windows). Every line must name an existing file: a missing one, or a
/// folder, is an error naming the list and the line.
pub fn read_lists(lists: &[PathBuf]) -> CliResult<Vec<Listed>> {
    if lists.iter().filter(|l| l.as_os_str() == "-").count() > 1 {
        return Err("--files-from - (standard input) can be given once".into());
    }
    let mut out = Vec::new();
    for list in lists {
        let (shown, text) = if list.as_os_str() == "-" {
            let mut text = Vec::new();
            std::io::stdin()
                .read_to_end(&mut text)
                .map_err(|e| format!("--files-from -: cannot read standard input: {e}"))?;
            ("<stdin>".to_owned(), text)
        } else {
            let text =
                std::fs::read(list).map_err(|e| format!("--files-from {}: {e}", list.display()))?;
            (list.display().to_string(), text)
        };
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let path = path_of(line).map_err(|e| format!("{shown}:{}: {e}", i + 1))?;
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => {}
                Ok(_) => {
                    return Err(format!(
                        "{shown}:{}: {} is not a file (a list names files, one a line)",
                        i + 1,
                        path.display()
                    )
                    .into())
                }
                Err(e) => return Err(format!("{shown}:{}: {}: {e}", i + 1, path.display()).into()),
            }
            let base = path
                .ancestors()
                .last()
                .unwrap_or(Path::new(""))
                .to_path_buf();
            out.push(Listed { path, base });
        }
    }
    Ok(out)
}

/// A list line as a path: its bytes as they are on Unix; elsewhere it must be UTF-8.
#[cfg(unix)]
fn path_of(line: &[u8]) -> Result<PathBuf, String> {
    use std::os::unix::ffi::OsStrExt;
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(line)))
}

/// A list line as a path: its bytes as they are on Unix; elsewhere it must be UTF-8.
#[cfg(not(unix))]
fn path_of(line: &[u8]) -> Result<PathBuf, String> {
    std::str::from_utf8(line)
        .map(PathBuf::from)
        .map_err(|_| "the path is not UTF-8".to_owned())
}

/// The key a path is de-duplicated and sorted by: its components without `.` (`./a//b`
/// and `a/b` are one file), as bytes, so the order is the same on every machine and in
/// every locale. The same file reached by two different names (a link, `..`) counts
/// twice here; one run still converts it once (see `convert`'s planning).
pub fn sort_key(p: &Path) -> Vec<u8> {
    let normal: PathBuf = p
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    normal.as_os_str().as_encoded_bytes().to_vec()
}

/// Puts `items` in the order of their paths' [`sort_key`], keeping the first of each
/// path (in the order the command line and lists gave them).
pub fn sort_unique<T>(items: Vec<T>, path: impl Fn(&T) -> &Path) -> Vec<T> {
    let mut seen = HashSet::new();
    let mut keyed: Vec<(Vec<u8>, T)> = items
        .into_iter()
        .filter_map(|t| {
            let key = sort_key(path(&t));
            seen.insert(key.clone()).then_some((key, t))
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_are_checked() {
        assert_eq!(parse_shard("2/8"), Ok(Shard { k: 2, n: 8 }));
        assert_eq!(parse_shard("1/1"), Ok(Shard { k: 1, n: 1 }));
        assert!(parse_shard("0/4").unwrap_err().contains("from 1 to 4"));
        assert!(parse_shard("5/4").unwrap_err().contains("from 1 to 4"));
        assert!(parse_shard("1/0").unwrap_err().contains("at least 1"));
        assert!(parse_shard("3").unwrap_err().contains("K/N"));
        assert!(parse_shard("a/2").unwrap_err().contains("whole number"));
        assert!(parse_shard("-1/2").unwrap_err().contains("whole number"));
    }

    #[test]
    fn parts_are_disjoint_and_cover_the_list() {
        for n in 1..6 {
            let parts: Vec<Shard> = (1..=n).map(|k| Shard { k, n }).collect();
            for i in 0..23 {
                assert_eq!(parts.iter().filter(|s| s.takes(i)).count(), 1, "{i} of {n}");
            }
        }
    }

    #[test]
    fn order_is_by_bytes_and_names_are_kept_once() {
        let paths = ["b/x", "a/b", "./a/b", "a-b", "a//b", "B", "a/b/"];
        let sorted = sort_unique(paths.to_vec(), |p| Path::new(p));
        // '-' (0x2d) sorts before '/' (0x2f), upper case before lower: bytes, not locale.
        assert_eq!(sorted, ["B", "a-b", "a/b", "b/x"]);
    }
}
