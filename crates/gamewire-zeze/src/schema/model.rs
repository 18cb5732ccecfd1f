//! The schema model: declared types, variables, beans, protocols, constants and where
//! each is declared, and the queries on a loaded [`Schema`].

use crate::value::WireType;
use gamewire_core::{Error, Result};
use std::collections::HashMap;

/// A declared variable type.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `bool`.
    Bool,
    /// `byte` (8 bits).
    Byte,
    /// `short` (16 bits).
    Short,
    /// `int` (32 bits).
    Int,
    /// `long` (64 bits).
    Long,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `string` (UTF-8).
    String,
    /// `binary`.
    Binary,
    /// `decimal` (written as its string).
    Decimal,
    /// `list[T]`.
    List(Box<Type>),
    /// `set[T]`.
    Set(Box<Type>),
    /// `map[K,V]`, and `sortedmap[K,V]` (sorted in memory, the same bytes).
    Map(Box<Type>, Box<Type>),
    /// A bean or beankey, by full name.
    Bean(String),
    /// `dynamic`: the type ids and bean full names it may hold.
    Dynamic(Vec<(i64, String)>),
    /// `vector2`.
    Vector2,
    /// `vector2int`.
    Vector2Int,
    /// `vector3`.
    Vector3,
    /// `vector3int`.
    Vector3Int,
    /// `vector4`.
    Vector4,
    /// `quaternion` (same bytes as vector4).
    Quaternion,
}

/// The built-in types a solution names by a keyword (every other name is a bean's).
const KEYWORDS: [Type; 16] = [
    Type::Bool,
    Type::Byte,
    Type::Short,
    Type::Int,
    Type::Long,
    Type::Float,
    Type::Double,
    Type::String,
    Type::Binary,
    Type::Decimal,
    Type::Vector2,
    Type::Vector2Int,
    Type::Vector3,
    Type::Vector3Int,
    Type::Vector4,
    Type::Quaternion,
];

impl Type {
    /// The keyword a solution names this built-in type by (`int`, `vector3`), in lower
    /// case; `None` for containers, beans and `dynamic`.
    pub fn keyword(&self) -> Option<&'static str> {
        Some(match self {
            Type::Bool => "bool",
            Type::Byte => "byte",
            Type::Short => "short",
            Type::Int => "int",
            Type::Long => "long",
            Type::Float => "float",
            Type::Double => "double",
            Type::String => "string",
            Type::Binary => "binary",
            Type::Decimal => "decimal",
            Type::Vector2 => "vector2",
            Type::Vector2Int => "vector2int",
            Type::Vector3 => "vector3",
            Type::Vector3Int => "vector3int",
            Type::Vector4 => "vector4",
            Type::Quaternion => "quaternion",
            Type::List(_) | Type::Set(_) | Type::Map(..) | Type::Bean(_) | Type::Dynamic(_) => {
                return None
            }
        })
    }

    /// The built-in type a solution names by `keyword` (in lower case), if it is one.
    pub fn from_keyword(keyword: &str) -> Option<Type> {
        KEYWORDS
            .iter()
            .find(|t| t.keyword() == Some(keyword))
            .cloned()
    }

    /// The wire type Zeze writes for this type (its `TypeTagName`).
    pub fn wire(&self) -> WireType {
        match self {
            Type::Bool | Type::Byte | Type::Short | Type::Int | Type::Long => WireType::Integer,
            Type::Float => WireType::Float,
            Type::Double => WireType::Double,
            Type::String | Type::Binary | Type::Decimal => WireType::Bytes,
            Type::List(_) | Type::Set(_) => WireType::List,
            Type::Map(..) => WireType::Map,
            Type::Bean(_) => WireType::Bean,
            Type::Dynamic(_) => WireType::Dynamic,
            Type::Vector2 => WireType::Vector2,
            Type::Vector2Int => WireType::Vector2Int,
            Type::Vector3 => WireType::Vector3,
            Type::Vector3Int => WireType::Vector3Int,
            Type::Vector4 | Type::Quaternion => WireType::Vector4,
        }
    }
}

/// One `<variable>` of a bean.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    /// Field id.
    pub id: u32,
    /// Field name.
    pub name: String,
    /// Declared type.
    pub ty: Type,
}

/// One `<bean>` or `<beankey>`.
#[derive(Debug, Clone, PartialEq)]
pub struct BeanDef {
    /// Full name (`solution.module.Bean`).
    pub name: String,
    /// Full name of the base bean, if any.
    pub base: Option<String>,
    /// Variables in increasing id order.
    pub vars: Vec<Var>,
}

/// One `<protocol>` or `<rpc>` inside a `<module>` with an `id` (its own `id`, or the
/// name hash Zeze gives a protocol declared without one).
#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolDef {
    /// Full name (`solution.module.Name`).
    pub name: String,
    /// The module id.
    pub module_id: u32,
    /// The protocol id.
    pub protocol_id: u32,
    /// Full name of the argument bean (protocols and Rpc requests).
    pub argument: Option<String>,
    /// Full name of the result bean (Rpc responses).
    pub result: Option<String>,
}

/// One `<enum name=.. value=.. [type=..]>` of a bean or module: a named constant, which
/// Zeze's Gen writes as `public static final int NAME = VALUE;` in the bean's or module's
/// class. It changes no bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstDef {
    /// Full name of the bean, protocol or module (or solution) that declares it.
    pub scope: String,
    /// What `scope` is.
    pub kind: ConstScope,
    /// The constant's name as written.
    pub name: String,
    /// Its `type` (Gen's default `int`), as written.
    pub ty: String,
    /// Its `value`, as written (Gen copies it into the code).
    pub value: String,
    /// Its description (`description` or `comment` attribute, else the text after it).
    pub comment: String,
}

/// What declares a [`ConstDef`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstScope {
    /// A `<bean>` or `<beankey>`.
    Bean,
    /// A `<protocol>` or `<rpc>`.
    Protocol,
    /// A `<module>` or the `<solution>`.
    Module,
}

/// Where an element of a solution file is: file, line and column (1-based), and its
/// start tag. Errors about an element begin with it: `file:line:col: <tag ...>: `.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loc {
    /// The file (as given or normalised by the loader; `<input>` for [`Schema::from_xml`]).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
    /// The element's start tag as written (shortened past 100 characters).
    pub elem: String,
}

impl Loc {
    /// An error about this element.
    pub fn error(&self, msg: impl std::fmt::Display) -> Error {
        if self.file.is_empty() {
            return Error::msg(msg.to_string());
        }
        Error::msg(format!("{self}: {msg}"))
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)?;
        if !self.elem.is_empty() {
            write!(f, ": {}", self.elem)?;
        }
        Ok(())
    }
}

/// A loaded solution: every bean by full name, and the protocols whose ids it gives.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    pub(super) beans: HashMap<String, BeanDef>,
    pub(super) protocols: HashMap<(u32, u32), ProtocolDef>,
    pub(super) consts: Vec<ConstDef>,
    /// Where each bean is declared.
    pub(super) bean_locs: HashMap<String, Loc>,
    /// Where each variable is declared, by (bean, variable name).
    pub(super) var_locs: HashMap<(String, String), Loc>,
    /// The `default=` of variables that have one, by (bean, variable name).
    pub(super) initials: HashMap<(String, String), String>,
    /// Each bean's type id (Gen's `Bean.TypeId`).
    pub(super) type_ids: HashMap<String, i64>,
}
/// The bean a `gtable[Row, Col, Value]` holds per row (`Zeze.Transaction.GTable`'s
/// hand-written bean map): no layout in the solution, so decoded schema-less.
pub const GTABLE_ROW: &str = "Zeze.Transaction.GTable.BeanMap";

impl Schema {
    /// Where bean `name` (a full name) is declared (an empty location if unknown).
    pub fn bean_loc(&self, name: &str) -> Loc {
        self.bean_locs.get(name).cloned().unwrap_or_default()
    }

    /// Where variable `var` of bean `bean` is declared; the bean's location for its base
    /// (`var` is `"(base)"`) or an unknown variable.
    pub fn var_loc(&self, bean: &str, var: &str) -> Loc {
        self.var_locs
            .get(&(bean.to_owned(), var.to_owned()))
            .cloned()
            .unwrap_or_else(|| self.bean_loc(bean))
    }

    /// The `default="..."` of variable `var` of bean `bean` (full name), as written: the
    /// value Zeze's generated constructor gives it (decoding an absent variable still
    /// gives its zero, as Zeze's generated `decode` does).
    pub fn initial(&self, bean: &str, var: &str) -> Option<&str> {
        self.initials
            .get(&(bean.to_owned(), var.to_owned()))
            .map(String::as_str)
    }

    /// The type id of bean `name` (a full name), as Zeze's Gen gives it (`Bean.TypeId`):
    /// its `TypeId` attribute, else [`crate::hash::hash64`] of its full name. It keys the
    /// bean in a dynamic variable that gives it no special id.
    pub fn type_id(&self, name: &str) -> Option<i64> {
        self.type_ids.get(name).copied()
    }

    /// Every `<enum>` constant, in the order the files were read.
    pub fn consts(&self) -> &[ConstDef] {
        &self.consts
    }

    /// The bean named `name`: a full name, or a short name that only one bean has.
    pub fn bean(&self, name: &str) -> Result<&BeanDef> {
        if let Some(b) = self.beans.get(name) {
            return Ok(b);
        }
        let suffix = format!(".{name}");
        let mut found = self.beans.values().filter(|b| b.name.ends_with(&suffix));
        match (found.next(), found.next()) {
            (Some(b), None) => Ok(b),
            (Some(_), Some(_)) => Err(Error::msg(format!(
                "bean name {name:?} is ambiguous: give the full name"
            ))),
            _ => Err(Error::msg(format!(
                "no bean {name:?} in the solution; {}",
                self.beans_hint(None)
            ))),
        }
    }

    /// The bean a file is probably of: the one whose full or short name is the file's
    /// name without its extensions (`BValue.bin`, `demo.Module1.BValue.bin`; case and
    /// `_`/`-` ignored). `None` when no bean, or more than one, fits.
    pub fn bean_for_file(&self, file_name: &str) -> Option<&str> {
        fn norm(s: &str) -> String {
            s.chars()
                .filter(|c| *c != '_' && *c != '-')
                .flat_map(char::to_lowercase)
                .collect()
        }
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        // Every prefix ending before a `.`: `a.b.c.bin` tries `a.b.c`, `a.b` and `a`.
        let stems: Vec<String> = base
            .match_indices('.')
            .map(|(i, _)| norm(&base[..i]))
            .filter(|s| !s.is_empty())
            .collect();
        let mut fits = self.beans.keys().filter(|full| {
            let short = full.rsplit('.').next().unwrap_or(full);
            stems.iter().any(|s| *s == norm(full) || *s == norm(short))
        });
        match (fits.next(), fits.next()) {
            (Some(b), None) => Some(b.as_str()),
            _ => None,
        }
    }

    /// Which beans there are, for an error that needs one: all of them when they are
    /// few, else the first 20 and their count; then, when `file_name` names one
    /// ([`Schema::bean_for_file`]), that one as the suggestion.
    pub fn beans_hint(&self, file_name: Option<&str>) -> String {
        const SHOWN: usize = 20;
        let names = self.bean_names();
        let mut out = match names.len() {
            0 => "the solution declares no bean".to_owned(),
            n if n <= SHOWN => format!("its beans: {}", names.join(", ")),
            n => format!("its {n} beans include {}, ...", names[..SHOWN].join(", ")),
        };
        if let Some(b) = file_name.and_then(|f| self.bean_for_file(f)) {
            out.push_str(&format!("; the input's name suggests --bean {b}"));
        }
        out
    }

    /// The protocol or Rpc with these ids. A protocol declared without an `id` has the
    /// id Zeze's Gen gives it: [`crate::hash::hash32`] of its full name.
    pub fn protocol(&self, module_id: u32, protocol_id: u32) -> Option<&ProtocolDef> {
        self.protocols.get(&(module_id, protocol_id))
    }

    /// Every protocol and Rpc declared with ids, sorted by full name.
    pub fn protocols(&self) -> Vec<&ProtocolDef> {
        let mut v: Vec<&ProtocolDef> = self.protocols.values().collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// Every bean's full name, sorted.
    pub fn bean_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.beans.keys().map(String::as_str).collect();
        v.sort();
        v
    }

    /// The inheritance levels of a bean, most derived first (as on the wire).
    pub fn levels(&self, name: &str) -> Result<Vec<&BeanDef>> {
        let mut out = Vec::new();
        let mut next = Some(name.to_owned());
        while let Some(n) = next {
            let b = self.bean(&n)?;
            if out.len() > 64 || out.iter().any(|x: &&BeanDef| x.name == b.name) {
                return Err(Error::msg(format!("bean {name} has a base cycle")));
            }
            next = b.base.clone();
            out.push(b);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_name_the_built_in_types_both_ways() {
        for t in &KEYWORDS {
            let k = t.keyword().unwrap();
            assert_eq!(Type::from_keyword(k).as_ref(), Some(t), "{k}");
        }
        assert_eq!(Type::from_keyword("vector3int"), Some(Type::Vector3Int));
        assert_eq!(Type::from_keyword("quaternion"), Some(Type::Quaternion));
        assert_eq!(Type::from_keyword("BeanName"), None);
        assert_eq!(Type::from_keyword("list"), None);
        assert_eq!(Type::List(Box::new(Type::Int)).keyword(), None);
        assert_eq!(Type::Bean("a.B".into()).keyword(), None);
        // The vector keywords are the schema-less JSON's tags too.
        assert_eq!(Type::Vector2Int.components(), Some((&["x", "y"][..], true)));
        assert_eq!(Type::Int.components(), None);
    }
}
