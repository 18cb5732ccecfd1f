#![no_main]
//! Builds a KIWAD archive whose journal is sound (every record inside the file, CRCs
//! matching when the input says so) around arbitrary entry bytes, and reads every entry:
//! zlib streams that are damaged, short or inflate past their declared size, CRC
//! mismatches and placeholders are errors or `Placeholder`, never a panic, and never
//! more output than the declared size.
use gamewire_kingsisle::wad::{self, Archive, Contents};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Each entry: 1 control byte, 2 bytes of declared size, 1 byte of length, then
    // that many stored bytes.
    let mut entries: Vec<(u8, u32, &[u8])> = Vec::new();
    let mut rest = data;
    while rest.len() >= 4 && entries.len() < 64 {
        let (ctl, size, len) = (rest[0], u16::from_le_bytes([rest[1], rest[2]]), rest[3]);
        let take = (len as usize).min(rest.len() - 4);
        entries.push((ctl, u32::from(size), &rest[4..4 + take]));
        rest = &rest[4 + take..];
    }
    let names: Vec<String> = (0..entries.len()).map(|i| format!("e{i}")).collect();
    let journal: usize = 14 + names.iter().map(|n| 21 + n.len() + 1).sum::<usize>();
    let mut head = b"KIWAD".to_vec();
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    head.push(1);
    let mut body = Vec::new();
    for ((ctl, size, stored), name) in entries.iter().zip(&names) {
        let compressed = ctl & 1 == 1;
        let crc = if ctl & 2 == 0 {
            wad::crc(stored)
        } else {
            u32::from(*ctl)
        };
        let offset = (journal + body.len()) as u32;
        let declared = if compressed {
            *size
        } else {
            stored.len() as u32
        };
        head.extend_from_slice(&offset.to_le_bytes());
        head.extend_from_slice(&declared.to_le_bytes());
        head.extend_from_slice(
            &(if compressed {
                stored.len() as u32
            } else {
                u32::MAX
            })
            .to_le_bytes(),
        );
        head.push(u8::from(compressed));
        head.extend_from_slice(&crc.to_le_bytes());
        head.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
        head.extend_from_slice(name.as_bytes());
        head.push(0);
        body.extend_from_slice(stored);
    }
    assert_eq!(head.len(), journal);
    head.extend_from_slice(&body);
    let a = Archive::new(head.as_slice()).expect("a sound journal reads");
    for e in a.entries() {
        match a.read(&e) {
            Ok(Contents::Data(d)) => assert_eq!(d.len(), e.size as usize),
            Ok(Contents::Placeholder) => assert!(a.stored(&e).starts_with(&[0; 4])),
            Err(err) => assert!(err.to_string().contains(e.name)),
        }
    }
    assert_eq!(
        wad::Builder::from_archive(&a).unwrap().to_bytes().unwrap(),
        head
    );
});
