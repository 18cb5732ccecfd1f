//! Zeze's solution XML as a schema, and named, typed decoding and encoding.
//!
//! Reads `<solution>`, nested `<module>`s, `<bean name=.. base=..>` and `<beankey>` with
//! `<variable id=.. name=.. type=..>` (`list[T]`, `set[T]`, `map[K,V]`, `type="list"
//! value=".."`, `type="map" key=".." value=".."`, `dynamic` with `<value bean="Name:id"/>`
//! children, vectors, nested beans). Bean names resolve like Zeze's generator: relative to
//! the enclosing module, then outwards, then absolute. [`Schema::from_file`] follows
//! `<import file=..>` as Gen does (each file once, mutual imports allowed); `sortedmap` is a
//! map, `gtable` a map of schema-less rows, `<external>` beans are schema-less, and a
//! dynamic `<value bean="Name"/>` without an id takes the bean's type id (`TypeId`, else
//! [`crate::hash::hash64`] of its full name).
//!
//! Decoding applies the conversions Zeze does on read (integer/float/double, bean read
//! from a dynamic and back, vectors of other sizes); fields the schema does not declare
//! are kept, schema-less, under `"_unknown"` (`"_unknown1"`... for base levels) so the
//! bytes still round-trip, and Zeze's own readers skip them; encoding
//! omits default values and empty nested beans exactly as Zeze's generated `encode` does.

use crate::cursor::Cursor;
use crate::decode::{read_bean, read_tag_delta, read_value, skip_bean, wire_type, Options};
use crate::json::{expected, f32_from, f32_json, f64_from, f64_json, hex, unhex};
use crate::value::WireType;
use crate::varint::{write_list_header, write_long, write_map_header, write_tag, write_uint};
use gamewire_core::{Error, ErrorKind, Result};
use serde_json::{json, Map, Value as J};
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

impl Type {
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

/// Line starts of a text, for byte offset -> line and column.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|b| b.1 == b'\n')
                .map(|b| b.0 + 1),
        );
        Lines { text, starts }
    }

    /// The location of byte `at`, for element `elem` (raw start tag bytes, if any).
    fn loc(&self, file: &str, at: usize, elem: Option<(&[u8], bool)>) -> Loc {
        let at = at.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= at);
        let start = self.starts[line - 1];
        let col = self
            .text
            .get(start..at)
            .map_or(at - start, |t| t.chars().count())
            + 1;
        let elem = elem.map_or_else(String::new, |(raw, empty)| {
            let mut t: String = String::from_utf8_lossy(raw)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if t.chars().count() > 100 {
                t = t.chars().take(100).collect::<String>() + "...";
            }
            format!("<{t}{}>", if empty { "/" } else { "" })
        });
        Loc {
            file: file.to_owned(),
            line,
            col,
            elem,
        }
    }
}

/// A loaded solution: every bean by full name, and the protocols whose ids it gives.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    beans: HashMap<String, BeanDef>,
    protocols: HashMap<(u32, u32), ProtocolDef>,
    consts: Vec<ConstDef>,
    /// Where each bean is declared.
    bean_locs: HashMap<String, Loc>,
    /// Where each variable is declared, by (bean, variable name).
    var_locs: HashMap<(String, String), Loc>,
    /// The `default=` of variables that have one, by (bean, variable name).
    initials: HashMap<(String, String), String>,
    /// Each bean's type id (Gen's `Bean.TypeId`).
    type_ids: HashMap<String, i64>,
}

/// A type as written in the XML, before bean names are resolved.
#[derive(Debug, Clone)]
enum Raw {
    Named(String),
    List(Box<Raw>),
    Set(Box<Raw>),
    Map(Box<Raw>, Box<Raw>),
    /// The `<value bean="Name[:id]">`s (no id: the bean's own type id) and the base of
    /// `dynamic:Base` (the base and every bean derived from it).
    Dynamic(Vec<DynValue>, Option<String>),
}

/// A dynamic's `<value bean="Name[:id]">`: the special type id, if given, and the name.
type DynValue = (Option<i64>, String);

struct PendingVar {
    id: u32,
    name: String,
    raw: Raw,
    loc: Loc,
}

/// A `<protocol>`/`<rpc>`: namespace, name, module id, protocol id, argument, result,
/// and where it is.
type PendingProto = (
    String,
    String,
    u32,
    u32,
    Option<String>,
    Option<String>,
    Loc,
);

/// A `<variable>` with children: id, name, type, key, value, dynamic values, where.
type OpenVar = (
    u32,
    String,
    String,
    Option<String>,
    Option<String>,
    Vec<DynValue>,
    Loc,
);

struct PendingBean {
    name: String,
    ns: String,
    base: Option<String>,
    /// The `TypeId` attribute (Gen's default is [`crate::hash::hash64`] of the full name).
    type_id: Option<i64>,
    vars: Vec<PendingVar>,
    loc: Loc,
}

/// What the solution files read so far declare, before names are resolved.
#[derive(Default)]
struct Pending {
    beans: Vec<PendingBean>,
    protos: Vec<PendingProto>,
    consts: Vec<ConstDef>,
    /// `default=` of variables: (bean, variable, value).
    initials: Vec<(String, String, String)>,
}

fn split_top(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => return Some((s[..i].trim(), s[i + 1..].trim())),
            _ => {}
        }
    }
    None
}

/// The deepest `[` nesting a type expression may have. Zeze allows no collection inside
/// a collection, so real types nest at most once; a few spare levels give room for
/// readable errors from the later checks.
pub const MAX_TYPE_NESTING: usize = 8;

/// The bean a `gtable[Row, Col, Value]` holds per row (`Zeze.Transaction.GTable`'s
/// hand-written bean map): no layout in the solution, so decoded schema-less.
pub const GTABLE_ROW: &str = "Zeze.Transaction.GTable.BeanMap";

/// The most values a bean's default (every variable at its default, nested beans
/// expanded) may hold. Bounds the work a missing nested bean costs while decoding.
pub const MAX_DEFAULT_VALUES: u64 = 1 << 16;

/// The deepest chain of beans held by value (bean field inside bean field ...).
pub const MAX_BEAN_NESTING: usize = 128;

/// Refuses a type expression nested deeper than [`MAX_TYPE_NESTING`] (one linear scan,
/// before the recursive parse).
fn check_type_nesting(ty: &str) -> Result<()> {
    let mut depth = 0usize;
    for (i, b) in ty.bytes().enumerate() {
        match b {
            b'[' => {
                depth += 1;
                if depth > MAX_TYPE_NESTING {
                    return Err(Error::msg(format!(
                        "type nests deeper than {MAX_TYPE_NESTING} levels of [ (at character {i})"
                    )));
                }
            }
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn parse_raw(
    ty: &str,
    key: Option<&str>,
    value: Option<&str>,
    dyn_values: &[DynValue],
) -> Result<Raw> {
    let ty = ty.trim();
    check_type_nesting(ty)?;
    let lower = ty.to_ascii_lowercase();
    let inner = |s: &str| parse_raw(s, None, None, dyn_values);
    if let Some(rest) = lower.strip_suffix(']') {
        let open = rest
            .find('[')
            .ok_or_else(|| Error::msg(format!("bad type {ty:?}")))?;
        let args = &ty[open + 1..ty.len() - 1];
        return match &rest[..open] {
            "list" | "array" => Ok(Raw::List(Box::new(inner(args)?))),
            "set" => Ok(Raw::Set(Box::new(inner(args)?))),
            // Gen's `gtable[Row, Col, Value]` is written as a map from row key to the
            // hand-written `GTable.BeanMap2` bean (its layout is not in the solution), kept
            // here as a schema-less bean.
            "gtable" => {
                let (row, _) = split_top(args)
                    .ok_or_else(|| Error::msg(format!("gtable type {ty:?} needs [R,C,V]")))?;
                Ok(Raw::Map(
                    Box::new(inner(row)?),
                    Box::new(Raw::Named(GTABLE_ROW.to_owned())),
                ))
            }
            // `sortedmap` is a map kept sorted in memory; Gen writes it exactly as a map.
            "map" | "sortedmap" => {
                let (k, v) = split_top(args)
                    .ok_or_else(|| Error::msg(format!("map type {ty:?} needs [K,V]")))?;
                Ok(Raw::Map(Box::new(inner(k)?), Box::new(inner(v)?)))
            }
            _ => Err(Error::msg(format!("unknown collection type {ty:?}"))),
        };
    }
    let need = |a: Option<&str>, what: &str| {
        a.map(str::to_owned)
            .ok_or_else(|| Error::msg(format!("type {ty:?} needs a {what} attribute")))
    };
    match lower.as_str() {
        "list" | "array" => Ok(Raw::List(Box::new(inner(&need(value, "value")?)?))),
        "set" => Ok(Raw::Set(Box::new(inner(&need(value, "value")?)?))),
        "map" | "sortedmap" => Ok(Raw::Map(
            Box::new(inner(&need(key, "key")?)?),
            Box::new(inner(&need(value, "value")?)?),
        )),
        "dynamic" => Ok(Raw::Dynamic(dyn_values.to_vec(), None)),
        _ if lower.starts_with("dynamic:") => Ok(Raw::Dynamic(
            dyn_values.to_vec(),
            Some(ty["dynamic:".len()..].trim().to_owned()).filter(|b| !b.is_empty()),
        )),
        _ => Ok(Raw::Named(ty.to_owned())),
    }
}

fn attr(e: &quick_xml::events::BytesStart<'_>, name: &str) -> Result<Option<String>> {
    for a in e.attributes() {
        let a = a.map_err(|err| Error::msg(format!("bad XML attribute: {err}")))?;
        if a.key.as_ref().eq_ignore_ascii_case(name.as_bytes()) {
            let v = a
                .unescape_value()
                .map_err(|err| Error::msg(format!("bad XML attribute value: {err}")))?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

/// Largest solution file read (Zeze's largest real solutions are under 1 MB).
pub const MAX_SOLUTION_FILE: u64 = 256 << 20;

/// Reads a solution (or imported) file: a regular file of at most
/// [`MAX_SOLUTION_FILE`] bytes, checked before it is opened (a named pipe would wait for
/// a writer, and a device such as `/dev/zero` would be read without end).
pub fn read_solution_file(path: &std::path::Path) -> std::io::Result<String> {
    let data = gamewire_core::files::read_regular_io(path, MAX_SOLUTION_FILE)?;
    String::from_utf8(data).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

impl Schema {
    /// Parses a solution XML document. Its `<import file=..>`s are not followed (see
    /// [`Schema::from_file`]).
    pub fn from_xml(text: &str) -> Result<Schema> {
        let mut p = Pending::default();
        parse_doc(text, "<input>", &mut p)?;
        finish(p)
    }

    /// Loads a solution file and the files it imports (`<import file=..>`), as Zeze's
    /// Gen does: an import is read relative to the importing file's directory, else
    /// relative to the first file's directory (Gen's starting directory); each file is
    /// read once (imports may be mutual), and bean names resolve across all of them.
    pub fn from_file(path: &std::path::Path) -> Result<Schema> {
        Schema::from_file_with(path, &mut |p| read_solution_file(p))
    }

    /// [`Schema::from_file`] with the files read by `read` (given the lexically
    /// normalised path of each file, `path` first; an error there means the file is
    /// absent). Errors name the file, line, column and element they are about
    /// ([`Loc`]).
    pub fn from_file_with(
        path: &std::path::Path,
        read: &mut dyn FnMut(&std::path::Path) -> std::io::Result<String>,
    ) -> Result<Schema> {
        let first = normalize(path);
        let top_dir = first.parent().map(normalize).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let text = read(&first).map_err(|e| Error::io(first.display().to_string(), e))?;
        let mut queue = vec![(first, text)];
        let mut p = Pending::default();
        while let Some((file, text)) = queue.pop() {
            if !seen.insert(file.clone()) {
                continue;
            }
            let imports = parse_doc(&text, &file.display().to_string(), &mut p)?;
            let dir = file.parent().map(normalize).unwrap_or_default();
            for (imp, loc) in imports {
                let imp = imp.replace('\\', "/");
                let here = normalize(&dir.join(&imp));
                if seen.contains(&here) {
                    continue;
                }
                let found = match read(&here) {
                    Ok(t) => (here, t),
                    Err(e) => {
                        let there = normalize(&top_dir.join(&imp));
                        match read(&there) {
                            Ok(t) => (there, t),
                            Err(_) => {
                                return Err(loc.error(format!(
                                    "cannot read the imported file {}: {e}",
                                    here.display()
                                )))
                            }
                        }
                    }
                };
                queue.push(found);
            }
        }
        finish(p)
    }

    /// The beans a bean holds by value: its base and the beans of its direct bean
    /// variables (lists, sets, maps and dynamics may be empty, so they hold nothing by
    /// value), with the variable's name.
    fn held_by_value<'a>(&'a self, b: &'a BeanDef) -> impl Iterator<Item = (&'a str, &'a str)> {
        b.vars
            .iter()
            .filter_map(|v| match &v.ty {
                Type::Bean(n) => Some((v.name.as_str(), n.as_str())),
                _ => None,
            })
            .chain(b.base.as_deref().map(|n| ("(base)", n)))
    }

    /// Refuses a bean that holds itself by value (directly or through others: its
    /// default would be infinite), a default of more than [`MAX_DEFAULT_VALUES`] values
    /// and beans nested by value deeper than [`MAX_BEAN_NESTING`]. Iterative depth-first
    /// search, each bean visited once, so any schema is checked in linear time.
    fn check_containment(&self) -> Result<()> {
        // Per bean: None while on the path (grey), Some((values, depth)) when done.
        let mut done: HashMap<&str, Option<(u64, usize)>> = HashMap::new();
        let mut names: Vec<&str> = self.beans.keys().map(String::as_str).collect();
        names.sort_unstable();
        // What each bean holds by value, listed once (linear in the variables).
        let held_of: HashMap<&str, Vec<(&str, &str)>> = self
            .beans
            .iter()
            .map(|(n, b)| (n.as_str(), self.held_by_value(b).collect()))
            .collect();
        for root in names {
            if done.contains_key(root) {
                continue;
            }
            // (bean, index of the next held bean to visit, via which variable)
            let mut path: Vec<(&str, usize, &str)> = vec![(root, 0, "")];
            done.insert(root, None);
            while let Some(&mut (name, ref mut next, _)) = path.last_mut() {
                let b = &self.beans[name];
                let held = &held_of[name];
                if let Some(&(var, child)) = held.get(*next) {
                    *next += 1;
                    let child = self.bean(child)?.name.as_str();
                    match done.get(child) {
                        Some(Some(_)) => {}
                        Some(None) => {
                            let start = path.iter().position(|p| p.0 == child).unwrap_or(0);
                            let mut chain: Vec<String> = path[start..]
                                .iter()
                                .zip(path[start + 1..].iter().map(|p| p.2).chain([var]))
                                .map(|(p, v)| format!("{}.{v}", p.0))
                                .collect();
                            chain.push(child.to_owned());
                            return Err(self.var_loc(name, var).error(format!(
                                "bean {child} holds itself by value ({}): its value would be \
                                 infinite; hold it in a list or dynamic instead",
                                chain.join(" -> ")
                            )));
                        }
                        None => {
                            done.insert(child, None);
                            path.push((child, 0, var));
                        }
                    }
                    continue;
                }
                // Every held bean is done: total this bean's default.
                let mut values = 1u64;
                let mut depth = 1usize;
                for v in &b.vars {
                    values = values.saturating_add(match &v.ty {
                        Type::Bean(_) => 0,
                        Type::Vector2 | Type::Vector2Int => 3,
                        Type::Vector3 | Type::Vector3Int => 4,
                        Type::Vector4 | Type::Quaternion => 5,
                        Type::Dynamic(_) => 2,
                        _ => 1,
                    });
                }
                for &(_, child) in held {
                    let child = self.bean(child)?.name.as_str();
                    if let Some(Some((n, d))) = done.get(child) {
                        values = values.saturating_add(*n);
                        depth = depth.max(d + 1);
                    }
                }
                if values > MAX_DEFAULT_VALUES {
                    return Err(self.bean_loc(name).error(format!(
                        "bean {name}: its default value holds {values} values (beans held \
                         by value, expanded), more than {MAX_DEFAULT_VALUES}"
                    )));
                }
                if depth > MAX_BEAN_NESTING {
                    return Err(self.bean_loc(name).error(format!(
                        "bean {name}: beans held by value nest {depth} deep, more than \
                         {MAX_BEAN_NESTING}"
                    )));
                }
                done.insert(name, Some((values, depth)));
                path.pop();
            }
        }
        Ok(())
    }

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

    /// Decodes one bean `name` that fills `data`, to JSON keyed by variable names.
    pub fn decode(&self, name: &str, data: &[u8], opts: &Options) -> Result<J> {
        let mut c = Cursor::new(data);
        let mut budget = default_budget(data.len());
        let j = self.read_bean_in(&mut c, &self.bean(name)?.name, opts, 0, &mut budget)?;
        if !c.is_empty() {
            return Err(Error::at(
                c.offset(),
                ErrorKind::TrailingBytes {
                    count: c.remaining(),
                },
            ));
        }
        Ok(j)
    }

    /// Encodes JSON keyed by variable names as bean `name`.
    pub fn encode(&self, name: &str, j: &J) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_bean(&self.bean(name)?.name, j, &mut out)?;
        Ok(out)
    }

    /// Reads bean `name` from the cursor. The defaults filled in for absent variables
    /// may total [`DEFAULTS_PER_BYTE`] values per byte left in the cursor (plus
    /// [`MAX_DEFAULT_VALUES`]); past that the decode stops with an error, so a run of
    /// empty beans cannot grow the JSON out of proportion to the input.
    pub fn read_bean(
        &self,
        c: &mut Cursor<'_>,
        name: &str,
        opts: &Options,
        depth: usize,
    ) -> Result<J> {
        let mut budget = default_budget(c.remaining());
        self.read_bean_in(c, name, opts, depth, &mut budget)
    }

    pub(crate) fn read_bean_in(
        &self,
        c: &mut Cursor<'_>,
        name: &str,
        opts: &Options,
        depth: usize,
        budget: &mut u64,
    ) -> Result<J> {
        if depth >= opts.max_depth {
            return Err(Error::at(
                c.offset(),
                ErrorKind::DepthLimit {
                    limit: opts.max_depth,
                },
            ));
        }
        let levels = self.levels(name)?;
        let mut obj = Map::new();
        for l in &levels {
            for v in &l.vars {
                let d = self
                    .default_json(&v.ty, budget)
                    .map_err(|e| e.or_offset(c.offset()))?;
                obj.insert(v.name.clone(), d);
            }
        }
        let mut li = 0;
        let mut id: u32 = 0;
        loop {
            let at = c.offset();
            let t = c.u8()?;
            if t == 0 {
                return Ok(J::Object(obj));
            }
            if t == 1 {
                if li + 1 < levels.len() {
                    li += 1;
                    id = 0;
                    continue;
                }
                // Past the last level Zeze skips the rest as unknown fields.
                skip_bean(c, opts, depth)?;
                return Ok(J::Object(obj));
            }
            if t < 16 {
                return Err(Error::unexpected_at(
                    at,
                    "a field tag",
                    format!("tag byte 0x{t:02x} (id delta 0)"),
                ));
            }
            let delta = read_tag_delta(c, t)?;
            let next = id as u64 + delta as u64;
            if next > i32::MAX as u64 {
                return Err(Error::unexpected_at(
                    at,
                    "a field id up to 2147483647",
                    next.to_string(),
                ));
            }
            id = next as u32;
            let w = wire_type(at, t & 15)?;
            match levels[li].vars.iter().find(|v| v.id == id) {
                Some(var) => {
                    let v = self
                        .read_typed(c, &var.ty, w, at, opts, depth + 1, budget)
                        .map_err(|e| e.in_key(var.name.clone()))?;
                    obj.insert(var.name.clone(), v);
                }
                None => {
                    // Unknown to the schema: kept (schema-less) so that bytes round-trip,
                    // as Zeze's beans generated with unknown-field support do.
                    let v =
                        read_value(c, w, opts, depth + 1).map_err(|e| e.in_key(id.to_string()))?;
                    let key = unknown_key(li);
                    let slot = obj.entry(key).or_insert_with(|| J::Object(Map::new()));
                    if let J::Object(m) = slot {
                        m.insert(id.to_string(), crate::json::value_to_json(&v));
                    }
                }
            }
        }
    }

    /// The default of a variable of type `ty`, each value taken from `budget`.
    pub(crate) fn default_json(&self, ty: &Type, budget: &mut u64) -> Result<J> {
        if *budget == 0 {
            return Err(Error::msg(
                "the defaults of absent variables expand past the limit (a run of empty \
                 beans much larger than the input); decode without --schema",
            ));
        }
        *budget -= 1;
        Ok(match ty {
            Type::Bool => J::Bool(false),
            Type::Byte | Type::Short | Type::Int | Type::Long => J::from(0),
            Type::Float | Type::Double => J::from(0.0),
            Type::String | Type::Decimal | Type::Binary => J::from(""),
            Type::List(_) | Type::Set(_) => J::Array(vec![]),
            Type::Map(k, _) => {
                if map_key_is_text(k) {
                    J::Object(Map::new())
                } else {
                    J::Array(vec![])
                }
            }
            Type::Bean(n) => {
                let mut m = Map::new();
                for l in self.levels(n)? {
                    for v in &l.vars {
                        m.insert(v.name.clone(), self.default_json(&v.ty, budget)?);
                    }
                }
                J::Object(m)
            }
            Type::Dynamic(_) => json!({ "type_id": 0 }),
            Type::Vector2 | Type::Vector2Int => json!([0, 0]).fix(ty),
            Type::Vector3 | Type::Vector3Int => json!([0, 0, 0]).fix(ty),
            Type::Vector4 | Type::Quaternion => json!([0, 0, 0, 0]).fix(ty),
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_typed(
        &self,
        c: &mut Cursor<'_>,
        ty: &Type,
        w: WireType,
        at: usize,
        opts: &Options,
        depth: usize,
        budget: &mut u64,
    ) -> Result<J> {
        let bad = |what: &str| {
            Error::unexpected_at(
                at,
                format!("a value Zeze reads as {what}"),
                format!("wire type {w}"),
            )
        };
        Ok(match ty {
            Type::Bool | Type::Byte | Type::Short | Type::Int | Type::Long => {
                if *ty == Type::Bool && w != WireType::Integer {
                    let x = match w {
                        WireType::Float => c.f32()? as f64,
                        WireType::Double => c.f64()?,
                        _ => return Err(bad("a bool")),
                    };
                    return Ok(J::Bool(x != 0.0));
                }
                let v: i64 = match w {
                    WireType::Integer => c.long()?,
                    WireType::Float => java_f2l(c.f32()? as f64, ty),
                    WireType::Double => java_f2l(c.f64()?, ty),
                    _ => return Err(bad("an integer")),
                };
                match ty {
                    Type::Bool => J::Bool(v != 0),
                    Type::Byte => J::from(v as i8),
                    Type::Short => J::from(v as i16),
                    Type::Int => J::from(v as i32),
                    _ => J::from(v),
                }
            }
            Type::Float | Type::Double => {
                let x: f64 = match w {
                    WireType::Float => c.f32()? as f64,
                    WireType::Double => c.f64()?,
                    WireType::Integer => c.long()? as f64,
                    _ => return Err(bad("a number")),
                };
                if *ty == Type::Float {
                    f32_json(x as f32)
                } else {
                    f64_json(x)
                }
            }
            Type::String | Type::Decimal | Type::Binary => {
                if w != WireType::Bytes {
                    return Err(bad("bytes"));
                }
                let b = c.len_bytes()?;
                if *ty == Type::Binary {
                    J::String(hex(b))
                } else {
                    J::String(String::from_utf8_lossy(b).into_owned())
                }
            }
            Type::List(e) | Type::Set(e) => {
                if w != WireType::List {
                    return Err(bad("a list"));
                }
                let hat = c.offset();
                let t = c.u8()?;
                let ew = wire_type(hat, t & 15)?;
                let n = read_tag_delta(c, t)?;
                let n = c.check_count(hat, n as u64, ew.min_size(), "list count")?;
                let mut items = Vec::with_capacity(n);
                for i in 0..n {
                    let iat = c.offset();
                    items.push(
                        self.read_typed(c, e, ew, iat, opts, depth + 1, budget)
                            .map_err(|x| x.in_index(i))?,
                    );
                }
                J::Array(items)
            }
            Type::Map(k, v) => {
                if w != WireType::Map {
                    return Err(bad("a map"));
                }
                let hat = c.offset();
                let t = c.u8()?;
                let (kw, vw) = (wire_type(hat, t >> 4)?, wire_type(hat, t & 15)?);
                let cat = c.offset();
                let n = c.uint("map count")?;
                let n = c.check_count(cat, n as u64, kw.min_size() + vw.min_size(), "map count")?;
                let text = map_key_is_text(k);
                let mut obj = Map::new();
                let mut pairs = Vec::new();
                for i in 0..n {
                    let kat = c.offset();
                    let kj = self
                        .read_typed(c, k, kw, kat, opts, depth + 1, budget)
                        .map_err(|x| x.in_index(i))?;
                    let vat = c.offset();
                    let vj = self
                        .read_typed(c, v, vw, vat, opts, depth + 1, budget)
                        .map_err(|x| x.in_index(i))?;
                    if text {
                        let key = match kj {
                            J::String(s) => s,
                            other => other.to_string(),
                        };
                        obj.insert(key, vj);
                    } else {
                        pairs.push(json!([kj, vj]));
                    }
                }
                if text {
                    J::Object(obj)
                } else {
                    J::Array(pairs)
                }
            }
            Type::Bean(n) => match w {
                WireType::Bean => self.read_bean_in(c, n, opts, depth, budget)?,
                WireType::Dynamic => {
                    c.long()?;
                    self.read_bean_in(c, n, opts, depth, budget)?
                }
                _ => return Err(bad("a bean")),
            },
            Type::Dynamic(ids) => {
                let type_id = match w {
                    WireType::Dynamic => c.long()?,
                    WireType::Bean => 0,
                    _ => return Err(bad("a dynamic bean")),
                };
                match ids.iter().find(|(i, _)| *i == type_id) {
                    Some((_, name)) => {
                        json!({ "type_id": type_id, "bean": name, "value": self.read_bean_in(c, name, opts, depth, budget)? })
                    }
                    None => {
                        let b = read_bean(c, opts, depth)?;
                        json!({ "type_id": type_id, "value": crate::json::bean_to_json(&b) })
                    }
                }
            }
            Type::Vector2
            | Type::Vector2Int
            | Type::Vector3
            | Type::Vector3Int
            | Type::Vector4
            | Type::Quaternion => {
                let (comps, ints): (Vec<f64>, bool) = match w {
                    WireType::Vector2 => (vec![c.f32()? as f64, c.f32()? as f64], false),
                    WireType::Vector3 => (
                        (0..3)
                            .map(|_| c.f32().map(|x| x as f64))
                            .collect::<Result<_>>()?,
                        false,
                    ),
                    WireType::Vector4 => (
                        (0..4)
                            .map(|_| c.f32().map(|x| x as f64))
                            .collect::<Result<_>>()?,
                        false,
                    ),
                    WireType::Vector2Int => {
                        (vec![c.long()? as i32 as f64, c.long()? as i32 as f64], true)
                    }
                    WireType::Vector3Int => (
                        (0..3)
                            .map(|_| c.long().map(|x| x as i32 as f64))
                            .collect::<Result<_>>()?,
                        true,
                    ),
                    WireType::Float => (vec![c.f32()? as f64], false),
                    WireType::Double => (vec![c.f64()? as f32 as f64], false),
                    WireType::Integer => (vec![c.long()? as f64], true),
                    _ => return Err(bad("a vector")),
                };
                let dims = match ty {
                    Type::Vector2 | Type::Vector2Int => 2,
                    Type::Vector3 | Type::Vector3Int => 3,
                    _ => 4,
                };
                let int_target = matches!(ty, Type::Vector2Int | Type::Vector3Int);
                let _ = ints;
                J::Array(
                    (0..dims)
                        .map(|i| {
                            let x = comps.get(i).copied().unwrap_or(0.0);
                            if int_target {
                                J::from(x as i32)
                            } else {
                                f32_json(x as f32)
                            }
                        })
                        .collect(),
                )
            }
        })
    }

    fn write_bean(&self, name: &str, j: &J, out: &mut Vec<u8>) -> Result<()> {
        let o = j
            .as_object()
            .ok_or_else(|| expected(&format!("a {name} object"), j))?;
        let levels = self.levels(name)?;
        for k in o.keys() {
            let known = levels.iter().any(|l| l.vars.iter().any(|v| &v.name == k))
                || (0..levels.len()).any(|li| *k == unknown_key(li));
            if !known {
                return Err(Error::msg(format!("bean {name} has no variable {k:?}")));
            }
        }
        for (li, l) in levels.iter().enumerate() {
            let mut last = 0u32;
            // Fields kept from bytes the schema did not know, merged by id.
            let mut unknown: Vec<(u32, crate::value::Value)> = Vec::new();
            let ukey = unknown_key(li);
            if let Some(u) = o.get(&ukey) {
                let u = u
                    .as_object()
                    .ok_or_else(|| expected("an object keyed by field id", u))?;
                for (k, v) in u {
                    let id: u32 = k
                        .parse()
                        .ok()
                        .filter(|&i| i >= 1 && i <= i32::MAX as u32)
                        .ok_or_else(|| {
                            Error::msg(format!("{ukey}: expected a field id, found {k:?}"))
                        })?;
                    if l.vars.iter().any(|v| v.id == id) {
                        return Err(Error::msg(format!(
                            "{ukey}: field id {id} is a declared variable"
                        )));
                    }
                    let v = crate::json::value_from_json(v)
                        .map_err(|e| e.in_key(k.clone()).in_key(ukey.clone()))?;
                    unknown.push((id, v));
                }
                unknown.sort_by_key(|u| std::cmp::Reverse(u.0));
            }
            for v in &l.vars {
                while unknown.last().is_some_and(|u| u.0 < v.id) {
                    if let Some((uid, uv)) = unknown.pop() {
                        write_tag(out, uid - last, uv.wire_type() as u8);
                        crate::encode::write_value(&uv, out)?;
                        last = uid;
                    }
                }
                let Some(x) = o.get(&v.name) else { continue };
                let mark = out.len();
                write_tag(out, v.id - last, v.ty.wire() as u8);
                let body = out.len();
                let written = self
                    .write_typed(&v.ty, x, out)
                    .map_err(|e| e.in_key(v.name.clone()))?;
                let empty_bean = matches!(v.ty, Type::Bean(_)) && out.len() == body + 1;
                if !written || empty_bean {
                    out.truncate(mark);
                } else {
                    last = v.id;
                }
            }
            while let Some((uid, uv)) = unknown.pop() {
                write_tag(out, uid - last, uv.wire_type() as u8);
                crate::encode::write_value(&uv, out)?;
                last = uid;
            }
            out.push(if li + 1 < levels.len() { 1 } else { 0 });
        }
        Ok(())
    }

    /// Writes a field value; returns false when it is the default (Zeze omits it).
    fn write_typed(&self, ty: &Type, j: &J, out: &mut Vec<u8>) -> Result<bool> {
        match ty {
            Type::Bool => {
                let b = j.as_bool().ok_or_else(|| expected("true or false", j))?;
                out.push(b as u8);
                Ok(b)
            }
            Type::Byte | Type::Short | Type::Int | Type::Long => {
                let v = j.as_i64().ok_or_else(|| expected("an integer", j))?;
                let ok = match ty {
                    Type::Byte => i8::try_from(v).is_ok(),
                    Type::Short => i16::try_from(v).is_ok(),
                    Type::Int => i32::try_from(v).is_ok(),
                    _ => true,
                };
                if !ok {
                    return Err(expected(
                        &format!("an integer in the range of {ty:?}").to_lowercase(),
                        j,
                    ));
                }
                write_long(out, v);
                Ok(v != 0)
            }
            Type::Float => {
                let f = f32_from(j)?;
                out.extend_from_slice(&f.to_le_bytes());
                Ok(f != 0.0)
            }
            Type::Double => {
                let d = f64_from(j)?;
                out.extend_from_slice(&d.to_le_bytes());
                Ok(d != 0.0)
            }
            Type::String | Type::Decimal | Type::Binary => {
                let s = j.as_str().ok_or_else(|| expected("a string", j))?;
                let b = if *ty == Type::Binary {
                    unhex(s)?
                } else {
                    s.as_bytes().to_vec()
                };
                write_uint(
                    out,
                    u32::try_from(b.len()).map_err(|_| Error::msg("bytes past 4 GiB"))?,
                );
                out.extend_from_slice(&b);
                Ok(!b.is_empty())
            }
            Type::List(e) | Type::Set(e) => {
                let a = j.as_array().ok_or_else(|| expected("an array", j))?;
                write_list_header(out, a.len() as u32, e.wire() as u8);
                for (i, x) in a.iter().enumerate() {
                    self.write_elem(e, x, out).map_err(|err| err.in_index(i))?;
                }
                Ok(!a.is_empty())
            }
            Type::Map(k, v) => {
                let pairs: Vec<(J, &J)> = match j {
                    J::Object(o) if map_key_is_text(k) => o
                        .iter()
                        .map(|(key, val)| Ok((text_key(k, key)?, val)))
                        .collect::<Result<_>>()?,
                    J::Array(a) => a
                        .iter()
                        .map(|p| match p.as_array().map(Vec::as_slice) {
                            Some([a, b]) => Ok((a.clone(), b)),
                            _ => Err(expected("a [key, value] pair", p)),
                        })
                        .collect::<Result<_>>()?,
                    _ => return Err(expected("a map (object or array of [key, value])", j)),
                };
                write_map_header(out, pairs.len() as u32, k.wire() as u8, v.wire() as u8);
                for (i, (kj, vj)) in pairs.iter().enumerate() {
                    self.write_elem(k, kj, out).map_err(|e| e.in_index(i))?;
                    self.write_elem(v, vj, out).map_err(|e| e.in_index(i))?;
                }
                Ok(!pairs.is_empty())
            }
            Type::Bean(n) => {
                self.write_bean(n, j, out)?;
                Ok(true)
            }
            Type::Dynamic(ids) => {
                let o = j
                    .as_object()
                    .ok_or_else(|| expected("{\"type_id\": n, \"value\": {..}}", j))?;
                let type_id = o
                    .get("type_id")
                    .map(crate::json::i64_from)
                    .transpose()?
                    .unwrap_or(0);
                let value = o.get("value");
                if type_id == 0 && value.is_none() {
                    return Ok(false);
                }
                write_long(out, type_id);
                let empty = json!({});
                let value = value.unwrap_or(&empty);
                match ids.iter().find(|(i, _)| *i == type_id) {
                    Some((_, name)) => self.write_bean(name, value, out)?,
                    None => crate::encode::encode_into(&crate::json::bean_from_json(value)?, out)?,
                }
                Ok(true)
            }
            Type::Vector2
            | Type::Vector3
            | Type::Vector4
            | Type::Quaternion
            | Type::Vector2Int
            | Type::Vector3Int => {
                let dims = match ty {
                    Type::Vector2 | Type::Vector2Int => 2,
                    Type::Vector3 | Type::Vector3Int => 3,
                    _ => 4,
                };
                let a = j
                    .as_array()
                    .filter(|a| a.len() == dims)
                    .ok_or_else(|| expected(&format!("an array of {dims} numbers"), j))?;
                let mut zero = true;
                for x in a {
                    if matches!(ty, Type::Vector2Int | Type::Vector3Int) {
                        let v = x
                            .as_i64()
                            .and_then(|v| i32::try_from(v).ok())
                            .ok_or_else(|| expected("an int", x))?;
                        zero &= v == 0;
                        write_long(out, v as i64);
                    } else {
                        let f = f32_from(x)?;
                        zero &= f == 0.0;
                        out.extend_from_slice(&f.to_le_bytes());
                    }
                }
                Ok(!zero)
            }
        }
    }

    /// Writes a collection element (Zeze's `EncodeElement`: always written).
    fn write_elem(&self, ty: &Type, j: &J, out: &mut Vec<u8>) -> Result<()> {
        match ty {
            Type::List(_) | Type::Set(_) | Type::Map(..) => Err(Error::msg(
                "Zeze does not allow collections as collection elements",
            )),
            Type::Dynamic(_) => {
                let mark = out.len();
                if !self.write_typed(ty, j, out)? {
                    out.truncate(mark);
                    out.extend_from_slice(&[0, 0]);
                }
                Ok(())
            }
            _ => self.write_typed(ty, j, out).map(|_| ()),
        }
    }
}

trait Fix {
    fn fix(self, ty: &Type) -> J;
}

impl Fix for J {
    /// Float vectors default to `[0.0, ..]`, int vectors to `[0, ..]`.
    fn fix(self, ty: &Type) -> J {
        match (self, ty) {
            (J::Array(a), Type::Vector2 | Type::Vector3 | Type::Vector4 | Type::Quaternion) => {
                J::Array(a.iter().map(|_| J::from(0.0)).collect())
            }
            (j, _) => j,
        }
    }
}

/// The JSON key holding the fields of inheritance level `li` that the schema does not
/// declare: `_unknown` for the bean's own level, `_unknown1`, `_unknown2`... for its bases.
pub fn unknown_key(li: usize) -> String {
    if li == 0 {
        "_unknown".to_owned()
    } else {
        format!("_unknown{li}")
    }
}

/// The defaults of absent variables a schema decode may fill in per input byte.
pub const DEFAULTS_PER_BYTE: u64 = 4;

pub(crate) fn default_budget(input: usize) -> u64 {
    (input as u64)
        .saturating_mul(DEFAULTS_PER_BYTE)
        .saturating_add(MAX_DEFAULT_VALUES)
}

fn full(ns: &[String], name: &str) -> String {
    let mut parts: Vec<&str> = ns
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    parts.push(name);
    parts.join(".")
}

/// Resolves a dynamic's `<value>`s and `dynamic:Base` to (type id, bean full name).
type DynResolve<'a> = &'a dyn Fn(&[DynValue], Option<&str>) -> Result<Vec<(i64, String)>>;

fn resolve_type(
    raw: &Raw,
    resolve: &dyn Fn(&str) -> Result<String>,
    dynamic: DynResolve<'_>,
) -> Result<Type> {
    Ok(match raw {
        Raw::List(e) => Type::List(Box::new(resolve_type(e, resolve, dynamic)?)),
        Raw::Set(e) => Type::Set(Box::new(resolve_type(e, resolve, dynamic)?)),
        Raw::Map(k, v) => Type::Map(
            Box::new(resolve_type(k, resolve, dynamic)?),
            Box::new(resolve_type(v, resolve, dynamic)?),
        ),
        Raw::Dynamic(vals, base) => Type::Dynamic(dynamic(vals, base.as_deref())?),
        Raw::Named(n) => match n.to_ascii_lowercase().as_str() {
            "bool" => Type::Bool,
            "byte" => Type::Byte,
            "short" => Type::Short,
            "int" => Type::Int,
            "long" => Type::Long,
            "float" => Type::Float,
            "double" => Type::Double,
            "string" => Type::String,
            "binary" => Type::Binary,
            "decimal" => Type::Decimal,
            "vector2" => Type::Vector2,
            "vector2int" => Type::Vector2Int,
            "vector3" => Type::Vector3,
            "vector3int" => Type::Vector3Int,
            "vector4" => Type::Vector4,
            "quaternion" => Type::Quaternion,
            _ => Type::Bean(resolve(n)?),
        },
    })
}

/// Map keys that print as JSON object keys: strings and integers.
pub(crate) fn map_key_is_text(k: &Type) -> bool {
    matches!(
        k,
        Type::String
            | Type::Decimal
            | Type::Byte
            | Type::Short
            | Type::Int
            | Type::Long
            | Type::Bool
    )
}

fn text_key(k: &Type, key: &str) -> Result<J> {
    Ok(match k {
        Type::String | Type::Decimal => J::from(key),
        Type::Bool => J::Bool(key == "true"),
        _ => J::from(
            key.parse::<i64>()
                .map_err(|_| Error::msg(format!("expected an integer map key, found {key:?}")))?,
        ),
    })
}

/// Java's float-to-integer cast for the declared type (saturating, NaN is 0; byte and
/// short narrow from int).
fn java_f2l(x: f64, ty: &Type) -> i64 {
    match ty {
        Type::Long => x as i64,
        _ => x as i32 as i64,
    }
}

/// Reads one solution document (`file` names it in errors) into `p`; returns the files it
/// imports, each with the `<import>` element's location. The contents of `<project>` and
/// `<service>` (code generation and service wiring, no wire layout) are skipped, as are
/// tables and other elements that do not change the bytes; `<enum>`s are kept as
/// constants.
fn parse_doc(text: &str, file: &str, p: &mut Pending) -> Result<Vec<(String, Loc)>> {
    use quick_xml::events::Event;
    let lines = Lines::new(text);
    let mut reader = quick_xml::Reader::from_str(text);
    let mut ns: Vec<String> = Vec::new();
    let mut module_ids: Vec<Option<u32>> = Vec::new();
    let protos = &mut p.protos;
    let beans = &mut p.beans;
    let consts = &mut p.consts;
    let p_initials = &mut p.initials;
    let mut stack: Vec<String> = Vec::new();
    let mut cur: Option<PendingBean> = None;
    // A <variable> with children (<value bean=..>) waiting for its end tag.
    let mut open_var: Option<OpenVar> = None;
    // An <enum> without a description, waiting for the text after it.
    let mut enum_text: Option<usize> = None;
    // The <protocol>/<rpc> whose children are being read.
    let mut cur_proto: Option<String> = None;
    let mut imports = Vec::new();
    // Depth inside a skipped element (0: not skipping).
    let mut skip = 0usize;
    loop {
        let at = reader.buffer_position() as usize;
        let ev = reader.read_event().map_err(|e| {
            lines
                .loc(file, reader.error_position() as usize, None)
                .error(format!("bad XML: {e}"))
        })?;
        if skip > 0 {
            match ev {
                Event::Start(_) => skip += 1,
                Event::End(_) => skip -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        if let Some(i) = enum_text.take() {
            if let Event::Text(t) = &ev {
                let t = String::from_utf8_lossy(t);
                consts[i].comment = t.split_whitespace().collect::<Vec<_>>().join(" ");
                continue;
            }
        }
        let (e, empty) = match &ev {
            Event::Start(e) => (e.clone(), false),
            Event::Empty(e) => (e.clone(), true),
            Event::End(end) => {
                let tag = String::from_utf8_lossy(end.name().as_ref()).to_ascii_lowercase();
                match tag.as_str() {
                    "solution" | "module" => {
                        ns.pop();
                        module_ids.pop();
                    }
                    "bean" | "beankey" => {
                        if let Some(b) = cur.take() {
                            beans.push(b);
                        }
                    }
                    "protocol" | "rpc" => cur_proto = None,
                    "variable" | "var" => {
                        if let (Some((id, name, ty, k, v, dv, loc)), Some(b)) =
                            (open_var.take(), cur.as_mut())
                        {
                            let raw = parse_raw(&ty, k.as_deref(), v.as_deref(), &dv)
                                .map_err(|e| loc.error(e))?;
                            b.vars.push(PendingVar { id, name, raw, loc });
                        }
                    }
                    _ => {}
                }
                stack.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let tag = String::from_utf8_lossy(e.name().as_ref()).to_ascii_lowercase();
        let loc = lines.loc(file, at, Some((&e, empty)));
        let attr = |name: &str| attr(&e, name).map_err(|err| loc.error(err));
        if !empty {
            stack.push(tag.clone());
        }
        match tag.as_str() {
            "project" | "service" if !empty => {
                stack.pop();
                skip = 1;
            }
            "solution" | "module" if !empty => {
                ns.push(attr("name")?.unwrap_or_default());
                module_ids.push(
                    attr("id")?
                        .and_then(|s| s.trim().parse::<i64>().ok())
                        .map(|i| i as u32),
                );
            }
            "import" => {
                if let Some(f) = attr("file")?.filter(|f| !f.trim().is_empty()) {
                    imports.push((f.trim().to_owned(), loc));
                }
            }
            "enum" => {
                let name = attr("name")?
                    .map(|n| n.trim().to_owned())
                    .filter(|n| !n.is_empty())
                    .ok_or_else(|| loc.error("<enum> without a name"))?;
                let (scope, kind) = match (&cur, &cur_proto) {
                    (Some(b), _) => (b.name.clone(), ConstScope::Bean),
                    (None, Some(p)) => (p.clone(), ConstScope::Protocol),
                    (None, None) => (
                        full(&ns, "").trim_end_matches('.').to_owned(),
                        ConstScope::Module,
                    ),
                };
                // Gen refuses two enums of one name in a bean.
                if kind == ConstScope::Bean
                    && consts.iter().any(|c| c.scope == scope && c.name == name)
                {
                    return Err(loc.error(format!("enum {name} is declared twice in {scope}")));
                }
                let comment = match attr("description")?.filter(|c| !c.trim().is_empty()) {
                    Some(c) => c.trim().to_owned(),
                    None => attr("comment")?.unwrap_or_default().trim().to_owned(),
                };
                if comment.is_empty() && empty {
                    enum_text = Some(consts.len());
                }
                consts.push(ConstDef {
                    scope,
                    kind,
                    name,
                    ty: attr("type")?
                        .map(|t| t.trim().to_owned())
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| "int".to_owned()),
                    value: attr("value")?.unwrap_or_default().trim().to_owned(),
                    comment,
                });
            }
            "external" | "externalkey" => {
                // A bean written by hand (its layout is not in the solution): kept
                // schema-less, its fields under "_unknown".
                let key = if tag == "external" { "bean" } else { "beankey" };
                if let Some(n) = attr(key)?.filter(|n| !n.trim().is_empty()) {
                    beans.push(PendingBean {
                        name: n.trim().to_owned(),
                        ns: String::new(),
                        base: None,
                        type_id: None,
                        vars: Vec::new(),
                        loc,
                    });
                }
            }
            "protocol" | "rpc" => {
                let name = attr("name")?.map(|n| n.trim().to_string());
                if !empty {
                    cur_proto = Some(full(&ns, name.as_deref().unwrap_or("")));
                }
                // Zeze's Gen: without an `id`, the id is FixedHash.Hash32 of the full
                // name (solution and modules, dot-separated).
                let pid = match attr("id")?.filter(|s| !s.is_empty()) {
                    Some(s) => s.trim().parse::<i64>().ok(),
                    None => name
                        .as_ref()
                        .map(|n| i64::from(crate::hash::hash32(&full(&ns, n)))),
                };
                let mid = module_ids.iter().rev().flatten().next().copied();
                if let (Some(pid), Some(mid), Some(name)) = (pid, mid, name) {
                    let arg = attr("argument")?.filter(|s| !s.is_empty());
                    let res = attr("result")?.filter(|s| !s.is_empty());
                    protos.push((ns.join("."), name, mid, pid as u32, arg, res, loc));
                }
            }
            "bean" | "beankey" => {
                let name = attr("name")?.ok_or_else(|| loc.error("<bean> without a name"))?;
                let b = PendingBean {
                    name: full(&ns, &name),
                    ns: ns.join("."),
                    base: attr("base")?.filter(|s| !s.is_empty()),
                    type_id: attr("TypeId")?.and_then(|s| s.trim().parse().ok()),
                    vars: Vec::new(),
                    loc,
                };
                if empty {
                    beans.push(b);
                } else {
                    cur = Some(b);
                }
            }
            "variable" | "var" if cur.is_some() => {
                let id: u32 = attr("id")?
                    .and_then(|s| s.trim().parse().ok())
                    .filter(|&i| i >= 1 && i <= i32::MAX as u32)
                    .ok_or_else(|| loc.error("<variable> needs an id 1..=2147483647"))?;
                let name = attr("name")?.ok_or_else(|| loc.error("<variable> without a name"))?;
                let ty = attr("type")?
                    .ok_or_else(|| loc.error(format!("variable {name} has no type")))?;
                let (k, v) = (attr("key")?, attr("value")?);
                if let (Some(init), Some(b)) = (attr("default")?, cur.as_ref()) {
                    let init = init.trim();
                    if !init.is_empty() {
                        p_initials.push((b.name.clone(), name.clone(), init.to_owned()));
                    }
                }
                if empty {
                    let raw = parse_raw(&ty, k.as_deref(), v.as_deref(), &[])
                        .map_err(|e| loc.error(e))?;
                    if let Some(b) = cur.as_mut() {
                        b.vars.push(PendingVar { id, name, raw, loc });
                    }
                } else {
                    open_var = Some((id, name, ty, k, v, Vec::new(), loc));
                }
            }
            "value" => {
                if let (Some(ov), Some(spec)) = (open_var.as_mut(), attr("bean")?) {
                    // `Name:typeId`, or `Name` alone: the bean's own type id.
                    let (name, id) = match spec.rsplit_once(':') {
                        Some((n, i)) => (
                            n.trim().to_owned(),
                            Some(i.trim().parse::<i64>().map_err(|_| {
                                loc.error(format!(
                                    "dynamic <value bean={spec:?}>: bad type id {i:?}"
                                ))
                            })?),
                        ),
                        None => (spec.trim().to_owned(), None),
                    };
                    if !name.is_empty() {
                        ov.5.push((id, name));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(imports)
}

/// Resolves the names of everything read into a schema.
fn finish(p: Pending) -> Result<Schema> {
    let Pending {
        mut beans,
        protos,
        consts,
        initials,
    } = p;
    if !beans.iter().any(|b| b.name == GTABLE_ROW)
        && beans
            .iter()
            .any(|b| b.vars.iter().any(|v| mentions(&v.raw, GTABLE_ROW)))
    {
        beans.push(PendingBean {
            name: GTABLE_ROW.to_owned(),
            ns: String::new(),
            base: None,
            type_id: None,
            vars: Vec::new(),
            loc: Loc::default(),
        });
    }
    // Resolve bean names.
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut first: HashMap<&str, &Loc> = HashMap::new();
    for b in &beans {
        // Gen refuses a type declared twice ("duplicate type").
        if let Some(f) = first.insert(b.name.as_str(), &b.loc) {
            return Err(b.loc.error(format!(
                "bean {} is declared twice (first at {}:{}:{})",
                b.name, f.file, f.line, f.col
            )));
        }
        names.insert(b.name.clone());
    }
    let resolve = |ns: &str, n: &str| -> Result<String> {
        let mut scope = ns.to_owned();
        loop {
            let cand = if scope.is_empty() {
                n.to_owned()
            } else {
                format!("{scope}.{n}")
            };
            if names.contains(&cand) {
                return Ok(cand);
            }
            match scope.rfind('.') {
                Some(i) => scope.truncate(i),
                None if !scope.is_empty() => scope.clear(),
                None => {
                    return Err(Error::msg(format!(
                        "unknown type or bean {n:?} (in {ns:?})"
                    )))
                }
            }
        }
    };
    // Gen's Bean.TypeId: the `TypeId` attribute, else FixedHash.Hash64 of the full name.
    let type_ids: HashMap<&str, i64> = beans
        .iter()
        .map(|b| {
            let id = b.type_id.unwrap_or_else(|| crate::hash::hash64(&b.name));
            (b.name.as_str(), id)
        })
        .collect();
    let mut bases: HashMap<&str, String> = HashMap::new();
    for b in &beans {
        if let Some(n) = &b.base {
            let base = resolve(&b.ns, n)
                .map_err(|e| b.loc.error(format!("bean {}: base: {e}", b.name)))?;
            bases.insert(b.name.as_str(), base);
        }
    }
    // Gen's `dynamic:Base` without <value>s: the base and every bean derived from it
    // (through any number of levels), each with its own type id.
    let derived_from = |base: &str| -> Vec<String> {
        let mut v: Vec<String> = beans
            .iter()
            .filter(|b| {
                let mut cur = bases.get(b.name.as_str());
                for _ in 0..=bases.len() {
                    match cur {
                        Some(n) if n == base => return true,
                        Some(n) => cur = bases.get(n.as_str()),
                        None => return false,
                    }
                }
                false
            })
            .map(|b| b.name.clone())
            .collect();
        v.sort();
        v
    };
    let dyn_ids = |ns: &str, vals: &[DynValue], base: Option<&str>| {
        let mut out: Vec<(i64, String)> = Vec::new();
        if vals.is_empty() {
            if let Some(bn) = base {
                let bn = resolve(ns, bn)?;
                for n in std::iter::once(bn.clone()).chain(derived_from(&bn)) {
                    out.push((type_ids[n.as_str()], n));
                }
            }
        }
        for (id, n) in vals {
            let n = resolve(ns, n)?;
            out.push((id.unwrap_or(type_ids[n.as_str()]), n));
        }
        Ok(out)
    };
    let mut out = HashMap::new();
    let mut var_locs = HashMap::new();
    for b in &beans {
        let mut vars = Vec::new();
        // Gen refuses two variables of one id or one name ("duplicate Variable.Id").
        let mut ids: HashMap<u32, &str> = HashMap::new();
        let mut var_names: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for v in &b.vars {
            if let Some(other) = ids.insert(v.id, &v.name) {
                return Err(v.loc.error(format!(
                    "duplicate id {} in bean {} (also variable {other})",
                    v.id, b.name
                )));
            }
            if !var_names.insert(&v.name) {
                return Err(v.loc.error(format!(
                    "duplicate variable name {} in bean {}",
                    v.name, b.name
                )));
            }
            let ty = resolve_type(&v.raw, &|n| resolve(&b.ns, n), &|vals, base| {
                dyn_ids(&b.ns, vals, base)
            })
            .map_err(|e| {
                v.loc
                    .error(format!("bean {}, variable {}: {e}", b.name, v.name))
            })?;
            vars.push(Var {
                id: v.id,
                name: v.name.clone(),
                ty,
            });
            var_locs.insert((b.name.clone(), v.name.clone()), v.loc.clone());
        }
        vars.sort_by_key(|v| v.id);
        let base = bases.get(b.name.as_str()).cloned();
        out.insert(
            b.name.clone(),
            BeanDef {
                name: b.name.clone(),
                base,
                vars,
            },
        );
    }
    let mut protocols = HashMap::new();
    for (pns, name, mid, pid, arg, res, loc) in protos {
        let arg = arg
            .map(|a| resolve(&pns, &a))
            .transpose()
            .map_err(|e| loc.error(format!("argument: {e}")))?;
        let res = res
            .map(|r| resolve(&pns, &r))
            .transpose()
            .map_err(|e| loc.error(format!("result: {e}")))?;
        let full_name = if pns.is_empty() {
            name
        } else {
            format!("{pns}.{name}")
        };
        protocols.insert(
            (mid, pid),
            ProtocolDef {
                name: full_name,
                module_id: mid,
                protocol_id: pid,
                argument: arg,
                result: res,
            },
        );
    }
    let type_ids: HashMap<String, i64> = type_ids
        .iter()
        .map(|(n, id)| (n.to_string(), *id))
        .collect();
    let bean_locs = beans.into_iter().map(|b| (b.name, b.loc)).collect();
    let s = Schema {
        beans: out,
        protocols,
        consts,
        bean_locs,
        var_locs,
        initials: initials.into_iter().map(|(b, v, x)| ((b, v), x)).collect(),
        type_ids,
    };
    for name in s.beans.keys() {
        s.levels(name).map_err(|e| s.bean_loc(name).error(e))?;
    }
    s.check_containment()?;
    Ok(s)
}

/// Whether a type mentions the bean `name`.
fn mentions(raw: &Raw, name: &str) -> bool {
    match raw {
        Raw::Named(n) => n == name,
        Raw::List(e) | Raw::Set(e) => mentions(e, name),
        Raw::Map(k, v) => mentions(k, name) || mentions(v, name),
        Raw::Dynamic(..) => false,
    }
}

/// A path with `.` and `..` folded away (without touching the file system), as Gen's
/// `Path.GetFullPath` names each file once.
fn normalize(p: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last_is_up = matches!(out.components().next_back(), Some(Component::ParentDir));
                if last_is_up || !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
