//! KingsIsle's two dictionary hashes: `string_id` (type names) and djb2 (property names),
//! and which one each game uses for class names ([`Game`]).

/// KingsIsle's "string id" hash of a type name (the class hash of a type list).
///
/// Each byte, minus 32, is rotated left by `5 * index` bits (modulo 32) and xored into
/// a signed 32-bit state; the result is the state's absolute value.
pub fn string_id(text: &[u8]) -> u32 {
    let mut state: i32 = 0;
    for (i, &b) in text.iter().enumerate() {
        let v = i32::from(b) - 32;
        let shift = ((i as u32).wrapping_mul(5)) & 31;
        state ^= v.rotate_left(shift);
    }
    state.unsigned_abs()
}

/// The djb2 hash of a property name as KingsIsle uses it: `h = h * 33 + byte` from 5381,
/// wrapping, with the top bit cleared (`& 0x7FFF_FFFF`).
pub fn djb2(text: &[u8]) -> u32 {
    let mut h: u32 = 5381;
    for &b in text {
        h = h.wrapping_mul(33).wrapping_add(u32::from(b));
    }
    h & 0x7FFF_FFFF
}

/// The tag of a property as written in deep mode: `string_id(type) + djb2(name)`, wrapping.
pub fn property_hash(type_name: &str, name: &str) -> u32 {
    string_id(type_name.as_bytes()).wrapping_add(djb2(name.as_bytes()))
}

/// The KingsIsle game whose hashes a type list uses for names it gives no hash for.
///
/// Wizard101 hashes class names with [`string_id`]; Pirate101 with [`djb2`] (katsuba's
/// `djb2_only` option, "used by Pirate101", switched the class hash from `string_id` to
/// `djb2`; its later releases take every hash from the type list instead, as `arrtype`,
/// the Pirate101 dumper, writes them). Hashes a type list gives are always used as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Game {
    /// Wizard101: class hash `string_id(name)`, property tag `string_id(type) + djb2(name)`.
    #[default]
    Wizard101,
    /// Pirate101: djb2 for every hash: class hash `djb2(name)`, property tag
    /// `djb2(type) + djb2(name)`.
    Pirate101,
}

impl Game {
    /// The game named `name` (`wizard101`, `pirate101`; also `w101`, `p101`), any case.
    pub fn from_name(name: &str) -> Option<Game> {
        match name.to_ascii_lowercase().as_str() {
            "wizard101" | "w101" | "wizard" => Some(Game::Wizard101),
            "pirate101" | "p101" | "pirate" => Some(Game::Pirate101),
            _ => None,
        }
    }

    /// The game's name as [`Game::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Game::Wizard101 => "wizard101",
            Game::Pirate101 => "pirate101",
        }
    }

    /// The hash of a type name (a class hash, or the type part of a property tag).
    pub fn type_hash(self, name: &[u8]) -> u32 {
        match self {
            Game::Wizard101 => string_id(name),
            Game::Pirate101 => djb2(name),
        }
    }

    /// A property's tag: the type's hash plus `djb2(name)`, wrapping.
    pub fn property_hash(self, type_name: &str, name: &str) -> u32 {
        self.type_hash(type_name.as_bytes())
            .wrapping_add(djb2(name.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // Class hashes from the katsuba fixtures' type list.
        assert_eq!(string_id(b"class PropertyClass"), 723888169);
        assert_eq!(string_id(b"class AllScalars"), 1534054483);
        // Property tags from the same list.
        assert_eq!(property_hash("bool", "m_bool"), 221725407);
        assert_eq!(property_hash("class Inner", "m_inner"), 1944596742);
        assert_eq!(djb2(b""), 5381);
        assert_eq!(string_id(b""), 0);
    }

    #[test]
    fn katsuba_vectors() {
        // katsuba-utils' own hashing tests (tests/hashing.rs).
        assert_eq!(djb2(b"m_packedName"), 307420154);
        assert_eq!(string_id(b"std::string"), 1497788074);
        assert_eq!(string_id(b"class FishTournamentEntry"), 1725212200);
        assert_eq!(
            string_id(b"class NonCombatMayCastSpellTemplate*"),
            920052956
        );
    }

    #[test]
    fn games_hash_class_names_differently() {
        let name = b"class FishTournamentEntry";
        assert_eq!(Game::Wizard101.type_hash(name), 1725212200);
        assert_eq!(Game::Pirate101.type_hash(name), djb2(name));
        assert_ne!(
            Game::Pirate101.type_hash(name),
            Game::Wizard101.type_hash(name)
        );
        // djb2 by hand for a short name: ((5381 * 33 + 'A') * 33 + 'B'), top bit cleared.
        assert_eq!(
            Game::Pirate101.type_hash(b"AB"),
            ((5381 * 33 + 65) * 33 + 66) & 0x7FFF_FFFF
        );
        assert_eq!(
            Game::Pirate101.property_hash("int", "m_x"),
            djb2(b"int").wrapping_add(djb2(b"m_x"))
        );
        assert_eq!(Game::Wizard101.property_hash("bool", "m_bool"), 221725407);
        assert_eq!(Game::from_name("Pirate101"), Some(Game::Pirate101));
        assert_eq!(
            Game::from_name(Game::Wizard101.name()),
            Some(Game::Wizard101)
        );
        assert_eq!(Game::from_name("grub"), None);
    }
}
