//! Zeze: one bean or protocol frames, typed by a solution found beside them.

use super::super::settings::{ZezeLayout, ZezeSettings};
use super::super::side::SideFiles;
use super::super::{EncodeOptions, Opened, Resolved, Settings};
use crate::{Found, Layout};
use gamewire_core::inspect::TreeBuilder;
use gamewire_core::{Error, Result};
use gamewire_zeze::frame::FrameOptions;
use gamewire_zeze::schema::Schema;
use gamewire_zeze::schema_view::SchemaView;
use gamewire_zeze::typed_json::{self, Frames, Typing};
use gamewire_zeze::Options;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// The solution at `path` with the files it imports (read through `side`, as Zeze's
/// Gen finds them), parsed once per run.
pub(super) fn solution(side: &SideFiles, path: &Path) -> Result<Arc<Schema>> {
    side.parsed(path, "zeze solution", |side, p| {
        Schema::from_file_with(p, &mut |q| {
            let data = side.read(q).map_err(|e| {
                // The reader's own kind (not found, not a regular file), with its text.
                let kind = e
                    .io_error()
                    .map_or(std::io::ErrorKind::Other, |io| io.kind());
                std::io::Error::new(kind, e.to_string())
            })?;
            String::from_utf8(data.to_vec())
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
    })
}

pub(super) fn settings(
    found: &Found,
    path: Option<&Path>,
    name: Option<&str>,
    side: &SideFiles,
) -> Result<(Settings, Resolved, Vec<String>)> {
    let frames = found.layout == Layout::ZezeFrames || name.is_some_and(typed_json::is_frames_name);
    let names: Vec<String> = typed_json::SOLUTION_NAMES
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut z = ZezeSettings {
        layout: if frames {
            ZezeLayout::Frames
        } else {
            ZezeLayout::Bean
        },
        solution: None,
        bean: None,
    };
    let mut resolved = Resolved::default();
    if let Some(p) = side.find(path, &names) {
        let schema = solution(side, &p)?;
        // A bean file holds the bean its name names (`BUser.zeze`); frames are typed by
        // the whole solution.
        let bean = if frames {
            None
        } else {
            name.and_then(|n| typed_json::bean_for_file(&schema, n))
        };
        if frames || bean.is_some() {
            z.solution = Some(super::side_ref(side, &p)?);
            z.bean = bean;
            resolved.solution = Some(schema);
        }
    }
    Ok((Settings::Zeze(z), resolved, Vec::new()))
}

fn typing<'a>(z: &'a ZezeSettings, r: &'a Resolved) -> Option<Typing<'a>> {
    r.solution.as_deref().map(|schema| Typing {
        schema,
        bean: z.bean.as_deref(),
    })
}

fn bean_opts(o: &Opened) -> Options {
    Options {
        max_depth: o.opts.limits.max_depth,
    }
}

fn io(e: serde_json::Error) -> Error {
    Error::msg(format!("cannot write the JSON: {e}"))
}

pub(super) fn write_json(
    o: &Opened,
    z: &ZezeSettings,
    w: &mut dyn Write,
    pretty: bool,
) -> Result<()> {
    let bopts = bean_opts(o);
    let t = typing(z, &o.resolved);
    match (z.layout, t) {
        (ZezeLayout::Frames, t) => {
            let fopts = FrameOptions {
                bean: bopts,
                ..FrameOptions::default()
            };
            let frames = Frames::decode(&o.data, t, &fopts)?;
            gamewire_core::json_out::write(w, &frames, pretty).map_err(io)
        }
        (
            ZezeLayout::Bean,
            Some(Typing {
                schema,
                bean: Some(bean),
            }),
        ) => {
            let view = SchemaView::new(schema, bean, &o.data, &bopts)?;
            gamewire_core::json_out::write(w, &view, pretty).map_err(io)
        }
        (ZezeLayout::Bean, _) => {
            let bean = gamewire_zeze::decode(&o.data, &bopts)?;
            let view = gamewire_zeze::json_view::BeanView::new(&bean);
            gamewire_core::json_out::write(w, &view, pretty).map_err(io)
        }
    }
}

pub(super) fn value<'a>(o: &'a Opened, z: &ZezeSettings) -> Result<crate::open::Value<'a>> {
    use crate::open::Value as V;
    let bopts = bean_opts(o);
    Ok(match (z.layout, typing(z, &o.resolved)) {
        (ZezeLayout::Frames, _) => {
            let fopts = FrameOptions {
                bean: bopts,
                ..FrameOptions::default()
            };
            V::ZezeFrames(gamewire_zeze::frame::decode_frames(&o.data, &fopts)?)
        }
        (
            ZezeLayout::Bean,
            Some(Typing {
                schema,
                bean: Some(bean),
            }),
        ) => V::ZezeTyped(schema.decode(bean, &o.data, &bopts)?),
        (ZezeLayout::Bean, _) => V::Zeze(gamewire_zeze::decode(&o.data, &bopts)?),
    })
}

pub(super) fn encode_value(
    o: &Opened,
    z: &ZezeSettings,
    v: &crate::open::Value<'_>,
) -> Result<Vec<u8>> {
    use crate::open::Value as V;
    match (z.layout, typing(z, &o.resolved), v) {
        (ZezeLayout::Frames, _, V::ZezeFrames(f)) => gamewire_zeze::frame::encode_frames(f),
        (ZezeLayout::Bean, Some(Typing { schema, bean: Some(bean) }), V::ZezeTyped(j)) => {
            schema.encode(bean, j)
        }
        (ZezeLayout::Bean, _, V::Zeze(b)) => gamewire_zeze::encode(b),
        _ => Err(Error::msg(
            "this Zeze value does not fit the file's layout (frames, typed bean or schema-less bean)",
        )),
    }
}

pub(super) fn inspect(o: &Opened, z: &ZezeSettings, tree: &mut TreeBuilder) -> Result<()> {
    let schema = o.resolved.solution.as_deref();
    match z.layout {
        ZezeLayout::Frames => gamewire_zeze::inspect::fill_frames(&o.data, schema, tree),
        ZezeLayout::Bean => {
            let typed = schema.zip(z.bean.as_deref());
            gamewire_zeze::inspect::fill_bean(&o.data, typed, tree)
        }
    }
}

pub(super) fn encode(
    z: &ZezeSettings,
    resolved: &Resolved,
    json_text: &[u8],
    opts: &EncodeOptions,
) -> Result<Vec<u8>> {
    let j = super::parse_json(json_text, opts)?;
    if z.bean.is_some() && resolved.solution.is_none() {
        return Err(Error::msg(format!(
            "the bean {} needs its solution",
            z.bean.as_deref().unwrap_or("")
        )));
    }
    typed_json::encode_json(&j, z.layout == ZezeLayout::Frames, typing(z, resolved))
}
