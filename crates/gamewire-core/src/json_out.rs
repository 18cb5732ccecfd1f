//! Writing JSON text: the pretty layout every front end uses, bounded in size.

use std::io::Write;

/// JSON nesting up to which pretty output indents; deeper values are written compactly
/// on the line of their container. Indenting every level of a value nested 1,000 deep
/// would turn each byte of input into hundreds of bytes of spaces; past 32 levels
/// nobody reads indentation anyway.
pub const PRETTY_DEPTH: usize = 32;

/// serde_json's pretty format (two spaces, `": "`) up to [`PRETTY_DEPTH`] levels, the
/// compact format inside containers deeper than that.
pub struct CappedPretty {
    depth: usize,
    has_value: bool,
}

impl CappedPretty {
    /// A formatter at the top level.
    pub fn new() -> Self {
        CappedPretty {
            depth: 0,
            has_value: false,
        }
    }

    /// True inside containers that are laid out one item a line.
    fn pretty(&self) -> bool {
        self.depth <= PRETTY_DEPTH
    }

    fn indent<W: ?Sized + Write>(w: &mut W, n: usize) -> std::io::Result<()> {
        const SPACES: &[u8] = &[b' '; 2 * PRETTY_DEPTH];
        w.write_all(&SPACES[..2 * n.min(PRETTY_DEPTH)])
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, b: &[u8]) -> std::io::Result<()> {
        let inner_pretty = self.pretty();
        self.depth -= 1;
        if self.has_value && inner_pretty {
            w.write_all(b"\n")?;
            Self::indent(w, self.depth)?;
        }
        w.write_all(b)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.pretty() {
            w.write_all(b"\n")?;
            Self::indent(w, self.depth)?;
        }
        Ok(())
    }
}

impl Default for CappedPretty {
    fn default() -> Self {
        Self::new()
    }
}

impl serde_json::ser::Formatter for CappedPretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.pretty() { b": " } else { b":" })
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Writes `value` as JSON to `w`: pretty ([`CappedPretty`]) or compact, no newline.
pub fn write<W: Write, T: serde::Serialize + ?Sized>(
    w: W,
    value: &T,
    pretty: bool,
) -> serde_json::Result<()> {
    if pretty {
        let mut ser = serde_json::Serializer::with_formatter(w, CappedPretty::new());
        value.serialize(&mut ser)
    } else {
        value.serialize(&mut serde_json::Serializer::new(w))
    }
}

/// A [`write`] error as a gamewire [`crate::Error`]: an I/O failure of the writer is an
/// [`crate::ErrorKind::Io`] (`cannot write the JSON: Broken pipe`) keeping the I/O error
/// as its source; anything else (a value the serializer refused) is a message.
pub fn write_error(e: serde_json::Error) -> crate::Error {
    if e.is_io() {
        crate::Error::io("cannot write the JSON", std::io::Error::from(e))
    } else {
        crate::Error::msg(format!("cannot write the JSON: {e}"))
    }
}

#[cfg(test)]
mod write_error_tests {
    use super::*;

    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn io_failures_keep_their_kind() {
        let e = write_error(write(Broken, &[1, 2], false).unwrap_err());
        assert_eq!(
            e.io_error().map(std::io::Error::kind),
            Some(std::io::ErrorKind::BrokenPipe)
        );
        assert!(e.to_string().starts_with("cannot write the JSON: "), "{e}");
        let refused = std::collections::BTreeMap::from([((1, 2), 3)]);
        let e = write_error(write(Vec::new(), &refused, false).unwrap_err());
        assert!(e.io_error().is_none());
        assert!(e.to_string().contains("key must be a string"), "{e}");
    }
}
