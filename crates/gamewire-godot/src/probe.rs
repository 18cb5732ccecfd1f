//! Recognising Godot Variant bytes by their content, when no file name says what they are.
//!
//! Variant bytes carry no magic number, and Godot 3 and 4 share most type ids. A save
//! file written with `FileAccess.store_var` is a u32 length and then the value, repeated
//! for each call; a packet from `PacketPeer.put_var` or a `var_to_bytes` buffer is the
//! bare value. [`probe`] tries every reading (both versions, bare or framed), keeps those
//! that decode the whole input, and scores how plausible each decoded value looks: game
//! data holds finite floats of sensible size and text without control characters, while
//! bytes read under the wrong type ids turn into floats such as `1.1e27` (ASCII read as
//! a float) or strings full of control bytes.

use crate::framing::decode_framed;
use crate::header::TYPE_MASK;
use crate::{decode, DecodeOptions, Kind, Real, Reals, Value, Version};

/// How a buffer's values are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Framing {
    /// One bare value (`var_to_bytes`, `PacketPeer.put_var` packets).
    Raw,
    /// Values each behind a u32 byte length (`FileAccess.store_var`,
    /// `StreamPeer.put_var`, `PacketPeerStream`), one or more back to back.
    Framed,
}

/// One way of reading a buffer that decodes all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The wire version.
    pub version: Version,
    /// Bare or length-prefixed.
    pub framing: Framing,
    /// Values read (1 for [`Framing::Raw`]).
    pub records: usize,
    /// Leaf values looked at for plausibility.
    pub leaves: usize,
    /// Leaf values that look like bytes read under the wrong type (floats that are not
    /// finite or of absurd size, text with control characters).
    pub implausible: usize,
}

/// What [`probe`] concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// One reading fits best. When other readings give the very same values (bytes that
    /// use only type ids both versions share), they are listed in `same`: any of them
    /// decodes and re-encodes the input identically.
    One {
        /// The reading to use.
        best: Reading,
        /// Other readings giving the same values.
        same: Vec<Reading>,
    },
    /// Two or more readings fit equally well with different values: the caller must
    /// choose (the CLI asks for `--as`).
    Ambiguous(Vec<Reading>),
    /// No reading decodes the whole input plausibly.
    NotGodot,
}

impl Verdict {
    /// The reading to use, when there is one.
    pub fn best(&self) -> Option<&Reading> {
        match self {
            Verdict::One { best, .. } => Some(best),
            _ => None,
        }
    }
}

/// The smallest input probed: a bare Variant header is 4 bytes.
const MIN_LEN: usize = 4;

/// Reads `data` every way Godot could have written it and says which fits.
///
/// A reading must decode every byte (full objects are not accepted, as with
/// `bytes_to_var`; a framed reading decodes its first [`PROBE_FRAMES`] frames and checks
/// the size chain of the rest) and have at most one implausible leaf in eight. Readings that give
/// equal values (for example a `String`, which both versions write alike) are not a
/// conflict; readings that differ are ranked by how many implausible leaves they hold,
/// and a tie is [`Verdict::Ambiguous`]. Ties happen only on tiny inputs: bare bytes read
/// as a frame only when their header, a type id under 39, equals the length of what
/// follows, so a bare value over 42 bytes never passes for a framed one. The cost is at
/// most two decodes of the input as a bare value and two of its first frames, and most
/// non-Godot inputs are turned away by their first header.
pub fn probe(data: &[u8]) -> Verdict {
    if data.len() < MIN_LEN {
        return Verdict::NotGodot;
    }
    let mut found: Vec<(Reading, Vec<Value>)> = Vec::new();
    for version in [Version::V4, Version::V3] {
        let opts = DecodeOptions::new(version);
        if header_fits(data, version) {
            if let Ok(v) = decode(data, &opts) {
                found.push((
                    reading(version, Framing::Raw, std::slice::from_ref(&v)),
                    vec![v],
                ));
            }
        }
        if let Some(frames) = frames_chain(data).filter(|_| header_fits(&data[4..], version)) {
            if let Ok(values) = decode_first_frames(data, &opts) {
                let mut r = reading(version, Framing::Framed, &values);
                r.records = frames;
                found.push((r, values));
            }
        }
    }
    found.retain(|(r, _)| r.implausible * 8 <= r.leaves);
    if found.is_empty() {
        return Verdict::NotGodot;
    }
    // Best first: fewest implausible leaves, then framed before raw, then Godot 4 before
    // Godot 3 (the order tried), so equivalent readings name the framed Godot 4 one.
    found.sort_by_key(|(r, _)| (r.implausible, r.framing == Framing::Raw));
    let (best, best_values) = found.remove(0);
    let mut same = Vec::new();
    let mut rivals = Vec::new();
    for (r, values) in found {
        if r.framing == best.framing && values == best_values {
            same.push(r);
        } else if r.implausible == best.implausible {
            rivals.push(r);
        }
    }
    if rivals.is_empty() {
        Verdict::One { best, same }
    } else {
        let mut all = vec![best];
        all.extend(same);
        all.extend(rivals);
        Verdict::Ambiguous(all)
    }
}

/// True when the u32 at the start of `data` is a header this version can read: a known
/// type id and no flag bits that type never carries.
fn header_fits(data: &[u8], version: Version) -> bool {
    let Some(h) = data.get(..4) else {
        return false;
    };
    let h = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
    // Flags live in bits 16-19 (64-bit payload, object as id, container types); the
    // engine never sets bits 8-15 or 20-31.
    h & !(TYPE_MASK | 0xF_0000) == 0 && Kind::from_id(h & TYPE_MASK, version).is_some()
}

/// The number of frames when `data` is a chain of u32-length frames that ends exactly at
/// its end (counted, nothing stored).
fn frames_chain(data: &[u8]) -> Option<usize> {
    let mut pos = 0usize;
    let mut frames = 0usize;
    while pos < data.len() {
        let h = data.get(pos..pos + 4)?;
        let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
        if len < 4 {
            return None;
        }
        pos = match pos.checked_add(4 + len) {
            Some(p) if p <= data.len() => p,
            _ => return None,
        };
        frames += 1;
    }
    (pos == data.len() && !data.is_empty()).then_some(frames)
}

/// How many frames of a framed reading [`probe`] decodes: the first 1,024 (the size
/// chain of the rest is checked, their values are not decoded), so that a long stream of
/// tiny frames (500 MB of 8-byte `nil` frames) is judged in bounded memory.
pub const PROBE_FRAMES: usize = 1024;

/// Decodes the first [`PROBE_FRAMES`] frames of `data`.
fn decode_first_frames(data: &[u8], opts: &DecodeOptions) -> gamewire_core::Result<Vec<Value>> {
    let mut values = Vec::new();
    let mut pos = 0;
    while pos < data.len() && values.len() < PROBE_FRAMES {
        let (v, used) = decode_framed(&data[pos..], opts)?;
        values.push(v);
        pos += used;
    }
    Ok(values)
}

fn reading(version: Version, framing: Framing, values: &[Value]) -> Reading {
    let mut tally = Tally::default();
    for v in values {
        tally.value(v);
    }
    Reading {
        version,
        framing,
        records: values.len(),
        leaves: tally.leaves,
        implausible: tally.implausible,
    }
}

/// Counts leaves and implausible leaves over a value tree, without recursion.
#[derive(Default)]
struct Tally {
    leaves: usize,
    implausible: usize,
}

impl Tally {
    fn value(&mut self, root: &Value) {
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(a) => stack.extend(a.items.iter()),
                Value::Dictionary(d) => {
                    for (k, v) in &d.entries {
                        stack.push(k);
                        stack.push(v);
                    }
                }
                other => self.leaf(other),
            }
        }
    }

    fn leaf(&mut self, v: &Value) {
        let ok = match v {
            Value::Float(f) => float_ok(*f),
            Value::String(s) | Value::StringName(s) => text_ok(s),
            Value::Vector2(r) => real_ok(r),
            Value::Rect2(r) => real_ok(r),
            Value::Vector3(r) => real_ok(r),
            Value::Transform2D(r) => real_ok(r),
            Value::Vector4(r) => real_ok(r),
            Value::Plane(r) => real_ok(r),
            Value::Quaternion(r) => real_ok(r),
            Value::Aabb(r) => real_ok(r),
            Value::Basis(r) => real_ok(r),
            Value::Transform3D(r) => real_ok(r),
            Value::Projection(r) => real_ok(r),
            Value::Color(c) => c.iter().all(|x| float_ok(*x as f64)),
            Value::NodePath(p) => text_ok(&p.to_string()),
            Value::PackedFloat32Array(a) => a.iter().all(|x| float_ok(*x as f64)),
            Value::PackedFloat64Array(a) => a.iter().all(|x| float_ok(*x)),
            Value::PackedStringArray(a) => a.iter().all(|s| text_ok(s)),
            Value::PackedVector2Array(r) => reals_ok(r),
            Value::PackedVector3Array(r) => reals_ok(r),
            Value::PackedVector4Array(r) => reals_ok(r),
            Value::PackedColorArray(a) => a.iter().flatten().all(|x| float_ok(*x as f64)),
            _ => true,
        };
        self.leaves += 1;
        if !ok {
            self.implausible += 1;
        }
    }
}

/// A float game data would hold: finite, zero or of a magnitude between 1e-12 and 1e12.
fn float_ok(f: f64) -> bool {
    f == 0.0 || (f.is_finite() && (1e-12..1e12).contains(&f.abs()))
}

fn real_ok<const N: usize>(r: &Real<N>) -> bool {
    r.to_f64().iter().all(|x| float_ok(*x))
}

fn reals_ok<const N: usize>(r: &Reals<N>) -> bool {
    match r {
        Reals::F32(v) => v.iter().flatten().all(|x| float_ok(*x as f64)),
        Reals::F64(v) => v.iter().flatten().all(|x| float_ok(*x)),
    }
}

/// Text with no control characters but tab, newline and carriage return.
fn text_ok(s: &str) -> bool {
    !s.chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}
