//! The one contract every gamewire format crate offers, under the same names:
//! [`DecodeOptions`] and [`EncodeOptions`], [`decode`]`(&[u8], &DecodeOptions)` and
//! [`encode`]`(&Bean, &EncodeOptions)`. The root [`crate::decode`] already has the
//! uniform shape ([`DecodeOptions`] is [`Options`]); the root [`crate::encode`] takes no
//! options, so the uniform one is here.
//!
//! ```
//! use gamewire_zeze::{codec, Bean, DecodeOptions, EncodeOptions, Field, Value};
//! let bean = Bean::new(vec![Field { id: 1, value: Value::Integer(150) }]);
//! let bytes = codec::encode(&bean, &EncodeOptions::default()).unwrap();
//! assert_eq!(codec::decode(&bytes, &DecodeOptions::default()).unwrap(), bean);
//! ```

use crate::{Bean, Options};
use gamewire_core::Result;

/// How [`decode`] reads a bean: the crate's [`Options`] (nesting limit).
pub type DecodeOptions = Options;

/// How [`encode`] writes a bean. A bean's bytes follow from its fields alone, so there
/// is nothing to choose yet; the type keeps the contract's shape.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {}

/// Decodes one bean that fills the whole of `data` ([`crate::decode`]).
pub fn decode(data: &[u8], opts: &DecodeOptions) -> Result<Bean> {
    crate::decode(data, opts)
}

/// Encodes a bean ([`crate::encode`]).
pub fn encode(bean: &Bean, opts: &EncodeOptions) -> Result<Vec<u8>> {
    let EncodeOptions {} = *opts;
    crate::encode(bean)
}
