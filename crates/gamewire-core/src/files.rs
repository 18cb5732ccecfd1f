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
    use std::io::Read;
    let err = |e: std::io::Error| Error::io(format!("cannot read {what} {}", path.display()), e);
    let meta = std::fs::metadata(path).map_err(err)?;
    if !meta.is_file() {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    if meta.len() > max {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{} bytes is more than the {max} a {what} may have",
                meta.len()
            ),
        )));
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .map_err(err)?
        .take(max + 1)
        .read_to_end(&mut data)
        .map_err(err)?;
    if data.len() as u64 > max {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than the {max} bytes a {what} may have"),
        )));
    }
    Ok(data)
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
        assert!(e.to_string().contains("more than the 10"), "{e}");
        assert_eq!(read_regular(&f, "type list", 12).unwrap(), b"0123456789ab");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
