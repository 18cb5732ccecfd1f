//! Format detection (sniffing) from a file's first bytes and its name.

use std::fmt;

/// A format gamewire knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Godot 3.x Variant binary.
    Godot3,
    /// Godot 4.x Variant binary.
    Godot4,
    /// KingsIsle ObjectProperty (`BINd` files and raw blobs).
    KingsIsle,
    /// Zeze beans or protocol frames.
    Zeze,
    /// Resonite/Neos FrDT containers and legacy brson/7zbson/lz4bson files.
    Resonite,
    /// O3DE JSON serialization files.
    O3de,
}

impl Format {
    /// The name used on the command line (`godot3`, `kingsisle`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Format::Godot3 => "godot3",
            Format::Godot4 => "godot4",
            Format::KingsIsle => "kingsisle",
            Format::Zeze => "zeze",
            Format::Resonite => "resonite",
            Format::O3de => "o3de",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Guesses the format of `data`, using `file_name` (when known) for formats whose bytes
/// alone do not say (legacy Resonite files, Godot files named `*.godot3`/`*.godot4`).
///
/// Formats with a magic number (`FrDT`, `BINd`) are checked first; the weaker guesses
/// come after, so a file is never claimed by a guess when a magic number matches.
pub fn detect(data: &[u8], file_name: Option<&str>) -> Option<Format> {
    #[cfg(feature = "resonite")]
    if gamewire_resonite::sniff(data, file_name) {
        return Some(Format::Resonite);
    }
    #[cfg(feature = "kingsisle")]
    if gamewire_kingsisle::sniff(data, file_name) {
        return Some(Format::KingsIsle);
    }
    #[cfg(feature = "o3de")]
    if gamewire_o3de::sniff(data, file_name) {
        return Some(Format::O3de);
    }
    #[cfg(feature = "godot")]
    if let Some(v) = gamewire_godot::sniff_version(data, file_name) {
        return Some(if v == 3 {
            Format::Godot3
        } else {
            Format::Godot4
        });
    }
    #[cfg(feature = "zeze")]
    if gamewire_zeze::sniff(data, file_name) {
        return Some(Format::Zeze);
    }
    let _ = (data, file_name);
    None
}
