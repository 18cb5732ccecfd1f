//! Replacing one file of a pack with new bytes, everything else kept byte for byte.
//!
//! A pack is not rebuilt: the new bytes take the old ones' place, the bytes after them
//! move by the difference, and only the numbers that must change are rewritten: the
//! file's size and MD5 (kept all zeros where the pack's writer gave none, as Godot 3's
//! `PCKPacker`), the offsets of the files that moved, and, when the directory comes after
//! the files (format 3 on), the directory offset in the header. The format, engine
//! version, flags, paths, path padding, order, the other files' bytes and the gaps
//! between them stay as they were. The padding after the new bytes follows the pack's
//! own alignment (the largest power of two, up to 4096, that every file's place from the
//! file base is a multiple of and that the old padding agrees with: 16 for the engines'
//! exporters, 1 for Godot 3's `PCKPacker`), so the files after it stay aligned.
//!
//! An encrypted file (`PACK_FILE_ENCRYPTED`) is written as a fresh encrypted stream under
//! the key the pack was read with; an encrypted directory is decrypted, its records
//! changed, and encrypted again (same length, fresh IV).
//!
//! Refused, with the reason: a patch pack's removal or delta entry, an encrypted entry
//! without the key, a sparse bundle (its files are not in the pack), a file whose bytes
//! are shared with another's, and a pack embedded in an executable when its size would
//! change (the executable's own headers may record where the pack is and how long:
//! Godot 4's exporter puts it in a section of its own). The result is read back before it
//! is returned: every other entry's directory record and stored bytes must be as they
//! were and the edited entry must read back as the new bytes, or nothing is returned.

use super::read::{decrypt_at, encrypted_len};
use super::write::stream;
use super::{Entry, Key, PackReader, PACK_SPARSE_BUNDLE};
use gamewire_core::{Error, Result};
use md5::{Digest, Md5};
use std::borrow::Cow;

/// The largest alignment looked for.
const MAX_ALIGN: u64 = 4096;

/// The bytes of the pack in `data` with the content of entry `index` (in directory
/// order) replaced by `content`; `key` is the export key the pack is read with (needed
/// for an encrypted directory or entry). See the [module](self) for what is kept.
pub fn replace(data: &[u8], key: Option<&Key>, index: usize, content: &[u8]) -> Result<Vec<u8>> {
    let r = PackReader::with_key(data, key)?;
    let info = r.info().clone();
    let entries = r.entries();
    let e = entries.get(index).ok_or_else(|| {
        Error::msg(format!(
            "the pack has no entry {index} (it has {})",
            entries.len()
        ))
    })?;
    let refuse = |why: &str| Err(Error::msg(format!("entry {:?}: {why}", e.path)));
    if info.flags & PACK_SPARSE_BUNDLE != 0 {
        return refuse(
            "the pack is a sparse bundle (PACK_SPARSE_BUNDLE): its files are beside it, not in it",
        );
    }
    if e.removal() {
        return refuse("a patch pack's removal of the path (PACK_FILE_REMOVAL): it holds no bytes");
    }
    if e.delta() {
        return refuse(
            "a delta patch (PACK_FILE_DELTA) against an earlier pack's file: its bytes are not \
             the file's",
        );
    }
    let key = match (e.encrypted() || info.directory_encrypted(), key) {
        (true, None) => {
            return refuse("encrypted: replacing it needs the game's export encryption key")
        }
        (_, k) => k,
    };
    // The old content, checked (MD5, decryption), before anything is changed.
    let old = r.read_content(e)?;
    if *old == *content {
        return Ok(data.to_vec());
    }
    let new_stored: Cow<[u8]> = match key {
        Some(k) if e.encrypted() => Cow::Owned(stream(content, k)),
        _ => Cow::Borrowed(content),
    };
    let off = e.offset;
    let stored_len = |o: &Entry| r.read(o).len() as u64;
    let old_len = stored_len(e);
    let old_end = off + old_len;
    let pack_end = if info.embedded {
        data.len() as u64 - 12
    } else {
        data.len() as u64
    };
    let others = || {
        entries
            .iter()
            .enumerate()
            .filter(move |(j, o)| *j != index && !o.removal())
            .map(|(_, o)| o)
    };
    if let Some(o) = others().find(|o| {
        let l = stored_len(o);
        l > 0 && old_len > 0 && o.offset < old_end && off < o.offset + l
    }) {
        return refuse(&format!(
            "its bytes at {off}..{old_end} are shared with entry {:?}'s: replacing them would \
             change that entry too",
            o.path
        ));
    }
    if info.directory >= off && info.directory < old_end {
        return refuse(&format!(
            "its bytes at {off}..{old_end} hold the pack's directory (at byte {})",
            info.directory
        ));
    }
    // The entries whose bytes come after the old ones' and move with them. An empty
    // entry at the same place as an empty edited one moves when it comes after it in the
    // directory (as a writer placing files in order put it).
    let after = |j: usize, o: &Entry| {
        j != index
            && !o.removal()
            && o.offset >= old_end
            && !(old_len == 0 && o.offset == off && stored_len(o) == 0 && j < index)
    };
    // Where the old bytes' place ends: the next file's bytes, the directory, or the end.
    let slot_end = entries
        .iter()
        .enumerate()
        .filter(|(j, o)| after(*j, o))
        .map(|(_, o)| o.offset)
        .chain((info.directory >= old_end).then_some(info.directory))
        .chain([pack_end])
        .min()
        .unwrap_or(pack_end);
    if slot_end < old_end {
        return refuse("its bytes run past the end of the pack");
    }
    // The pack's alignment, from every file's place after the file base.
    let rel = |at: u64| at.checked_sub(info.file_base).unwrap_or(1);
    let mut align_all = MAX_ALIGN;
    for at in others()
        .map(|o| o.offset)
        .chain([off])
        .chain((info.format >= 3).then_some(info.directory))
    {
        while align_all > 1 && rel(at) % align_all != 0 {
            align_all /= 2;
        }
    }
    let mut p = align_all;
    while p > 1 && align_to(old_len, p) > slot_end - off {
        p /= 2;
    }
    let old_padded = align_to(old_len, p);
    let new_padded = align_to(new_stored.len() as u64, p);
    let delta = new_padded as i128 - old_padded as i128;
    if delta != 0 && info.embedded {
        return refuse(&format!(
            "the pack is embedded in an executable (at byte {}) and would change size by {delta} \
             bytes; the executable's headers may record its place and size (Godot 4 puts it in \
             a section of its own), so it is not rewritten: export the pack as a file of its \
             own, or keep the entry's stored size within its {} bytes of room",
            info.start,
            slot_end - off
        ));
    }
    let moved = |at: u64| -> u64 {
        if at >= slot_end {
            (at as i128 + delta) as u64
        } else {
            at
        }
    };
    let mut out = Vec::with_capacity((data.len() as i128 + delta.max(0)) as usize);
    out.extend_from_slice(&data[..off as usize]);
    out.extend_from_slice(&new_stored);
    out.resize(
        out.len() + (new_padded - new_stored.len() as u64) as usize,
        0,
    );
    out.extend_from_slice(&data[(off + old_padded) as usize..]);

    // The directory records: the edited entry's size and MD5, the moved entries' offsets.
    let dir_at = moved(info.directory) as usize;
    let mut plain_dir = match key {
        Some(k) if info.directory_encrypted() => Some(decrypt_at(
            data,
            info.directory + 4,
            k,
            "the pack's directory",
        )?),
        _ => None,
    };
    {
        let (records, shift): (&mut [u8], i128) = match plain_dir.as_mut() {
            Some(p) => (p.as_mut_slice(), 0),
            None => (out.as_mut_slice(), dir_at as i128 - info.directory as i128),
        };
        for (j, o) in entries.iter().enumerate() {
            let rec = (o.record as i128 + shift) as usize;
            let fields = rec + 4 + u32_at(records, rec) as usize;
            if j == index {
                put_u64(records, fields + 8, content.len() as u64);
                if e.has_md5() {
                    records[fields + 16..fields + 32].copy_from_slice(&Md5::digest(content));
                }
            } else if after(j, o) && delta != 0 {
                let v = u64_at(records, fields);
                put_u64(records, fields, (v as i128 + delta) as u64);
            }
        }
    }
    if let (Some(plain), Some(k)) = (plain_dir, key) {
        let enc = stream(&plain, k);
        let at = dir_at + 4;
        if enc.len() as u64 != encrypted_len(plain.len() as u64) || at + enc.len() > out.len() {
            return Err(Error::msg(
                "the pack's encrypted directory would change length: not written",
            ));
        }
        out[at..at + enc.len()].copy_from_slice(&enc);
    }
    if info.format >= 3 && info.directory >= slot_end && delta != 0 {
        let field = info.start as usize + 32;
        put_u64(&mut out, field, dir_at as u64 - info.start);
    }
    check(&r, &out, key, index, content)?;
    Ok(out)
}

/// Reads `out` back: every entry but `index` as `before` has it (record and stored
/// bytes), entry `index` holding `content`.
fn check(
    before: &PackReader<'_>,
    out: &[u8],
    key: Option<&Key>,
    index: usize,
    content: &[u8],
) -> Result<()> {
    let bad = |what: String| {
        Err(Error::msg(format!(
            "the rewritten pack does not read back as it should ({what}): not written"
        )))
    };
    let after = PackReader::with_key(out, key)?;
    let (a, b) = (before.entries(), after.entries());
    if a.len() != b.len() || before.info().format != after.info().format {
        return bad("its directory changed".into());
    }
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        if x.path != y.path || x.flags != y.flags {
            return bad(format!("entry {:?} changed", x.path));
        }
        if j == index {
            if *after.read_content(y)? != *content {
                return bad(format!("entry {:?} does not hold the new bytes", x.path));
            }
        } else if x.size != y.size || x.md5 != y.md5 || before.read(x) != after.read(y) {
            return bad(format!("entry {:?} changed", x.path));
        }
    }
    Ok(())
}

fn align_to(n: u64, to: u64) -> u64 {
    n.div_ceil(to) * to
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::super::{Encryption, Pack};
    use super::*;

    fn files() -> Vec<(&'static str, Vec<u8>)> {
        vec![
            ("project.binary", b"ECFG\0\0\0\0".to_vec()),
            ("a/b.txt", vec![9; 37]),
            ("empty", Vec::new()),
            ("c.bin", (0..200u8).collect()),
        ]
    }

    fn pack(format: u32, enc: Option<Encryption>) -> Vec<u8> {
        let mut p = Pack::with_format(format, Pack::default_version(format)).unwrap();
        for (n, d) in files() {
            p.add_file(n, d).unwrap();
        }
        if let Some(e) = enc {
            p.encrypt(e).unwrap();
        }
        p.to_bytes()
    }

    /// Replaces entry `i` and checks the result: the edited entry holds `new`, every
    /// other entry its old bytes, the header's format, version and flags are kept.
    fn round_trip(bytes: &[u8], key: Option<&Key>, i: usize, new: &[u8]) -> Vec<u8> {
        let out = replace(bytes, key, i, new).unwrap();
        let (a, b) = (
            PackReader::with_key(bytes, key).unwrap(),
            PackReader::with_key(&out, key).unwrap(),
        );
        assert_eq!(
            (a.info().format, a.info().version, a.info().flags),
            (b.info().format, b.info().version, b.info().flags)
        );
        assert_eq!(out[..4], bytes[..4]);
        for (j, (x, y)) in a.entries().iter().zip(b.entries()).enumerate() {
            assert_eq!(x.path, y.path);
            let got = b.read_content(y).unwrap();
            if j == i {
                assert_eq!(&*got, new);
                assert_eq!(y.size, new.len() as u64);
                if x.has_md5() {
                    assert_eq!(y.md5, <[u8; 16]>::from(Md5::digest(new)));
                }
            } else {
                assert_eq!(*got, *a.read_content(x).unwrap(), "entry {j}");
            }
        }
        out
    }

    #[test]
    fn every_format_keeps_the_other_files_and_the_alignment() {
        for f in 1..=4 {
            let bytes = pack(f, None);
            for i in 0..files().len() {
                for new in [vec![], vec![1; 5], vec![2; 16], vec![3; 1000]] {
                    let out = round_trip(&bytes, None, i, &new);
                    let r = PackReader::parse(&out).unwrap();
                    for e in r.entries() {
                        assert_eq!(
                            (e.offset - r.info().file_base) % 16,
                            0,
                            "format {f}, entry {i}"
                        );
                    }
                    // Back to the old bytes: the pack as it was, byte for byte.
                    let old = files()[i].1.clone();
                    assert_eq!(replace(&out, None, i, &old).unwrap(), bytes, "format {f}");
                }
            }
        }
    }

    #[test]
    fn the_same_bytes_change_nothing() {
        let bytes = pack(3, None);
        assert_eq!(replace(&bytes, None, 1, &[9; 37]).unwrap(), bytes);
    }

    #[test]
    fn encrypted_entries_and_directories_are_written_with_the_key() {
        let key = Key::from_hex(&"5a".repeat(32)).unwrap();
        for f in 2..=4 {
            for (directory, files_enc) in [(true, false), (false, true), (true, true)] {
                let bytes = pack(
                    f,
                    Some(Encryption {
                        key: key.clone(),
                        directory,
                        files: files_enc,
                    }),
                );
                for i in 0..4 {
                    round_trip(
                        &bytes,
                        Some(&key),
                        i,
                        b"new content, longer than before....",
                    );
                }
                let e = replace(&bytes, None, 1, b"x").unwrap_err().to_string();
                assert!(e.contains("key"), "{e}");
            }
        }
    }

    #[test]
    fn an_unaligned_pack_stays_unaligned_and_md5_zeros_stay_zeros() {
        // Godot 3.2.3's PCKPacker: no padding, no MD5s.
        let bytes = include_bytes!("../../../../tests/fixtures/godot/engine-3.2.3/packer.pck");
        let r = PackReader::parse(bytes).unwrap();
        let i = r
            .entries()
            .iter()
            .position(|e| e.name() == "hello.txt")
            .unwrap();
        let new = b"hello again, a line longer than the first one\n";
        let out = round_trip(bytes, None, i, new);
        let grow = new.len() as u64 - r.entries()[i].size;
        assert_eq!(
            out.len() as u64,
            bytes.len() as u64 + grow,
            "no padding added"
        );
        let r2 = PackReader::parse(&out).unwrap();
        assert!(!r2.entries()[i].has_md5());
        assert_eq!(r2.entries()[i + 1].offset, r.entries()[i + 1].offset + grow);
    }

    #[test]
    fn embedded_packs_are_rewritten_only_when_their_size_stays() {
        let pack = pack(3, None);
        let mut exe = vec![0x7f; 1000];
        exe.extend_from_slice(&pack);
        exe.extend_from_slice(&(pack.len() as u64).to_le_bytes());
        exe.extend_from_slice(b"GDPC");
        // a/b.txt has 37 bytes in a 48-byte place: 40 fit.
        let out = round_trip(&exe, None, 1, &[4; 40]);
        assert_eq!(out.len(), exe.len());
        assert_eq!(out[..1000], exe[..1000]);
        let e = replace(&exe, None, 1, &[4; 49]).unwrap_err().to_string();
        assert!(e.contains("embedded in an executable"), "{e}");
    }

    #[test]
    fn removals_deltas_and_bad_indexes_are_refused() {
        let bytes = pack(3, None);
        let r = PackReader::parse(&bytes).unwrap();
        for (flag, word) in [
            (super::super::PACK_FILE_REMOVAL, "removal"),
            (super::super::PACK_FILE_DELTA, "delta"),
        ] {
            let mut bad = bytes.clone();
            let rec = r.entries()[1].record as usize;
            let flags_at = rec + 4 + u32_at(&bad, rec) as usize + 8 + 8 + 16;
            bad[flags_at] = flag as u8;
            let e = replace(&bad, None, 1, b"x").unwrap_err().to_string();
            assert!(e.contains(word) && e.contains("a/b.txt"), "{e}");
        }
        assert!(replace(&bytes, None, 9, b"x").is_err());
        // A damaged entry is not edited: its MD5 is checked first.
        let mut bad = bytes.clone();
        bad[r.entries()[1].offset as usize] ^= 1;
        let e = replace(&bad, None, 1, b"x").unwrap_err().to_string();
        assert!(e.contains("MD5 mismatch"), "{e}");
    }
}
