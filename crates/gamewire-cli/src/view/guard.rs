//! What `gamewire view` lets a request reach: the token every request carries, the
//! `Host` header (against DNS rebinding), and the files inside the roots given.

use std::net::IpAddr;
use std::path::{Component, Path, PathBuf};

/// The name of the cookie holding the token (per port: two servers on one host do not
/// overwrite each other's).
pub fn cookie_name(port: u16) -> String {
    format!("gamewire_view_{port}")
}

/// A new random token: 32 bytes from the operating system, in hex.
pub fn new_token() -> std::io::Result<String> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Compares two tokens in time independent of where they differ.
pub fn same_token(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The tokens a request carries: `?token=`, an `Authorization: token T` header, an
/// `X-Gamewire-Token` header, and the cookie unless `with_cookie` is false. Cookies are
/// not kept apart by port, so any page served from 127.0.0.1 can make the browser send
/// them: requests that change something must carry the token otherwise (a page of
/// another origin cannot set a header without the server's leave, which this one never
/// gives).
pub fn request_token<'a>(
    query: Option<&'a str>,
    headers: &'a axum::http::HeaderMap,
    cookie: &str,
    with_cookie: bool,
) -> Vec<&'a str> {
    let mut found = Vec::new();
    if let Some(q) = query {
        for pair in q.split('&') {
            if let Some(v) = pair.strip_prefix("token=") {
                found.push(v);
            }
        }
    }
    if let Some(v) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        if let Some(t) = v.strip_prefix("token ") {
            found.push(t.trim());
        }
    }
    if let Some(v) = headers
        .get("x-gamewire-token")
        .and_then(|v| v.to_str().ok())
    {
        found.push(v.trim());
    }
    let cookies = if with_cookie {
        headers.get_all(axum::http::header::COOKIE).iter().collect()
    } else {
        Vec::new()
    };
    for v in cookies {
        let Ok(v) = v.to_str() else { continue };
        for c in v.split(';') {
            if let Some((k, val)) = c.trim().split_once('=') {
                if k == cookie {
                    found.push(val);
                }
            }
        }
    }
    found
}

/// Whether a `Host` header is acceptable. A page served from a DNS name that an attacker
/// points at 127.0.0.1 (DNS rebinding) sends that name: only `localhost` and IP
/// addresses are accepted, loopback ones when the server is bound to loopback, and the
/// name given by `--host`.
pub fn host_allowed(host: &str, bound_loopback: bool, given_host: Option<&str>) -> bool {
    let name = strip_port(host);
    if given_host.is_some_and(|g| g.eq_ignore_ascii_case(name)) {
        return true;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = name.trim_start_matches('[').trim_end_matches(']');
    match ip.parse::<IpAddr>() {
        Ok(ip) => !bound_loopback || ip.is_loopback(),
        Err(_) => false,
    }
}

/// `host:port` without the port (`[::1]:80` → `[::1]`).
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

/// One path given on the command line.
#[derive(Debug)]
struct Root {
    /// As given, for display.
    shown: String,
    /// The folder, canonical (for a file given: its folder).
    dir: PathBuf,
    /// A file given: the only file served from `dir`, canonical.
    only: Option<PathBuf>,
}

/// The paths given on the command line; every file the page names is resolved through
/// them and must stay inside one.
#[derive(Debug)]
pub struct Roots {
    roots: Vec<Root>,
}

/// Why a path was refused.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// At most this many files are listed per root.
pub const MAX_LISTED: usize = 20_000;

impl Roots {
    /// The roots for `paths` (each must exist).
    pub fn new(paths: &[PathBuf]) -> Result<Roots, String> {
        let mut roots = Vec::new();
        for p in paths {
            let canon = std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let shown = p.display().to_string();
            if canon.is_dir() {
                roots.push(Root {
                    shown,
                    dir: canon,
                    only: None,
                });
            } else if canon.is_file() {
                let dir = canon.parent().map(Path::to_path_buf).unwrap_or_default();
                roots.push(Root {
                    shown,
                    dir,
                    only: Some(canon),
                });
            } else {
                return Err(format!("{}: neither a file nor a folder", p.display()));
            }
        }
        Ok(Roots { roots })
    }

    /// Each root as given, with its index.
    pub fn shown(&self) -> Vec<String> {
        self.roots.iter().map(|r| r.shown.clone()).collect()
    }

    /// Resolves a file id (`ROOT/relative/path`, as [`Roots::list`] gives) to the
    /// canonical path of a regular file inside that root, or refuses it.
    pub fn resolve(&self, id: &str) -> Result<PathBuf, Refused> {
        let refuse = |why: &str| Err(Refused(format!("{id:?}: {why}")));
        let Some((index, rel)) = id.split_once('/') else {
            return refuse("not a file id (ROOT/PATH)");
        };
        let Some(root) = index.parse::<usize>().ok().and_then(|i| self.roots.get(i)) else {
            return refuse("no such root");
        };
        if rel.is_empty() || rel.contains('\\') || rel.contains('\0') {
            return refuse("not a relative path");
        }
        let rel_path = Path::new(rel);
        for c in rel_path.components() {
            match c {
                Component::Normal(_) => {}
                Component::ParentDir => return refuse("`..` is not allowed"),
                _ => return refuse("not a plain relative path"),
            }
        }
        if rel.split('/').any(|s| s.is_empty() || s == ".") {
            return refuse("not a plain relative path");
        }
        let joined = root.dir.join(rel_path);
        let canon = match std::fs::canonicalize(&joined) {
            Ok(c) => c,
            Err(e) => return Err(Refused(format!("{id:?}: {e}"))),
        };
        if !canon.starts_with(&root.dir) {
            return refuse("outside the folders given (a symbolic link leads out)");
        }
        if let Some(only) = &root.only {
            if &canon != only {
                return refuse("not the file given");
            }
        }
        if !canon.is_file() {
            return refuse("not a regular file");
        }
        Ok(canon)
    }

    /// Every file inside the roots, as (id, canonical path, size): folders walked
    /// recursively, hidden entries (`.name`) and links leading outside skipped.
    pub fn list(&self) -> Vec<(String, PathBuf, u64)> {
        let mut out = Vec::new();
        for (i, root) in self.roots.iter().enumerate() {
            if let Some(only) = &root.only {
                let name = only.file_name().unwrap_or_default().to_string_lossy();
                let size = std::fs::metadata(only).map(|m| m.len()).unwrap_or(0);
                out.push((format!("{i}/{name}"), only.clone(), size));
                continue;
            }
            let mut stack = vec![root.dir.clone()];
            let start = out.len();
            while let Some(dir) = stack.pop() {
                let Ok(rd) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
                entries.sort_by_key(|e| e.file_name());
                for e in entries.into_iter().rev() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.starts_with('.') {
                        continue;
                    }
                    let Ok(canon) = std::fs::canonicalize(e.path()) else {
                        continue;
                    };
                    if !canon.starts_with(&root.dir) {
                        continue;
                    }
                    let Ok(meta) = std::fs::metadata(&canon) else {
                        continue;
                    };
                    if meta.is_dir() {
                        // A link to a folder inside the root would be walked twice.
                        if !e.file_type().is_ok_and(|t| t.is_symlink()) {
                            stack.push(e.path());
                        }
                    } else if meta.is_file() && out.len() - start < MAX_LISTED {
                        let rel = e
                            .path()
                            .strip_prefix(&root.dir)
                            .map(|r| r.to_string_lossy().replace('\\', "/"))
                            .unwrap_or(name);
                        out.push((format!("{i}/{rel}"), canon, meta.len()));
                    }
                }
            }
            out[start..].sort_by(|a, b| a.0.cmp(&b.0));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert!(host_allowed("127.0.0.1:8888", true, None));
        assert!(host_allowed("localhost:1", true, None));
        assert!(host_allowed("[::1]:1", true, None));
        assert!(!host_allowed("evil.example:8888", true, None));
        assert!(!host_allowed("10.0.0.1:8888", true, None));
        assert!(host_allowed("10.0.0.1:8888", false, None));
        assert!(host_allowed("box.lan:1", false, Some("box.lan")));
        assert!(!host_allowed("127.0.0.1.evil.example", true, None));
    }

    #[test]
    fn tokens() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abd", "abc"));
        assert!(!same_token("ab", "abc"));
    }
}
