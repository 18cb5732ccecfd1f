//! KIWAD archives: katsuba's real test archive read and written back byte for byte, and
//! damaged archives refused with errors naming the entry, in memory proportional to the
//! input.

use gamewire_kingsisle::wad::{self, Archive, Builder, Contents, Prepared};
use std::path::PathBuf;

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/kingsisle/wad/"
    ))
    .join(name);
    std::fs::read(p).unwrap()
}

#[test]
fn katsubas_test_archive_reads_and_writes_back_unchanged() {
    let bytes = fixture("Test.wad");
    let a = Archive::new(bytes.as_slice()).unwrap();
    assert_eq!(a.header().version, 1);
    assert_eq!(a.header().flags, None);
    let names: Vec<&str> = a.entries().map(|e| e.name).collect();
    assert_eq!(
        names,
        [
            "subdir/subdir_text1.txt",
            "text1.txt",
            "text2.txt",
            "uncompressed.mp3"
        ]
    );
    assert_eq!(
        &*a.read_named("subdir/subdir_text1.txt").unwrap(),
        b"this is subdir text1\n"
    );
    assert_eq!(&*a.read_named("text1.txt").unwrap(), b"this is text1\n");
    let mp3 = a.find("uncompressed.mp3").unwrap();
    assert!(!mp3.compressed);
    assert_eq!(mp3.compressed_size, wad::STORED_MARK);
    assert_eq!(
        &*a.read_named("uncompressed.mp3").unwrap(),
        b"uncompressed data\n"
    );
    let back = Builder::from_archive(&a).unwrap().to_bytes().unwrap();
    assert_eq!(back, bytes);
    // Our builder, given the same files, writes the same journal order and sizes.
    let mut b = Builder::new(1, None).unwrap();
    for e in a.entries() {
        let data = a.read(&e).unwrap().into_bytes().unwrap().into_owned();
        b.add(Prepared::packed(e.name, data, 9).unwrap()).unwrap();
    }
    let ours = b.to_bytes().unwrap();
    let o = Archive::new(ours.as_slice()).unwrap();
    for (x, y) in a.entries().zip(o.entries()) {
        assert_eq!(
            (x.name, x.size, x.compressed),
            (y.name, y.size, y.compressed)
        );
        assert_eq!(a.read(&x).unwrap(), o.read(&y).unwrap());
    }
}

#[test]
fn katsubas_out_of_bounds_archive_is_refused_naming_the_entry() {
    let e = Archive::new(fixture("oob.wad")).unwrap_err().to_string();
    assert!(
        e.contains("entry \"a\"") && e.contains("past the end"),
        "{e}"
    );
}

fn one_entry(data: &[u8], compressed: bool) -> Vec<u8> {
    let mut b = Builder::new(2, None).unwrap();
    let p = if compressed {
        Prepared::compressed("x/item.xml", data, 9).unwrap()
    } else {
        Prepared::stored("x/item.xml", data.to_vec()).unwrap()
    };
    b.add(p).unwrap();
    b.to_bytes().unwrap()
}

/// The offset of the only record's fields.
const REC: usize = 14;

#[test]
fn damaged_journals_are_errors_naming_the_entry() {
    let good = one_entry(b"some data", false);
    // Data overlapping the journal.
    let mut bad = good.clone();
    bad[REC..REC + 4].copy_from_slice(&3u32.to_le_bytes());
    let e = Archive::new(bad.as_slice()).unwrap_err().to_string();
    assert!(
        e.contains("\"x/item.xml\"") && e.contains("overlaps the journal"),
        "{e}"
    );
    // Data past the end.
    let mut bad = good.clone();
    bad[REC + 4..REC + 8].copy_from_slice(&1000u32.to_le_bytes());
    let e = Archive::new(bad.as_slice()).unwrap_err().to_string();
    assert!(
        e.contains("\"x/item.xml\"") && e.contains("past the end"),
        "{e}"
    );
    // A count the file cannot hold.
    let mut bad = good.clone();
    bad[9..13].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = Archive::new(bad.as_slice()).unwrap_err().to_string();
    assert!(e.contains("4294967295 entries"), "{e}");
    // A name running past the end.
    let mut bad = good.clone();
    bad[REC + 17..REC + 21].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = Archive::new(bad.as_slice()).unwrap_err().to_string();
    assert!(e.contains("entry 0") && e.contains("name"), "{e}");
    // Every truncation is an error, never a panic.
    for n in 0..good.len() {
        assert!(Archive::new(&good[..n]).is_err(), "{n} bytes");
    }
}

#[test]
fn crc_mismatch_placeholder_and_zlib_bomb() {
    // A flipped stored byte: a CRC mismatch naming the entry.
    let mut bad = one_entry(b"some data", false);
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let a = Archive::new(bad.as_slice()).unwrap();
    let e = a.read(&a.entry(0).unwrap()).unwrap_err().to_string();
    assert!(
        e.contains("\"x/item.xml\"") && e.contains("CRC mismatch"),
        "{e}"
    );
    // Zeroed stored bytes that do not match the CRC: a placeholder.
    let mut ph = one_entry(b"some data", true);
    let n = ph.len();
    let stored = Archive::new(ph.as_slice())
        .unwrap()
        .entry(0)
        .unwrap()
        .stored_size() as usize;
    ph[n - stored..].fill(0);
    let a = Archive::new(ph.as_slice()).unwrap();
    assert_eq!(a.read(&a.entry(0).unwrap()).unwrap(), Contents::Placeholder);
    assert!(a
        .read_named("x/item.xml")
        .unwrap_err()
        .to_string()
        .contains("placeholder"));
    // An entry that inflates past its declared size: an error at the declared size, not
    // 64 MiB of output.
    let bomb = vec![0u8; 64 << 20];
    let mut bytes = one_entry(&bomb, true);
    bytes[REC + 4..REC + 8].copy_from_slice(&1000u32.to_le_bytes());
    let a = Archive::new(bytes.as_slice()).unwrap();
    let e = a.read(&a.entry(0).unwrap()).unwrap_err().to_string();
    assert!(
        e.contains("\"x/item.xml\"") && e.contains("1000 inflated bytes"),
        "{e}"
    );
    // Limits bound what an entry may declare (the default: 256 times its stored size past
    // 64 MiB): a highly compressed entry past them is refused before inflating.
    let zeros = one_entry(&vec![0u8; 1 << 16], true);
    let a = Archive::new(zeros.as_slice()).unwrap();
    let e0 = a.entry(0).unwrap();
    assert_eq!(a.read(&e0).unwrap().bytes().unwrap().len(), 1 << 16);
    let tight = gamewire_core::Limits {
        decompress_allowance: 1000,
        max_decompress_ratio: 2,
        ..gamewire_core::Limits::DEFAULT
    };
    let e = a.read_with(&e0, &tight).unwrap_err().to_string();
    assert!(
        e.contains("\"x/item.xml\"") && e.contains("past the limit"),
        "{e}"
    );
    // A declared size the compressed bytes could never give: refused before allocating.
    bytes[REC + 4..REC + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let a = Archive::new(bytes.as_slice()).unwrap();
    let e = a.read(&a.entry(0).unwrap()).unwrap_err().to_string();
    assert!(e.contains("\"x/item.xml\""), "{e}");
}

#[test]
fn checked_entries_inflate_into_a_buffer_of_their_size() {
    let data = b"some data, some data, some data".repeat(40);
    let bytes = one_entry(&data, true);
    let a = Archive::new(bytes.as_slice()).unwrap();
    let e = a.entry(0).unwrap();
    let limits = gamewire_core::Limits::DEFAULT;
    let wad::Checked::Zlib(stream) = a.check(&e, &limits).unwrap() else {
        panic!("a compressed entry")
    };
    let mut out = vec![0u8; e.size as usize];
    a.inflate_into(&e, stream, &mut out).unwrap();
    assert_eq!(out, data);
    // A buffer of another size is refused naming the entry; a stored entry is its bytes.
    let mut short = vec![0u8; 10];
    let err = a
        .inflate_into(&e, stream, &mut short)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"x/item.xml\"") && err.contains("10 bytes"),
        "{err}"
    );
    let stored = one_entry(b"plain", false);
    let a = Archive::new(stored.as_slice()).unwrap();
    let e = a.entry(0).unwrap();
    assert_eq!(
        a.check(&e, &limits).unwrap(),
        wad::Checked::Stored(b"plain")
    );
}

#[test]
fn memory_mapped_archives_read_alike() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("Test.wad");
    std::fs::write(&p, fixture("Test.wad")).unwrap();
    let a = Archive::new(wad::Mapped::open(&p).unwrap()).unwrap();
    assert_eq!(&*a.read_named("text2.txt").unwrap(), b"this is text2\n");
    let empty = dir.path().join("empty.wad");
    std::fs::write(&empty, b"").unwrap();
    assert!(Archive::new(wad::Mapped::open(&empty).unwrap()).is_err());
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// Reads `bytes` as an archive: any error is fine, a panic is not; every entry of an
    /// archive that opens is read; one that can be written back gives the same bytes.
    fn check(bytes: &[u8]) {
        let Ok(a) = Archive::new(bytes) else {
            return;
        };
        for e in a.entries() {
            if let Err(err) = a.read(&e) {
                assert!(err.to_string().contains(&format!("{:?}", e.name)), "{err}");
            }
        }
        if let Ok(b) = Builder::from_archive(&a) {
            assert_eq!(b.to_bytes().unwrap(), bytes);
        }
    }

    fn sample() -> Vec<u8> {
        let mut b = Builder::new(2, None).unwrap();
        b.add(Prepared::compressed("a/x.bin", &b"hello ".repeat(40), 9).unwrap())
            .unwrap();
        b.add(Prepared::stored("b.mp3", b"ID3 data".to_vec()).unwrap())
            .unwrap();
        b.add(Prepared::stored("c", Vec::new()).unwrap()).unwrap();
        b.to_bytes().unwrap()
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut bytes = b"KIWAD".to_vec();
            bytes.extend_from_slice(&tail);
            check(&bytes);
        }

        #[test]
        fn damaged_archives_never_panic(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = sample();
            for (i, v) in edits {
                let i = i.index(bytes.len());
                bytes[i] = v;
            }
            check(&bytes);
            let n = cut.index(bytes.len());
            check(&bytes[..n]);
        }
    }
}

/// Every entry of katsuba's archive replaced with bytes of several sizes: the edited
/// entry reads back as the new bytes, stored as it was (compressed or not, its journal
/// marks kept); every other entry's record (but its offset) and stored bytes are as they
/// were; a stored entry put back gives the archive back byte for byte.
#[test]
fn an_entry_is_replaced_and_everything_else_kept() {
    let bytes = fixture("Test.wad");
    let a = Archive::new(bytes.as_slice()).unwrap();
    for i in 0..a.len() {
        let old = a.entry(i).unwrap();
        let old_data = a.read(&old).unwrap().into_bytes().unwrap().into_owned();
        for new in [
            Vec::new(),
            b"short".to_vec(),
            b"a longer text, a longer text, a longer text\n".repeat(20),
        ] {
            let out = wad::replace(&a, i, &new).unwrap();
            let b = Archive::new(out.as_slice()).unwrap();
            assert_eq!(b.header(), a.header());
            for (j, (x, y)) in a.entries().zip(b.entries()).enumerate() {
                assert_eq!(
                    (x.name, x.compressed_byte, x.terminated),
                    (y.name, y.compressed_byte, y.terminated)
                );
                if j == i {
                    assert_eq!(b.read(&y).unwrap().bytes(), Some(&new[..]));
                    assert_eq!(y.crc, wad::crc(b.stored(&y)));
                    if !x.compressed {
                        assert_eq!(y.compressed_size, x.compressed_size, "the stored mark");
                    }
                } else {
                    assert_eq!(
                        (x.size, x.compressed_size, x.crc),
                        (y.size, y.compressed_size, y.crc)
                    );
                    assert_eq!(a.stored(&x), b.stored(&y));
                }
            }
            // The data stays back to back after the journal.
            Builder::from_archive(&b).unwrap();
            if !old.compressed {
                assert_eq!(wad::replace(&b, i, &old_data).unwrap(), bytes);
            }
        }
    }
    // The same bytes: the archive unchanged.
    let e = a.find("text1.txt").unwrap();
    let i = a.entries().position(|x| x.name == "text1.txt").unwrap();
    let same = a.read(&e).unwrap().into_bytes().unwrap().into_owned();
    assert_eq!(wad::replace(&a, i, &same).unwrap(), bytes);
    assert!(wad::replace(&a, 99, b"x").is_err());
}

/// A placeholder and a damaged entry are not replaced; an entry of an archive with bytes
/// no entry holds is refused (it cannot be written back exactly).
#[test]
fn placeholders_damage_and_gaps_are_refused() {
    let mut good = one_entry(b"some data here", false);
    let data_at = good.len() - 14;
    let mut bad = good.clone();
    bad[data_at] ^= 1;
    let e = wad::replace(&Archive::new(bad.as_slice()).unwrap(), 0, b"x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("CRC mismatch"), "{e}");
    let mut placeholder = good.clone();
    placeholder[data_at..data_at + 4].copy_from_slice(&[0; 4]);
    let e = wad::replace(&Archive::new(placeholder.as_slice()).unwrap(), 0, b"x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("placeholder"), "{e}");
    good.extend_from_slice(b"trailing");
    let e = wad::replace(&Archive::new(good.as_slice()).unwrap(), 0, b"x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("belong to no entry"), "{e}");
}

/// katsuba (PyPI), a live peer, reads an archive with an entry replaced: every entry as
/// ours reads it.
#[test]
fn katsuba_reads_an_archive_with_an_entry_replaced() {
    if !gamewire_core::peers::available(
        "katsuba",
        gamewire_core::peers::python_has(&["katsuba.wad"]),
        "python3 cannot import katsuba (pip install katsuba)",
    ) {
        return;
    }
    let bytes = fixture("Test.wad");
    let a = Archive::new(bytes.as_slice()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (i, new) in [
        (0, b"replaced, and compressed again\n".repeat(9)),
        (3, b"ID3 stored as it was".to_vec()),
    ] {
        let out = wad::replace(&a, i, &new).unwrap();
        let path = dir.path().join(format!("edited{i}.wad"));
        std::fs::write(&path, &out).unwrap();
        let script = "import sys, katsuba.wad as w\n\
                      a = w.Archive.mmap(sys.argv[1])\n\
                      for n in sorted(a):\n    print(n, bytes(a[n]).hex())\n";
        let run = std::process::Command::new("python3")
            .args(["-c", script])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let theirs = String::from_utf8(run.stdout).unwrap();
        let ours = Archive::new(out.as_slice()).unwrap();
        let mut want: Vec<String> = ours
            .entries()
            .map(|e| {
                let d = ours.read(&e).unwrap().into_bytes().unwrap();
                format!("{} {}", e.name, gamewire_core::hex::to_hex(&d))
            })
            .collect();
        want.sort();
        assert_eq!(theirs.lines().collect::<Vec<_>>(), want);
        assert!(theirs.contains(&gamewire_core::hex::to_hex(&new)));
    }
}
