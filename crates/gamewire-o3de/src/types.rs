//! Type expressions: the types a registry field, a pointer or `any` can hold.

use std::fmt;

/// Index of a class in its [`crate::Registry`].
pub type ClassId = usize;
/// Index of an enum in its [`crate::Registry`].
pub type EnumId = usize;

/// A type: a built-in scalar or math type, a container, a pointer, or a registered class or enum.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeExpr {
    /// `bool`
    Bool,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `string` (AZStd::string)
    String,
    /// `Uuid`
    Uuid,
    /// `Color` (RGBA floats)
    Color,
    /// `Vector2`
    Vector2,
    /// `Vector3`
    Vector3,
    /// `Vector4`
    Vector4,
    /// `Quaternion`
    Quaternion,
    /// `Transform` (translation, rotation, uniform scale)
    Transform,
    /// `Matrix3x3`
    Matrix3x3,
    /// `Matrix3x4`
    Matrix3x4,
    /// `Matrix4x4`
    Matrix4x4,
    /// `AZ::EntityId`: `{"id": u64}` (O3DE's `JsonEntityIdSerializer`), or in a prefab
    /// the entity's alias as a string (the prefab's entity id mapper).
    EntityId,
    /// `vector<T>`
    Vector(Box<TypeExpr>),
    /// `list<T>`
    List(Box<TypeExpr>),
    /// `fixed_vector<T,N>`: at most N elements.
    FixedVector(Box<TypeExpr>, usize),
    /// `array<T,N>`: exactly N elements.
    Array(Box<TypeExpr>, usize),
    /// `set<T>`
    Set(Box<TypeExpr>),
    /// `unordered_set<T>`
    UnorderedSet(Box<TypeExpr>),
    /// `unordered_multiset<T>`: like `unordered_set` but keeps duplicates.
    UnorderedMultiset(Box<TypeExpr>),
    /// `map<K,V>`
    Map(Box<TypeExpr>, Box<TypeExpr>),
    /// `unordered_map<K,V>`
    UnorderedMap(Box<TypeExpr>, Box<TypeExpr>),
    /// `unordered_multimap<K,V>`
    UnorderedMultimap(Box<TypeExpr>, Box<TypeExpr>),
    /// `pair<A,B>`
    Pair(Box<TypeExpr>, Box<TypeExpr>),
    /// `tuple<...>`
    Tuple(Vec<TypeExpr>),
    /// `unique_ptr<T>`
    UniquePtr(Box<TypeExpr>),
    /// `shared_ptr<T>`
    SharedPtr(Box<TypeExpr>),
    /// `T*`
    Pointer(Box<TypeExpr>),
    /// `any`
    Any,
    /// `Asset<T>`: the asset type name is kept for documentation only.
    Asset(String),
    /// A registered class.
    Class(ClassId),
    /// A registered enum.
    Enum(EnumId),
}

impl TypeExpr {
    /// The element type of a sequence or set container.
    pub fn element(&self) -> Option<&TypeExpr> {
        match self {
            TypeExpr::Vector(t)
            | TypeExpr::List(t)
            | TypeExpr::FixedVector(t, _)
            | TypeExpr::Array(t, _)
            | TypeExpr::Set(t)
            | TypeExpr::UnorderedSet(t)
            | TypeExpr::UnorderedMultiset(t) => Some(t),
            _ => None,
        }
    }

    /// The number of floats in a math type (vectors, quaternion, color, matrices).
    pub fn math_len(&self) -> Option<usize> {
        Some(match self {
            TypeExpr::Vector2 => 2,
            TypeExpr::Vector3 => 3,
            TypeExpr::Vector4 | TypeExpr::Quaternion | TypeExpr::Color => 4,
            TypeExpr::Matrix3x3 => 9,
            TypeExpr::Matrix3x4 => 12,
            TypeExpr::Matrix4x4 => 16,
            _ => return None,
        })
    }
}

/// A parsed type expression whose class and enum names are not resolved yet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawType {
    Named(String),
    Generic(String, Vec<RawArg>),
    Pointer(Box<RawType>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawArg {
    Type(RawType),
    Number(usize),
}

/// Parses `text` such as `map<string, vector<Foo*>>` into a raw type.
pub(crate) fn parse_raw(text: &str) -> Result<RawType, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        text,
        depth: 0,
    };
    let t = p.ty()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!(
            "unexpected '{}' at column {} of type '{text}'",
            &text[p.i..],
            p.i + 1
        ));
    }
    Ok(t)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn ty(&mut self) -> Result<RawType, String> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(format!("type '{}' nests too deeply", self.text));
        }
        self.ws();
        let start = self.i;
        if self.s.get(self.i) == Some(&b'{') {
            while self.i < self.s.len() && self.s[self.i] != b'}' {
                self.i += 1;
            }
            self.i = (self.i + 1).min(self.s.len());
        } else {
            while self.i < self.s.len()
                && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b':'))
            {
                self.i += 1;
            }
        }
        if start == self.i {
            return Err(format!(
                "expected a type name at column {} of '{}'",
                start + 1,
                self.text
            ));
        }
        let name = self.text[start..self.i].to_string();
        self.ws();
        let mut t = if self.s.get(self.i) == Some(&b'<') {
            self.i += 1;
            let mut args = Vec::new();
            loop {
                self.ws();
                if self.s.get(self.i) == Some(&b'>') && args.is_empty() {
                    self.i += 1;
                    break;
                }
                if self.s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                    let st = self.i;
                    while self.s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                        self.i += 1;
                    }
                    let n = self.text[st..self.i]
                        .parse()
                        .map_err(|_| format!("bad number in '{}'", self.text))?;
                    args.push(RawArg::Number(n));
                } else {
                    args.push(RawArg::Type(self.ty()?));
                }
                self.ws();
                match self.s.get(self.i) {
                    Some(b',') => self.i += 1,
                    Some(b'>') => {
                        self.i += 1;
                        break;
                    }
                    _ => {
                        return Err(format!(
                            "expected ',' or '>' at column {} of '{}'",
                            self.i + 1,
                            self.text
                        ))
                    }
                }
            }
            RawType::Generic(name, args)
        } else {
            RawType::Named(name)
        };
        loop {
            self.ws();
            if self.s.get(self.i) == Some(&b'*') {
                self.i += 1;
                t = RawType::Pointer(Box::new(t));
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(t)
    }
}

/// O3DE's names and type ids of the scalar types (`AZ_TYPE_INFO_INTERNAL_SPECIALIZE` in
/// AzCore's TypeInfo), as `$type` holds them. The first entry for a type is the name
/// O3DE writes for it.
const O3DE_SCALARS: [(&str, &str, TypeExpr); 15] = [
    (
        "AZ::s8",
        "{58422C0E-1E47-4854-98E6-34098F6FE12D}",
        TypeExpr::I8,
    ),
    (
        "char",
        "{3AB0037F-AF8D-48ce-BCA0-A170D18B2C03}",
        TypeExpr::I8,
    ),
    (
        "short",
        "{B8A56D56-A10D-4dce-9F63-405EE243DD3C}",
        TypeExpr::I16,
    ),
    (
        "int",
        "{72039442-EB38-4d42-A1AD-CB68F7E0EEF6}",
        TypeExpr::I32,
    ),
    (
        "AZ::s64",
        "{70D8A282-A1EA-462d-9D04-51EDE81FAC2F}",
        TypeExpr::I64,
    ),
    (
        "long",
        "{8F24B9AD-7C51-46cf-B2F8-277356957325}",
        TypeExpr::I64,
    ),
    (
        "unsigned char",
        "{72B9409A-7D1A-4831-9CFE-FCB3FADD3426}",
        TypeExpr::U8,
    ),
    (
        "unsigned short",
        "{ECA0B403-C4F8-4b86-95FC-81688D046E40}",
        TypeExpr::U16,
    ),
    (
        "unsigned int",
        "{43DA906B-7DEF-4ca8-9790-854106D3F983}",
        TypeExpr::U32,
    ),
    (
        "AZ::u64",
        "{D6597933-47CD-4fc8-B911-63F3E2B0993A}",
        TypeExpr::U64,
    ),
    (
        "unsigned long",
        "{5EC2D6F7-6859-400f-9215-C106F5B10E53}",
        TypeExpr::U64,
    ),
    (
        "float",
        "{EA2C3E90-AFBE-44d4-A90D-FAAF79BAF93D}",
        TypeExpr::F32,
    ),
    (
        "double",
        "{110C4B14-11A8-4e9d-8638-5051013A56AC}",
        TypeExpr::F64,
    ),
    (
        "bool",
        "{A0CA880C-AFE4-43cb-926C-59AC48496112}",
        TypeExpr::Bool,
    ),
    (
        "AZ::Uuid",
        "{E152C105-A133-4d03-BBF8-3D4B2FBA3E2A}",
        TypeExpr::Uuid,
    ),
];

/// O3DE's types that have their own JSON serializer, by type id: the math types
/// (`AZ_TYPE_INFO` in AzCore/Math: Vector3, Quaternion, Transform, Color, the matrices;
/// Vector2 and Vector4 as other readers of O3DE data list them, all confirmed by the
/// SerializationContextExporter dump in tests/fixtures/o3de/real-registry), `AZ::EntityId`
/// (`AZ_TYPE_INFO` in AzCore/Component/EntityId.h), `AZStd::any` and `AZ::Name` (read as a
/// string). A registry class
/// with one of these ids is read by the serializer, as O3DE picks serializers by type id.
const O3DE_MATH: [(&str, &str, TypeExpr); 12] = [
    (
        "Vector2",
        "{3D80F623-C85C-4741-90D0-E4E66164E6BF}",
        TypeExpr::Vector2,
    ),
    (
        "Vector3",
        "{8379EB7D-01FA-4538-B64B-A6543B4BE73D}",
        TypeExpr::Vector3,
    ),
    (
        "Vector4",
        "{0CE9FA36-1E3A-4C06-9254-B7C73A732053}",
        TypeExpr::Vector4,
    ),
    (
        "Quaternion",
        "{73103120-3DD3-4873-BAB3-9713FA2804FB}",
        TypeExpr::Quaternion,
    ),
    (
        "Transform",
        "{5D9958E9-9F1E-4985-B532-FFFDE75FEDFD}",
        TypeExpr::Transform,
    ),
    (
        "Color",
        "{7894072A-9050-4F0F-901B-34B1A0D29417}",
        TypeExpr::Color,
    ),
    (
        "Matrix3x3",
        "{15A4332F-7C3F-4A58-AC35-50E1CE53FB9C}",
        TypeExpr::Matrix3x3,
    ),
    (
        "Matrix3x4",
        "{1906D8A5-7DEC-4DE3-A606-9E53BB3459E7}",
        TypeExpr::Matrix3x4,
    ),
    (
        "Matrix4x4",
        "{157193C7-B673-4A2B-8B43-5681DCC3DEC3}",
        TypeExpr::Matrix4x4,
    ),
    (
        "EntityId",
        "{6383F1D3-BB27-4E6B-A49A-6409B2059EAA}",
        TypeExpr::EntityId,
    ),
    (
        "AZStd::any",
        "{03924488-C7F4-4D6D-948B-ABC2D1AE2FD3}",
        TypeExpr::Any,
    ),
    // `AZ::Name` (AzCore/Name/Name.h): `NameJsonSerializer` loads it through the string
    // serializer and stores it as a string left out when equal to the default.
    (
        "AZ::Name",
        "{3D2B920C-9EFD-40D5-AAE0-DF131C3D4931}",
        TypeExpr::String,
    ),
];

/// The built-in type (a scalar, or a type with its own serializer) with O3DE type id
/// `uuid`.
pub(crate) fn o3de_builtin(uuid: &crate::uuid::Uuid) -> Option<TypeExpr> {
    o3de_scalar("", Some(uuid)).or_else(|| o3de_math(uuid))
}

/// The math type with O3DE type id `uuid`.
pub(crate) fn o3de_math(uuid: &crate::uuid::Uuid) -> Option<TypeExpr> {
    O3DE_MATH
        .iter()
        .find(|e| crate::uuid::Uuid::parse(e.1).as_ref() == Some(uuid))
        .map(|e| e.2.clone())
}

/// The name O3DE writes in `$type` for a scalar type (`int` for `i32`).
pub(crate) fn o3de_scalar_name(t: &TypeExpr) -> Option<&'static str> {
    O3DE_SCALARS.iter().find(|e| &e.2 == t).map(|e| e.0)
}

/// The scalar type O3DE names `name` (`unsigned int`) or gives type id `uuid`.
pub(crate) fn o3de_scalar(name: &str, uuid: Option<&crate::uuid::Uuid>) -> Option<TypeExpr> {
    O3DE_SCALARS
        .iter()
        .find(|e| match uuid {
            Some(u) => crate::uuid::Uuid::parse(e.1).as_ref() == Some(u),
            None => e.0 == name,
        })
        .map(|e| e.2.clone())
}

/// The built-in type for a plain name, with a few O3DE spellings accepted as aliases.
pub(crate) fn builtin(name: &str) -> Option<TypeExpr> {
    Some(match name {
        "bool" => TypeExpr::Bool,
        "i8" | "char" | "int8_t" | "AZ::s8" => TypeExpr::I8,
        "i16" | "short" | "int16_t" | "AZ::s16" => TypeExpr::I16,
        "i32" | "int" | "int32_t" | "AZ::s32" => TypeExpr::I32,
        "i64" | "long" | "int64_t" | "AZ::s64" => TypeExpr::I64,
        "u8" | "uint8_t" | "AZ::u8" => TypeExpr::U8,
        "u16" | "uint16_t" | "AZ::u16" => TypeExpr::U16,
        "u32" | "uint32_t" | "AZ::u32" => TypeExpr::U32,
        "u64" | "uint64_t" | "AZ::u64" => TypeExpr::U64,
        "f32" | "float" => TypeExpr::F32,
        "f64" | "double" => TypeExpr::F64,
        "string" | "AZStd::string" => TypeExpr::String,
        "Uuid" | "AZ::Uuid" | "TypeId" | "AZ::TypeId" => TypeExpr::Uuid,
        "Color" | "AZ::Color" => TypeExpr::Color,
        "Vector2" | "AZ::Vector2" => TypeExpr::Vector2,
        "Vector3" | "AZ::Vector3" => TypeExpr::Vector3,
        "Vector4" | "AZ::Vector4" => TypeExpr::Vector4,
        "Quaternion" | "AZ::Quaternion" => TypeExpr::Quaternion,
        "Transform" | "AZ::Transform" => TypeExpr::Transform,
        "Matrix3x3" | "AZ::Matrix3x3" => TypeExpr::Matrix3x3,
        "Matrix3x4" | "AZ::Matrix3x4" => TypeExpr::Matrix3x4,
        "Matrix4x4" | "AZ::Matrix4x4" => TypeExpr::Matrix4x4,
        "any" | "AZStd::any" => TypeExpr::Any,
        "EntityId" | "AZ::EntityId" => TypeExpr::EntityId,
        _ => return None,
    })
}

impl fmt::Display for TypeExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TypeExpr as T;
        match self {
            T::Bool => f.write_str("bool"),
            T::I8 => f.write_str("i8"),
            T::I16 => f.write_str("i16"),
            T::I32 => f.write_str("i32"),
            T::I64 => f.write_str("i64"),
            T::U8 => f.write_str("u8"),
            T::U16 => f.write_str("u16"),
            T::U32 => f.write_str("u32"),
            T::U64 => f.write_str("u64"),
            T::F32 => f.write_str("f32"),
            T::F64 => f.write_str("f64"),
            T::String => f.write_str("string"),
            T::Uuid => f.write_str("Uuid"),
            T::Color => f.write_str("Color"),
            T::Vector2 => f.write_str("Vector2"),
            T::Vector3 => f.write_str("Vector3"),
            T::Vector4 => f.write_str("Vector4"),
            T::Quaternion => f.write_str("Quaternion"),
            T::Transform => f.write_str("Transform"),
            T::Matrix3x3 => f.write_str("Matrix3x3"),
            T::Matrix3x4 => f.write_str("Matrix3x4"),
            T::Matrix4x4 => f.write_str("Matrix4x4"),
            T::EntityId => f.write_str("EntityId"),
            T::Vector(t) => write!(f, "vector<{t}>"),
            T::List(t) => write!(f, "list<{t}>"),
            T::FixedVector(t, n) => write!(f, "fixed_vector<{t},{n}>"),
            T::Array(t, n) => write!(f, "array<{t},{n}>"),
            T::Set(t) => write!(f, "set<{t}>"),
            T::UnorderedSet(t) => write!(f, "unordered_set<{t}>"),
            T::UnorderedMultiset(t) => write!(f, "unordered_multiset<{t}>"),
            T::Map(k, v) => write!(f, "map<{k},{v}>"),
            T::UnorderedMap(k, v) => write!(f, "unordered_map<{k},{v}>"),
            T::UnorderedMultimap(k, v) => write!(f, "unordered_multimap<{k},{v}>"),
            T::Pair(a, b) => write!(f, "pair<{a},{b}>"),
            T::Tuple(ts) => {
                f.write_str("tuple<")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(">")
            }
            T::UniquePtr(t) => write!(f, "unique_ptr<{t}>"),
            T::SharedPtr(t) => write!(f, "shared_ptr<{t}>"),
            T::Pointer(t) => write!(f, "{t}*"),
            T::Any => f.write_str("any"),
            T::Asset(n) => write!(f, "Asset<{n}>"),
            T::Class(c) => write!(f, "class#{c}"),
            T::Enum(e) => write!(f, "enum#{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested() {
        let t = parse_raw("map< string , vector<Foo*> >").unwrap();
        assert_eq!(
            t,
            RawType::Generic(
                "map".into(),
                vec![
                    RawArg::Type(RawType::Named("string".into())),
                    RawArg::Type(RawType::Generic(
                        "vector".into(),
                        vec![RawArg::Type(RawType::Pointer(Box::new(RawType::Named(
                            "Foo".into()
                        ))))]
                    ))
                ]
            )
        );
        assert!(parse_raw("vector<").is_err());
        assert!(parse_raw("a b").is_err());
        let t = parse_raw("array<u8, 4>").unwrap();
        assert!(matches!(t, RawType::Generic(_, ref a) if a[1] == RawArg::Number(4)));
    }
}
