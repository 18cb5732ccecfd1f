//! `project.binary` (magic `ECFG`): the project settings an exported Godot game carries,
//! as `ProjectSettings::_save_settings_binary` writes them and `_load_settings_binary`
//! reads them (`core/config/project_settings.cpp` in 4.x, `core/project_settings.cpp`
//! in 3.x; the same layout in both).
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `ECFG` |
//! | 4 | setting count |
//! | per setting: 4 | key length in bytes |
//! | … | key (UTF-8, `section/name`, no terminator) |
//! | 4 | value length in bytes |
//! | … | the value, a Variant as `var_to_bytes_with_objects` writes it |
//!
//! The engine writes `_custom_features` first when the export names custom features.
//! Nothing in the file says which engine wrote it: [`decode`] reads the values as
//! Godot 4 and as Godot 3 and keeps the reading whose values all decode and encode back
//! to the same bytes. When both do, the one with fewer types no setting holds, then the
//! engine the setting names point to (`display/window/size/width` is Godot 3's), then
//! Godot 4 (the bytes are the same either way).
//!
//! ```
//! use gamewire_godot::project_binary::{decode, encode, Settings};
//! use gamewire_godot::{Value, Version};
//! let s = Settings {
//!     version: Version::V4,
//!     entries: vec![("application/config/name".into(), Value::String("Demo".into()))],
//! };
//! let bytes = encode(&s).unwrap();
//! assert_eq!(&bytes[..4], b"ECFG");
//! assert_eq!(decode(&bytes, None).unwrap(), s);
//! ```

use crate::{DecodeOptions, EncodeOptions, Value, Version};
use gamewire_core::{Error, Result};

/// The magic number at the start of a `project.binary`.
pub const MAGIC: &[u8; 4] = b"ECFG";

/// The settings of a `project.binary`, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The Variant encoding of the values (Godot 3 or 4).
    pub version: Version,
    /// Key (`section/name`) and value of each setting.
    pub entries: Vec<(String, Value)>,
}

/// True when `data` starts with the `project.binary` magic.
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// One setting's raw parts: key, and where its value's bytes are.
struct Raw<'a> {
    key: String,
    at: usize,
    value: &'a [u8],
}

fn u32_at(data: &[u8], at: usize, what: &str) -> Result<u32> {
    data.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| {
            Error::msg_at(
                at,
                format!(
                    "project.binary truncated: {what} needs 4 bytes, {} left",
                    data.len().saturating_sub(at)
                ),
            )
        })
}

/// Splits `data` into its settings without decoding the values.
fn split(data: &[u8]) -> Result<Vec<Raw<'_>>> {
    if !sniff(data) {
        return Err(Error::msg_at(0, "not a project.binary: no ECFG magic"));
    }
    let count = u32_at(data, 4, "the setting count")? as usize;
    // Each setting takes at least 8 bytes (two lengths) and a value of 4.
    let most = (data.len() - 8) / 12;
    if count > most {
        return Err(Error::msg_at(
            4,
            format!("project.binary claims {count} settings; its bytes hold at most {most}"),
        ));
    }
    let mut out = Vec::with_capacity(count);
    let mut at = 8;
    for i in 0..count {
        let klen = u32_at(data, at, "a key length")? as usize;
        let kat = at + 4;
        let key = data.get(kat..kat.saturating_add(klen)).ok_or_else(|| {
            Error::msg_at(
                at,
                format!(
                    "setting {i}: a key of {klen} bytes runs past the end ({} bytes left)",
                    data.len() - kat
                ),
            )
        })?;
        let key = std::str::from_utf8(key)
            .map_err(|_| Error::msg_at(kat, format!("setting {i}: the key is not UTF-8")))?
            .to_owned();
        let vat = kat + klen;
        let vlen = u32_at(data, vat, "a value length").map_err(|e| e.in_key(key.clone()))? as usize;
        let value = data
            .get(vat + 4..(vat + 4).saturating_add(vlen))
            .ok_or_else(|| {
                Error::msg_at(
                    vat,
                    format!(
                        "setting {key:?}: a value of {vlen} bytes runs past the end ({} bytes left)",
                        data.len() - vat - 4
                    ),
                )
            })?;
        out.push(Raw {
            key,
            at: vat + 4,
            value,
        });
        at = vat + 4 + vlen;
    }
    if at != data.len() {
        return Err(Error::msg_at(
            at,
            format!(
                "{} bytes after the last of the {count} settings",
                data.len() - at
            ),
        ));
    }
    Ok(out)
}

/// Decodes every value as `version`; each must read its bytes whole.
fn read_as(raw: &[Raw<'_>], version: Version) -> Result<Vec<(String, Value)>> {
    let opts = DecodeOptions::new(version).allow_objects(true);
    raw.iter()
        .map(|r| {
            crate::decode(r.value, &opts)
                .map(|v| (r.key.clone(), v))
                .map_err(|e| e.shift_offset(r.at).in_key(r.key.clone()))
        })
        .collect()
}

/// True when every value encodes back to its own bytes.
fn exact(raw: &[Raw<'_>], values: &[(String, Value)], version: Version) -> bool {
    let opts = EncodeOptions::new(version);
    raw.iter()
        .zip(values)
        .all(|(r, (_, v))| crate::encode(v, &opts).is_ok_and(|b| b == r.value))
}

/// Reads a `project.binary`: as `version` when given, else as the Godot version whose
/// reading gives back the same bytes (see the module's documentation). Errors name
/// the byte offset and the setting.
pub fn decode(data: &[u8], version: Option<Version>) -> Result<Settings> {
    let raw = split(data)?;
    if let Some(v) = version {
        return Ok(Settings {
            version: v,
            entries: read_as(&raw, v)?,
        });
    }
    let v4 = read_as(&raw, Version::V4);
    let v3 = read_as(&raw, Version::V3);
    let exact4 = v4.as_ref().is_ok_and(|e| exact(&raw, e, Version::V4));
    let exact3 = v3.as_ref().is_ok_and(|e| exact(&raw, e, Version::V3));
    if exact4 && exact3 {
        // Both read: a Godot 3 Color is a Godot 4 Plane of the same size, say. Keep the
        // reading with fewer types no project setting holds.
        let (e4, e3) = (v4.expect("checked"), v3.expect("checked"));
        let (odd4, odd3) = (odd(&e4), odd(&e3));
        let v3 = odd3 < odd4 || (odd3 == odd4 && key_hint(&e4) == Some(Version::V3));
        return Ok(if v3 {
            Settings {
                version: Version::V3,
                entries: e3,
            }
        } else {
            Settings {
                version: Version::V4,
                entries: e4,
            }
        });
    }
    if exact4 {
        return Ok(Settings {
            version: Version::V4,
            entries: v4.expect("checked"),
        });
    }
    match (v4, v3) {
        (_, Ok(e3)) if exact(&raw, &e3, Version::V3) => Ok(Settings {
            version: Version::V3,
            entries: e3,
        }),
        (Ok(e4), _) => Ok(Settings {
            version: Version::V4,
            entries: e4,
        }),
        (Err(_), Ok(e3)) => Ok(Settings {
            version: Version::V3,
            entries: e3,
        }),
        (Err(a), Err(b)) => {
            // The reading that got further says the most.
            Err(if b.offset().unwrap_or(0) > a.offset().unwrap_or(0) {
                b
            } else {
                a
            })
        }
    }
}

/// How many values are of types no project setting holds (planes, quaternions, bases,
/// RIDs, AABBs, projections, callables, signals): the other engine's types read amiss.
fn odd(entries: &[(String, Value)]) -> usize {
    entries
        .iter()
        .filter(|(_, v)| {
            matches!(
                v,
                Value::Plane(_)
                    | Value::Quaternion(_)
                    | Value::Basis(_)
                    | Value::Aabb(_)
                    | Value::Rid(_)
                    | Value::Projection(_)
                    | Value::Transform3D(_)
            ) || matches!(v.kind(), crate::Kind::Callable | crate::Kind::Signal)
        })
        .count()
}

/// The engine the setting names point to, when the values read alike in both: keys
/// only one engine's project settings have (Godot 3's `display/window/size/width`,
/// `_global_script_classes`, `rendering/quality/...`; Godot 4's
/// `display/window/size/viewport_width`, `rendering/renderer/...`), or features naming
/// `4.x`.
fn key_hint(entries: &[(String, Value)]) -> Option<Version> {
    const V3: [&str; 6] = [
        "display/window/size/width",
        "display/window/size/height",
        "_global_script_classes",
        "_global_script_class_icons",
        "rendering/quality/",
        "rendering/vram_compression/import_etc",
    ];
    const V4: [&str; 4] = [
        "display/window/size/viewport_width",
        "display/window/size/viewport_height",
        "rendering/renderer/",
        "rendering/rendering_device/",
    ];
    let (mut three, mut four) = (0, 0);
    for (key, value) in entries {
        three += V3.iter().filter(|k| key.starts_with(*k)).count();
        four += V4.iter().filter(|k| key.starts_with(*k)).count();
        if key == "application/config/features" {
            if let Value::PackedStringArray(f) = value {
                four += f.iter().filter(|x| x.starts_with("4.")).count();
            }
        }
    }
    match three.cmp(&four) {
        std::cmp::Ordering::Greater => Some(Version::V3),
        std::cmp::Ordering::Less => Some(Version::V4),
        std::cmp::Ordering::Equal => None,
    }
}

/// True when decoding `data` and encoding it again gives the same bytes.
pub fn round_trips(data: &[u8], settings: &Settings) -> bool {
    encode(settings).is_ok_and(|b| b == data)
}

/// Writes settings as `_save_settings_binary` does.
pub fn encode(settings: &Settings) -> Result<Vec<u8>> {
    let opts = EncodeOptions::new(settings.version);
    let mut out = Vec::with_capacity(8 + settings.entries.len() * 48);
    out.extend_from_slice(MAGIC);
    let count = u32::try_from(settings.entries.len())
        .map_err(|_| Error::msg("more than 4294967295 settings"))?;
    out.extend_from_slice(&count.to_le_bytes());
    for (key, value) in &settings.entries {
        out.extend_from_slice(&(key.len() as u32).to_le_bytes());
        out.extend_from_slice(key.as_bytes());
        let len_at = out.len();
        out.extend_from_slice(&[0; 4]);
        crate::encode_into(value, &opts, &mut out).map_err(|e| e.in_key(key.clone()))?;
        let len = (out.len() - len_at - 4) as u32;
        out[len_at..len_at + 4].copy_from_slice(&len.to_le_bytes());
    }
    Ok(out)
}

/// The settings as a JSON object (key → value in gamewire's Variant JSON), in file
/// order. A key listed twice is refused: a JSON object cannot hold it twice.
pub fn to_json(settings: &Settings) -> Result<serde_json::Value> {
    let mut map = serde_json::Map::with_capacity(settings.entries.len());
    for (key, value) in &settings.entries {
        if map.contains_key(key) {
            return Err(Error::msg(format!(
                "setting {key:?} is listed twice: its JSON object could not give both back"
            )));
        }
        map.insert(key.clone(), crate::json::to_json(value, settings.version));
    }
    Ok(serde_json::Value::Object(map))
}

/// Settings from the JSON [`to_json`] writes. Errors name the JSON path.
pub fn from_json(json: &serde_json::Value, version: Version) -> Result<Settings> {
    let serde_json::Value::Object(map) = json else {
        return Err(Error::msg(
            "a project.binary's JSON is an object of settings (\"section/name\": value)",
        ));
    };
    let entries = map
        .iter()
        .map(|(k, v)| {
            crate::json::from_json(v, version)
                .map(|x| (k.clone(), x))
                .map_err(|e| e.in_key(k.clone()))
        })
        .collect::<Result<_>>()?;
    Ok(Settings { version, entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(version: Version) -> Settings {
        let features = match version {
            Version::V4 => Value::PackedStringArray(vec!["4.6".into(), "Forward Plus".into()]),
            Version::V3 => Value::String("3.6".into()),
        };
        Settings {
            version,
            entries: vec![
                (
                    "application/config/name".into(),
                    Value::String("Demo".into()),
                ),
                ("application/config/features".into(), features),
                (
                    "display/window/size/viewport_width".into(),
                    Value::Int(1280),
                ),
                ("physics/2d/default_gravity".into(), Value::Float(980.5)),
                (
                    "rendering/environment/defaults/default_clear_color".into(),
                    Value::Color([0.3, 0.3, 0.3, 1.0]),
                ),
            ],
        }
    }

    #[test]
    fn both_versions_round_trip_and_are_told_apart() {
        for v in [Version::V3, Version::V4] {
            let s = sample(v);
            let bytes = encode(&s).unwrap();
            let back = decode(&bytes, None).unwrap();
            assert_eq!(back, s, "{v:?}");
            assert!(round_trips(&bytes, &back));
            let j = to_json(&back).unwrap();
            assert_eq!(from_json(&j, v).unwrap(), s);
        }
    }

    #[test]
    fn setting_names_tell_alike_values_apart() {
        let s = |key: &str| Settings {
            version: Version::V4,
            entries: vec![
                (key.into(), Value::Int(1024)),
                ("application/config/name".into(), Value::String("x".into())),
            ],
        };
        let three = encode(&s("display/window/size/width")).unwrap();
        assert_eq!(decode(&three, None).unwrap().version, Version::V3);
        let four = encode(&s("display/window/size/viewport_width")).unwrap();
        assert_eq!(decode(&four, None).unwrap().version, Version::V4);
        let neither = encode(&s("my/setting")).unwrap();
        assert_eq!(decode(&neither, None).unwrap().version, Version::V4);
    }

    #[test]
    fn damage_is_named() {
        let bytes = encode(&sample(Version::V4)).unwrap();
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], None).is_err(), "cut at {n}");
        }
        let mut bad = bytes.clone();
        bad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = decode(&bad, None).unwrap_err().to_string();
        assert!(e.contains("claims 4294967295 settings"), "{e}");
        let mut bad = bytes.clone();
        bad.push(0);
        let e = decode(&bad, None).unwrap_err().to_string();
        assert!(e.contains("1 bytes after"), "{e}");
    }

    #[test]
    fn every_byte_changed_is_read_or_refused_without_panic() {
        for v in [Version::V3, Version::V4] {
            let good = encode(&sample(v)).unwrap();
            for at in 0..good.len() {
                for x in [0u8, 0x7f, 0xff] {
                    let mut bad = good.clone();
                    bad[at] = x;
                    if let Ok(s) = decode(&bad, None) {
                        let _ = encode(&s);
                        let _ = to_json(&s);
                    }
                }
            }
        }
    }
}
