//! The contract ([`gamewire::contract::Codec`]) proven on every sample: each file is
//! opened as a front end opens it ([`gamewire::open`]), its settings become the
//! contract's options, and one generic function checks the laws for every format:
//! decode then encode gives the file's bytes, the JSON reads back to the same bytes,
//! the JSON is the one `gamewire::open` writes, `sniff` claims the file and `inspect`
//! fills a tree.
#![cfg(all(
    feature = "godot",
    feature = "kingsisle",
    feature = "zeze",
    feature = "resonite",
    feature = "o3de"
))]

use gamewire::contract::{
    Codec, Godot3, Godot4, GodotOptions, KingsIsle, O3de, Resonite, Zeze, ZezeOptions,
};
use gamewire::core::inspect::TreeBuilder;
use gamewire::open::{Opened, Settings, ZezeLayout};
use gamewire::{Format, OpenOptions, SideFiles};
use std::path::{Path, PathBuf};

fn samples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            out.push(f.unwrap().path());
        }
    }
    out.sort();
    out
}

/// What one sample showed.
#[derive(Debug, PartialEq)]
struct Checked {
    /// Decode then encode gave the file's bytes.
    exact: bool,
    /// The contract's JSON was compared with `gamewire::open`'s.
    compared: bool,
}

/// The laws of the contract, for one file of format `C`. `open_json`: the JSON
/// `gamewire::open` wrote for it, when the contract's JSON is the same (untyped).
fn check<C: Codec>(
    path: &Path,
    data: &[u8],
    opts: &C::DecodeOptions,
    open_json: Option<&[u8]>,
) -> Checked {
    let p = path.display();
    let name = path.file_name().and_then(|n| n.to_str());
    assert!(C::sniff(data, name), "{p}: {} does not sniff it", C::FORMAT);

    let value = C::decode(data, opts).unwrap_or_else(|e| panic!("{p}: decode: {e}"));
    let eo = C::encode_options(data, &value, opts);
    let direct = C::encode(&value, &eo).unwrap_or_else(|e| panic!("{p}: encode: {e}"));
    let exact = direct == data;
    if C::EXACT {
        assert!(exact, "{p}: decode then encode changed the bytes");
    }

    for pretty in [false, true] {
        let mut json = Vec::new();
        C::write_json(&value, opts, &mut json, pretty)
            .unwrap_or_else(|e| panic!("{p}: write_json: {e}"));
        assert!(!json.is_empty() && !json.ends_with(b"\n"), "{p}: JSON ends");
        if let (Some(want), false) = (open_json, pretty) {
            assert!(
                json == want,
                "{p}: the contract's JSON is not gamewire::open's:\n{}\n{}",
                String::from_utf8_lossy(&json),
                String::from_utf8_lossy(want)
            );
        }
        let back = C::from_json(&json, opts).unwrap_or_else(|e| panic!("{p}: from_json: {e}"));
        let again = C::encode(&back, &eo).unwrap_or_else(|e| panic!("{p}: encode JSON: {e}"));
        assert!(
            again == direct,
            "{p}: JSON (pretty: {pretty}) did not read back to the same bytes"
        );
    }

    let mut tree = TreeBuilder::new(100);
    C::inspect(data, opts, &mut tree).unwrap_or_else(|e| panic!("{p}: inspect: {e}"));
    assert!(!tree.finish().is_empty(), "{p}: empty inspect tree");
    Checked {
        exact,
        compared: open_json.is_some(),
    }
}

/// The contract's options for a file `gamewire::open` read, and whether the contract's
/// JSON is `open`'s (Zeze typed by a solution writes field names; the contract's is
/// the schema-less tree).
fn run(path: &Path, opened: &Opened) -> (Format, Checked) {
    let data = opened.data();
    let open_json = opened.to_json(false).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let checked = match opened.settings() {
        Settings::Godot3(g) | Settings::Godot4(g) => {
            let o = GodotOptions {
                framing: g.framing,
                allow_objects: g.allow_objects,
                ..GodotOptions::default()
            };
            if opened.format() == Format::Godot3 {
                check::<Godot3>(path, data, &o, Some(&open_json))
            } else {
                check::<Godot4>(path, data, &o, Some(&open_json))
            }
        }
        Settings::KingsIsle(k) => {
            let mut o = gamewire::kingsisle::DecodeOptions::new(opened.type_list().unwrap());
            o.options.flags = k.flags;
            o.options.property_mask = k.mask;
            o.options.shallow = k.shallow;
            o.options.manual_zlib = k.manual_zlib;
            check::<KingsIsle>(path, data, &o, Some(&open_json))
        }
        Settings::Zeze(z) => {
            let o = ZezeOptions {
                frames: z.layout == ZezeLayout::Frames,
                ..ZezeOptions::default()
            };
            let untyped = z.solution.is_none();
            check::<Zeze>(path, data, &o, untyped.then_some(&open_json[..]))
        }
        Settings::Resonite(_) => {
            let o = gamewire::resonite::DecodeOptions::named(name);
            check::<Resonite>(path, data, &o, Some(&open_json))
        }
        Settings::O3de(_) => {
            let o = gamewire::o3de::DecodeOptions::default();
            check::<O3de>(path, data, &o, Some(&open_json))
        }
    };
    (opened.format(), checked)
}

#[test]
fn every_sample_keeps_the_contract() {
    let side = SideFiles::filesystem();
    // Per format: files checked, files that came back byte for byte.
    let mut seen: Vec<(Format, usize, usize)> = Vec::new();
    let mut compared = 0;
    for path in samples() {
        let data = std::fs::read(&path).unwrap();
        let opened = match gamewire::open(data, Some(&path), &side, &OpenOptions::default()) {
            Ok(o) => o,
            // Type lists, solutions, registries and notes are not engine files.
            Err(e) if e.is_not_engine_file() || path.extension().is_some_and(|x| x == "md") => {
                continue
            }
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let (format, checked) = run(&path, &opened);
        compared += usize::from(checked.compared);
        match seen.iter_mut().find(|s| s.0 == format) {
            Some(n) => {
                n.1 += 1;
                n.2 += usize::from(checked.exact);
            }
            None => seen.push((format, 1, usize::from(checked.exact))),
        }
    }
    // Every format of the samples went through the one generic check, and every file
    // of an exact format (and the O3DE files in O3DE's layout) came back byte for byte.
    // Only Zeze beans typed by the solution beside them write other JSON through open.
    let files: usize = seen.iter().map(|s| s.1).sum();
    assert!(
        compared >= files - 5 && compared >= 10,
        "{compared} of {files}"
    );
    for f in [
        Format::Godot3,
        Format::KingsIsle,
        Format::Zeze,
        Format::Resonite,
        Format::O3de,
    ] {
        let Some(&(_, files, exact)) = seen.iter().find(|s| s.0 == f) else {
            panic!("no sample of {f} went through the contract: {seen:?}");
        };
        if f == Format::O3de {
            assert!(files >= 3 && exact >= 1, "{seen:?}");
        } else {
            assert_eq!(files, exact, "{f}: {seen:?}");
        }
    }
}

/// Godot 4 has no sample file: its codec is checked on bytes made here.
#[test]
fn godot4_keeps_the_contract_on_made_bytes() {
    use gamewire::godot::{encode, EncodeOptions, Value, Version};
    let v = Value::from(vec![Value::Int(7), Value::from("hi"), Value::Float(0.5)]);
    let bare = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    let path = Path::new("made.godot4.bin");
    let c = check::<Godot4>(path, &bare, &GodotOptions::default(), None);
    assert!(c.exact);
    assert!(!Godot3::sniff(&bare, Some("made.godot4.bin")));
}
