//! A pack Godot 3.2.3's own `PCKPacker` made (tests/fixtures/godot/engine-3.2.3): read
//! whole, its files as the engine packed them, the save and project.binary inside
//! decoded.

use gamewire_godot::framing::decode_framed_all;
use gamewire_godot::pck::PackReader;
use gamewire_godot::{project_binary, DecodeOptions, Value, Version};

fn fixture() -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/godot/engine-3.2.3/packer.pck",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).unwrap()
}

#[test]
fn the_engines_own_pack_reads_whole() {
    let bytes = fixture();
    let pack = PackReader::parse(&bytes).unwrap();
    assert_eq!(pack.info().format, 1);
    assert_eq!(pack.info().version, (3, 2, 3));
    let paths: Vec<&str> = pack.entries().iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "res://hello.txt",
            "res://saves/save.dat",
            "res://project.binary"
        ]
    );
    // PCKPacker writes no MD5 and unpadded path lengths.
    assert!(pack.entries().iter().all(|e| !e.has_md5()));
    let hello = pack.read_checked(pack.find("hello.txt").unwrap()).unwrap();
    assert_eq!(hello, b"hello from Godot 3.2.3's PCKPacker\n");

    let save = pack
        .read_checked(pack.find("saves/save.dat").unwrap())
        .unwrap();
    let values = decode_framed_all(save, &DecodeOptions::new(Version::V3)).unwrap();
    assert_eq!(values.len(), 2);
    let Value::Dictionary(d) = &values[0] else {
        panic!("{:?}", values[0]);
    };
    assert_eq!(d.get("hp"), Some(&Value::Int(87)));
    assert_eq!(d.get("name"), Some(&Value::String("Ann".into())));

    let pb = pack
        .read_checked(pack.find("res://project.binary").unwrap())
        .unwrap();
    let settings = project_binary::decode(pb, None).unwrap();
    assert_eq!(settings.version, Version::V3, "told by its setting names");
    assert_eq!(project_binary::encode(&settings).unwrap(), pb);
    assert_eq!(
        settings.entries[0],
        (
            "application/config/name".to_owned(),
            Value::String("gamewire engine pack".into())
        )
    );
}
