//! A read-only memory map of an archive file.

use gamewire_core::{Error, Result};
use std::path::Path;

/// A file mapped read-only into memory: an archive of any size is read without copying
/// it onto the heap. Changing the file while it is mapped is not supported (the bytes
/// seen may change); the archive readers never trust offsets without checking them.
#[derive(Debug)]
pub struct Mapped {
    map: Option<memmap2::Mmap>,
}

impl Mapped {
    /// Maps the file at `path` (an empty file maps to no bytes).
    pub fn open(path: &Path) -> Result<Self> {
        let shown = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| Error::io(shown.clone(), e))?;
        let len = file
            .metadata()
            .map_err(|e| Error::io(shown.clone(), e))?
            .len();
        if len == 0 {
            return Ok(Self { map: None });
        }
        Self::map(&file).map_err(|e| Error::io(shown, e))
    }

    #[allow(unsafe_code)]
    fn map(file: &std::fs::File) -> std::io::Result<Self> {
        // SAFETY: the map is read-only and private to this value; the only hazard is
        // another process truncating or rewriting the file while it is mapped, which every
        // memory-mapping reader (katsuba's, wizwad's) accepts. Every offset read through
        // it is checked against its length.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Self { map: Some(map) })
    }
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_ref()
    }
}
