//! The error type shared by every gamewire codec.

use std::fmt;

/// A result whose error is a gamewire [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// One step of the path from the root value to where an error happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// An array or list element, by position.
    Index(usize),
    /// A map entry or an object field, by key or name.
    Key(String),
}

/// What went wrong, without the position.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: needed {needed} more byte(s), {remaining} left")]
    UnexpectedEof {
        /// Bytes the value still needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A declared length or count cannot fit in the bytes that remain.
    #[error("{what} of {declared} does not fit in the {remaining} byte(s) left")]
    LengthPastEnd {
        /// What the length counts ("string length", "array count", ...).
        what: &'static str,
        /// The value the input declared.
        declared: u64,
        /// Bytes that were left.
        remaining: usize,
    },
    /// Values nest deeper than the configured limit.
    #[error("nesting deeper than the limit of {limit}")]
    DepthLimit {
        /// The limit in force.
        limit: usize,
    },
    /// Output (for example decompressed data) would exceed the configured cap.
    #[error("{what} of {size} bytes exceeds the limit of {limit}")]
    SizeLimit {
        /// What grew too large.
        what: &'static str,
        /// The size declared or reached.
        size: u64,
        /// The limit in force.
        limit: u64,
    },
    /// Bytes that should be UTF-8 (or UTF-16) text are not.
    #[error("invalid {encoding} text")]
    InvalidText {
        /// "UTF-8" or "UTF-16".
        encoding: &'static str,
    },
    /// A value other than the one the format allows here.
    #[error("expected {expected}, found {found}")]
    Unexpected {
        /// What the format allows.
        expected: String,
        /// What the input held.
        found: String,
    },
    /// Bytes left over after the value.
    #[error("{count} trailing byte(s) after the value")]
    TrailingBytes {
        /// How many bytes were left.
        count: usize,
    },
    /// Reading or writing a file or stream failed: what was being done
    /// (`"cannot read types.json"`) and the I/O error, kept as the [`source`] so callers
    /// can match its [`std::io::ErrorKind`].
    ///
    /// [`source`]: std::error::Error::source
    #[error("{what}: {source}")]
    Io {
        /// What was being done, as a phrase: `cannot read types.json`.
        what: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Anything else, as a sentence.
    #[error("{0}")]
    Message(String),
}

/// A decode or encode error: what went wrong, at which byte (and bit), under which path.
///
/// Boxed so that `Result<T, Error>` stays one pointer wide on the hot path.
pub struct Error(Box<Inner>);

struct Inner {
    kind: ErrorKind,
    offset: Option<usize>,
    bit: Option<u8>,
    /// Innermost segment first; reversed when displayed.
    path: Vec<PathSegment>,
}

impl Error {
    /// An error of `kind` at byte `offset`.
    #[cold]
    pub fn at(offset: usize, kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: Some(offset),
            bit: None,
            path: Vec::new(),
        }))
    }

    /// An error of `kind` at byte `offset`, bit `bit` (0 = least significant).
    #[cold]
    pub fn at_bit(offset: usize, bit: u8, kind: ErrorKind) -> Self {
        let mut e = Self::at(offset, kind);
        e.0.bit = Some(bit);
        e
    }

    /// An error with no byte position (for example while encoding or reading JSON).
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            offset: None,
            bit: None,
            path: Vec::new(),
        }))
    }

    /// A [`ErrorKind::Message`] error with no byte position.
    #[cold]
    pub fn msg(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Message(message.into()))
    }

    /// An [`ErrorKind::Io`] error: `what` was being done (`"cannot read types.json"`)
    /// when `source` happened. Displays as `cannot read types.json: No such file or
    /// directory`; [`std::error::Error::source`] gives the I/O error.
    #[cold]
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Self::new(ErrorKind::Io {
            what: what.into(),
            source,
        })
    }

    /// The I/O error underneath, for an [`ErrorKind::Io`] error.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match &self.0.kind {
            ErrorKind::Io { source, .. } => Some(source),
            _ => None,
        }
    }

    /// A [`ErrorKind::Message`] error at byte `offset`.
    #[cold]
    pub fn msg_at(offset: usize, message: impl Into<String>) -> Self {
        Self::at(offset, ErrorKind::Message(message.into()))
    }

    /// A [`ErrorKind::Unexpected`] error at byte `offset`.
    #[cold]
    pub fn unexpected_at(
        offset: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Self::at(
            offset,
            ErrorKind::Unexpected {
                expected: expected.into(),
                found: found.into(),
            },
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset in the input, when known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The bit within the byte at [`Error::offset`], for bit-packed formats.
    pub fn bit(&self) -> Option<u8> {
        self.0.bit
    }

    /// Shifts the byte offset by `base` (when a sub-slice was decoded on its own).
    pub fn shift_offset(mut self, base: usize) -> Self {
        if let Some(o) = self.0.offset.as_mut() {
            *o += base;
        }
        self
    }

    /// Sets the byte offset if none was set.
    pub fn or_offset(mut self, offset: usize) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// Adds an outer path segment: call while the error travels up out of a container.
    #[cold]
    pub fn in_segment(mut self, seg: PathSegment) -> Self {
        self.0.path.push(seg);
        self
    }

    /// Adds an outer array index to the path.
    #[cold]
    pub fn in_index(self, index: usize) -> Self {
        self.in_segment(PathSegment::Index(index))
    }

    /// Adds an outer map key or field name to the path.
    #[cold]
    pub fn in_key(self, key: impl Into<String>) -> Self {
        self.in_segment(PathSegment::Key(key.into()))
    }

    /// The path from the root, outermost segment first.
    pub fn path(&self) -> impl Iterator<Item = &PathSegment> {
        self.0.path.iter().rev()
    }

    /// The path rendered as `$.players[3].name` (just `$` at the root).
    pub fn path_string(&self) -> String {
        let mut s = String::from("$");
        for seg in self.path() {
            match seg {
                PathSegment::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
                PathSegment::Key(k) => {
                    let plain = !k.is_empty()
                        && k.chars().all(|c| c.is_alphanumeric() || c == '_')
                        && !k.starts_with(|c: char| c.is_ascii_digit());
                    if plain {
                        s.push('.');
                        s.push_str(k);
                    } else {
                        s.push('[');
                        s.push_str(&format!("{k:?}"));
                        s.push(']');
                    }
                }
            }
        }
        s
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.offset, self.0.bit) {
            (Some(o), Some(b)) => write!(f, "at byte {o} (0x{o:x}), bit {b}")?,
            (Some(o), None) => write!(f, "at byte {o} (0x{o:x})")?,
            _ => {}
        }
        if !self.0.path.is_empty() {
            if self.0.offset.is_some() {
                f.write_str(", ")?;
            }
            write!(f, "at {}", self.path_string())?;
        }
        if self.0.offset.is_some() || !self.0.path.is_empty() {
            f.write_str(": ")?;
        }
        write!(f, "{}", self.0.kind)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg.to_string())
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg.to_string())
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl From<std::io::Error> for Error {
    /// An [`ErrorKind::Io`] error described as `I/O error` (prefer [`Error::io`], which
    /// says what was being done).
    fn from(e: std::io::Error) -> Self {
        Error::io("I/O error", e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_offset_path_and_kind() {
        let e = Error::at(12, ErrorKind::InvalidText { encoding: "UTF-8" })
            .in_key("name")
            .in_index(3)
            .in_key("players");
        assert_eq!(
            e.to_string(),
            "at byte 12 (0xc), at $.players[3].name: invalid UTF-8 text"
        );
    }

    #[test]
    fn io_errors_keep_their_source() {
        use std::error::Error as _;
        let e = Error::io(
            "cannot read types.json",
            std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory"),
        );
        assert_eq!(
            e.to_string(),
            "cannot read types.json: No such file or directory"
        );
        assert_eq!(e.io_error().unwrap().kind(), std::io::ErrorKind::NotFound);
        let src = e.source().expect("the I/O error is the source");
        assert_eq!(src.to_string(), "No such file or directory");
        assert!(matches!(e.kind(), ErrorKind::Io { what, .. } if what == "cannot read types.json"));
        let from: Error = std::io::Error::from(std::io::ErrorKind::PermissionDenied).into();
        assert!(from.to_string().starts_with("I/O error: "), "{from}");
        assert!(from.io_error().is_some());
        assert!(Error::msg("plain").source().is_none());
    }

    #[test]
    fn odd_keys_are_quoted_and_bits_shown() {
        let e = Error::at_bit(2, 5, ErrorKind::Message("bad".into())).in_key("a b");
        assert_eq!(e.to_string(), "at byte 2 (0x2), bit 5, at $[\"a b\"]: bad");
        assert_eq!(Error::msg("plain").to_string(), "plain");
    }
}
