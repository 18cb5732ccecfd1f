//! The `zeze` commands of the CLI.

use crate::inspect::{short_str, Tree};
use crate::{Action, CliResult};
use gamewire::zeze::frame::{decode_frames, encode_frames, FrameOptions, Payload};
use gamewire::zeze::json::{bean_from_json, bean_to_json, frame_from_json, frame_to_json, hex};
use gamewire::zeze::schema::Schema;
use gamewire::zeze::{self as zeze, Bean, Value};
use std::path::{Path, PathBuf};

/// Options of `gamewire decode|encode|bench zeze`.
#[derive(clap::Args)]
pub struct Args {
    /// Input file; `-` or none reads stdin.
    pub input: Option<PathBuf>,
    /// Output file, written atomically; none writes stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The input is a stream of protocol frames (module id, protocol id, size, body).
    #[arg(long)]
    pub frames: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
    /// Deepest nesting accepted while decoding.
    #[arg(long, default_value_t = 1024)]
    pub max_depth: usize,
    /// A Zeze solution XML: decode and encode named, typed values (needs --bean).
    #[arg(long, requires = "bean")]
    pub schema: Option<PathBuf>,
    /// The bean (full or unique short name) of the input, or of every frame's body.
    #[arg(long, requires = "schema")]
    pub bean: Option<String>,
}

/// The schema and bean name given with --schema/--bean.
struct Typed {
    schema: Schema,
    bean: String,
}

fn load_schema(path: &Path) -> CliResult<Schema> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Schema::from_xml(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn typed(a: &Args) -> CliResult<Option<Typed>> {
    match (&a.schema, &a.bean) {
        (Some(p), Some(b)) => {
            let schema = load_schema(p)?;
            let bean = schema.bean(b)?.name.clone();
            Ok(Some(Typed { schema, bean }))
        }
        _ => Ok(None),
    }
}

impl Typed {
    fn bean_json(&self, b: &Bean, opts: &zeze::Options) -> zeze::Result<serde_json::Value> {
        self.schema.decode(&self.bean, &zeze::encode(b)?, opts)
    }

    fn bean_from(&self, j: &serde_json::Value) -> zeze::Result<Bean> {
        zeze::decode(
            &self.schema.encode(&self.bean, j)?,
            &zeze::Options::default(),
        )
    }
}

fn opts(a: &Args) -> zeze::Options {
    zeze::Options {
        max_depth: a.max_depth,
    }
}

fn frame_opts(a: &Args) -> FrameOptions {
    FrameOptions {
        bean: opts(a),
        ..FrameOptions::default()
    }
}

/// Decodes Zeze bytes (a bean or a frame stream) to JSON.
fn to_json(a: &Args, data: &[u8]) -> CliResult<serde_json::Value> {
    let t = typed(a)?;
    if a.frames {
        let frames = decode_frames(data, &frame_opts(a))?;
        let mut out = Vec::with_capacity(frames.len());
        for (i, f) in frames.iter().enumerate() {
            let j = match &t {
                None => frame_to_json(f, bean_to_json),
                Some(t) => {
                    let mut err = None;
                    let j = frame_to_json(f, |b| {
                        t.bean_json(b, &opts(a)).unwrap_or_else(|e| {
                            err = Some(e);
                            serde_json::Value::Null
                        })
                    });
                    if let Some(e) = err {
                        return Err(e.in_index(i).into());
                    }
                    j
                }
            };
            out.push(j);
        }
        Ok(serde_json::Value::Array(out))
    } else if let Some(t) = t {
        Ok(t.schema.decode(&t.bean, data, &opts(a))?)
    } else {
        Ok(bean_to_json(&zeze::decode(data, &opts(a))?))
    }
}

/// Encodes JSON (as `to_json` writes it) to Zeze bytes.
fn from_json(a: &Args, j: &serde_json::Value) -> CliResult<Vec<u8>> {
    let t = typed(a)?;
    if a.frames {
        let arr = j.as_array().ok_or("expected a JSON array of frames")?;
        let frames = arr
            .iter()
            .enumerate()
            .map(|(i, f)| {
                match &t {
                    None => frame_from_json(f, bean_from_json),
                    Some(t) => frame_from_json(f, |b| t.bean_from(b)),
                }
                .map_err(|e| e.in_index(i))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(encode_frames(&frames)?)
    } else if let Some(t) = t {
        Ok(t.schema.encode(&t.bean, j)?)
    } else {
        Ok(zeze::encode(&bean_from_json(j)?)?)
    }
}

/// Runs `decode`, `encode` or `bench` for zeze.
pub fn run(action: Action, args: Args) -> CliResult {
    let input = crate::io::read_input(args.input.as_deref())?;
    match action {
        Action::Decode => {
            let j = to_json(&args, &input)?;
            crate::io::write_output(
                args.output.as_deref(),
                &crate::io::json_bytes(&j, !args.compact)?,
            )
        }
        Action::Encode => {
            let j = crate::io::parse_json(&input)?;
            crate::io::write_output(args.output.as_deref(), &from_json(&args, &j)?)
        }
        Action::Bench => {
            let label = if args.frames {
                "zeze frames"
            } else {
                "zeze bean"
            };
            if let Some(t) = typed(&args)? {
                let o = opts(&args);
                let label = format!("zeze bean {} (schema)", t.bean);
                crate::bench::run(
                    &label,
                    &input,
                    |d| Ok(t.schema.decode(&t.bean, d, &o)?),
                    |j| Ok(t.schema.encode(&t.bean, j)?),
                )
            } else if args.frames {
                let o = frame_opts(&args);
                crate::bench::run(
                    label,
                    &input,
                    |d| Ok(decode_frames(d, &o)?),
                    |f| Ok(encode_frames(f)?),
                )
            } else {
                let o = opts(&args);
                crate::bench::run(
                    label,
                    &input,
                    |d| Ok(zeze::decode(d, &o)?),
                    |b| Ok(zeze::encode(b)?),
                )
            }
        }
    }
}

fn f32s(a: &[f32]) -> String {
    let parts: Vec<String> = a.iter().map(|x| format!("{x:?}")).collect();
    format!("({})", parts.join(", "))
}

fn i64s(a: &[i64]) -> String {
    let parts: Vec<String> = a.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

fn show_value(label: &str, v: &Value, tree: &mut Tree) {
    match v {
        Value::Integer(i) => tree.leaf(label, "integer", &i.to_string()),
        Value::Float(f) => tree.leaf(label, "float", &format!("{f:?}")),
        Value::Double(d) => tree.leaf(label, "double", &format!("{d:?}")),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => tree.leaf(label, "bytes", &short_str(s, 60)),
            Err(_) => tree.leaf(
                label,
                "bytes",
                &format!("0x{} ({} bytes)", hex(&b[..b.len().min(32)]), b.len()),
            ),
        },
        Value::Vector2(a) => tree.leaf(label, "vector2", &f32s(a)),
        Value::Vector3(a) => tree.leaf(label, "vector3", &f32s(a)),
        Value::Vector4(a) => tree.leaf(label, "vector4", &f32s(a)),
        Value::Vector2Int(a) => tree.leaf(label, "vector2int", &i64s(a)),
        Value::Vector3Int(a) => tree.leaf(label, "vector3int", &i64s(a)),
        Value::List { elem, items } => {
            tree.open(label, &format!("list<{elem}>"), Some(items.len()));
            for (i, it) in items.iter().enumerate() {
                if tree.keep(i, items.len()) {
                    show_value(&format!("[{i}]"), it, tree);
                }
            }
            tree.close();
        }
        Value::Map {
            key,
            value,
            entries,
        } => {
            tree.open(label, &format!("map<{key}, {value}>"), Some(entries.len()));
            for (i, (k, v)) in entries.iter().enumerate() {
                if tree.keep(i, entries.len()) {
                    show_value(&format!("key[{i}]"), k, tree);
                    show_value(&format!("value[{i}]"), v, tree);
                }
            }
            tree.close();
        }
        Value::Bean(b) => show_bean(label, "bean", b, tree),
        Value::Dynamic { type_id, bean } => {
            show_bean(label, &format!("dynamic (type id {type_id})"), bean, tree)
        }
    }
}

fn show_bean(label: &str, ty: &str, b: &Bean, tree: &mut Tree) {
    tree.open(label, ty, Some(b.fields.len()));
    for (i, f) in b.fields.iter().enumerate() {
        if tree.keep(i, b.fields.len()) {
            show_value(&f.id.to_string(), &f.value, tree);
        }
    }
    if let Some(base) = &b.base {
        show_bean("base", "bean level", base, tree);
    }
    tree.close();
}

/// Prints a zeze file as a tree for `gamewire inspect`: `*.frames.zeze` files are frame
/// streams, other `*.zeze` files one bean, named and typed when a `zeze-solution.xml`
/// beside it declares a bean named like the file (up to its first dot).
pub fn inspect(path: &Path, data: &[u8], tree: &mut Tree) -> CliResult {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name.ends_with(".frames.zeze") {
        let frames = decode_frames(data, &FrameOptions::default())?;
        tree.open("frames", "zeze frame stream", Some(frames.len()));
        for (i, f) in frames.iter().enumerate() {
            if !tree.keep(i, frames.len()) {
                continue;
            }
            let head = format!("[{i}] module {} protocol {}", f.module_id, f.protocol_id);
            match &f.payload {
                Payload::Body(b) => {
                    let mut ty = b.family.name().to_string();
                    if let Some(s) = b.session_id {
                        ty.push_str(&format!(" session {s}"));
                    }
                    if let Some(rc) = b.result_code {
                        ty.push_str(&format!(" result code {rc}"));
                    }
                    show_bean(&head, &ty, &b.bean, tree);
                }
                Payload::Raw(r) => tree.leaf(&head, "raw body", &format!("{} bytes", r.len())),
            }
        }
        tree.close();
    } else {
        let solution = path.with_file_name(SOLUTION_FILE);
        let stem = name.split('.').next().unwrap_or("");
        if solution.is_file() {
            let schema = load_schema(&solution)?;
            let found = schema
                .bean_names()
                .into_iter()
                .find(|n| {
                    n.rsplit('.')
                        .next()
                        .is_some_and(|s| s.eq_ignore_ascii_case(stem))
                })
                .map(str::to_owned);
            if let Some(bean) = found {
                let j = schema.decode(&bean, data, &zeze::Options::default())?;
                show_json("bean", &bean, &j, tree);
                return Ok(());
            }
        }
        let bean = zeze::decode(data, &zeze::Options::default())?;
        show_bean("bean", "bean", &bean, tree);
    }
    Ok(())
}

/// The schema `inspect` looks for beside a `*.zeze` file.
pub const SOLUTION_FILE: &str = "zeze-solution.xml";

fn show_json(label: &str, ty: &str, j: &serde_json::Value, tree: &mut Tree) {
    use serde_json::Value as J;
    match j {
        J::Object(o) => {
            tree.open(
                label,
                if ty.is_empty() { "object" } else { ty },
                Some(o.len()),
            );
            for (i, (k, v)) in o.iter().enumerate() {
                if tree.keep(i, o.len()) {
                    show_json(k, "", v, tree);
                }
            }
            tree.close();
        }
        J::Array(a) => {
            tree.open(
                label,
                if ty.is_empty() { "array" } else { ty },
                Some(a.len()),
            );
            for (i, v) in a.iter().enumerate() {
                if tree.keep(i, a.len()) {
                    show_json(&format!("[{i}]"), "", v, tree);
                }
            }
            tree.close();
        }
        J::String(s) => tree.leaf(label, "string", &short_str(s, 60)),
        J::Bool(b) => tree.leaf(label, "bool", &b.to_string()),
        J::Number(n) => tree.leaf(
            label,
            if n.is_f64() { "number" } else { "integer" },
            &n.to_string(),
        ),
        J::Null => tree.leaf(label, "null", "null"),
    }
}
