//! `gamewire view`: the server's rules, against the real server on 127.0.0.1 — the
//! token, the `Host` header, paths kept inside the roots, writes only to files the page
//! opened — and the open → edit → save loop through the library.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

/// A running `gamewire view`, killed when dropped.
/// A Bytes answer's offset, length and hex.
fn span(b: &Value) -> (Option<u64>, Option<u64>, Option<&str>) {
    (
        b["offset"].as_u64(),
        b["length"].as_u64(),
        b["hex"].as_str(),
    )
}

struct Server {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `gamewire view --no-browser --port 0 PATHS` and reads its address.
fn start(paths: &[&Path]) -> Server {
    start_with(paths, &[])
}

/// [`start`] with environment variables set.
fn start_with(paths: &[&Path], env: &[(&str, &str)]) -> Server {
    let mut child = common::bin()
        .envs(env.iter().copied())
        .arg("view")
        .arg("--no-browser")
        .args(["--port", "0"])
        .args(paths)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim();
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("first line is not the address: {url:?}"));
    let (port, token) = rest.split_once("/?token=").unwrap();
    assert!(token.len() >= 32, "a short token: {token:?}");
    Server {
        child,
        port: port.parse().unwrap(),
        token: token.to_owned(),
    }
}

/// One HTTP/1.1 request; the status and the body.
fn request(
    port: u16,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut req = format!("{method} {target} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let text = String::from_utf8_lossy(&resp).into_owned();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

/// The body of a chunked response.
fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

impl Server {
    /// A request with the token in a header.
    fn api(&self, method: &str, target: &str, body: &str) -> (u16, Value) {
        let (status, text) = request(
            self.port,
            method,
            target,
            &[("X-Gamewire-Token", &self.token)],
            body,
        );
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// `GET /api/bytes?...` (`target` the whole path and query).
    fn bytes(&self, target: &str) -> (u16, Value) {
        self.api("GET", target, "")
    }

    fn open(&self, id: &str) -> (u16, Value) {
        self.api("POST", "/api/open", &json!({ "file": id }).to_string())
    }
}

/// A folder holding copies of `files` from the repository's samples.
fn folder(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    for f in files {
        let from = samples.join(f);
        std::fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    dir
}

/// The JSON document `gamewire decode FILE` writes.
fn decode(path: &Path) -> Value {
    let out = common::gamewire(&["decode", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_request_needs_the_token() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let s = start(&[dir.path()]);
    let port = s.port;
    assert_eq!(request(port, "GET", "/", &[], "").0, 403);
    assert_eq!(request(port, "GET", "/app.js", &[], "").0, 403);
    assert_eq!(request(port, "GET", "/api/files", &[], "").0, 403);
    let wrong = "0".repeat(s.token.len());
    assert_eq!(
        request(port, "GET", &format!("/api/files?token={wrong}"), &[], "").0,
        403
    );
    assert_eq!(
        request(
            port,
            "GET",
            "/api/files",
            &[("X-Gamewire-Token", &wrong)],
            ""
        )
        .0,
        403
    );
    // The token in the query, a header, or the cookie the page sets.
    let (status, page) = request(port, "GET", &format!("/?token={}", s.token), &[], "");
    assert_eq!(status, 200);
    assert!(page.contains("role=\"tree\""));
    let auth = format!("token {}", s.token);
    assert_eq!(
        request(port, "GET", "/api/files", &[("Authorization", &auth)], "").0,
        200
    );
    let cookie = format!("gamewire_view_{port}={}", s.token);
    assert_eq!(
        request(port, "GET", "/app.js", &[("Cookie", &cookie)], "").0,
        200
    );
    // Changing anything needs the token beyond the cookie, which the browser sends for
    // any page on 127.0.0.1, whatever its port.
    let open = json!({"file": "0/save.godot3.bin"}).to_string();
    let (status, body) = request(port, "POST", "/api/open", &[("Cookie", &cookie)], &open);
    assert_eq!(status, 403, "{body}");
    let (status, body) = request(
        port,
        "POST",
        "/api/open",
        &[("Cookie", &cookie), ("X-Gamewire-Token", &s.token)],
        &open,
    );
    assert_eq!(status, 200, "{body}");
    // A cookie of another port's server is not this one's.
    let other = format!("gamewire_view_{}={}", port.wrapping_add(1), s.token);
    assert_eq!(
        request(port, "GET", "/app.js", &[("Cookie", &other)], "").0,
        403
    );
}

#[test]
fn the_host_header_must_be_loopback() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let s = start(&[dir.path()]);
    let tok = ("X-Gamewire-Token", s.token.as_str());
    for host in [
        "evil.example",
        "evil.example:80",
        "127.0.0.1.nip.io",
        "10.1.2.3:8888",
        "",
    ] {
        let (status, _) = request(s.port, "GET", "/api/files", &[("Host", host), tok], "");
        assert_eq!(status, 403, "Host {host:?}");
    }
    for host in [format!("localhost:{}", s.port), format!("[::1]:{}", s.port)] {
        let (status, _) = request(s.port, "GET", "/api/files", &[("Host", &host), tok], "");
        assert_eq!(status, 200, "Host {host:?}");
    }
}

#[test]
fn paths_stay_inside_the_roots() {
    let outside = folder(&["godot/save.godot3.bin"]);
    let dir = folder(&["godot/stream.godot3.bin"]);
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::copy(
        outside.path().join("save.godot3.bin"),
        dir.path().join("sub/inner.godot3.bin"),
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("save.godot3.bin"),
            dir.path().join("escape.bin"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("escape_dir")).unwrap();
        std::os::unix::fs::symlink(
            dir.path().join("sub/inner.godot3.bin"),
            dir.path().join("inside.bin"),
        )
        .unwrap();
    }
    let s = start(&[dir.path()]);
    let (status, files) = s.api("GET", "/api/files", "");
    assert_eq!(status, 200);
    let ids: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"0/stream.godot3.bin"), "{ids:?}");
    assert!(ids.contains(&"0/sub/inner.godot3.bin"), "{ids:?}");
    assert!(!ids.iter().any(|i| i.contains("escape")), "{ids:?}");
    let name = outside.path().file_name().unwrap().to_str().unwrap();
    for id in [
        "0/../".to_owned() + name + "/save.godot3.bin",
        "0/sub/../../".to_owned() + name + "/save.godot3.bin",
        outside.path().join("save.godot3.bin").display().to_string(),
        "0//etc/passwd".to_owned(),
        "0/./stream.godot3.bin".to_owned(),
        "1/stream.godot3.bin".to_owned(),
        "0/escape.bin".to_owned(),
        "0/escape_dir/save.godot3.bin".to_owned(),
    ] {
        let (status, body) = s.open(&id);
        assert_eq!(status, 403, "{id}: {body}");
    }
    let (status, body) = s.open("0/sub/inner.godot3.bin");
    assert_eq!(status, 200, "{body}");
    #[cfg(unix)]
    {
        let (status, body) = s.open("0/inside.bin");
        assert_eq!(status, 200, "a link inside the root: {body}");
    }
}

#[test]
fn a_file_given_serves_that_file_only() {
    let dir = folder(&["godot/save.godot3.bin", "godot/stream.godot3.bin"]);
    let s = start(&[&dir.path().join("save.godot3.bin")]);
    let (_, files) = s.api("GET", "/api/files", "");
    assert_eq!(files["files"].as_array().unwrap().len(), 1, "{files}");
    assert_eq!(s.open("0/save.godot3.bin").0, 200);
    assert_eq!(s.open("0/stream.godot3.bin").0, 403);
}

#[test]
fn writes_go_only_to_files_the_page_opened() {
    let dir = folder(&["godot/save.godot3.bin", "godot/stream.godot3.bin"]);
    let s = start(&[dir.path()]);
    let before = std::fs::read(dir.path().join("stream.godot3.bin")).unwrap();
    let patch = json!({"file": "0/stream.godot3.bin", "ops": [{"op": "replace", "path": "/0", "value": 1}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 403);
    let (status, body) = s.api(
        "POST",
        "/api/save",
        &json!({"file": "0/stream.godot3.bin"}).to_string(),
    );
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("not opened"));
    assert_eq!(
        std::fs::read(dir.path().join("stream.godot3.bin")).unwrap(),
        before
    );
}

/// Opens `id`, replaces the value at `pointer` with `value`, saves, and checks with
/// `gamewire decode` that the file holds the new value and nothing else changed.
fn edit_and_save(s: &Server, dir: &Path, id: &str, pointer: &str, value: Value) {
    let path = dir.join(&id[2..]);
    let before = decode(&path);
    let (status, opened) = s.open(id);
    assert_eq!(status, 200, "{opened}");
    assert_eq!(
        opened["settings"],
        before["$gamewire"].clone().with_relative_side_files(),
        "{id}"
    );
    let patch = json!({"file": id, "ops": [{"op": "replace", "path": pointer, "value": value}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    let (_, changes) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(changes["changes"].as_array().unwrap().len(), 1, "{changes}");
    assert_eq!(changes["changes"][0]["pointer"], pointer);
    let (status, body) = s.api("POST", "/api/save", &json!({"file": id}).to_string());
    assert_eq!(status, 200, "{id}: {body}");
    let after = decode(&path);
    assert_eq!(after["data"].pointer(pointer), Some(&value), "{id}");
    let mut expected = before["data"].clone();
    *expected.pointer_mut(pointer).unwrap() = value;
    assert_eq!(after["data"], expected, "{id}: only {pointer} changes");
    let (_, changes) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(
        changes["changes"],
        json!([]),
        "saved: the page holds the disk's values"
    );
}

/// Side file paths as the header names them from the file's own folder.
trait Relative {
    fn with_relative_side_files(self) -> Value;
}

impl Relative for Value {
    fn with_relative_side_files(mut self) -> Value {
        if let Value::Object(m) = &mut self {
            for v in m.values_mut() {
                if let Some(Value::String(p)) = v.get_mut("path") {
                    *p = PathBuf::from(&*p)
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                }
            }
        }
        self
    }
}

#[test]
fn open_edit_save_each_format() {
    let dir = folder(&[
        "godot/save.godot3.bin",
        "kingsisle/item.bin",
        "kingsisle/types.json",
        "zeze/BSimple.zeze",
        "zeze/zeze-solution.xml",
        "resonite/item.brson",
        "o3de/Sound_Effect.prefab",
    ]);
    let s = start(&[dir.path()]);
    let d = dir.path();
    edit_and_save(&s, d, "0/save.godot3.bin", "/entries/0/1/level", json!(13));
    edit_and_save(&s, d, "0/save.godot3.bin", "/entries/0/1/hp", json!(90.25));
    edit_and_save(&s, d, "0/item.bin", "/m_name", json!("Rain Hat"));
    edit_and_save(&s, d, "0/BSimple.zeze", "/f", json!(2.75));
    edit_and_save(
        &s,
        d,
        "0/item.brson",
        "/VersionNumber",
        json!("2024.8.5.1347"),
    );
    edit_and_save(
        &s,
        d,
        "0/Sound_Effect.prefab",
        "/ContainerEntity/Name",
        json!("Sound_Effect2"),
    );
}

#[test]
fn a_save_that_fails_writes_nothing() {
    let dir = folder(&["zeze/BSimple.zeze", "zeze/zeze-solution.xml"]);
    let s = start(&[dir.path()]);
    let path = dir.path().join("BSimple.zeze");
    let before = std::fs::read(&path).unwrap();
    assert_eq!(s.open("0/BSimple.zeze").0, 200);
    // A value its place's type refuses is refused at once.
    let patch = json!({"file": "0/BSimple.zeze", "ops": [{"op": "replace", "path": "/i", "value": "not a number"}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 422);
    // One the page has no type for (a string's place) is taken, and refused on save.
    let patch =
        json!({"file": "0/BSimple.zeze", "ops": [{"op": "replace", "path": "/s", "value": 5}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 200);
    let (status, body) = s.api(
        "POST",
        "/api/save",
        &json!({"file": "0/BSimple.zeze"}).to_string(),
    );
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("not saved"),
        "{body}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

#[test]
fn two_files_compared() {
    let dir = folder(&[
        "godot/save.godot3.bin",
        "zeze/BSimple.zeze",
        "zeze/zeze-solution.xml",
    ]);
    std::fs::copy(
        dir.path().join("save.godot3.bin"),
        dir.path().join("b.godot3.bin"),
    )
    .unwrap();
    let s = start(&[dir.path()]);
    assert_eq!(s.open("0/b.godot3.bin").0, 200);
    let patch = json!({"file": "0/b.godot3.bin", "ops": [{"op": "replace", "path": "/entries/0/1/name", "value": "Bob"}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 200);
    let (status, r) = s.api(
        "GET",
        "/api/compare?file=0/save.godot3.bin&other=0/b.godot3.bin",
        "",
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        r["changes"],
        json!([{"pointer": "/entries/0/1/name", "old": "\"Ann\"", "new": "\"Bob\"", "what": "changed"}])
    );
    let (status, r) = s.api(
        "GET",
        "/api/compare?file=0/save.godot3.bin&other=0/BSimple.zeze",
        "",
    );
    assert_eq!(status, 422, "{r}");
    let (status, _) = s.api(
        "GET",
        "/api/compare?file=0/save.godot3.bin&other=0/../x",
        "",
    );
    assert_eq!(status, 403);
}

/// Each listed value carries the type the library gives it (a KingsIsle enum's options
/// and colour's components from the type list, a Zeze integer's range from the
/// solution), and an edit that does not fit it is refused with the message and changes
/// nothing.
#[test]
fn values_carry_their_types_and_edits_must_fit_them() {
    let dir = folder(&[
        "kingsisle/item.bin",
        "kingsisle/types.json",
        "zeze/BSimple.zeze",
        "zeze/zeze-solution.xml",
        "o3de/sample-entity.json",
        "o3de/o3de-registry.json",
    ]);
    let s = start(&[dir.path()]);
    // An O3DE registry's Quaternion, as a hint for the editor.
    assert_eq!(s.open("0/sample-entity.json").0, 200);
    let (status, node) = s.api(
        "GET",
        "/api/node?file=0/sample-entity.json&pointer=/ClassData/Components/Component_%5B1001%5D/Transform%20Data",
        "",
    );
    assert_eq!(status, 200, "{node}");
    let rotation = node["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == "Rotation")
        .unwrap()
        .clone();
    assert_eq!(rotation["type"]["kind"], "components", "{rotation}");
    assert_eq!(rotation["type"]["name"], "Quaternion", "{rotation}");
    let (status, opened) = s.open("0/item.bin");
    assert_eq!(status, 200, "{opened}");
    let kids = opened["node"]["children"].as_array().unwrap();
    let by_key = |k: &str| kids.iter().find(|c| c["key"] == k).unwrap().clone();
    let rarity = by_key("m_rarity");
    assert_eq!(rarity["type"]["kind"], "enum", "{rarity}");
    assert_eq!(
        rarity["type"]["options"],
        json!(["RARITY_COMMON", "RARITY_RARE", "RARITY_EPIC"])
    );
    let colour = by_key("m_color");
    assert_eq!(colour["type"]["kind"], "components", "{colour}");
    assert_eq!(colour["type"]["colour"], "byte");
    assert_eq!(colour["type"]["components"][0]["type"]["max"], "255");
    // Its numbers, for the tree's row.
    assert_eq!(colour["parts"], json!(["30", "60", "200", "255"]));
    let id = "0/item.bin";
    for (pointer, value, message) in [
        (
            "/m_color/r",
            json!(300),
            "/m_color/r: 300 is outside unsigned char's range (0 to 255)",
        ),
        (
            "/m_rarity",
            json!("RARITY_MYTHIC"),
            "\"RARITY_MYTHIC\" is not an option of enum Rarity",
        ),
        ("/m_position/x", json!(2), "is an integer; float is a float"),
    ] {
        let ops = json!({"file": id, "ops": [{"op": "replace", "path": pointer, "value": value}]});
        let (status, body) = s.api("POST", "/api/patch", &ops.to_string());
        assert_eq!(status, 422, "{pointer}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(message),
            "{pointer}: {body}"
        );
    }
    let (_, changes) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(changes["changes"], json!([]), "nothing was changed");
    // The Zeze solution's int.
    let (status, opened) = s.open("0/BSimple.zeze");
    assert_eq!(status, 200, "{opened}");
    let i = opened["node"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == "i")
        .unwrap()
        .clone();
    assert_eq!(i["type"]["min"], "-2147483648", "{i}");
    let ops = json!({"file": "0/BSimple.zeze", "ops": [{"op": "replace", "path": "/i", "value": 2147483648u64}]});
    let (status, body) = s.api("POST", "/api/patch", &ops.to_string());
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("outside int's range"),
        "{body}"
    );
}

#[test]
fn lists_are_served_a_page_at_a_time() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let s = start(&[dir.path()]);
    assert_eq!(s.open("0/save.godot3.bin").0, 200);
    let (status, n) = s.api(
        "GET",
        "/api/node?file=0/save.godot3.bin&pointer=/entries&offset=2&limit=3",
        "",
    );
    assert_eq!(status, 200, "{n}");
    assert_eq!(n["count"], 6);
    let keys: Vec<&Value> = n["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["key"])
        .collect();
    assert_eq!(keys, [&json!(2), &json!(3), &json!(4)]);
    let (_, n) = s.api(
        "GET",
        "/api/node?file=0/save.godot3.bin&pointer=/entries/1/1/seed",
        "",
    );
    assert_eq!(n["kind"], "integer");
    assert_eq!(n["text"], "9000000000");
    let (_, n) = s.api(
        "GET",
        "/api/node?file=0/save.godot3.bin&pointer=/entries/0/1/position/value/1",
        "",
    );
    assert_eq!(
        (n["kind"].as_str(), n["text"].as_str()),
        (Some("float"), Some("0.0"))
    );
    let (_, hits) = s.api("GET", "/api/search?file=0/save.godot3.bin&q=sHIeld", "");
    assert_eq!(hits["hits"][0]["pointer"], "/entries/0/1/inventory/1");
}

/// The browser test's folder: `tests/peers/view`.
fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/view")
}

/// Why the page cannot be driven in a browser here, if it cannot.
fn browser_absent() -> Option<String> {
    let chromium = std::env::var_os("GAMEWIRE_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !gamewire_core::peers::program_exists("node") {
        Some("node is not installed (apt-get install nodejs)".into())
    } else if !chromium.is_file() {
        Some(format!(
            "{} is absent (apt-get install chromium)",
            chromium.display()
        ))
    } else if !browser_dir()
        .join("node_modules/playwright-core/package.json")
        .is_file()
    {
        Some("playwright-core absent (npm ci in tests/peers/view)".into())
    } else {
        None
    }
}

/// The page in headless Chromium: a user opens a file of each format from the list,
/// finds a value by search, edits it in its editor (an integer, a float typed as `3`,
/// a boolean, strings), looks at the changes, undoes and redoes, and saves; the library
/// then reads each file on disk with the new value and every other value as it was.
#[test]
fn the_page_in_a_real_browser() {
    let absent = browser_absent();
    if !gamewire_core::peers::available(
        "chromium + playwright-core (tests/peers/view)",
        absent.is_none(),
        absent.as_deref().unwrap_or(""),
    ) {
        eprintln!("skipped: {}", absent.unwrap_or_default());
        return;
    }
    let dir = folder(&[
        "godot/save.godot3.bin",
        "kingsisle/item.bin",
        "kingsisle/types.json",
        "zeze/BSimple.zeze",
        "zeze/zeze-solution.xml",
        "resonite/item.brson",
        "o3de/Sound_Effect.prefab",
    ]);
    // (file, search, pointer, typed, the value the library must then read)
    let cases = [
        ("BSimple.zeze", "1.5", "/f", "3", json!(3.0)),
        ("BSimple.zeze", "b", "/b", "false", json!(false)),
        (
            "item.bin",
            "Storm Hat",
            "/m_name",
            "Rain Hat",
            json!("Rain Hat"),
        ),
        (
            "item.brson",
            "VersionNumber",
            "/VersionNumber",
            "2024.8.5.1347",
            json!("2024.8.5.1347"),
        ),
        (
            "Sound_Effect.prefab",
            "Sound_Effect",
            "/ContainerEntity/Name",
            "Sound_Effect2",
            json!("Sound_Effect2"),
        ),
        (
            "bom-reader.godot4.save",
            "main.tscn",
            "/0/filename",
            "res://other.tscn",
            json!("res://other.tscn"),
        ),
        (
            "save.godot3.bin",
            "level",
            "/entries/0/1/level",
            "13",
            json!(13),
        ),
        // An enum, by name from the type list's options (the screenshot's case).
        (
            "item.bin",
            "RARITY",
            "/m_rarity",
            "RARITY_COMMON",
            json!("RARITY_COMMON"),
        ),
    ];
    // Vectors and colours edited by component: (file, search, pointer, a value refused:
    // [component, text, message], components set, the components as the library then
    // reads them).
    let components = [
        (
            "shape.godot3.bin",
            "pos",
            "/pos",
            json!(["z", "1e39", "1e39 is outside real's range"]),
            json!({"y": "-4.5"}),
            vec![("/pos/value/1", json!(-4.5))],
        ),
        (
            "item.bin",
            "m_color",
            "/m_color",
            json!([
                "r",
                "300",
                "300 is outside unsigned char's range (0 to 255)"
            ]),
            json!({"r": "200"}),
            vec![("/m_color/r", json!(200))],
        ),
        (
            "shape.godot3.bin",
            "tint",
            "/tint",
            json!(["g", "x", "is not a finite number"]),
            json!({"r": "0.25", "a": "0.5"}),
            vec![
                ("/tint/value/0", json!(0.25)),
                ("/tint/value/3", json!(0.5)),
            ],
        ),
    ];
    // A Godot file with a vector and a colour, written by the library.
    encode_godot3(
        &json!({
            "name": "marker",
            "pos": {"$type": "Vector3", "value": [1.0, 2.0, 3.0]},
            "tint": {"$type": "Color", "value": [1.0, 0.5, 0.25, 1.0]}
        }),
        &dir.path().join("shape.godot3.bin"),
    );
    // A real Godot 4 save, whose bytes the hex pane shows where the engine wrote them.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/real/bom-reader-savegame.godot4.save"),
        dir.path().join("bom-reader.godot4.save"),
    )
    .unwrap();
    std::fs::copy(
        dir.path().join("save.godot3.bin"),
        dir.path().join("unedited.godot3.bin"),
    )
    .unwrap();
    // A list longer than the page's 200: the hit at 450 is in the third page.
    let long: Vec<u64> = (0..500).map(|i| 700_000 + i).collect();
    encode_godot3(&json!(long), &dir.path().join("long.godot3.bin"));
    // A string longer than a listing shows.
    let note = format!("{}END", "x".repeat(5000));
    encode_godot3(
        &json!({ "note": note }),
        &dir.path().join("note.godot3.bin"),
    );
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/engine-3.2.3/packer.pck"),
        dir.path().join("packer.pck"),
    )
    .unwrap();
    // Every edit the page makes, as the library must then read it.
    let mut edits: Vec<(&str, &str, Value)> =
        cases.iter().map(|c| (c.0, c.2, c.4.clone())).collect();
    for c in &components {
        for (p, v) in &c.5 {
            edits.push((c.0, p, v.clone()));
        }
    }
    edits.push(("save.godot3.bin", "/entries/0/1/mana", json!(5)));
    let mut files: Vec<&str> = edits.iter().map(|e| e.0).collect();
    files.sort();
    files.dedup();
    let before: Vec<Value> = files.iter().map(|f| decode(&dir.path().join(f))).collect();
    let arg: Vec<Value> = cases
        .iter()
        .map(|c| {
            let mut a = json!({"file": c.0, "search": c.1, "pointer": c.2, "input": c.3});
            if c.0 == "note.godot3.bin" {
                a["fullLength"] = json!(5003);
            }
            // What the hex pane must say of the value found: "filename"'s String is at
            // byte 28 of the real save (after the frame length, the Dictionary's header
            // and count, and the key); a Brotli file's offsets are in its BSON.
            match c.0 {
                "bom-reader.godot4.save" => {
                    a["hex"] = json!("Offset 28 (0x1c), length 24 bytes, in the file")
                }
                "item.brson" => {
                    a["hex"] = json!("in the decompressed BSON (the file is brotli-compressed)")
                }
                _ => {}
            }
            a
        })
        .collect();
    let mut cmd = std::process::Command::new("node");
    cmd.arg(browser_dir().join("view.mjs"))
        .arg(env!("CARGO_BIN_EXE_gamewire"))
        .arg(dir.path())
        .arg(Value::Array(arg).to_string())
        // Then the saved Godot file against its copy as it was: the value edited and the
        // key added.
        .env(
            "GAMEWIRE_VIEW_COMPARE",
            json!([
                "save.godot3.bin",
                "unedited.godot3.bin",
                [
                    ["/entries/0/1/level", "13", "12", "changed", "changed"],
                    ["/entries/0/1/mana", "5", "—", "only-left", "only in save.godot3.bin"]
                ]
            ])
            .to_string(),
        )
        .env(
            "GAMEWIRE_VIEW_COMPONENTS",
            Value::Array(
                components
                    .iter()
                    .map(|c| json!({"file": c.0, "search": c.1, "pointer": c.2, "refuse": c.3, "set": c.4}))
                    .collect(),
            )
            .to_string(),
        )
        .env(
            "GAMEWIRE_VIEW_SIDE_FILE",
            json!(["types.json", "KingsIsle type list"]).to_string(),
        )
        .env(
            "GAMEWIRE_VIEW_ENTRY",
            json!(["packer.pck", "saves/save.dat", "Ann", "/0/name"]).to_string(),
        )
        // And a key added to the player's dictionary.
        .env(
            "GAMEWIRE_VIEW_MAP",
            json!([
                "save.godot3.bin",
                "/entries/0/1",
                "Ann",
                "/entries/0/1/name",
                "mana",
                "5"
            ])
            .to_string(),
        );
    if let Some(shot) = std::env::var_os("GAMEWIRE_VIEW_SCREENSHOT") {
        cmd.arg(shot);
    }
    let out = cmd.output().expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the browser run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for shown in [
        "BYTES bom-reader.godot4.save /0/filename",
        "BYTES item.brson /VersionNumber",
    ] {
        assert!(stdout.contains(shown), "{stdout}");
    }
    for c in &cases {
        assert!(
            stdout.contains(&format!("EDITED {} {}", c.0, c.2)),
            "{stdout}"
        );
    }
    for c in &components {
        assert!(
            stdout.contains(&format!("REFUSED {} {}", c.0, c.2))
                && stdout.contains(&format!("COMPONENTS {} {}", c.0, c.2)),
            "{stdout}"
        );
    }
    assert!(
        stdout.contains("COMPARED unedited.godot3.bin /entries/0/1/level /entries/0/1/mana"),
        "{stdout}"
    );
    // Each file on disk holds every edit made to it, and nothing else changed.
    for (i, f) in files.iter().enumerate() {
        let mut expected = before[i]["data"].clone();
        for (_, p, v) in edits.iter().filter(|e| e.0 == *f) {
            match expected.pointer_mut(p) {
                Some(slot) => *slot = v.clone(),
                // A key added.
                None => {
                    let (parent, key) = p.rsplit_once('/').unwrap();
                    expected.pointer_mut(parent).unwrap()[key] = v.clone();
                }
            }
        }
        let after = decode(&dir.path().join(f));
        for (_, p, v) in edits.iter().filter(|e| e.0 == *f) {
            assert_eq!(after["data"].pointer(p), Some(v), "{f}: {p}");
        }
        assert_eq!(
            after["data"], expected,
            "{f}: only the edited values change"
        );
        assert_eq!(
            after["$gamewire"], before[i]["$gamewire"],
            "{f}: the same settings"
        );
    }
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let s = start(&[dir.path()]);
    let path = dir.path().join("save.godot3.bin");
    assert_eq!(s.open("0/save.godot3.bin").0, 200);
    let patch = json!({"file": "0/save.godot3.bin", "ops": [{"op": "replace", "path": "/entries/0/1/level", "value": 1}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 200);
    // Another program writes the file meanwhile.
    let mut other = std::fs::read(&path).unwrap();
    other.extend_from_slice(b"\0\0\0\0");
    std::fs::write(&path, &other).unwrap();
    let (status, body) = s.api(
        "POST",
        "/api/save",
        &json!({"file": "0/save.godot3.bin"}).to_string(),
    );
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("changed on disk"),
        "{body}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), other);
    // Read again from the disk, the edits are gone and saving works.
    let (status, body) = s.api(
        "POST",
        "/api/open",
        &json!({"file": "0/save.godot3.bin", "reload": true}).to_string(),
    );
    assert_eq!(status, 422, "the file now has 4 bytes too many: {body}");
    std::fs::write(&path, &other[..other.len() - 4]).unwrap();
    let (status, body) = s.api(
        "POST",
        "/api/open",
        &json!({"file": "0/save.godot3.bin", "reload": true}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["edited"], false);
    let (_, changes) = s.api("GET", "/api/changes?file=0/save.godot3.bin", "");
    assert_eq!(changes["changes"], json!([]));
    let (status, body) = s.api(
        "POST",
        "/api/save",
        &json!({"file": "0/save.godot3.bin"}).to_string(),
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn list_items_are_added_and_removed() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let s = start(&[dir.path()]);
    let path = dir.path().join("save.godot3.bin");
    let before = decode(&path);
    assert_eq!(s.open("0/save.godot3.bin").0, 200);
    let id = "0/save.godot3.bin";
    let ops = json!({"file": id, "ops": [
        {"op": "add", "path": "/entries/0/1/inventory/-", "value": "bow"},
        {"op": "remove", "path": "/entries/0/1/inventory/0"},
    ]});
    assert_eq!(s.api("POST", "/api/patch", &ops.to_string()).0, 200);
    let (_, changes) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(changes["changes"].as_array().unwrap().len(), 3, "{changes}");
    let (status, body) = s.api("POST", "/api/save", &json!({"file": id}).to_string());
    assert_eq!(status, 200, "{body}");
    let after = decode(&path);
    let mut expected = before["data"].clone();
    *expected.pointer_mut("/entries/0/1/inventory").unwrap() = json!(["shield", "potion", "bow"]);
    assert_eq!(after["data"], expected);
    // A bad operation changes nothing.
    // An edit bigger than axum's default 2 MB body limit goes through.
    let big = "y".repeat(3 << 20);
    let ops =
        json!({"file": id, "ops": [{"op": "replace", "path": "/entries/0/1/name", "value": big}]});
    let (status, body) = s.api("POST", "/api/patch", &ops.to_string());
    assert_eq!(status, 200, "{body}");
    let bad = json!({"file": id, "ops": [{"op": "remove", "path": "/entries/0/1/inventory/9"}]});
    let (status, body) = s.api("POST", "/api/patch", &bad.to_string());
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("past the end"),
        "{body}"
    );
}

#[test]
fn another_host_is_warned_about_and_still_checked() {
    let dir = folder(&["godot/save.godot3.bin"]);
    let mut child = common::bin()
        .args(["view", "--no-browser", "--port", "0", "--host", "0.0.0.0"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let mut warning = String::new();
    // Kept open to the end: the server's later notes must not meet a closed pipe.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    stderr.read_line(&mut warning).unwrap();
    let s = Server {
        port: line
            .trim()
            .split(':')
            .nth(2)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap(),
        token: line.trim().split("token=").nth(1).unwrap().to_owned(),
        child,
    };
    assert!(
        warning.contains("warning") && warning.contains("not on loopback"),
        "{warning}"
    );
    let tok = ("X-Gamewire-Token", s.token.as_str());
    // Any address may name the machine now, a DNS name still may not.
    let ip = format!("10.1.2.3:{}", s.port);
    assert_eq!(
        request(s.port, "GET", "/api/files", &[("Host", &ip), tok], "").0,
        200
    );
    let name = format!("evil.example:{}", s.port);
    assert_eq!(
        request(s.port, "GET", "/api/files", &[("Host", &name), tok], "").0,
        403
    );
    assert_eq!(
        request(s.port, "GET", "/api/files", &[("Host", &ip)], "").0,
        403
    );
}

#[test]
fn entries_of_packs_and_archives_are_edited_and_saved_into_them() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let pck = dir.path().join("packer.pck");
    std::fs::copy(fixtures.join("godot/engine-3.2.3/packer.pck"), &pck).unwrap();
    std::fs::copy(
        fixtures.join("kingsisle/wad/Test.wad"),
        dir.path().join("Test.wad"),
    )
    .unwrap();
    let s = start(&[dir.path()]);
    let (_, files) = s.api("GET", "/api/files", "");
    let containers: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["container"] == true)
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(containers, ["0/Test.wad", "0/packer.pck"], "{files}");
    let (status, l) = s.api("GET", "/api/entries?file=0/packer.pck", "");
    assert_eq!(status, 200, "{l}");
    let save = l["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "saves/save.dat")
        .unwrap_or_else(|| panic!("{l}"));
    assert!(
        save["format"].as_str().unwrap().starts_with("godot3"),
        "{save}"
    );
    let (status, l) = s.api("GET", "/api/entries?file=0/Test.wad", "");
    assert_eq!(status, 200, "{l}");
    assert_eq!(l["entries"].as_array().unwrap().len(), 4, "{l}");
    // The pack itself is not a document; its entry is, as `decode --entry` gives it.
    assert_eq!(s.open("0/packer.pck").0, 422);
    let (status, opened) = s.open("0/packer.pck//saves/save.dat");
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["entry"], "saves/save.dat");
    let out = common::gamewire(&["decode", pck.to_str().unwrap(), "--entry", "saves/save.dat"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoded: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (_, root) = s.api(
        "GET",
        "/api/node?file=0/packer.pck//saves/save.dat&limit=100",
        "",
    );
    assert_eq!(
        root["count"],
        json!(decoded["data"].as_array().unwrap().len())
    );
    let (_, first) = s.api(
        "GET",
        "/api/value?file=0/packer.pck//saves/save.dat&pointer=/0",
        "",
    );
    assert_eq!(first, decoded["data"][0]);
    // An edit saved goes into the pack: that entry holds the new value, every other
    // entry its bytes, as the library reads them.
    let before = std::fs::read(&pck).unwrap();
    edit_entry(
        &s,
        &pck,
        "0/packer.pck",
        "saves/save.dat",
        "/0/hp",
        json!(88),
    );
    // An entry id does not step outside the roots either.
    assert_eq!(s.open("0/../packer.pck//saves/save.dat").0, 403);
    // A pack changed on disk since the page opened the entry is not overwritten.
    let (status, body) = s.open("0/packer.pck//saves/save.dat");
    assert_eq!(status, 200, "{body}");
    let patch = json!({"file": "0/packer.pck//saves/save.dat",
                       "ops": [{"op": "replace", "path": "/0/hp", "value": 5}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 200);
    std::fs::write(&pck, &before).unwrap();
    let (status, body) = s.api(
        "POST",
        "/api/save",
        &json!({"file": "0/packer.pck//saves/save.dat"}).to_string(),
    );
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("changed"),
        "{body}"
    );
    assert_eq!(std::fs::read(&pck).unwrap(), before);
}

/// Opens entry `entry` of the archive at `path` (id `id`), replaces the value at
/// `pointer` with `value` and saves; then checks with the library that the entry holds
/// the new value and nothing else in it changed, and that every other entry reads as
/// it did.
fn edit_entry(s: &Server, path: &Path, id: &str, entry: &str, pointer: &str, value: Value) {
    let full = format!("{id}//{entry}");
    let decode_entry = || {
        let out = common::gamewire(&["decode", path.to_str().unwrap(), "--entry", entry]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let before_doc = decode_entry();
    let before = std::fs::read(path).unwrap();
    let (status, opened) = s.open(&full);
    assert_eq!(status, 200, "{opened}");
    let patch = json!({"file": full, "ops": [{"op": "replace", "path": pointer, "value": value}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.api("POST", "/api/save", &json!({"file": full}).to_string());
    assert_eq!(status, 200, "{full}: {body}");
    let after_doc = decode_entry();
    let mut expected = before_doc["data"].clone();
    *expected.pointer_mut(pointer).unwrap() = value;
    assert_eq!(
        after_doc["data"], expected,
        "{full}: only {pointer} changes"
    );
    let after = std::fs::read(path).unwrap();
    let a = gamewire::open::archive::archive(&before).unwrap().unwrap();
    let b = gamewire::open::archive::archive(&after).unwrap().unwrap();
    assert_eq!(a.describe(), b.describe());
    let mut changed = Vec::new();
    for i in 0..a.len() {
        assert_eq!(a.name(i), b.name(i));
        if a.read(i).unwrap() != b.read(i).unwrap() {
            changed.push(a.name(i).to_owned());
        }
    }
    assert_eq!(changed, [entry], "{full}: only the entry edited changes");
    let (_, changes) = s.api("GET", &format!("/api/changes?file={full}"), "");
    assert_eq!(
        changes["changes"],
        json!([]),
        "saved: the page holds the disk's values"
    );
}

/// A KingsIsle object file in a `KIWAD` (compressed, beside a stored entry), its type
/// list beside the archive: an edit saved goes into the archive.
#[test]
fn an_entry_of_a_wad_is_edited_and_saved_into_it() {
    use gamewire::kingsisle::wad::{Builder, Prepared};
    let dir = tempfile::tempdir().unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/kingsisle");
    std::fs::copy(samples.join("types.json"), dir.path().join("types.json")).unwrap();
    let item = std::fs::read(samples.join("item.bin")).unwrap();
    let mut b = Builder::new(2, None).unwrap();
    b.add(Prepared::packed("ObjectData/item.bin", item, 9).unwrap())
        .unwrap();
    b.add(Prepared::packed("Sound/a.mp3", b"ID3 some sound".to_vec(), 9).unwrap())
        .unwrap();
    b.add(Prepared::packed("readme.txt", b"text after it".to_vec(), 9).unwrap())
        .unwrap();
    let wad = dir.path().join("Root.wad");
    std::fs::write(&wad, b.to_bytes().unwrap()).unwrap();
    let s = start(&[dir.path()]);
    edit_entry(
        &s,
        &wad,
        "0/Root.wad",
        "ObjectData/item.bin",
        "/m_name",
        json!("Rain Hat"),
    );
}

#[test]
fn a_file_is_listed_from_its_view_shows_its_bytes_and_edits_byte_exact() {
    let dir = folder(&["resonite/item.brson", "o3de/Sound_Effect.prefab"]);
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/godot/real/bom-reader-savegame.godot4.save");
    let path = dir.path().join("save.godot4.save");
    std::fs::copy(&real, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let s = start(&[dir.path()]);
    let id = "0/save.godot4.save";
    let (status, o) = s.open(id);
    assert_eq!(status, 200, "{o}");
    assert_eq!(o["lazy"], true, "listed from the view, not decoded: {o}");
    assert_eq!(o["node"]["count"], 1);
    // The real save's bytes: the frame's Dictionary at 4, "filename"'s value at 28 (a
    // String: header, length 15, "res://main.tscn" and a byte of padding).
    let (status, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/0/filename"));
    assert_eq!(status, 200, "{b}");
    assert_eq!(
        (b["offset"].as_u64(), b["length"].as_u64()),
        (Some(28), Some(24)),
        "{b}"
    );
    assert_eq!(b["space"], "the file");
    assert_eq!(b["unpacked"], false);
    assert_eq!(b["hex"], gamewire_core::hex::to_hex(&before[28..52]));
    let (_, hits) = s.api("GET", &format!("/api/search?file={id}&q=MAIN.tscn"), "");
    assert_eq!(hits["hits"][0]["pointer"], "/0/filename", "{hits}");
    let (_, n) = s.api(
        "GET",
        &format!("/api/node?file={id}&pointer=/0&offset=5&limit=5"),
        "",
    );
    let keys: Vec<&Value> = n["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["key"])
        .collect();
    assert_eq!(keys, [&json!("lang_2"), &json!("locked")]);
    // "locked": a bool whose header is at 0xe4 and value at 0xe8.
    let (_, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/0/locked"));
    assert_eq!(b["offset"], 0xe4, "{b}");
    let patch = json!({"file": id, "ops": [{"op": "replace", "path": "/0/locked", "value": true}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    // Edited, not saved: the bytes shown are the file's as edited (made on its bytes).
    let (_, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/0/locked"));
    assert_eq!(b["available"], true, "{b}");
    let mut edited = before[0xe4..0xec].to_vec();
    edited[4] = 1;
    assert_eq!(b["hex"], gamewire_core::hex::to_hex(&edited), "{b}");
    assert!(b["note"].as_str().unwrap().contains("not saved"), "{b}");
    let (_, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/0/parent"));
    assert_eq!(b["available"], true, "{b}");
    let (status, body) = s.api("POST", "/api/save", &json!({"file": id}).to_string());
    assert_eq!(status, 200, "{body}");
    let mut expected = before.clone();
    expected[0xe8] = 1;
    assert_eq!(
        std::fs::read(&path).unwrap(),
        expected,
        "only the edited byte changes"
    );
    let (_, o) = s.open(id);
    assert_eq!(
        o["lazy"], true,
        "read again from the view after saving: {o}"
    );
    // A Brotli FrDT file: the bytes are in the decompressed BSON, and the page says so.
    let (status, o) = s.open("0/item.brson");
    assert_eq!((status, &o["lazy"]), (200, &json!(true)), "{o}");
    let (_, b) = s.bytes("/api/bytes?file=0/item.brson&pointer=/VersionNumber");
    assert_eq!(b["unpacked"], true, "{b}");
    assert!(b["space"].as_str().unwrap().contains("brotli"), "{b}");
    let text = s
        .api(
            "GET",
            "/api/value?file=0/item.brson&pointer=/VersionNumber",
            "",
        )
        .1;
    let hex = b["hex"].as_str().unwrap();
    let raw = gamewire_core::hex::from_hex(hex).unwrap();
    assert_eq!(
        json!(std::str::from_utf8(&raw[4..raw.len() - 1]).unwrap()),
        text
    );
    // An O3DE file (read whole): its values' text in the file.
    let prefab = std::fs::read(dir.path().join("Sound_Effect.prefab")).unwrap();
    let (status, o) = s.open("0/Sound_Effect.prefab");
    assert_eq!((status, &o["lazy"]), (200, &json!(false)), "{o}");
    let (_, b) = s.bytes("/api/bytes?file=0/Sound_Effect.prefab&pointer=/ContainerEntity/Name");
    let at = b["offset"].as_u64().unwrap() as usize;
    let len = b["length"].as_u64().unwrap() as usize;
    assert_eq!(&prefab[at..at + len], b"\"Sound_Effect\"", "{b}");
    assert_eq!(b["space"], "the file (its JSON text)");
}

/// Schema-less Zeze files (no solution beside them) are read whole, and their values'
/// bytes come from the library: a string's length prefix and text, a frame's result
/// code (positions read by hand, as in gamewire-zeze's tests/span.rs).
#[test]
fn zeze_values_show_their_bytes() {
    let dir = folder(&["zeze/BOuter.zeze", "zeze/session.frames.zeze"]);
    let outer = std::fs::read(dir.path().join("BOuter.zeze")).unwrap();
    let s = start(&[dir.path()]);
    let (status, o) = s.open("0/BOuter.zeze");
    assert_eq!((status, &o["lazy"]), (200, &json!(false)), "{o}");
    // Field 1 (a bean, 16 at 0) holds field 2, "n": 01 6e at 4.
    let (status, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/1/2");
    assert_eq!(status, 200, "{b}");
    assert_eq!(
        (b["offset"].as_u64(), b["length"].as_u64()),
        (Some(4), Some(2)),
        "{b}"
    );
    assert_eq!(b["hex"], "016e");
    assert_eq!((&b["space"], &b["own"]), (&json!("the file"), &json!(true)));
    // The vector2's y: 00 00 00 40 (2.0) at 32.
    let (_, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/6/vector2/1");
    assert_eq!(b["offset"], 32, "{b}");
    assert_eq!(b["hex"], gamewire_core::hex::to_hex(&outer[32..36]));
    assert_eq!(b["hex"], "00000040");
    let (status, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/9");
    assert_ne!(status, 200, "no field 9: {b}");
    // The third frame (at 102, a 12-byte header) is a response: 20, result code 07,
    // session id 05, an empty bean 00.
    let (status, o) = s.open("0/session.frames.zeze");
    assert_eq!(status, 200, "{o}");
    let (_, b) = s.bytes("/api/bytes?file=0/session.frames.zeze&pointer=/2/result_code");
    assert_eq!(span(&b), (Some(115), Some(1), Some("07")), "{b}");
    // Edited: its bytes are known once saved.
    let patch =
        json!({"file": "0/BOuter.zeze", "ops": [{"op": "replace", "path": "/1/2", "value": "m"}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    let (_, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/1/2");
    assert_eq!(b["available"], false, "{b}");
}

/// A KingsIsle `BINd` file (read whole, its type list beside it): a value's bytes and,
/// the format being bit-packed, its first bit and number of bits.
#[test]
fn kingsisle_values_show_their_bits() {
    let dir = folder(&["kingsisle/item.bin", "kingsisle/types.json"]);
    let data = std::fs::read(dir.path().join("item.bin")).unwrap();
    let s = start(&[dir.path()]);
    let (status, o) = s.open("0/item.bin");
    assert_eq!((status, &o["lazy"]), (200, &json!(false)), "{o}");
    // "BINd", the flags word, the class hash (8), the object's size in bits (12), then
    // m_name's size (16) and tag (20), and its value at 24: length 0009, "Storm Hat".
    let (status, b) = s.bytes("/api/bytes?file=0/item.bin&pointer=/m_name");
    assert_eq!(status, 200, "{b}");
    assert_eq!(
        (b["offset"].as_u64(), b["length"].as_u64()),
        (Some(24), Some(11)),
        "{b}"
    );
    assert_eq!((&b["bit"], &b["bits"]), (&json!(0), &json!(88)), "{b}");
    assert_eq!(b["hex"], gamewire_core::hex::to_hex(&data[24..35]));
    assert!(b["hex"]
        .as_str()
        .unwrap()
        .ends_with(&gamewire_core::hex::to_hex(b"Storm Hat")));
    assert_eq!(
        (&b["space"], &b["unpacked"]),
        (&json!("the file"), &json!(false))
    );
    let (status, b) = s.bytes("/api/bytes?file=0/item.bin&pointer=/m_nope");
    assert_ne!(status, 200, "{b}");
}

/// A Godot 3 bare file of `n` records, made with `gamewire encode` (as
/// scripts/view/bench.py makes its big files); the last one's name is a needle.
fn big_godot(dir: &Path, n: usize) -> PathBuf {
    let mut items: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("item {i}"), "level": i, "hp": i as f64 * 0.5}))
        .collect();
    items[0]["ids"] = json!({"$type": "PackedInt32Array", "value": [1, 2, 3]});
    let out = dir.join("big.godot3.bin");
    encode_godot3(&Value::Array(items), &out);
    out
}

/// Writes `value` (the JSON `decode` gives) to `out` as a Godot 3 file, with `gamewire
/// encode godot3`.
fn encode_godot3(value: &Value, out: &Path) {
    let src = out.with_extension("json.src");
    std::fs::write(&src, serde_json::to_vec(value).unwrap()).unwrap();
    let r = common::gamewire(&[
        "encode",
        "godot3",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    std::fs::remove_file(&src).unwrap();
}

/// Issue 28: a file read through its view is edited on its bytes (no document built),
/// undone, listed as changed and saved with only the edited value's bytes changed; a
/// search with many hits stops at its first page and says so.
#[test]
fn big_files_are_edited_on_their_bytes() {
    let dir = folder(&["resonite/item.brson"]);
    let path = big_godot(dir.path(), 20_000);
    let before = std::fs::read(&path).unwrap();
    let s = start(&[dir.path()]);
    let id = "0/big.godot3.bin";
    let (status, o) = s.open(id);
    assert_eq!((status, &o["lazy"]), (200, &json!(true)), "{o}");
    let (_, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/15000/level"));
    let at = b["offset"].as_u64().unwrap() as usize;
    let patch = |ops: Value| {
        let (status, r) = s.api(
            "POST",
            "/api/patch",
            &json!({"file": id, "ops": ops}).to_string(),
        );
        assert_eq!(status, 200, "{r}");
        serde_json::from_str::<Value>(r["undo"].as_str().unwrap()).unwrap()
    };
    let undo = patch(json!([{"op": "replace", "path": "/15000/level", "value": 15001}]));
    let (_, o) = s.open(id);
    assert_eq!(
        (&o["lazy"], &o["edited"]),
        (&json!(true), &json!(true)),
        "still no document: {o}"
    );
    let (_, c) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(
        c["changes"],
        json!([{"pointer": "/15000/level", "old": "15000", "new": "15001", "what": "changed"}])
    );
    // The bytes shown are the file's as edited.
    let (_, b) = s.bytes(&format!("/api/bytes?file={id}&pointer=/15000/level"));
    assert_eq!(b["offset"].as_u64(), Some(at as u64), "{b}");
    assert!(b["note"].as_str().unwrap().contains("not saved"), "{b}");
    // Undone: no change left; done again and saved: one byte differs.
    patch(undo);
    let (_, c) = s.api("GET", &format!("/api/changes?file={id}"), "");
    assert_eq!(c["changes"], json!([]));
    patch(json!([{"op": "replace", "path": "/15000/level", "value": 15001}]));
    let (status, r) = s.api("POST", "/api/save", &json!({"file": id}).to_string());
    assert_eq!(status, 200, "{r}");
    let after = std::fs::read(&path).unwrap();
    let differ: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    assert_eq!(
        (after.len(), differ),
        (before.len(), vec![at + 4]),
        "only the integer's low byte"
    );
    // An item added and one removed: the list's count and the items' bytes only.
    patch(
        json!([{"op": "remove", "path": "/3"}, {"op": "add", "path": "/-", "value": {"name": "new"}}]),
    );
    s.api("POST", "/api/save", &json!({"file": id}).to_string());
    let doc = decode(&path);
    let data = doc["data"].as_array().unwrap();
    assert_eq!(data.len(), 20_000);
    assert_eq!(data[3]["name"], "item 4");
    assert_eq!(data[19_999], json!({"name": "new"}));
    assert_eq!(data[14_999]["level"], 15001);
    // A search with more hits than a page: the first page, and it says it stopped.
    let (_, hits) = s.api("GET", &format!("/api/search?file={id}&q=item"), "");
    assert_eq!(hits["hits"].as_array().unwrap().len(), 200);
    assert_eq!(hits["hits"][0]["pointer"], "/0/name");
    assert_eq!(hits["more"], true);
    assert!(
        hits["stopped"].as_str().unwrap().contains("stopped"),
        "{hits}"
    );
    // An edit must fit its place's type (a PackedInt32Array's items are 32-bit).
    let (status, r) = s.api(
        "POST",
        "/api/patch",
        &json!({"file": id, "ops": [{"op": "replace", "path": "/0/ids/value/1", "value": 3_000_000_000u64}]})
            .to_string(),
    );
    assert_eq!(status, 422, "{r}");
    assert!(r["error"].as_str().unwrap().contains("range"), "{r}");
    patch(json!([{"op": "replace", "path": "/0/ids/value/1", "value": -5}]));
    s.api("POST", "/api/save", &json!({"file": id}).to_string());
    assert_eq!(decode(&path)["data"][0]["ids"]["value"], json!([1, -5, 3]));
    // A Brotli Resonite file: edited in its BSON, compressed again on save.
    let rid = "0/item.brson";
    let file = dir.path().join("item.brson");
    let old = decode(&file);
    s.open(rid);
    let (status, r) = s.api(
        "POST",
        "/api/patch",
        &json!({"file": rid, "ops": [{"op": "replace", "path": "/VersionNumber", "value": "9.9"}]})
            .to_string(),
    );
    assert_eq!(status, 200, "{r}");
    let (status, r) = s.api("POST", "/api/save", &json!({"file": rid}).to_string());
    assert_eq!(status, 200, "{r}");
    let mut want = old.clone();
    want["data"]["VersionNumber"] = json!("9.9");
    assert_eq!(decode(&file), want);
    // A value the format cannot hold: refused with the message, nothing changed.
    let (status, r) = s.api(
        "POST",
        "/api/patch",
        &json!({"file": rid, "ops": [{"op": "add", "path": "/a\u{0}b", "value": 1}]}).to_string(),
    );
    assert_eq!(status, 422, "{r}");
    assert!(r["error"].as_str().unwrap().contains("NUL"), "{r}");
}

/// Issue 28: a long operation on one file (a search that reads all of a big file) holds
/// up no request to another file, nor the listing.
#[test]
fn a_long_operation_on_one_file_holds_up_no_other() {
    let dir = folder(&["resonite/item.brson"]);
    big_godot(dir.path(), 100_000);
    let s = std::sync::Arc::new(start(&[dir.path()]));
    assert_eq!(s.open("0/big.godot3.bin").0, 200);
    assert_eq!(s.open("0/item.brson").0, 200);
    let long = {
        let s = s.clone();
        std::thread::spawn(move || {
            let t = std::time::Instant::now();
            let (status, r) = s.api("GET", "/api/search?file=0/big.godot3.bin&q=not-there", "");
            assert_eq!((status, &r["hits"]), (200, &json!([])), "{r}");
            t.elapsed()
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(30));
    let t = std::time::Instant::now();
    let (status, n) = s.api("GET", "/api/node?file=0/item.brson&pointer=", "");
    assert_eq!(status, 200, "{n}");
    let (status, _) = s.api("GET", "/api/files", "");
    assert_eq!(status, 200);
    let other = t.elapsed();
    let whole = long.join().unwrap();
    // Held up, the other requests would have waited for most of the search.
    assert!(
        other * 3 < whole,
        "the other requests took {other:?}, the search {whole:?}"
    );
}

/// A Zeze bean typed by the solution beside it (its JSON keyed by variable names): its
/// values' bytes come from the library's walk led by the schema (positions read by hand,
/// as in gamewire-zeze's tests/span.rs); a variable absent from the bytes, shown with its
/// default, has none.
#[test]
fn typed_zeze_values_show_their_bytes() {
    let dir = folder(&[
        "zeze/BOuter.zeze",
        "zeze/session.frames.zeze",
        "zeze/zeze-solution.xml",
    ]);
    let s = start(&[dir.path()]);
    let (status, o) = s.open("0/BOuter.zeze");
    assert_eq!(status, 200, "{o}");
    assert!(
        o["settings"]["bean"].is_string(),
        "typed by the solution: {o}"
    );
    // `inner` (16 at 0) holds `name`, "n": 01 6e at 4.
    let (status, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/inner/name");
    assert_eq!(status, 200, "{b}");
    assert_eq!(span(&b), (Some(4), Some(2), Some("016e")), "{b}");
    assert_eq!((&b["space"], &b["own"]), (&json!("the file"), &json!(true)));
    // The map `byName` has text keys: the value of "k" is `10 07 00` at 24, its x at 25.
    let (_, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/byName/k/x");
    assert_eq!(span(&b), (Some(25), Some(1), Some("07")), "{b}");
    // `empty` is not in the bytes.
    let (status, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/empty");
    assert_eq!((status, &b["available"]), (200, &json!(false)), "{b}");
    assert!(b["reason"].as_str().unwrap().contains("default"), "{b}");
    let (status, b) = s.bytes("/api/bytes?file=0/BOuter.zeze&pointer=/nope");
    assert_ne!(status, 200, "{b}");
    // A frame stream typed by the solution: frame 0 (protocol Simple) holds a BSimple at
    // 13, whose `s` ("hi": 02 68 69) is at 17.
    let (status, o) = s.open("0/session.frames.zeze");
    assert_eq!(status, 200, "{o}");
    let (_, b) = s.bytes("/api/bytes?file=0/session.frames.zeze&pointer=/0/bean/s");
    assert_eq!(span(&b), (Some(17), Some(3), Some("026869")), "{b}");
}

/// A KingsIsle XML object file (tests/fixtures/kingsisle/xml, with its type list): a
/// value's bytes are its text in the XML, with line and column; a leaf struct's
/// component is its number in the text. After an edit the unedited values still show
/// their text on disk.
#[test]
fn kingsisle_xml_values_show_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kingsisle/xml");
    for f in ["item.xml", "item.types.json"] {
        std::fs::copy(fixtures.join(f), dir.path().join(f)).unwrap();
    }
    let s = start(&[dir.path()]);
    let (status, o) = s.open("0/item.xml");
    assert_eq!(status, 200, "{o}");
    // "255,128,0,200" on line 7 at byte 226: g is "128" at 230, column 16.
    let (status, b) = s.bytes("/api/bytes?file=0/item.xml&pointer=/m_color/g");
    assert_eq!(status, 200, "{b}");
    assert_eq!(span(&b), (Some(230), Some(3), Some("313238")), "{b}");
    assert_eq!((&b["line"], &b["column"]), (&json!(7), &json!(16)), "{b}");
    assert!(b["space"].as_str().unwrap().contains("XML"), "{b}");
    // A nested object's value: "-25" on line 18.
    let (_, b) = s.bytes("/api/bytes?file=0/item.xml&pointer=/m_effects/0/m_amount");
    assert_eq!(
        (b["offset"].as_u64(), b["hex"].as_str(), &b["line"]),
        (Some(569), Some("2d3235"), &json!(18)),
        "{b}"
    );
    let patch = json!({"file": "0/item.xml",
                       "ops": [{"op": "replace", "path": "/m_name", "value": "Rain Hat"}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    let (_, b) = s.bytes("/api/bytes?file=0/item.xml&pointer=/m_name");
    assert_eq!(b["available"], false, "{b}");
    let (_, b) = s.bytes("/api/bytes?file=0/item.xml&pointer=/m_color/g");
    assert_eq!(b["offset"], 230, "{b}");
}

/// A real Resonite item (read through its view): a slot's transform and a component's
/// value carry the types the data model gives them, numbers their BSON types; an edit
/// that would change a number's BSON type (2^40 into an int32, an integer into a
/// float) is refused, one that fits is saved and only that value changes.
#[test]
fn resonite_values_carry_their_types_and_edits_keep_them() {
    let dir = tempfile::tempdir().unwrap();
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/resonite/real/resonite-avatar-root-id.brson");
    let path = dir.path().join("avatar.brson");
    std::fs::copy(real, &path).unwrap();
    let s = start(&[dir.path()]);
    let id = "0/avatar.brson";
    let (status, opened) = s.open(id);
    assert_eq!(status, 200, "{opened}");
    let node = |p: &str| {
        let (status, n) = s.api("GET", &format!("/api/node?file={id}&pointer={p}"), "");
        assert_eq!(status, 200, "{n}");
        n
    };
    let child = |n: &Value, k: &str| {
        n["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"] == k)
            .unwrap_or_else(|| panic!("{k}: {n}"))
            .clone()
    };
    let position = child(&node("/Object/Position"), "Data");
    assert_eq!(position["type"]["name"], "float3", "{position}");
    assert_eq!(position["type"]["components"][1]["label"], "y");
    let rotation = node("/Object/Rotation/Data");
    assert_eq!(rotation["type"]["name"], "floatQ", "{rotation}");
    assert_eq!(rotation["type"]["components"][3]["type"]["bits"], 32);
    assert_eq!(rotation["parts"], json!(["0.0", "0.0", "0.0", "1.0"]));
    let flag = child(&node("/FeatureFlags"), "ProtoFlux");
    assert_eq!(flag["type"]["name"], "int32", "{flag}");
    // A component's member, typed by the component's type from the `Types` table.
    let update = child(&node("/Object/Components/Data/0/Data/UpdateOrder"), "Data");
    assert_eq!(update["type"]["name"], "int", "{update}");
    for (pointer, value, message) in [
        (
            "/FeatureFlags/ProtoFlux",
            json!(1u64 << 40),
            "int32's range",
        ),
        ("/Object/Position/Data/0", json!(2), "is an integer"),
        ("/Object/OrderOffset/Data", json!(5), "$numberLong"),
    ] {
        let ops = json!({"file": id, "ops": [{"op": "replace", "path": pointer, "value": value}]});
        let (status, body) = s.api("POST", "/api/patch", &ops.to_string());
        assert_eq!(status, 422, "{pointer}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(message),
            "{pointer}: {body}"
        );
    }
    edit_and_save(&s, dir.path(), id, "/Object/Position/Data/0", json!(2.5));
}

/// An encrypted Godot 4 pack (directory and files), its key given as the CLI takes it
/// (`GAMEWIRE_GODOT_KEY`): an entry is opened, edited and saved into the pack, encrypted
/// with that key; the library then reads the new value and every other entry unchanged.
#[test]
fn an_entry_of_an_encrypted_pack_is_saved_with_its_key() {
    use gamewire::godot::pck::{Encryption, Key, Pack, PackReader};
    let key_hex = "5a".repeat(32);
    let key = Key::from_hex(&key_hex).unwrap();
    let project = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/godot/real/cell-game.project.binary"),
    )
    .unwrap();
    let mut p = Pack::new((4, 6, 0));
    p.add_file("project.binary", project).unwrap();
    p.add_file("icon.png", b"\x89PNG not really".to_vec())
        .unwrap();
    p.encrypt(Encryption {
        key: key.clone(),
        directory: true,
        files: true,
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pck = dir.path().join("game.pck");
    std::fs::write(&pck, p.to_bytes()).unwrap();
    let before = std::fs::read(&pck).unwrap();
    let s = start_with(&[dir.path()], &[("GAMEWIRE_GODOT_KEY", &key_hex)]);
    let full = "0/game.pck//project.binary";
    let (status, opened) = s.open(full);
    assert_eq!(status, 200, "{opened}");
    let patch = json!({"file": full, "ops": [{"op": "replace",
        "path": "/application~1config~1name", "value": "Cell Game, edited"}]});
    let (status, body) = s.api("POST", "/api/patch", &patch.to_string());
    assert_eq!(status, 200, "{body}");
    let (status, body) = s.api("POST", "/api/save", &json!({"file": full}).to_string());
    assert_eq!(status, 200, "{body}");
    let after = std::fs::read(&pck).unwrap();
    let (a, b) = (
        PackReader::with_key(&before, Some(&key)).unwrap(),
        PackReader::with_key(&after, Some(&key)).unwrap(),
    );
    assert!(b.info().directory_encrypted());
    assert_eq!(a.info().format, b.info().format);
    assert!(b.entries().iter().all(|e| e.encrypted()));
    assert_eq!(
        a.read_content(&a.entries()[1]).unwrap(),
        b.read_content(&b.entries()[1]).unwrap()
    );
    assert!(
        PackReader::parse(&after).is_err(),
        "the directory stays encrypted"
    );
    let out = common::gamewire(&[
        "decode",
        pck.to_str().unwrap(),
        "--entry",
        "project.binary",
        "--key",
        &key_hex,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["data"]["application/config/name"], "Cell Game, edited");
}

/// The Bytes pane of a value inside an entry of a pack or an archive: its span in the
/// entry's bytes, as for the file alone, said to be in the entry, and, for an entry
/// stored as it is, its offset in the archive file too; in a compressed entry, in its
/// inflated data.
#[test]
fn values_inside_entries_show_their_bytes() {
    use gamewire::kingsisle::wad::{Builder, Prepared};
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let pck = std::fs::read(fixtures.join("godot/engine-3.2.3/packer.pck")).unwrap();
    std::fs::write(dir.path().join("packer.pck"), &pck).unwrap();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/kingsisle");
    std::fs::copy(samples.join("types.json"), dir.path().join("types.json")).unwrap();
    let item = std::fs::read(samples.join("item.bin")).unwrap();
    let mut b = Builder::new(2, None).unwrap();
    b.add(Prepared::stored("readme.txt", b"text before it".to_vec()).unwrap())
        .unwrap();
    b.add(Prepared::stored("ObjectData/item.bin", item.clone()).unwrap())
        .unwrap();
    b.add(Prepared::compressed("ObjectData/packed.bin", &item, 9).unwrap())
        .unwrap();
    let wad = b.to_bytes().unwrap();
    std::fs::write(dir.path().join("Root.wad"), &wad).unwrap();
    let s = start(&[dir.path()]);

    // packer.pck (format 1): hello.txt's 35 bytes end with "Packer\n" at 285; the entry
    // saves/save.dat starts at 286 with its frame's length (76), then the dictionary
    // (type 18 at 4, 3 pairs at 8), the key "name" (type at 12, length at 16, text at
    // 20), and its value at 24: type 4, length 3, "Ann" and a byte of padding.
    assert_eq!(&pck[278..290], b"KPacker\nL\0\0\0");
    let file = "0/packer.pck//saves/save.dat";
    let (status, o) = s.open(file);
    assert_eq!(status, 200, "{o}");
    let (status, r) = s.bytes(&format!("/api/bytes?file={file}&pointer=/0/name"));
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["available"], true, "{r}");
    assert_eq!(
        (r["offset"].as_u64(), r["length"].as_u64()),
        (Some(24), Some(12)),
        "{r}"
    );
    assert_eq!(r["archive_offset"], json!(286 + 24), "{r}");
    assert_eq!(r["entry"], "saves/save.dat");
    assert_eq!(r["unpacked"], false, "{r}");
    let space = r["space"].as_str().unwrap();
    assert!(
        space.contains("entry \"saves/save.dat\"") && space.contains("byte 286"),
        "{space}"
    );
    assert_eq!(r["hex"], gamewire_core::hex::to_hex(&pck[310..322]));
    assert!(r["hex"]
        .as_str()
        .unwrap()
        .contains(&gamewire_core::hex::to_hex(b"Ann")));
    // Edited and not saved: the value's bytes are not known until it is.
    let patch = json!({"file": "0/packer.pck//saves/save.dat",
                       "ops": [{"op": "replace", "path": "/0/name", "value": "Annabel"}]});
    assert_eq!(s.api("POST", "/api/patch", &patch.to_string()).0, 200);
    let (_, r) = s.bytes(&format!("/api/bytes?file={file}&pointer=/0/name"));
    assert_eq!(r["available"], false, "{r}");
    assert_eq!(r["archive_offset"], Value::Null, "{r}");

    // A KingsIsle object file stored as it is: m_name at 24 in the file (as in
    // `kingsisle_values_show_their_bits`), so 24 after where the entry's bytes are in
    // the archive.
    let at = wad
        .windows(item.len())
        .position(|w| w == item.as_slice())
        .unwrap();
    assert!(at > 0);
    let file = "0/Root.wad//ObjectData/item.bin";
    let (status, o) = s.open(file);
    assert_eq!(status, 200, "{o}");
    let (status, r) = s.bytes(&format!("/api/bytes?file={file}&pointer=/m_name"));
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        (r["offset"].as_u64(), r["length"].as_u64()),
        (Some(24), Some(11)),
        "{r}"
    );
    assert_eq!((&r["bit"], &r["bits"]), (&json!(0), &json!(88)), "{r}");
    assert_eq!(r["archive_offset"], json!(at + 24), "{r}");
    assert_eq!(r["hex"], gamewire_core::hex::to_hex(&wad[at + 24..at + 35]));
    assert!(r["space"].as_str().unwrap().contains(&format!("byte {at}")));

    // The same file compressed in the archive: the same offsets, in its inflated data,
    // and none in the archive file.
    let file = "0/Root.wad//ObjectData/packed.bin";
    let (status, o) = s.open(file);
    assert_eq!(status, 200, "{o}");
    let (status, r) = s.bytes(&format!("/api/bytes?file={file}&pointer=/m_name"));
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["offset"].as_u64(), Some(24), "{r}");
    assert_eq!(r["archive_offset"], Value::Null, "{r}");
    assert_eq!(r["unpacked"], true, "{r}");
    assert!(
        r["space"].as_str().unwrap().contains("inflated data"),
        "{r}"
    );
    assert_eq!(r["hex"], gamewire_core::hex::to_hex(&item[24..35]));

    // The same save in an encrypted pack: the same offsets, in its decrypted data.
    use gamewire::godot::pck::{Encryption, Key, Pack};
    let key_hex = "5a".repeat(32);
    let save = pck[286..286 + 120].to_vec();
    let mut p = Pack::new((4, 6, 0));
    p.add_file("saves/save.dat", save.clone()).unwrap();
    p.encrypt(Encryption {
        key: Key::from_hex(&key_hex).unwrap(),
        directory: true,
        files: true,
    })
    .unwrap();
    let locked = tempfile::tempdir().unwrap();
    let game = p.to_bytes();
    assert!(!game.windows(3).any(|w| w == b"Ann"), "encrypted");
    std::fs::write(locked.path().join("game.pck"), &game).unwrap();
    let s = start_with(&[locked.path()], &[("GAMEWIRE_GODOT_KEY", &key_hex)]);
    let file = "0/game.pck//saves/save.dat";
    let (status, o) = s.open(file);
    assert_eq!(status, 200, "{o}");
    let (status, r) = s.bytes(&format!("/api/bytes?file={file}&pointer=/0/name"));
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        (r["offset"].as_u64(), r["length"].as_u64()),
        (Some(24), Some(12)),
        "{r}"
    );
    assert_eq!(r["archive_offset"], Value::Null, "{r}");
    assert_eq!(r["unpacked"], true, "{r}");
    assert!(
        r["space"].as_str().unwrap().contains("decrypted data"),
        "{r}"
    );
    assert_eq!(r["hex"], gamewire_core::hex::to_hex(&save[24..36]));
}

/// Issue 28: a search with more hits than a page answers them a page at a time
/// (`offset`, and `next` while more are left), in document order, none twice; the page
/// has a "More results" button for the next one.
#[test]
fn search_results_come_a_page_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    big_godot(dir.path(), 450);
    let s = start(&[dir.path()]);
    let id = "0/big.godot3.bin";
    assert_eq!(s.open(id).0, 200);
    let page_of = |q: &str, offset: usize| {
        let (status, r) = s.api(
            "GET",
            &format!("/api/search?file={id}&q={q}&offset={offset}"),
            "",
        );
        assert_eq!(status, 200, "{r}");
        let ptrs: Vec<String> = r["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["pointer"].as_str().unwrap().to_owned())
            .collect();
        (ptrs, r)
    };
    let page = |offset: usize| page_of("ITEM", offset);
    // Each record's name ("item N") is a hit, in order.
    let names =
        |r: std::ops::Range<usize>| -> Vec<String> { r.map(|i| format!("/{i}/name")).collect() };
    let mut all = Vec::new();
    let mut offset = 0;
    let mut pages = 0;
    loop {
        let (ptrs, r) = page(offset);
        assert_eq!(r["offset"], json!(offset), "{r}");
        pages += 1;
        all.extend(ptrs);
        if r["more"] != true {
            assert_eq!(r["next"], Value::Null, "{r}");
            assert!(r["stopped"].as_str().unwrap().contains("last page"), "{r}");
            break;
        }
        assert_eq!(r["next"], json!(offset + 200), "{r}");
        offset = r["next"].as_u64().unwrap() as usize;
        assert!(pages < 10, "no end to the pages");
    }
    assert_eq!(pages, 3);
    assert_eq!(all, names(0..450));
    // A page may start anywhere: from hit 101, 200 of them.
    assert_eq!(page(100).0, names(100..300));
    assert_eq!(page(450).0, Vec::<String>::new());
    // The server reads a search on from where its last page stopped: another search
    // between two pages of one (or an edit) is not read on from.
    assert_eq!(page(0).0, names(0..200));
    let (ptrs, _) = page_of("item%204", 0);
    let mut fours: Vec<String> = vec!["/4/name".into()];
    fours.extend((40..50).chain(400..450).map(|i| format!("/{i}/name")));
    assert_eq!(ptrs, fours);
    assert_eq!(page(200).0, names(200..400));
    assert_eq!(page(400).0, names(400..450));
    // The page: a "More results" button, named for assistive technology, a button
    // (reached with Tab, pressed with Enter or Space).
    let (status, html) = request(s.port, "GET", &format!("/?token={}", s.token), &[], "");
    assert_eq!(status, 200);
    assert!(
        html.contains(r#"<button id="more-results" type="button" aria-label="More results""#),
        "{html}"
    );
    let (status, js) = request(
        s.port,
        "GET",
        &format!("/app.js?token={}", s.token),
        &[],
        "",
    );
    assert_eq!(status, 200);
    assert!(js.contains("offset }))") && js.contains("more-results"));
}
