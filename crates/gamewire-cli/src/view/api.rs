//! The HTTP server of `gamewire view`: the checks every request passes, the page's
//! assets, and the API the page calls (JSON in and out).

use super::doc::{open_file, OpenFile};
use super::guard::{self, Roots};
use super::ViewArgs;
use crate::CliResult;
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The server's state.
struct App {
    roots: Roots,
    token: String,
    cookie: String,
    bound_loopback: bool,
    given_host: Option<String>,
    /// The files the page opened, by canonical path (and entry of a pack or an
    /// archive): the only ones written. The map's lock is held only to find a file;
    /// each file has its own lock, so a long operation on one file (building its
    /// document, saving it) holds up only the requests to that file.
    files: Mutex<HashMap<Key, Arc<Mutex<OpenFile>>>>,
}

impl App {
    /// The open file at `key`, if the page opened it (the map's lock released).
    fn file(&self, key: &Key) -> Option<Arc<Mutex<OpenFile>>> {
        self.files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }
}

/// Locks one open file (a panic in another request leaves it usable).
fn lock_file(f: &Mutex<OpenFile>) -> std::sync::MutexGuard<'_, OpenFile> {
    f.lock().unwrap_or_else(|e| e.into_inner())
}

type Shared = Arc<App>;

/// An open file: its canonical path, and the entry opened if it is a pack or an archive.
type Key = (PathBuf, Option<String>);

/// Resolves a file id (`ROOT/path`, or `ROOT/path//ENTRY` for an entry of a pack or an
/// archive) inside the roots.
fn locate(app: &App, id: &str) -> Result<Key, guard::Refused> {
    let (file, entry) = match id.split_once("//") {
        Some((f, e)) => (f, Some(e.to_owned())),
        None => (id, None),
    };
    Ok((app.roots.resolve(file)?, entry))
}

/// The page's files, built into the binary.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const HEX_JS: &str = include_str!("assets/hex.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const EDITORS_JS: &str = include_str!("assets/editors.js");
const COMPARE_JS: &str = include_str!("assets/compare.js");
const TREEKEYS_JS: &str = include_str!("assets/treekeys.js");

/// The largest request body (an edit's JSON).
const MAX_BODY: usize = 256 << 20;

/// Children served per request at most.
const MAX_LIMIT: usize = 5_000;

/// Binds, prints the address, and serves until interrupted.
pub async fn serve(args: ViewArgs, roots: Roots, token: String) -> CliResult {
    let host = args.host.clone().unwrap_or_else(|| "127.0.0.1".to_owned());
    let listener = tokio::net::TcpListener::bind((host.as_str(), args.port))
        .await
        .map_err(|e| format!("cannot listen on {host}:{}: {e}", args.port))?;
    let addr = listener.local_addr()?;
    let bound_loopback = addr.ip().is_loopback();
    if !bound_loopback {
        eprintln!(
            "gamewire: warning: listening on {addr}, not on loopback: anyone who can reach \
             it and has the token can read and write the files served"
        );
    }
    let shown_host = match addr.ip() {
        IpAddr::V6(ip) => format!("[{ip}]"),
        IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_owned(),
        IpAddr::V4(ip) => ip.to_string(),
    };
    let url = format!("http://{shown_host}:{}/?token={token}", addr.port());
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{url}")?;
        out.flush()?;
    }
    for (i, r) in roots.shown().iter().enumerate() {
        eprintln!("gamewire: serving {i}: {r}");
    }
    if !args.no_browser {
        super::open_browser(&url);
    }
    let app = Arc::new(App {
        roots,
        cookie: guard::cookie_name(addr.port()),
        token,
        bound_loopback,
        given_host: args.host.clone(),
        files: Mutex::new(HashMap::new()),
    });
    let router = Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| asset(APP_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/editors.js",
            get(|| asset(EDITORS_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/compare.js",
            get(|| asset(COMPARE_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/treekeys.js",
            get(|| asset(TREEKEYS_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/hex.js",
            get(|| asset(HEX_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/style.css",
            get(|| asset(STYLE_CSS, "text/css; charset=utf-8")),
        )
        .route("/api/files", get(files))
        .route("/api/open", post(open))
        .route("/api/node", get(node))
        .route("/api/value", get(value))
        .route("/api/bytes", get(bytes))
        .route("/api/search", get(search))
        .route("/api/patch", post(patch))
        .route("/api/changes", get(changes))
        .route("/api/save", post(save))
        .route("/api/compare", get(compare))
        .route("/api/entries", get(entries))
        // An edit may carry a long string or a copy of a big item.
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(app.clone(), check))
        .with_state(app);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// An error answer: status and `{"error": message}`.
fn fail(status: StatusCode, msg: impl Into<String>) -> Response {
    (status, Json(json!({"error": msg.into()}))).into_response()
}

/// Every request: the `Host` header must name loopback (or the `--host` given), and
/// the token must be given, else 403.
async fn check(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !guard::host_allowed(host, app.bound_loopback, app.given_host.as_deref()) {
        return fail(
            StatusCode::FORBIDDEN,
            format!("Host {host:?} is not this machine's loopback address"),
        );
    }
    // Reading needs the token in any form; changing anything (POST), not from the cookie
    // alone.
    let reads = req.method() == axum::http::Method::GET || req.method() == axum::http::Method::HEAD;
    let given = guard::request_token(req.uri().query(), req.headers(), &app.cookie, reads);
    if !given.iter().any(|t| guard::same_token(t, &app.token)) {
        return fail(
            StatusCode::FORBIDDEN,
            "no valid token: open the address gamewire view printed",
        );
    }
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
             frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// The page; its token goes into a cookie (HttpOnly, this site only) so the page's
/// assets and calls carry it.
async fn index(State(app): State<Shared>) -> Response {
    let cookie = format!(
        "{}={}; Path=/; HttpOnly; SameSite=Strict",
        app.cookie, app.token
    );
    // The token goes into the page too: the page sends it in a header with every change,
    // which the cookie alone may not make.
    let html = INDEX_HTML.replace("{{TOKEN}}", &app.token);
    let mut resp = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    resp
}

/// A built-in file.
async fn asset(body: &'static str, mime: &'static str) -> Response {
    ([(header::CONTENT_TYPE, mime)], body).into_response()
}

/// Runs `f` on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(f).await {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// How many bytes of a file detection reads at most for the listing.
const DETECT_BYTES: u64 = 16 << 20;

/// `GET /api/files`: every file under the roots, with its detected format.
async fn files(State(app): State<Shared>) -> Response {
    let list = blocking(move || {
        let files: Vec<Value> = app
            .roots
            .list()
            .into_iter()
            .map(|(id, path, size)| {
                let (format, container) = detect(&path);
                json!({"id": id, "size": size, "format": format, "container": container})
            })
            .collect();
        json!({"roots": app.roots.shown(), "files": files})
    })
    .await;
    Json(list).into_response()
}

/// What the library makes of a file, for the listing, and whether it is a pack or an
/// archive (whose entries are listed on request).
fn detect(path: &std::path::Path) -> (Value, bool) {
    let mut data = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| {
        use std::io::Read;
        f.take(DETECT_BYTES).read_to_end(&mut data)
    });
    if read.is_ok() && super::doc::is_container(&data) {
        return (json!("pack or archive"), true);
    }
    (detect_format(path, &data), false)
}

/// The format the library detects in `data` (the start of the file at `path`).
fn detect_format(path: &std::path::Path, data: &[u8]) -> Value {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(kind) = name.as_deref().and_then(gamewire::open::side_file_kind) {
        return json!(format!("side file: {kind}"));
    }
    match gamewire::identify(data, name.as_deref()) {
        gamewire::Detection::Found(f) => json!(f.describe()),
        gamewire::Detection::Ambiguous(fits) => json!(format!(
            "ambiguous: {}",
            fits.iter()
                .map(|f| f.describe())
                .collect::<Vec<_>>()
                .join(" or ")
        )),
        gamewire::Detection::Json => json!("JSON"),
        gamewire::Detection::Unknown => Value::Null,
    }
}

/// A request naming a file.
#[derive(Deserialize)]
struct FileReq {
    file: String,
    #[serde(default)]
    reload: bool,
}

/// `POST /api/open {"file"}`: opens a file (or returns the one already open, with its
/// edits, unless `reload`): its settings and the first level of its data.
async fn open(State(app): State<Shared>, Json(req): Json<FileReq>) -> Response {
    let path = match locate(&app, &req.file) {
        Ok(p) => p,
        Err(e) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || {
        let lock = || app.files.lock().unwrap_or_else(|e| e.into_inner());
        if req.reload {
            // The old tree goes before the new one is built: one at a time in memory.
            lock().remove(&path);
        }
        let file = match app.file(&path) {
            Some(f) => f,
            // Decoded without any lock: other requests go on meanwhile.
            None => match open_file(&path.0, path.1.as_deref()) {
                Ok(f) => lock()
                    .entry(path.clone())
                    .or_insert_with(|| Arc::new(Mutex::new(f)))
                    .clone(),
                Err(e) => {
                    return fail(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        format!("{}: {e}", req.file),
                    )
                }
            },
        };
        let f = lock_file(&file);
        let node = f.node("", 0, 200).unwrap_or(Value::Null);
        Json(json!({
            "file": req.file,
            "format": f.describe,
            "settings": f.working["$gamewire"],
            "notes": f.notes,
            "node": node,
            "edited": f.is_edited(),
            "entry": f.entry,
            "lazy": f.is_lazy(),
            "inPlace": f.edits_in_place(),
        }))
        .into_response()
    })
    .await
}

/// Runs `f` on the open file a request names; a file the page did not open is refused.
async fn with_file(
    app: Shared,
    id: String,
    f: impl FnOnce(&mut OpenFile) -> Response + Send + 'static,
) -> Response {
    let path = match locate(&app, &id) {
        Ok(p) => p,
        Err(e) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || match app.file(&path) {
        Some(file) => f(&mut lock_file(&file)),
        None => fail(
            StatusCode::FORBIDDEN,
            format!("{id}: not opened by the page"),
        ),
    })
    .await
}

/// `GET /api/node` parameters.
#[derive(Deserialize)]
struct NodeReq {
    file: String,
    #[serde(default)]
    pointer: String,
    #[serde(default)]
    offset: usize,
    #[serde(default)]
    limit: Option<usize>,
}

/// `GET /api/node?file&pointer&offset&limit`: a value and a page of its children.
async fn node(State(app): State<Shared>, Query(q): Query<NodeReq>) -> Response {
    let limit = q.limit.unwrap_or(200).min(MAX_LIMIT);
    with_file(app, q.file, move |f| {
        match f.node(&q.pointer, q.offset, limit) {
            Ok(n) => Json(n).into_response(),
            Err(e) => fail(StatusCode::NOT_FOUND, e),
        }
    })
    .await
}

/// `GET /api/value?file&pointer`: the JSON text of one value (for undoing a removal).
async fn value(State(app): State<Shared>, Query(q): Query<NodeReq>) -> Response {
    with_file(app, q.file, move |f| match f.value_text(&q.pointer) {
        Ok(t) => ([(header::CONTENT_TYPE, "application/json")], t).into_response(),
        Err(e) => fail(StatusCode::NOT_FOUND, e),
    })
    .await
}

/// `GET /api/bytes?file&pointer`: where the value's bytes are in the file (or in its
/// decompressed data, said so) and the first of them in hex.
async fn bytes(State(app): State<Shared>, Query(q): Query<NodeReq>) -> Response {
    with_file(app, q.file, move |f| match f.bytes(&q.pointer) {
        Ok(v) => Json(v).into_response(),
        Err(e) => fail(StatusCode::NOT_FOUND, e),
    })
    .await
}

/// `GET /api/search` parameters.
#[derive(Deserialize)]
struct SearchReq {
    file: String,
    q: String,
    /// The hits to skip: a later page starts at the `next` an earlier one gave.
    #[serde(default)]
    offset: usize,
}

/// Search hits answered at most (a page; the walk stops at the next hit).
const SEARCH_PAGE: usize = 200;

/// `GET /api/search?file&q[&offset]`: pointers whose key or value holds `q`, in
/// document order, [`SEARCH_PAGE`] of them from hit `offset`, and whether the search
/// stopped early (then `next`, the offset of the next page). For a file read through
/// its view, the server keeps where the last page stopped, and the next page of the
/// same search reads on from there ([`super::lazy::search_page`]); another page (or a
/// file read whole) walks again up to its first hit, the hits before it skipped. A
/// file read through its view is searched without its lock (on the view as it is), so
/// a search that walks a whole big file holds up no other request.
async fn search(State(app): State<Shared>, Query(q): Query<SearchReq>) -> Response {
    let path = match locate(&app, &q.file) {
        Ok(p) => p,
        Err(e) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || {
        let Some(file) = app.file(&path) else {
            return fail(
                StatusCode::FORBIDDEN,
                format!("{}: not opened by the page", q.file),
            );
        };
        let Some(upto) = q.offset.checked_add(SEARCH_PAGE) else {
            return fail(StatusCode::BAD_REQUEST, "offset: too large");
        };
        let (view, kept) = {
            let f = lock_file(&file);
            let kept = f.lazy.as_ref().and_then(|l| l.search.clone());
            (f.shared_view(), kept)
        };
        let mut out = match view {
            // Read on from where the last page of this search stopped.
            Some(b) => {
                let (out, stopped) =
                    super::lazy::search_page(&b, &q.q, q.offset, SEARCH_PAGE, kept.as_ref());
                if let Some(l) = lock_file(&file).lazy.as_mut() {
                    l.search = stopped;
                }
                out
            }
            None => {
                let mut out = lock_file(&file).search(&q.q, upto);
                // The page asked for: the hits before `offset` dropped.
                if let Some(hits) = out["hits"].as_array_mut() {
                    hits.drain(..q.offset.min(hits.len()));
                }
                out
            }
        };
        let shown = out["hits"].as_array().map_or(0, Vec::len);
        out["offset"] = json!(q.offset);
        if out["more"] == true {
            out["next"] = json!(upto);
            out["stopped"] = json!(format!(
                "hits {} to {upto}: the search stopped there, the rest of the file was not \
                 read (More results reads on)",
                q.offset + 1
            ));
        } else if q.offset > 0 {
            out["stopped"] = json!(format!(
                "hits {} to {}: the last page",
                q.offset + 1,
                q.offset + shown
            ));
        }
        Json(out).into_response()
    })
    .await
}

/// `POST /api/patch` body.
#[derive(Deserialize)]
struct PatchReq {
    file: String,
    ops: Vec<Value>,
}

/// `POST /api/patch {"file", "ops": [JSON Patch]}`: edits the working copy (all the
/// operations or none); answers with the operations that undo them, as JSON text.
///
/// The long part runs without the file's lock, so the file stays listed meanwhile: a
/// file whose edits the library makes on its bytes is edited on its view as it is,
/// and the result kept if no other edit came first (else made again); a file read
/// through its view whose edits need its document gets the document built first.
async fn patch(State(app): State<Shared>, Json(req): Json<PatchReq>) -> Response {
    let path = match locate(&app, &req.file) {
        Ok(p) => p,
        Err(e) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || {
        let Some(file) = app.file(&path) else {
            return fail(
                StatusCode::FORBIDDEN,
                format!("{}: not opened by the page", req.file),
            );
        };
        let ok = |undo: Vec<Value>| {
            // The operations that undo these, as JSON text: the page sends them back as
            // they are (JavaScript would round integers past 2^53 it parsed).
            Json(json!({"ok": true, "undo": Value::Array(undo).to_string()})).into_response()
        };
        let refused = |e: String| fail(StatusCode::UNPROCESSABLE_ENTITY, e);
        loop {
            let splicing = lock_file(&file).splicing();
            let Some((from, types)) = splicing else { break };
            match super::lazy::patch(&from, &types, &req.ops) {
                Ok((now, undo)) => {
                    if lock_file(&file).install(&from, now) {
                        return ok(undo);
                    }
                }
                Err(e) => return refused(e),
            }
        }
        let building = {
            let f = lock_file(&file);
            f.needs_document().map(|b| (b, f.path.clone()))
        };
        if let Some((from, p)) = building {
            match super::doc::document_of(&from, &p) {
                Ok(doc) => lock_file(&file).install_document(&from, doc),
                Err(e) => return refused(e),
            }
        }
        let result = lock_file(&file).patch(&req.ops);
        match result {
            Ok(undo) => ok(undo),
            Err(e) => refused(e),
        }
    })
    .await
}

/// `GET /api/entries?file`: the entries of a pack or an archive, with their formats;
/// each opens as `FILE//NAME`.
async fn entries(State(app): State<Shared>, Query(q): Query<ChangesReq>) -> Response {
    let path = match app.roots.resolve(&q.file) {
        Ok(p) => p,
        Err(e) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || match super::doc::list_entries(&path) {
        Ok(v) => Json(v).into_response(),
        Err(e) => fail(StatusCode::UNPROCESSABLE_ENTITY, format!("{}: {e}", q.file)),
    })
    .await
}

/// `GET /api/compare` parameters.
#[derive(Deserialize)]
struct CompareReq {
    file: String,
    other: String,
}

/// `GET /api/compare?file&other`: the differences between two files of one format (the
/// other is opened if the page has not).
async fn compare(State(app): State<Shared>, Query(q): Query<CompareReq>) -> Response {
    let (a, b) = match (locate(&app, &q.file), locate(&app, &q.other)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return fail(StatusCode::FORBIDDEN, e.0),
    };
    blocking(move || {
        let lock = || app.files.lock().unwrap_or_else(|e| e.into_inner());
        for (path, id) in [(&a, &q.file), (&b, &q.other)] {
            if app.file(path).is_none() {
                match open_file(&path.0, path.1.as_deref()) {
                    Ok(f) => {
                        lock()
                            .entry(path.clone())
                            .or_insert_with(|| Arc::new(Mutex::new(f)));
                    }
                    Err(e) => return fail(StatusCode::UNPROCESSABLE_ENTITY, format!("{id}: {e}")),
                }
            }
        }
        let (Some(fa), Some(fb)) = (app.file(&a), app.file(&b)) else {
            return fail(StatusCode::CONFLICT, "a file was closed meanwhile");
        };
        // Two files read through their views: compared on the views, without the
        // files' locks (taken one at a time, only to get the views), skipping the
        // values whose bytes are the same.
        let view_of = |f: &Arc<Mutex<OpenFile>>| {
            let g = lock_file(f);
            (g.shared_view(), g.working["$gamewire"]["format"].clone())
        };
        let ((va, fmt_a), (vb, fmt_b)) = (view_of(&fa), view_of(&fb));
        if let (Some(x), Some(y)) = (va, vb) {
            if fmt_a == fmt_b {
                return match super::lazy::changes(&x, &y, 1000) {
                    Ok(v) => Json(v).into_response(),
                    Err(e) => fail(StatusCode::UNPROCESSABLE_ENTITY, e),
                };
            }
        }
        // One lock for a file compared with itself; two taken in one order.
        let result = if Arc::ptr_eq(&fa, &fb) {
            let f = lock_file(&fa);
            f.compare(&f, 1000)
        } else if a < b {
            let x = lock_file(&fa);
            let y = lock_file(&fb);
            x.compare(&y, 1000)
        } else {
            let y = lock_file(&fb);
            let x = lock_file(&fa);
            x.compare(&y, 1000)
        };
        match result {
            Ok(v) => Json(v).into_response(),
            Err(e) => fail(StatusCode::UNPROCESSABLE_ENTITY, e),
        }
    })
    .await
}

/// `GET /api/changes` parameters.
#[derive(Deserialize)]
struct ChangesReq {
    file: String,
}

/// `GET /api/changes?file`: the working copy against the file on disk.
async fn changes(State(app): State<Shared>, Query(q): Query<ChangesReq>) -> Response {
    with_file(app, q.file, move |f| Json(f.changes(1000)).into_response()).await
}

/// `POST /api/save {"file"}`: encodes the working copy with the file's settings and
/// writes it atomically; a document the format cannot hold is refused and nothing is
/// written.
async fn save(State(app): State<Shared>, Json(req): Json<FileReq>) -> Response {
    let id = req.file.clone();
    with_file(app, req.file, move |f| match f.save() {
        Ok(n) => Json(json!({"ok": true, "bytes": n})).into_response(),
        Err(e) => fail(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{id}: not saved: {e}"),
        ),
    })
    .await
}
