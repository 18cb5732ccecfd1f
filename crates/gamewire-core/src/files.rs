//! Reading the side files a format needs (type lists, solutions, registries): regular
//! files only, of a bounded size, checked before they are opened.

use crate::{Error, Result};
use std::path::Path;

/// Largest side file read (a type list dumped from the whole game is tens of MB).
pub const MAX_SIDE_FILE: u64 = 1 << 30;

/// Reads the regular file at `path`, refusing before opening it anything else (opening
/// a named pipe waits for a writer, and a device such as `/dev/zero` has no end) or a
/// file larger than `max` bytes. `what` names the file in errors (`"type list"`).
pub fn read_regular(path: &Path, what: &str, max: u64) -> Result<Vec<u8>> {
    read_regular_io(path, max)
        .map_err(|e| Error::io(format!("cannot read {what} {}", path.display()), e))
}

/// [`read_regular`] with the bare I/O error (for readers that report I/O errors
/// themselves): `InvalidInput` "not a regular file", `InvalidData` for a file over `max`.
pub fn read_regular_io(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than the {max} bytes this file may have"),
        )
    };
    if meta.len() > max {
        return Err(too_big());
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)?
        .take(max + 1)
        .read_to_end(&mut data)?;
    if data.len() as u64 > max {
        return Err(too_big());
    }
    Ok(data)
}

/// Checks that the entry name `name` is a relative path that stays inside the folder it
/// is written under (an archive's entry written out): not empty, not absolute (`/x`, `C:x`), no `..` or `.` component, no
/// empty component, no backslash, no NUL. The error names the entry.
pub fn check_entry_name(name: &str) -> Result<()> {
    let why = if name.is_empty() {
        Some("it is empty")
    } else if name.starts_with('/') {
        Some("it is absolute")
    } else if name.contains('\\') {
        Some("it holds a backslash")
    } else if name.contains('\0') {
        Some("it holds a NUL")
    } else if name.contains(':') {
        Some("it holds a colon (a drive or stream name)")
    } else if name.split('/').any(|c| c == "..") {
        Some("it holds a '..' component")
    } else if name.split('/').any(|c| c.is_empty() || c == ".") {
        Some("it holds an empty or '.' component")
    } else {
        None
    };
    match why {
        Some(why) => Err(Error::msg(format!(
            "entry {name:?}: refused as a file name: {why}"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_big_files_are_refused_before_reading() {
        let e = read_regular(Path::new("/dev/zero"), "type list", 10).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let dir = std::env::temp_dir().join(format!("gw-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t.json");
        std::fs::write(&f, b"0123456789ab").unwrap();
        let e = read_regular(&f, "type list", 10).unwrap_err();
        assert!(e.to_string().contains("more than the 10 bytes"), "{e}");
        assert_eq!(read_regular(&f, "type list", 12).unwrap(), b"0123456789ab");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
