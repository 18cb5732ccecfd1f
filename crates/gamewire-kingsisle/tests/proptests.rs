//! Property tests: the bit buffer and single values round-trip exactly.

use gamewire_kingsisle::bits::{BitReader, BitWriter};
use gamewire_kingsisle::{
    decode, encode, ClassDef, Document, Object, Options, PropertyDef, TypeList, Value,
};
use proptest::prelude::*;

proptest! {
    #[test]
    fn bit_fields_round_trip(fields in proptest::collection::vec((any::<u64>(), 1u32..=64, any::<bool>()), 0..64)) {
        let mut w = BitWriter::new();
        for &(v, n, align) in &fields {
            if align {
                w.align_with(0);
            }
            w.write_bits(v, n);
        }
        let total = w.pos();
        let bytes = w.into_bytes();
        prop_assert_eq!(bytes.len(), total.div_ceil(8));
        let mut r = BitReader::new(&bytes, 0);
        for &(v, n, align) in &fields {
            if align {
                r.align();
            }
            let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            prop_assert_eq!(r.read_bits(n).unwrap(), v & mask);
        }
        prop_assert!(r.padding.is_empty());
    }

    #[test]
    fn scalar_objects_round_trip(
        b in any::<bool>(), bits in -4i64..4, f in any::<f32>(), d in any::<f64>(),
        s in proptest::collection::vec(any::<u8>(), 0..300), w in ".{0,40}",
        list in proptest::collection::vec(any::<u32>(), 0..50), flags in 0u32..16, shallow in any::<bool>(),
    ) {
        let mut c = ClassDef::new("class P");
        for (i, (n, t, dynamic)) in [("m_b", "bool", false), ("m_bits", "bi3", false), ("m_f", "float", false),
            ("m_d", "double", false), ("m_s", "std::string", false), ("m_w", "std::wstring", false),
            ("m_l", "unsigned int", true)].iter().enumerate() {
            c.properties.push(PropertyDef::new(n, t, i as u32, 7, *dynamic));
        }
        let hashes: Vec<u32> = c.properties.iter().map(|p| p.hash).collect();
        let hash = c.hash;
        let mut types = TypeList::new();
        types.insert(c);
        let root = Object::new(hash, vec![
            (hashes[0], Value::Bool(b)), (hashes[1], Value::Int(bits)), (hashes[2], Value::Float(f)),
            (hashes[3], Value::Double(d)), (hashes[4], Value::String(s.into())),
            (hashes[5], Value::WString(w.encode_utf16().collect())),
            (hashes[6], Value::List(list.into_iter().map(|x| Value::UInt(x.into())).collect())),
        ]);
        let opts = Options { flags, shallow, property_mask: 7, ..Options::default() };
        let doc = Document { root, ..Document::default() };
        let bytes = encode(&doc, &types, &opts).unwrap();
        let back = decode(&bytes, &types, &opts).unwrap();
        // Compare floats by bits (NaN != NaN).
        prop_assert_eq!(format!("{:?}", back.root), format!("{:?}", doc.root));
        prop_assert_eq!(&encode(&back, &types, &opts).unwrap(), &bytes);
        let j = gamewire_kingsisle::json::to_json(&back, &types).unwrap();
        let text = serde_json::to_string(&j).unwrap();
        let j2: serde_json::Value = serde_json::from_str(&text).unwrap();
        let again = gamewire_kingsisle::json::from_json(&j2, &types).unwrap();
        prop_assert_eq!(encode(&again, &types, &opts).unwrap(), bytes);
    }
}
