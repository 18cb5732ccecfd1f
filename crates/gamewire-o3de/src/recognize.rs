//! Which O3DE file a byte string is, from its name and its first bytes.
//!
//! O3DE's files are JSON (a few old ones ObjectStream XML) and say what they are
//! either by extension (`.prefab`, `.setreg`, `.material`, ...) or by content: the
//! `JsonSerialization` envelope, a prefab's `ContainerEntity` / `Entities` /
//! `Instances`, an array of JSON Patch operations. Plain JSON with none of these signs
//! is not claimed. Only the first [`PREFIX`] bytes are looked at, so recognising a
//! 50 MB level costs nothing.

/// How many bytes of a file recognition reads.
pub const PREFIX: usize = 16 * 1024;

/// What kind of O3DE file a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A prefab or a level (`.prefab`, or JSON with `ContainerEntity`, `Entities` of
    /// `Entity_[...]` or `Instances` of `Instance_[...]`).
    Prefab,
    /// Settings Registry file (`.setreg`).
    Settings,
    /// Settings Registry merge patch (`.setregpatch`).
    SettingsPatch,
    /// Material (`.material`).
    Material,
    /// Material type (`.materialtype`).
    MaterialType,
    /// Generic asset in the envelope (`.azasset`).
    AzAsset,
    /// Pass template (`.pass`).
    Pass,
    /// Script Canvas graph (`.scriptcanvas`).
    ScriptCanvas,
    /// Physics material (`.physicsmaterial`, `.physxmaterial`).
    PhysicsMaterial,
    /// Input bindings (`.inputbindings`).
    InputBindings,
    /// Any other JSON in the `"Type": "JsonSerialization"` envelope.
    Serialized,
    /// A JSON Patch (RFC 6902): an array of `{"op", "path", ...}` operations.
    JsonPatch,
    /// A JSON Merge Patch (RFC 7386), known by name (`*.mergepatch.json`,
    /// `*.merge-patch.json`, or an object in `*.patch.json`).
    MergePatch,
    /// ObjectStream XML (`<ObjectStream version="...">`), the serialization older O3DE
    /// and Lumberyard files use; recognised, not decoded.
    ObjectStreamXml,
}

impl FileKind {
    /// A short description for listings.
    pub fn description(self) -> &'static str {
        match self {
            FileKind::Prefab => "prefab",
            FileKind::Settings => "settings registry (.setreg)",
            FileKind::SettingsPatch => "settings registry merge patch (.setregpatch)",
            FileKind::Material => "material",
            FileKind::MaterialType => "material type",
            FileKind::AzAsset => "asset (.azasset)",
            FileKind::Pass => "pass",
            FileKind::ScriptCanvas => "script canvas graph",
            FileKind::PhysicsMaterial => "physics material",
            FileKind::InputBindings => "input bindings",
            FileKind::Serialized => "JsonSerialization file",
            FileKind::JsonPatch => "JSON Patch (RFC 6902)",
            FileKind::MergePatch => "JSON Merge Patch (RFC 7386)",
            FileKind::ObjectStreamXml => "ObjectStream XML",
        }
    }

    /// True for the kinds read as JSON (all but ObjectStream XML).
    pub fn is_json(self) -> bool {
        self != FileKind::ObjectStreamXml
    }
}

/// The kind named by a file's extension (compared without regard to case).
pub fn kind_from_name(file_name: &str) -> Option<FileKind> {
    let lower = file_name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "prefab" => FileKind::Prefab,
        "setreg" => FileKind::Settings,
        "setregpatch" => FileKind::SettingsPatch,
        "material" => FileKind::Material,
        "materialtype" => FileKind::MaterialType,
        "azasset" => FileKind::AzAsset,
        "pass" => FileKind::Pass,
        "scriptcanvas" => FileKind::ScriptCanvas,
        "physicsmaterial" | "physxmaterial" => FileKind::PhysicsMaterial,
        "inputbindings" => FileKind::InputBindings,
        _ if lower.ends_with(".mergepatch.json") || lower.ends_with(".merge-patch.json") => {
            FileKind::MergePatch
        }
        _ => return None,
    })
}

/// Recognises an O3DE file from `data` (only its first [`PREFIX`] bytes are read) and
/// its name when known. `None` for anything else, plain JSON included.
pub fn recognize(data: &[u8], file_name: Option<&str>) -> Option<FileKind> {
    let head = &data[..data.len().min(PREFIX)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut s = Scan { b: head, i: 0 };
    s.skip_ws();
    let first = s.peek();
    if first == Some(b'<') {
        return is_object_stream(&head[s.i..]).then_some(FileKind::ObjectStreamXml);
    }
    if !matches!(first, Some(b'{' | b'[')) {
        return None;
    }
    let by_name = file_name.and_then(kind_from_name);
    let signs = s.top_level();
    let by_content = if signs.envelope {
        Some(FileKind::Serialized)
    } else if signs.prefab {
        Some(FileKind::Prefab)
    } else if signs.json_patch {
        Some(FileKind::JsonPatch)
    } else {
        None
    };
    match (by_name, by_content) {
        (Some(k), _) => Some(k),
        (None, Some(k)) => Some(k),
        (None, None) => {
            let lower = file_name.map(str::to_ascii_lowercase).unwrap_or_default();
            (first == Some(b'{') && lower.ends_with(".patch.json")).then_some(FileKind::MergePatch)
        }
    }
}

/// The `ClassName` of a file in the `JsonSerialization` envelope, read from the first
/// [`PREFIX`] bytes (escapes left as written); `None` without the envelope.
pub fn envelope_class_name(data: &[u8]) -> Option<String> {
    let head = &data[..data.len().min(PREFIX)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut s = Scan { b: head, i: 0 };
    s.skip_ws();
    let (mut envelope, mut class) = (false, None);
    s.members(|s, name| match name {
        b"Type" => {
            envelope = s
                .string()
                .is_some_and(|v| v.eq_ignore_ascii_case(b"JsonSerialization"));
            true
        }
        b"ClassName" => {
            class = s.string().map(|v| String::from_utf8_lossy(v).into_owned());
            true
        }
        _ => false,
    });
    class.filter(|_| envelope)
}

/// `<?xml ...?>` (optional), then `<ObjectStream`.
fn is_object_stream(mut b: &[u8]) -> bool {
    if b.starts_with(b"<?xml") {
        match memchr::memmem::find(b, b"?>") {
            Some(p) => b = &b[p + 2..],
            None => return false,
        }
        let ws = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
        b = &b[ws..];
    }
    b.starts_with(b"<ObjectStream")
}

/// What the top level of a JSON prefix shows.
#[derive(Default, Debug)]
struct Signs {
    envelope: bool,
    prefab: bool,
    json_patch: bool,
}

/// A forgiving scanner over a prefix of JSON text (it may stop anywhere).
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

const OPS: [&[u8]; 6] = [b"add", b"remove", b"replace", b"move", b"copy", b"test"];

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\r' | b'\t') => self.i += 1,
                Some(b'/') if self.b.get(self.i + 1) == Some(&b'/') => {
                    self.i = memchr::memchr(b'\n', &self.b[self.i..])
                        .map_or(self.b.len(), |n| self.i + n);
                }
                Some(b'/') if self.b.get(self.i + 1) == Some(&b'*') => {
                    self.i = memchr::memmem::find(&self.b[self.i + 2..], b"*/")
                        .map_or(self.b.len(), |n| self.i + 2 + n + 2);
                }
                _ => return,
            }
        }
    }

    /// A string at the cursor (raw content); `None` when not a string or cut off.
    fn string(&mut self) -> Option<&'a [u8]> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.i + 1;
        let mut j = start;
        loop {
            let p = memchr::memchr2(b'"', b'\\', &self.b[j..])?;
            j += p;
            if self.b[j] == b'"' {
                self.i = j + 1;
                return Some(&self.b[start..j]);
            }
            j += 2;
            if j > self.b.len() {
                return None;
            }
        }
    }

    /// Skips one value (of any kind); false when the prefix ends inside it.
    fn skip_value(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            self.skip_ws();
            match self.peek() {
                None => return false,
                Some(b'"') => {
                    if self.string().is_none() {
                        return false;
                    }
                }
                Some(b'{' | b'[') => {
                    depth += 1;
                    self.i += 1;
                    continue;
                }
                Some(b'}' | b']') => {
                    depth = depth.saturating_sub(1);
                    self.i += 1;
                }
                Some(b',' | b':') if depth > 0 => {
                    self.i += 1;
                    continue;
                }
                Some(_) => {
                    // a number or a word
                    let n = self.b[self.i..]
                        .iter()
                        .take_while(|c| {
                            !matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' | b'/')
                        })
                        .count();
                    self.i += n.max(1);
                }
            }
            if depth == 0 {
                return true;
            }
        }
    }

    /// The members of the object at the cursor, as far as the prefix goes: calls `f`
    /// with each name and the scanner placed on its value; `f` consumes the value or
    /// leaves it to be skipped (returns whether it consumed it).
    /// Returns true when the whole object was read (the cursor is then after it).
    fn members(&mut self, mut f: impl FnMut(&mut Self, &'a [u8]) -> bool) -> bool {
        if self.peek() != Some(b'{') {
            return false;
        }
        self.i += 1;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return true;
        }
        loop {
            self.skip_ws();
            let Some(name) = self.string() else {
                return false;
            };
            self.skip_ws();
            if self.peek() != Some(b':') {
                return false;
            }
            self.i += 1;
            self.skip_ws();
            if !f(self, name) && !self.skip_value() {
                return false;
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    // A trailing comma (as the settings registry accepts).
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                        return true;
                    }
                }
                Some(b'}') => {
                    self.i += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// The first member name of the object at the cursor (the value is consumed).
    fn first_name(&mut self) -> Option<&'a [u8]> {
        let mut first = None;
        let complete = self.members(|_, name| {
            first.get_or_insert(name);
            false
        });
        // An object cut off by the prefix leaves the scan there.
        if !complete {
            self.i = self.b.len();
        }
        first
    }

    fn top_level(&mut self) -> Signs {
        let mut signs = Signs::default();
        match self.peek() {
            Some(b'{') => {
                self.members(|s, name| match name {
                    b"Type" => {
                        if let Some(v) = s.string() {
                            signs.envelope |= v.eq_ignore_ascii_case(b"JsonSerialization");
                            return true;
                        }
                        false
                    }
                    b"ContainerEntity" => {
                        signs.prefab = true;
                        false
                    }
                    b"Entities" | b"Instances" => {
                        let prefix: &[u8] = if name == b"Entities" {
                            b"Entity_["
                        } else {
                            b"Instance_["
                        };
                        if let Some(first) = s.first_name() {
                            signs.prefab |= first.starts_with(prefix);
                        }
                        true
                    }
                    _ => false,
                });
            }
            Some(b'[') => {
                self.i += 1;
                self.skip_ws();
                let (mut op, mut path) = (false, false);
                self.members(|s, name| match name {
                    b"op" => {
                        op = s.string().is_some_and(|v| OPS.contains(&v));
                        true
                    }
                    b"path" => {
                        path = s.string().is_some();
                        true
                    }
                    _ => false,
                });
                signs.json_patch = op && path;
            }
            _ => {}
        }
        signs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_extension_when_the_content_is_json_or_xml() {
        for (name, kind) in [
            ("a.prefab", FileKind::Prefab),
            ("A.SETREG", FileKind::Settings),
            ("b.setregpatch", FileKind::SettingsPatch),
            ("c.material", FileKind::Material),
            ("c.materialtype", FileKind::MaterialType),
            ("d.azasset", FileKind::AzAsset),
            ("e.pass", FileKind::Pass),
            ("f.scriptcanvas", FileKind::ScriptCanvas),
            ("g.physicsmaterial", FileKind::PhysicsMaterial),
            ("h.inputbindings", FileKind::InputBindings),
            ("x.mergepatch.json", FileKind::MergePatch),
        ] {
            assert_eq!(recognize(b" {\"a\": 1}", Some(name)), Some(kind), "{name}");
            assert_eq!(recognize(b"[1]", Some(name)), Some(kind), "{name}");
            assert_eq!(recognize(b"\x00\x01binary", Some(name)), None, "{name}");
            assert_eq!(recognize(b"", Some(name)), None, "{name}");
        }
        assert_eq!(
            recognize(b"<ObjectStream version=\"3\">", Some("p.inputbindings")),
            Some(FileKind::ObjectStreamXml)
        );
        assert_eq!(
            recognize(
                b"<?xml version=\"1.0\"?>\n<ObjectStream version=\"1\">",
                None
            ),
            Some(FileKind::ObjectStreamXml)
        );
        assert_eq!(recognize(b"<html>", Some("a.prefab")), None);
    }

    #[test]
    fn by_content() {
        let env =
            br#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "X", "ClassData": {}}"#;
        assert_eq!(recognize(env, None), Some(FileKind::Serialized));
        assert_eq!(recognize(env, Some("x.json")), Some(FileKind::Serialized));
        // The extension says more than the envelope.
        assert_eq!(recognize(env, Some("x.pass")), Some(FileKind::Pass));
        // Case of the value does not matter (O3DE compares it so); of the name it does.
        assert_eq!(
            recognize(
                br#"{"Version": 1, /* c */ "Type" : "jsonserialization"}"#,
                None
            ),
            Some(FileKind::Serialized)
        );
        assert_eq!(recognize(br#"{"type": "JsonSerialization"}"#, None), None);
        assert_eq!(
            recognize(
                br#"{"Source": "a.prefab", "ContainerEntity": {"Id": "x"}}"#,
                None
            ),
            Some(FileKind::Prefab)
        );
        assert_eq!(
            recognize(br#"{"Entities": {"Entity_[1]": {}}}"#, None),
            Some(FileKind::Prefab)
        );
        assert_eq!(
            recognize(br#"{"Instances": {"Instance_[1]": {"Source": "a"}}}"#, None),
            Some(FileKind::Prefab)
        );
        assert_eq!(
            recognize(br#"[{"op": "replace", "path": "/a", "value": 1}]"#, None),
            Some(FileKind::JsonPatch)
        );
        assert_eq!(
            recognize(br#"{"a": 1}"#, Some("change.patch.json")),
            Some(FileKind::MergePatch)
        );
        assert_eq!(
            recognize(
                br#"[{"path": "/a", "op": "test", "value": 1}]"#,
                Some("change.patch.json")
            ),
            Some(FileKind::JsonPatch)
        );
    }

    #[test]
    fn envelope_class_names() {
        assert_eq!(
            envelope_class_name(br#"{"Type": "JsonSerialization", "Version": 1, "ClassName": "PassAsset", "ClassData": {}}"#),
            Some("PassAsset".to_string())
        );
        assert_eq!(
            envelope_class_name(br#"{"ClassName": "X", "Type": "jsonSerialization"}"#),
            Some("X".to_string())
        );
        assert_eq!(envelope_class_name(br#"{"ClassName": "X"}"#), None);
        assert_eq!(
            envelope_class_name(br#"{"Type": "JsonSerialization"}"#),
            None
        );
        assert_eq!(envelope_class_name(b"[1]"), None);
    }

    #[test]
    fn trailing_commas_do_not_stop_the_scan() {
        // A member after an object with a trailing comma is still seen.
        let text = b"{\"Settings\": {\"a\": 1, // x\n}, \"Type\": \"JsonSerialization\", \"ClassName\": \"C\",}";
        assert_eq!(recognize(text, None), Some(FileKind::Serialized));
        assert_eq!(envelope_class_name(text).as_deref(), Some("C"));
        let text = b"{\"x\": {\"y\": [1,],}, \"ContainerEntity\": {}}";
        assert_eq!(recognize(text, None), Some(FileKind::Prefab));
    }

    #[test]
    fn plain_json_stays_unknown() {
        for text in [
            &br#"{"a": 1, "Entities": [1, 2], "Instances": {"x": 1}}"#[..],
            br#"{"Type": "Other", "ClassName": "X"}"#,
            br#"{"nested": {"Type": "JsonSerialization", "ContainerEntity": 1}}"#,
            br#"{"s": "\"Type\": \"JsonSerialization\", \"ContainerEntity\""}"#,
            br#"[{"op": "explode", "path": "/a"}]"#,
            br#"[{"op": "add"}]"#,
            br#"[1, 2]"#,
            b"[]",
            b"42",
            b"\"ContainerEntity\"",
            // gamewire's own JSON for other formats
            br#"{"$type": "Vector3", "value": [1.0, 2.0, 3.0]}"#,
            br#"{"name": "Ann", "hp": 87.5}"#,
        ] {
            assert_eq!(
                recognize(text, Some("x.json")),
                None,
                "{}",
                String::from_utf8_lossy(text)
            );
            assert_eq!(recognize(text, None), None);
        }
    }

    #[test]
    fn looks_at_a_bounded_prefix_only() {
        // The sign past the prefix is not seen.
        let mut text = b"{\"pad\": \"".to_vec();
        text.resize(PREFIX + 10, b'x');
        text.extend_from_slice(b"\", \"ContainerEntity\": {}}");
        assert_eq!(recognize(&text, None), None);
        // A sign inside it is, even when the rest is cut off mid-string.
        let mut text = b"{\"ContainerEntity\": {\"Name\": \"".to_vec();
        text.resize(PREFIX * 4, b'x');
        assert_eq!(recognize(&text, None), Some(FileKind::Prefab));
    }
}
