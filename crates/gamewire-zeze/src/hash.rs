//! Zeze's fixed name hashes (`Zeze.Util.FixedHash`, Java `Bean.hash64`/`hash32`): the ids
//! Zeze derives from names, such as the protocol id of a `<protocol>` declared without
//! an `id` attribute (`Hash32` of its full name, solution and modules included).

/// `FixedHash.Hash64`: a Knuth multiplicative hash over the name's UTF-16 code units.
pub fn hash64(name: &str) -> i64 {
    let mut h: u64 = 3_074_457_345_618_258_791;
    for unit in name.encode_utf16() {
        h = h.wrapping_add(u64::from(unit));
        h = h.wrapping_mul(3_074_457_345_618_258_799);
    }
    h as i64
}

/// `FixedHash.Hash32`: the two halves of [`hash64`] XOR-ed.
pub fn hash32(name: &str) -> i32 {
    let h = hash64(name) as u64;
    ((h as u32) ^ ((h >> 32) as u32)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_zeze_protocol_ids() {
        // Values written beside the hand-made protocols in Zeze's Java sources
        // (`ProtocolId_ = Bean.hash32(X.class.getName()); // value`).
        assert_eq!(
            hash32("Zeze.Services.ServiceManager.AllocateId"),
            -282_549_003
        );
        assert_eq!(
            hash32("Zeze.Services.GlobalCacheManager.Cleanup"),
            -1_903_349_850
        );
        assert_eq!(hash64(""), 3_074_457_345_618_258_791);
        // Non-ASCII names hash their UTF-16 units, as C# strings do.
        assert_ne!(hash32("模块.协议"), hash32("??.??"));
    }
}
