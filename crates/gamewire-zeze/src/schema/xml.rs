//! The schema's XML loader: Zeze's solution files (`<solution>`, `<module>`, `<bean>`,
//! `<variable>`, `<import>`...) parsed, names resolved as Zeze's Gen resolves them, and
//! the containment checked.

use super::*;
use gamewire_core::{Error, Result};
use std::collections::HashMap;

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
        Raw::Named(n) => match Type::from_keyword(&n.to_ascii_lowercase()) {
            Some(t) => t,
            None => Type::Bean(resolve(n)?),
        },
    })
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
