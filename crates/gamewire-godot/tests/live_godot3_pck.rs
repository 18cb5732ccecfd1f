//! The live engine, Godot 3.2.3 (godot3-server), and the files an exported game carries:
//! it loads a pack we wrote (`ProjectSettings.load_resource_pack`) and reads its files,
//! starts on a `project.binary` we wrote and reads its settings, and writes a
//! `project.binary` of its own (`ProjectSettings.save_custom`) from random settings that
//! we decode and encode back byte-exact, and packs random files with its own `PCKPacker`
//! into a pack we read back. One engine run; a fresh seed each run (printed,
//! fixed by GAMEWIRE_SEED to replay a failure).

mod common;
use common::{seed, Rng};
use gamewire_core::hex::to_hex;
use gamewire_core::peers;
use gamewire_godot::pck::{Pack, PackReader};
use gamewire_godot::project_binary::{self, Settings};
use gamewire_godot::*;
use std::time::Duration;

const ENGINE_TIMEOUT: Duration = Duration::from_secs(60);

const SCRIPT: &str = r#"extends SceneTree
func hex(b):
    var s = ""
    for x in b:
        s += "%02x" % x
    return s
func rand_value(i):
    var k = randi() % 9
    if k == 0:
        return randi() - 1073741824
    elif k == 1:
        return randf() * 1000.0 - 500.0
    elif k == 2:
        return "text %d é" % randi()
    elif k == 3:
        return randi() % 2 == 0
    elif k == 4:
        return Vector2(randf() * 10.0, -randf())
    elif k == 5:
        return Color(randf(), randf(), randf(), 1.0)
    elif k == 6:
        return PoolStringArray(["a%d" % randi(), "b"])
    elif k == 7:
        return [randi() % 100, "x", false]
    return {"k%d" % i: randi() % 1000, "n": 1.5}
func _init():
    var args = OS.get_cmdline_args()
    var n = args.size()
    var pack = args[n - 4]
    var listing = args[n - 3]
    var out = args[n - 2]
    seed(int(args[n - 1]))
    for p in pack.split(","):
        print("PACK ", ProjectSettings.load_resource_pack(p))
    var f = File.new()
    f.open(listing, File.READ)
    while not f.eof_reached():
        var line = f.get_line()
        if line.begins_with("F "):
            var path = line.substr(2, line.length() - 2)
            var g = File.new()
            if g.open("res://" + path, File.READ) == OK:
                print("F ", path, " ", hex(g.get_buffer(g.get_len())))
                g.close()
            else:
                print("F ", path, " missing")
        elif line.begins_with("S "):
            var key = line.substr(2, line.length() - 2)
            print("S ", key, " ", hex(var2bytes(ProjectSettings.get_setting(key))))
    f.close()
    for i in range(12):
        var v = rand_value(i)
        var key = "gamewire/random/k%d" % i
        ProjectSettings.set_setting(key, v)
        print("R ", key, " ", hex(var2bytes(v)))
    print("SAVED ", ProjectSettings.save_custom(out))
    # A pack of the engine's own making (PCKPacker), of the files listed with "P ".
    var packer = PCKPacker.new()
    print("PCK_START ", packer.pck_start(out + ".pck"))
    f.open(listing, File.READ)
    while not f.eof_reached():
        var line = f.get_line()
        if line.begins_with("P "):
            var parts = line.substr(2, line.length() - 2).split(" ")
            print("PCK_ADD ", packer.add_file(parts[0], parts[1]))
    f.close()
    print("PCK_FLUSH ", packer.flush(false))
    quit()
"#;

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|j| u8::from_str_radix(&h[j..j + 2], 16).unwrap())
        .collect()
}

/// A random setting value of the kinds project settings hold.
fn setting(rng: &mut Rng) -> Value {
    match rng.below(7) {
        0 => Value::Int(rng.int()),
        1 => Value::Float((rng.below(1 << 20) as f64) / 8.0),
        2 => Value::String(rng.string()),
        3 => Value::Bool(rng.below(2) == 1),
        4 => Value::Color([0.25, rng.below(4) as f32 / 4.0, 0.5, 1.0]),
        5 => Value::PackedStringArray(vec![rng.string(), rng.string()]),
        _ => Value::Vector2(Real::F32([rng.below(100) as f32, 0.5])),
    }
}

#[test]
fn godot3_reads_our_pack_and_project_binary_and_we_read_its_project_binary() {
    if !peers::godot3_available() {
        return;
    }
    let seed = seed("live Godot 3 pack test");
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().unwrap();

    // Our project.binary, where the engine starts (the folder is res://).
    let mut entries = vec![(
        "application/config/name".to_owned(),
        Value::String("gamewire live".into()),
    )];
    for i in 0..10 {
        entries.push((format!("gamewire/ours/s{i}"), setting(&mut rng)));
    }
    let ours = Settings {
        version: Version::V3,
        entries,
    };
    std::fs::write(
        dir.path().join("project.binary"),
        project_binary::encode(&ours).unwrap(),
    )
    .unwrap();

    // Our pack, format 1 stamped 3.2.3 (3.2.3 refuses newer minor versions).
    let mut pack = Pack::with_format(1, (3, 2, 3)).unwrap();
    let mut files = Vec::new();
    for i in 0..6 {
        let len = rng.below(3000) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        let path = format!("packed/d{}/f{i}.bin", i % 2);
        pack.add_file(&path, data.clone()).unwrap();
        files.push((path, data));
    }
    // One of its files replaced in place (`pck::replace`): the engine reads the new bytes.
    let len = rng.below(3000) as usize;
    let edited: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
    let bytes = gamewire_godot::pck::replace(&pack.to_bytes(), None, 2, &edited).unwrap();
    files[2].1 = edited;
    let pck = dir.path().join("ours.pck");
    std::fs::write(&pck, bytes).unwrap();
    // The engine's own pack (Godot 3.2.3's PCKPacker: unaligned, no MD5s) with its text
    // file replaced: the engine reads the new text and the other files as they were.
    let fixture = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/godot/engine-3.2.3/packer.pck"
    ))
    .unwrap();
    let before = PackReader::parse(&fixture).unwrap();
    let hello = before
        .entries()
        .iter()
        .position(|e| e.name() == "hello.txt")
        .unwrap();
    let text = format!("edited by gamewire, seed {seed}\n").into_bytes();
    let theirs_edited = gamewire_godot::pck::replace(&fixture, None, hello, &text).unwrap();
    let save = before.find("saves/save.dat").unwrap();
    files.push(("hello.txt".into(), text));
    files.push((
        "saves/save.dat".into(),
        before.read_checked(save).unwrap().to_vec(),
    ));
    let engine_made = dir.path().join("engine-made.pck");
    std::fs::write(&engine_made, theirs_edited).unwrap();
    let packs = format!("{},{}", pck.display(), engine_made.display());

    let mut listing = String::new();
    for (p, _) in &files {
        listing += &format!("F {p}\n");
    }
    for (k, _) in &ours.entries {
        listing += &format!("S {k}\n");
    }
    // Files for the engine to pack: random bytes, written beside the script.
    let mut to_pack = Vec::new();
    for i in 0..4 {
        let len = rng.below(2000) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        let src = dir.path().join(format!("src{i}.bin"));
        std::fs::write(&src, &data).unwrap();
        let target = format!("res://engine/e{i}.bin");
        listing += &format!("P {target} {}\n", src.display());
        to_pack.push((target, data));
    }
    let list = dir.path().join("listing.txt");
    std::fs::write(&list, listing).unwrap();
    let saved = dir.path().join("theirs.binary");
    let engine_seed = (seed % 1_000_000_007).to_string();
    let out = peers::run_godot3(
        dir.path(),
        "pack.gd",
        SCRIPT,
        &[
            std::ffi::OsStr::new(&packs),
            list.as_os_str(),
            saved.as_os_str(),
            engine_seed.as_ref(),
        ],
        ENGINE_TIMEOUT,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ctx = format!(
        "seed {seed}; engine output:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches("PACK True").count(), 2, "{ctx}");
    assert!(stdout.contains("SAVED 0"), "{ctx}");

    // The engine read every file of our pack.
    for (path, data) in &files {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("F {path} ")))
            .unwrap_or_else(|| panic!("{path} not listed; {ctx}"));
        assert_eq!(&unhex(line), data, "{path}: {ctx}");
    }
    // ... and every setting of our project.binary.
    let dopts = DecodeOptions::new(Version::V3);
    for (key, value) in &ours.entries {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("S {key} ")))
            .unwrap_or_else(|| panic!("{key} not listed; {ctx}"));
        assert_eq!(
            &decode(&unhex(line), &dopts).unwrap(),
            value,
            "{key}: {ctx}"
        );
    }

    // Its project.binary: decoded as Godot 3, byte-exact back, its random settings there.
    let theirs = std::fs::read(&saved).unwrap();
    let settings = project_binary::decode(&theirs, None).unwrap_or_else(|e| panic!("{e}; {ctx}"));
    assert_eq!(settings.version, Version::V3, "{ctx}");
    assert_eq!(
        project_binary::encode(&settings).unwrap(),
        theirs,
        "not byte-exact: {ctx}\n{}",
        to_hex(&theirs)
    );
    let mut seen = 0;
    for line in stdout.lines().filter_map(|l| l.strip_prefix("R ")) {
        let (key, hex) = line.split_once(' ').unwrap();
        let want = decode(&unhex(hex), &dopts).unwrap();
        let got = &settings
            .entries
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("{key} missing; {ctx}"))
            .1;
        assert_eq!(got, &want, "{key}: {ctx}");
        seen += 1;
    }
    assert_eq!(seen, 12, "{ctx}");

    // The engine's pack (PCKPacker): format 1, its paths and bytes as packed.
    assert!(stdout.contains("PCK_FLUSH 0"), "{ctx}");
    let engine_pck = std::fs::read(format!("{}.pck", saved.display())).unwrap();
    let r = PackReader::parse(&engine_pck).unwrap_or_else(|e| panic!("{e}; {ctx}"));
    assert_eq!(r.info().format, 1, "{ctx}");
    assert_eq!(r.info().version.0, 3, "{ctx}");
    assert_eq!(r.entries().len(), to_pack.len(), "{ctx}");
    for (target, data) in &to_pack {
        let e = r
            .find(target)
            .unwrap_or_else(|| panic!("{target} not in the engine's pack"));
        assert_eq!(&e.path, target, "stored with res://");
        assert_eq!(r.read_checked(e).unwrap(), &data[..], "{target}");
    }
}
