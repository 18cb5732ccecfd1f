//! CityHash64 (version 1.1), the hash behind O3DE's `AZ::TypeHash64`
//! (`AzCore/Utils/TypeHash.cpp` calls `CityHash64WithSeed`), written from the
//! algorithm's description: O3DE hashes a prefab entity's alias path with it to make
//! the entity's id ([`crate::flatten::entity_id`]).

const K0: u64 = 0xc3a5_c85c_97cb_3127;
const K1: u64 = 0xb492_b66f_be98_f273;
const K2: u64 = 0x9ae1_6a3b_2f90_404f;

fn fetch64(s: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(b)
}

fn fetch32(s: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&s[at..at + 4]);
    u64::from(u32::from_le_bytes(b))
}

fn shift_mix(v: u64) -> u64 {
    v ^ (v >> 47)
}

fn hash_len16_mul(u: u64, v: u64, mul: u64) -> u64 {
    let mut a = (u ^ v).wrapping_mul(mul);
    a ^= a >> 47;
    let mut b = (v ^ a).wrapping_mul(mul);
    b ^= b >> 47;
    b.wrapping_mul(mul)
}

fn hash_len16(u: u64, v: u64) -> u64 {
    hash_len16_mul(u, v, 0x9ddf_ea08_eb38_2d69)
}

fn len0to16(s: &[u8]) -> u64 {
    let len = s.len();
    if len >= 8 {
        let mul = K2.wrapping_add(len as u64 * 2);
        let a = fetch64(s, 0).wrapping_add(K2);
        let b = fetch64(s, len - 8);
        let c = b.rotate_right(37).wrapping_mul(mul).wrapping_add(a);
        let d = a.rotate_right(25).wrapping_add(b).wrapping_mul(mul);
        return hash_len16_mul(c, d, mul);
    }
    if len >= 4 {
        let mul = K2.wrapping_add(len as u64 * 2);
        let a = fetch32(s, 0);
        return hash_len16_mul((len as u64).wrapping_add(a << 3), fetch32(s, len - 4), mul);
    }
    if len > 0 {
        let (a, b, c) = (
            u32::from(s[0]),
            u32::from(s[len >> 1]),
            u32::from(s[len - 1]),
        );
        let y = a.wrapping_add(b << 8);
        let z = (len as u32).wrapping_add(c << 2);
        return shift_mix(u64::from(y).wrapping_mul(K2) ^ u64::from(z).wrapping_mul(K0))
            .wrapping_mul(K2);
    }
    K2
}

fn len17to32(s: &[u8]) -> u64 {
    let len = s.len();
    let mul = K2.wrapping_add(len as u64 * 2);
    let a = fetch64(s, 0).wrapping_mul(K1);
    let b = fetch64(s, 8);
    let c = fetch64(s, len - 8).wrapping_mul(mul);
    let d = fetch64(s, len - 16).wrapping_mul(K2);
    hash_len16_mul(
        a.wrapping_add(b)
            .rotate_right(43)
            .wrapping_add(c.rotate_right(30))
            .wrapping_add(d),
        a.wrapping_add(b.wrapping_add(K2).rotate_right(18))
            .wrapping_add(c),
        mul,
    )
}

fn len33to64(s: &[u8]) -> u64 {
    let len = s.len();
    let mul = K2.wrapping_add(len as u64 * 2);
    let a = fetch64(s, 0).wrapping_mul(K2);
    let b = fetch64(s, 8);
    let c = fetch64(s, len - 24);
    let d = fetch64(s, len - 32);
    let e = fetch64(s, 16).wrapping_mul(K2);
    let f = fetch64(s, 24).wrapping_mul(9);
    let g = fetch64(s, len - 8);
    let h = fetch64(s, len - 16).wrapping_mul(mul);
    let u = a
        .wrapping_add(g)
        .rotate_right(43)
        .wrapping_add(b.rotate_right(30).wrapping_add(c).wrapping_mul(9));
    let v = (a.wrapping_add(g) ^ d).wrapping_add(f).wrapping_add(1);
    let w = u
        .wrapping_add(v)
        .wrapping_mul(mul)
        .swap_bytes()
        .wrapping_add(h);
    let x = e.wrapping_add(f).rotate_right(42).wrapping_add(c);
    let y = v
        .wrapping_add(w)
        .wrapping_mul(mul)
        .swap_bytes()
        .wrapping_add(g)
        .wrapping_mul(mul);
    let z = e.wrapping_add(f).wrapping_add(c);
    let a = x
        .wrapping_add(z)
        .wrapping_mul(mul)
        .wrapping_add(y)
        .swap_bytes()
        .wrapping_add(b);
    let b = shift_mix(
        z.wrapping_add(a)
            .wrapping_mul(mul)
            .wrapping_add(d)
            .wrapping_add(h),
    )
    .wrapping_mul(mul);
    b.wrapping_add(x)
}

fn weak32(s: &[u8], at: usize, a: u64, b: u64) -> (u64, u64) {
    let (w, x, y, z) = (
        fetch64(s, at),
        fetch64(s, at + 8),
        fetch64(s, at + 16),
        fetch64(s, at + 24),
    );
    let a = a.wrapping_add(w);
    let b = b.wrapping_add(a).wrapping_add(z).rotate_right(21);
    let c = a;
    let a = a.wrapping_add(x).wrapping_add(y);
    let b = b.wrapping_add(a.rotate_right(44));
    (a.wrapping_add(z), b.wrapping_add(c))
}

/// `CityHash64(s)`.
pub fn city_hash64(s: &[u8]) -> u64 {
    let len = s.len();
    if len <= 16 {
        return len0to16(s);
    }
    if len <= 32 {
        return len17to32(s);
    }
    if len <= 64 {
        return len33to64(s);
    }
    let mut x = fetch64(s, len - 40);
    let mut y = fetch64(s, len - 16).wrapping_add(fetch64(s, len - 56));
    let mut z = hash_len16(
        fetch64(s, len - 48).wrapping_add(len as u64),
        fetch64(s, len - 24),
    );
    let mut v = weak32(s, len - 64, len as u64, z);
    let mut w = weak32(s, len - 32, y.wrapping_add(K1), x);
    x = x.wrapping_mul(K1).wrapping_add(fetch64(s, 0));
    let mut left = (len - 1) & !63;
    let mut at = 0;
    loop {
        x = x
            .wrapping_add(y)
            .wrapping_add(v.0)
            .wrapping_add(fetch64(s, at + 8))
            .rotate_right(37)
            .wrapping_mul(K1);
        y = y
            .wrapping_add(v.1)
            .wrapping_add(fetch64(s, at + 48))
            .rotate_right(42)
            .wrapping_mul(K1);
        x ^= w.1;
        y = y.wrapping_add(v.0).wrapping_add(fetch64(s, at + 40));
        z = z.wrapping_add(w.0).rotate_right(33).wrapping_mul(K1);
        v = weak32(s, at, v.1.wrapping_mul(K1), x.wrapping_add(w.0));
        w = weak32(
            s,
            at + 32,
            z.wrapping_add(w.1),
            y.wrapping_add(fetch64(s, at + 16)),
        );
        std::mem::swap(&mut z, &mut x);
        at += 64;
        left -= 64;
        if left == 0 {
            break;
        }
    }
    hash_len16(
        hash_len16(v.0, w.0)
            .wrapping_add(shift_mix(y).wrapping_mul(K1))
            .wrapping_add(z),
        hash_len16(v.1, w.1).wrapping_add(x),
    )
}

/// `CityHash64WithSeed(s, seed)`: `CityHash64WithSeeds(s, k2, seed)`.
pub fn city_hash64_with_seed(s: &[u8], seed: u64) -> u64 {
    hash_len16(city_hash64(s).wrapping_sub(K2), seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers from CityHash 1.1's reference implementation (the C++ code behind
    /// the `cityhash` 0.4.10 Python bindings), for every length class the algorithm
    /// branches on: 0, 1–3, 4–7, 8–16, 17–32, 33–64, and over 64 (one, two and three
    /// 64-byte blocks).
    #[test]
    fn matches_the_reference_implementation() {
        let range = |n: u8| (0..n).collect::<Vec<u8>>();
        let cases: Vec<(Vec<u8>, u64, u64)> = vec![
            (b"".to_vec(), 11160318154034397263, 368670563950795174),
            (b"a".to_vec(), 12917804110809363939, 367263073506664090),
            (b"abc".to_vec(), 2640714258260161385, 7176111089341877802),
            (b"abcd".to_vec(), 1897425971756105985, 5047056723123493458),
            (
                b"Entity_[1]".to_vec(),
                3259750253895137112,
                12701506804377097456,
            ),
            (
                b"ContainerEntity".to_vec(),
                3344049550607863572,
                13500982560767788195,
            ),
            (
                b"Instance_[7]/Entity_[5]".to_vec(),
                6608807231601856206,
                15331735831182463932,
            ),
            (vec![b'y'; 32], 6963001497674513743, 12107543100562830395),
            (
                b"Instance_[444426204430]/ContainerEntity".to_vec(),
                10306563272020512661,
                9173946879022898002,
            ),
            (vec![b'x'; 40], 17782712454280904677, 15596347663675438183),
            (
                b"Instance_[1]/Instance_[22]/Instance_[333]/Entity_[4444444444]".to_vec(),
                6667556020005053985,
                17207050595339038072,
            ),
            (vec![b'z'; 64], 18240726574316286905, 17638906598958168874),
            (range(65), 12418848153493822766, 7871605132044890341),
            (range(128), 1202834260335129493, 13110393178492693237),
            (range(129), 5097669210588415856, 11499900166297356415),
            (range(200), 17641249055521883096, 1523302107901124935),
        ];
        for (s, plain, seeded) in cases {
            assert_eq!(city_hash64(&s), plain, "CityHash64 of {} bytes", s.len());
            assert_eq!(
                city_hash64_with_seed(&s, 5_915_587_277),
                seeded,
                "CityHash64WithSeed of {} bytes",
                s.len()
            );
        }
    }
}
