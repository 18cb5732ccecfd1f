//! Godot's encrypted files (magic `GDEC`): what `FileAccess.open_encrypted` and
//! `open_encrypted_with_pass` write (`File.open_encrypted*` in Godot 3).
//!
//! The layouts, from the engines' `core/io/file_access_encrypted.cpp` (all numbers
//! little endian):
//!
//! | Godot 3 | Godot 4 |
//! |---|---|
//! | `GDEC` | `GDEC` |
//! | mode, u32 = 1 (`MODE_WRITE_AES256`) | |
//! | MD5 of the plaintext (16) | MD5 of the plaintext (16) |
//! | plaintext length, u64 | plaintext length, u64 |
//! | | IV (16) |
//! | the plaintext zero-padded to 16 bytes, AES-256 ECB | the same, AES-256 CFB-128 |
//!
//! The key is 32 bytes. A password becomes a key as the engine makes it: the MD5 of the
//! password's UTF-8, written as 32 lower-case hex digits, whose ASCII bytes are the key.
//! The MD5 makes a wrong key an error, never garbage.
//!
//! ```
//! use gamewire_godot::container::encrypted::{self, Key, Layout};
//! let key = Key::from_password("secret");
//! let file = encrypted::encrypt(b"hello", &key, &Layout::V4 { iv: [7; 16] });
//! let read = encrypted::decrypt(&file, &key).unwrap();
//! assert_eq!(read.plaintext, b"hello");
//! assert_eq!(read.layout, Layout::V4 { iv: [7; 16] });
//! assert!(encrypted::decrypt(&file, &Key::from_password("wrong")).is_err());
//! ```

use aes::cipher::{AsyncStreamCipher, BlockDecrypt, BlockEncrypt, KeyInit, KeyIvInit};
use aes::Aes256;
use gamewire_core::{Error, ErrorKind, Result};
use md5::{Digest, Md5};

/// The magic at the start of an encrypted file.
pub const MAGIC: &[u8; 4] = b"GDEC";

/// Godot 3's mode word (`MODE_WRITE_AES256`).
const MODE_AES256: u32 = 1;

/// A 32-byte AES-256 key.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed: a key in a log is a leaked key.
        f.write_str("Key(..)")
    }
}

impl Key {
    /// The key `open_encrypted_with_pass` derives from a password: the ASCII of the
    /// lower-case hex MD5 of its UTF-8.
    pub fn from_password(password: &str) -> Key {
        let digest = Md5::digest(password.as_bytes());
        let hex = gamewire_core::hex::to_hex(&digest);
        let mut k = [0u8; 32];
        k.copy_from_slice(hex.as_bytes());
        Key(k)
    }

    /// A key given as its 32 bytes (`open_encrypted`'s `PackedByteArray`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Key> {
        let k: [u8; 32] = bytes.try_into().map_err(|_| {
            Error::msg(format!(
                "an encryption key is 32 bytes (64 hex digits), not {}",
                bytes.len()
            ))
        })?;
        Ok(Key(k))
    }

    /// A key written as 64 hex digits.
    pub fn from_hex(hex: &str) -> Result<Key> {
        let bytes = gamewire_core::hex::from_hex(hex.trim())
            .map_err(|e| Error::msg(format!("the key is not hex: {e}")))?;
        Key::from_bytes(&bytes)
    }

    /// The key's bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// Which engine's layout an encrypted file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Godot 3: a mode word, no IV, AES-256 ECB.
    V3,
    /// Godot 4: no mode word, an IV, AES-256 CFB-128.
    V4 {
        /// The IV the file was written with.
        iv: [u8; 16],
    },
}

/// An encrypted file read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decrypted {
    /// The layout (and IV) it was written with.
    pub layout: Layout,
    /// The plaintext.
    pub plaintext: Vec<u8>,
}

/// True when `data` starts with the encrypted-file magic.
pub fn is_encrypted(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(data: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(data.get(at..at + 8)?.try_into().ok()?))
}

fn padded(len: u64) -> u64 {
    len.div_ceil(16).saturating_mul(16)
}

/// Where the parts of one layout lie in a file.
struct Parts {
    layout: Layout,
    md5: [u8; 16],
    length: u64,
    /// Offset of the length field (for errors).
    length_at: usize,
    /// Offset of the ciphertext.
    body: usize,
}

fn parts_v3(data: &[u8]) -> Option<Parts> {
    if u32_at(data, 4)? != MODE_AES256 {
        return None;
    }
    Some(Parts {
        layout: Layout::V3,
        md5: data.get(8..24)?.try_into().ok()?,
        length: u64_at(data, 24)?,
        length_at: 24,
        body: 32,
    })
}

fn parts_v4(data: &[u8]) -> Option<Parts> {
    Some(Parts {
        layout: Layout::V4 {
            iv: data.get(28..44)?.try_into().ok()?,
        },
        md5: data.get(4..20)?.try_into().ok()?,
        length: u64_at(data, 20)?,
        length_at: 20,
        body: 44,
    })
}

/// The size a layout's file has for its declared length, when that fits `data`.
fn fits(p: &Parts, data: &[u8]) -> bool {
    (p.body as u64).saturating_add(padded(p.length)) <= data.len() as u64
}

/// The layouts `data` may have, most likely first: a layout whose declared length
/// accounts for every byte of the file before one that leaves bytes over. The key
/// decides between them (the MD5).
fn candidates(data: &[u8]) -> Result<Vec<Parts>> {
    if !is_encrypted(data) {
        return Err(Error::at(
            0,
            ErrorKind::Unexpected {
                expected: "the encrypted-file magic GDEC".into(),
                found: format!("{:?}", String::from_utf8_lossy(&data[..data.len().min(4)])),
            },
        ));
    }
    let mut exact = Vec::new();
    let mut loose = Vec::new();
    let mut first_err: Option<Error> = None;
    for p in [parts_v3(data), parts_v4(data)].into_iter().flatten() {
        let end = (p.body as u64).saturating_add(padded(p.length));
        if end == data.len() as u64 {
            exact.push(p);
        } else if fits(&p, data) {
            loose.push(p);
        } else if first_err.is_none() {
            first_err = Some(Error::at(
                p.length_at,
                ErrorKind::LengthPastEnd {
                    what: "encrypted data length (padded to 16)",
                    declared: padded(p.length),
                    remaining: data.len().saturating_sub(p.body),
                },
            ));
        }
    }
    exact.extend(loose);
    if exact.is_empty() {
        return Err(first_err.unwrap_or_else(|| {
            Error::at(
                data.len(),
                ErrorKind::UnexpectedEof {
                    needed: 44usize.saturating_sub(data.len()).max(1),
                    remaining: 0,
                },
            )
        }));
    }
    Ok(exact)
}

/// The layout of an encrypted file as far as it can be told without the key (the
/// first of [`candidates`]): for describing a file whose key was not given.
pub fn probe_layout(data: &[u8]) -> Result<Layout> {
    Ok(candidates(data)?.remove(0).layout)
}

/// Blocks handed to the cipher at once: AES-NI and the bit-sliced fallback both work on
/// several blocks in parallel.
const BATCH: usize = 8;

/// ECB over `buf` (a multiple of 16 bytes), `BATCH` blocks at a time.
fn ecb(buf: &mut [u8], mut run: impl FnMut(&mut [aes::Block])) {
    let mut blocks = [aes::Block::default(); BATCH];
    for chunk in buf.chunks_mut(16 * BATCH) {
        let n = chunk.len() / 16;
        for (b, c) in blocks.iter_mut().zip(chunk.chunks_exact(16)) {
            b.copy_from_slice(c);
        }
        run(&mut blocks[..n]);
        for (b, c) in blocks.iter().zip(chunk.chunks_exact_mut(16)) {
            c.copy_from_slice(b);
        }
    }
}

fn decrypt_ecb(key: &Key, buf: &mut [u8]) {
    let cipher = Aes256::new(key.0.as_ref().into());
    ecb(buf, |b| cipher.decrypt_blocks(b));
}

fn encrypt_ecb(key: &Key, buf: &mut [u8]) {
    let cipher = Aes256::new(key.0.as_ref().into());
    ecb(buf, |b| cipher.encrypt_blocks(b));
}

type CfbDec = cfb_mode::Decryptor<Aes256>;
type CfbEnc = cfb_mode::Encryptor<Aes256>;

/// Decrypts an encrypted file with `key`, checking the MD5 of the plaintext. A wrong
/// key (or a damaged file) is an error saying so.
pub fn decrypt(data: &[u8], key: &Key) -> Result<Decrypted> {
    let cands = candidates(data)?;
    for p in &cands {
        // `fits` holds: the padded length is within the file.
        let n = padded(p.length) as usize;
        let mut buf = data[p.body..p.body + n].to_vec();
        match p.layout {
            Layout::V3 => decrypt_ecb(key, &mut buf),
            Layout::V4 { iv } => {
                CfbDec::new(key.0.as_ref().into(), iv.as_ref().into()).decrypt(&mut buf)
            }
        }
        buf.truncate(p.length as usize);
        if Md5::digest(&buf).as_slice() == p.md5 {
            let end = p.body + n;
            if end != data.len() {
                return Err(Error::at(
                    end,
                    ErrorKind::TrailingBytes {
                        count: data.len() - end,
                    },
                ));
            }
            return Ok(Decrypted {
                layout: p.layout,
                plaintext: buf,
            });
        }
    }
    let md5_at = match cands[0].layout {
        Layout::V3 => 8,
        Layout::V4 { .. } => 4,
    };
    Err(Error::msg_at(
        md5_at,
        "wrong password or key: the MD5 of the decrypted data does not match the file's \
         (or the file is damaged)",
    ))
}

/// Encrypts `plaintext` with `key` in `layout`, as the engine writes it.
pub fn encrypt(plaintext: &[u8], key: &Key, layout: &Layout) -> Vec<u8> {
    let md5 = Md5::digest(plaintext);
    let n = padded(plaintext.len() as u64) as usize;
    let head = match layout {
        Layout::V3 => 32,
        Layout::V4 { .. } => 44,
    };
    let mut out = Vec::with_capacity(head + n);
    out.extend_from_slice(MAGIC);
    if *layout == Layout::V3 {
        out.extend_from_slice(&MODE_AES256.to_le_bytes());
    }
    out.extend_from_slice(&md5);
    out.extend_from_slice(&(plaintext.len() as u64).to_le_bytes());
    if let Layout::V4 { iv } = layout {
        out.extend_from_slice(iv);
    }
    let body = out.len();
    out.extend_from_slice(plaintext);
    out.resize(body + n, 0);
    match layout {
        Layout::V3 => encrypt_ecb(key, &mut out[body..]),
        Layout::V4 { iv } => {
            CfbEnc::new(key.0.as_ref().into(), iv.as_ref().into()).encrypt(&mut out[body..])
        }
    }
    out
}

/// A fresh random IV, for a Godot 4 file written anew.
pub fn random_iv() -> [u8; 16] {
    let mut iv = [0u8; 16];
    // The operating system's generator; should it fail, a clock-and-address mix still
    // gives a distinct IV (the engine needs it unique, not secret).
    if getrandom::getrandom(&mut iv).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let d = Md5::digest(format!("{t}{:p}", &iv).as_bytes());
        iv.copy_from_slice(&d);
    }
    iv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_key_is_the_ascii_of_its_md5_hex() {
        // MD5("secret") = 5ebe2294ecd0e0f08eab7690d2a6ee69.
        assert_eq!(
            Key::from_password("secret").as_bytes(),
            b"5ebe2294ecd0e0f08eab7690d2a6ee69"
        );
    }

    #[test]
    fn both_layouts_round_trip_and_pad_to_16() {
        let key = Key::from_hex(&"ab".repeat(32)).unwrap();
        for len in [0usize, 1, 15, 16, 17, 100] {
            let plain: Vec<u8> = (0..len as u8).collect();
            for layout in [Layout::V3, Layout::V4 { iv: [3; 16] }] {
                let f = encrypt(&plain, &key, &layout);
                let head = if layout == Layout::V3 { 32 } else { 44 };
                assert_eq!(f.len(), head + len.div_ceil(16) * 16);
                let d = decrypt(&f, &key).unwrap();
                assert_eq!(d.plaintext, plain);
                assert_eq!(d.layout, layout);
                assert_eq!(encrypt(&d.plaintext, &key, &d.layout), f);
            }
        }
    }

    #[test]
    fn a_wrong_key_and_a_short_file_are_errors_with_offsets() {
        let f = encrypt(
            b"data",
            &Key::from_password("a"),
            &Layout::V4 { iv: [0; 16] },
        );
        let e = decrypt(&f, &Key::from_password("b")).unwrap_err();
        assert!(e.to_string().contains("wrong password or key"), "{e}");
        for cut in 0..f.len() {
            let e = decrypt(&f[..cut], &Key::from_password("a")).unwrap_err();
            assert!(e.offset().is_some(), "cut {cut}: {e}");
        }
    }
}
