//! The Rust text for a loaded [`Schema`].

use crate::schema::{BeanDef, ConstDef, ConstScope, Schema, Type};
use gamewire_core::{Error, Result};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Rust keywords that need `r#` as field names.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "static", "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async",
    "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv",
    "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Names a generated type may not take: Rust's keywords in type position, and every
/// name of the standard prelude (types, traits, variants, derive macros) and of the
/// generated code's own vocabulary. A bean, protocol or dynamic enum whose Rust name is
/// one of them gets a `_` appended (`Option` -> `Option_`, `Self` -> `Self_`).
const RESERVED_TYPES: &[&str] = &[
    "Self",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "ToString",
    "ToOwned",
    "Default",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "TryFrom",
    "TryInto",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Debug",
    "Hash",
    "Serialize",
    "Deserialize",
    "Pairs",
    "Binary",
    "Empty",
];

/// Module names that would hide a crate the generated code names (`std::`, `serde::`,
/// `gamewire_zeze::`): a constants module with one of them gets `_consts` appended.
const RESERVED_MODULES: &[&str] = &["std", "core", "alloc", "serde", "gamewire_zeze"];

/// `byName` -> `by_name`, keywords escaped: only ASCII letters, digits and single `_`s
/// (every other character is a `_`), lower case, never only underscores (`é` ->
/// `field_`), never a leading digit (`1a` -> `_1a`).
fn field_ident(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.chars().all(|c| c == '_') {
        out.insert_str(0, "field");
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if out == "self" || out == "super" || out == "crate" {
        out.push('_');
    } else if KEYWORDS.contains(&out.as_str()) {
        out.insert_str(0, "r#");
    }
    out
}

/// `a.b` -> `AB`: each run of ASCII letters and digits with a capital first letter (`a_b`
/// -> `AB`, `Bé` -> `B`); `T` before a leading digit or an empty name.
fn camel(segments: &[&str]) -> String {
    let mut out = String::new();
    for s in segments {
        for word in s.split(|c: char| !c.is_ascii_alphanumeric()) {
            let mut cs = word.chars();
            if let Some(f) = cs.next() {
                out.push(f.to_ascii_uppercase());
                out.extend(cs);
            }
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// A type name that is not reserved ([`RESERVED_TYPES`]): `name`, or `name_`.
fn unreserved(mut name: String) -> String {
    if RESERVED_TYPES.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// The Rust type name of `full` when [`type_names`] has none (never for a loaded schema).
fn fallback_type(full: &str) -> String {
    unreserved(camel(&[full]))
}

/// `text` safe inside a `///` or `//` line: control characters (newlines among them),
/// Unicode line and paragraph separators and bidirectional controls become `\u{..}`, so
/// no text from a solution can end a comment or change how the code reads.
fn doc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control()
            || matches!(
                c,
                '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
            )
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
        {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// A Rust string literal holding `text`: printable ASCII as it is (`"` and `\` escaped),
/// every other character as `\u{..}`.
fn lit(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Rust type names for full names: the short name when unique among all generated
/// names, else the namespace below the solution joined in camel case. `kinds` says what
/// each full name is (`bean`, `protocol`) for the error: two names that map to the same
/// Rust name (beans `type` and `Type`) are an error naming both and that Rust name.
fn type_names(full: &[(&str, &str)]) -> Result<HashMap<String, String>> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (f, _) in full {
        *count.entry(f.rsplit('.').next().unwrap_or(f)).or_default() += 1;
    }
    let mut out = HashMap::new();
    let mut owner: HashMap<String, (&str, &str)> = HashMap::new();
    for &(f, kind) in full {
        let short = f.rsplit('.').next().unwrap_or(f);
        let segs: Vec<&str> = f.split('.').collect();
        let name = unreserved(if count[short] == 1 {
            camel(&[short])
        } else {
            camel(&segs[1.min(segs.len() - 1)..])
        });
        if let Some((other, other_kind)) = owner.get(&name) {
            return Err(Error::msg(format!(
                "{other_kind} `{other}` and {kind} `{f}` both map to the Rust type name \
                 `{name}`: rename one of them"
            )));
        }
        owner.insert(name.clone(), (f, kind));
        out.insert(f.to_string(), name);
    }
    Ok(out)
}

fn ordered_key(t: &Type) -> bool {
    matches!(
        t,
        Type::Bool
            | Type::Byte
            | Type::Short
            | Type::Int
            | Type::Long
            | Type::String
            | Type::Binary
            | Type::Decimal
    )
}

struct Gen<'a> {
    names: HashMap<String, String>,
    /// Dynamic enums to write: name -> (type id, bean full name).
    dynamics: BTreeMap<String, Vec<(i64, String)>>,
    /// Where each dynamic enum comes from: `Owner.variable`.
    dynamic_docs: HashMap<String, String>,
    /// The dynamic enum named for each (owner type, variable).
    dynamic_names: HashMap<(String, String), String>,
    /// What each generated type holds by value (no `Vec` or map between): bean and
    /// dynamic enum names, a bean's base among them.
    by_value: HashMap<String, Vec<String>>,
    schema: &'a Schema,
}

impl Gen<'_> {
    fn rust_type(&mut self, t: &Type, owner: &str, field: &str) -> String {
        match t {
            Type::Bool => "bool".into(),
            Type::Byte => "i8".into(),
            Type::Short => "i16".into(),
            Type::Int => "i32".into(),
            Type::Long => "i64".into(),
            Type::Float => "f32".into(),
            Type::Double => "f64".into(),
            Type::String | Type::Decimal => "String".into(),
            Type::Binary => "gamewire_zeze::types::Binary".into(),
            Type::List(e) | Type::Set(e) => {
                format!("Vec<{}>", self.rust_type(e, owner, field))
            }
            Type::Map(k, v) => {
                let kt = self.rust_type(k, owner, field);
                let vt = self.rust_type(v, owner, field);
                if ordered_key(k) {
                    format!("std::collections::BTreeMap<{kt}, {vt}>")
                } else {
                    format!("gamewire_zeze::gen::Pairs<{kt}, {vt}>")
                }
            }
            Type::Bean(b) => self
                .names
                .get(b)
                .cloned()
                .unwrap_or_else(|| fallback_type(b)),
            Type::Dynamic(vals) => {
                let key = (owner.to_owned(), field.to_owned());
                if let Some(n) = self.dynamic_names.get(&key) {
                    return n.clone();
                }
                // Owner and variable in camel case, unless a bean, protocol or another
                // dynamic already has that name (`BBuf` + `extra` and bean `BBufExtra`).
                let base = unreserved(format!("{owner}{}", camel(&[field])));
                let taken =
                    |n: &str| self.dynamics.contains_key(n) || self.names.values().any(|t| t == n);
                let mut name = base.clone();
                if taken(&name) {
                    name = format!("{base}Dynamic");
                }
                let mut i = 2;
                while taken(&name) {
                    name = format!("{base}Dynamic{i}");
                    i += 1;
                }
                self.dynamics.insert(name.clone(), vals.clone());
                self.dynamic_docs
                    .insert(name.clone(), format!("{owner}.{field}"));
                self.dynamic_names.insert(key, name.clone());
                name
            }
            Type::Vector2 => "gamewire_zeze::types::Vector2".into(),
            Type::Vector2Int => "gamewire_zeze::types::Vector2Int".into(),
            Type::Vector3 => "gamewire_zeze::types::Vector3".into(),
            Type::Vector3Int => "gamewire_zeze::types::Vector3Int".into(),
            Type::Vector4 | Type::Quaternion => "gamewire_zeze::types::Vector4".into(),
        }
    }

    fn bean(&mut self, b: &BeanDef, consts: &[&ConstDef], out: &mut String) -> Result<()> {
        let rname = self.names[&b.name].clone();
        // Two variables whose field names are the same Rust identifier (`a_b`, `aB`)
        // would not compile: refuse them, naming both.
        let mut fields: HashMap<String, &str> = HashMap::new();
        for v in &b.vars {
            let ident = field_ident(&v.name);
            if let Some(other) = fields.insert(ident.clone(), &v.name) {
                return Err(Error::msg(format!(
                    "bean `{}`: variables `{other}` and `{}` both map to the Rust field \
                     name `{ident}`: rename one of them",
                    b.name, v.name
                )));
            }
        }
        let base = b.base.as_ref().map(|n| {
            self.names
                .get(n)
                .cloned()
                .unwrap_or_else(|| fallback_type(n))
        });
        match &b.base {
            Some(n) => {
                let _ = writeln!(
                    out,
                    "/// Bean `{}`, derived from `{}`: its own variables, then the base's \
                     (reached through `base`, or directly by `Deref`).",
                    doc(&b.name),
                    doc(n)
                );
            }
            None => {
                let _ = writeln!(out, "/// Bean `{}`.", doc(&b.name));
            }
        }
        // `default="..."`: the value Zeze's constructor gives (a hand-written `Default`).
        let const_names = const_names(consts, BEAN_CONSTS);
        let initials: Vec<Option<String>> = b
            .vars
            .iter()
            .map(|v| {
                let init = self.schema.initial(&b.name, &v.name)?;
                initial_expr(&v.ty, init, consts, &const_names)
            })
            .collect();
        let derive_default = initials.iter().all(Option::is_none);
        out.push_str(if derive_default {
            "#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]\n"
        } else {
            "#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]\n"
        });
        let _ = writeln!(out, "pub struct {rname} {{");
        let mut idents = Vec::new();
        for (v, init) in b.vars.iter().zip(&initials) {
            let ty = self.rust_type(&v.ty, &rname, &v.name);
            if matches!(v.ty, Type::Bean(_) | Type::Dynamic(_)) {
                self.by_value
                    .entry(rname.clone())
                    .or_default()
                    .push(ty.clone());
            }
            let ident = field_ident(&v.name);
            let name = doc(&v.name);
            match (init, self.schema.initial(&b.name, &v.name).map(doc)) {
                (Some(_), Some(x)) => {
                    let _ = writeln!(
                        out,
                        "    /// Variable `{name}`, id {}, default `{x}` (a new value's; an absent one reads as zero, as in Zeze).",
                        v.id
                    );
                }
                (None, Some(x)) => {
                    let _ = writeln!(
                        out,
                        "    /// Variable `{name}`, id {} (its default `{x}` is not a literal of its type: not applied).",
                        v.id
                    );
                }
                _ => {
                    let _ = writeln!(out, "    /// Variable `{name}`, id {}.", v.id);
                }
            }
            let _ = writeln!(
                out,
                "    #[serde(rename = {})]",
                lit(&format!("{}#{}", v.name, v.id))
            );
            let _ = writeln!(out, "    pub {ident}: {ty},");
            idents.push(ident);
        }
        let base_field = ["base", "zeze_base", "base_bean"]
            .into_iter()
            .map(str::to_owned)
            .chain((2..).map(|i| format!("base_bean{i}")))
            .find(|f| !idents.contains(f))
            .unwrap_or_default();
        if let Some(bt) = &base {
            let _ = writeln!(
                out,
                "    /// The base bean: written after this bean's variables, past a `1` byte."
            );
            let _ = writeln!(
                out,
                "    #[serde(rename = \"{}\")]",
                crate::types::BASE_FIELD
            );
            let _ = writeln!(out, "    pub {base_field}: {bt},");
            self.by_value
                .entry(rname.clone())
                .or_default()
                .push(bt.clone());
        }
        out.push_str("}\n\n");
        if !derive_default {
            let _ = writeln!(
                out,
                "impl Default for {rname} {{\n    fn default() -> Self {{\n        Self {{"
            );
            for (ident, init) in idents.iter().zip(&initials) {
                match init {
                    Some(x) => {
                        let _ = writeln!(out, "            {ident}: {x},");
                    }
                    None => {
                        let _ = writeln!(out, "            {ident}: Default::default(),");
                    }
                }
            }
            if base.is_some() {
                let _ = writeln!(out, "            {base_field}: Default::default(),");
            }
            out.push_str("        }\n    }\n}\n\n");
        }
        let _ = writeln!(out, "impl {rname} {{");
        let _ = writeln!(out, "    /// The bean's full name in the solution.");
        let _ = writeln!(
            out,
            "    pub const FULL_NAME: &'static str = {};",
            lit(&b.name)
        );
        if let Some(id) = self.schema.type_id(&b.name) {
            let _ = writeln!(
                out,
                "    /// The bean's type id (Zeze's `TYPEID`: its `TypeId`, else the hash of its full name)."
            );
            let _ = writeln!(out, "    pub const TYPE_ID: i64 = {id};");
        }
        write_consts(out, "    ", consts, &const_names);
        out.push_str("}\n\n");
        if let Some(bt) = &base {
            let _ = writeln!(
                out,
                "impl std::ops::Deref for {rname} {{\n    type Target = {bt};\n\n    fn deref(&self) -> &{bt} {{\n        &self.{base_field}\n    }}\n}}\n"
            );
            let _ = writeln!(
                out,
                "impl std::ops::DerefMut for {rname} {{\n    fn deref_mut(&mut self) -> &mut {bt} {{\n        &mut self.{base_field}\n    }}\n}}\n"
            );
        }
        Ok(())
    }

    /// Whether type `from` holds type `to` by value, through fields, bases and the
    /// variants of dynamic enums (`dyns`).
    fn reaches(&self, from: &str, to: &str, dyns: &BTreeMap<String, Vec<(i64, String)>>) -> bool {
        let mut seen: Vec<String> = Vec::new();
        let mut todo = vec![from.to_owned()];
        while let Some(t) = todo.pop() {
            if t == to {
                return true;
            }
            if seen.contains(&t) {
                continue;
            }
            if let Some(next) = self.by_value.get(&t) {
                todo.extend(next.iter().cloned());
            }
            if let Some(vals) = dyns.get(&t) {
                todo.extend(vals.iter().filter_map(|(_, b)| self.names.get(b).cloned()));
            }
            seen.push(t);
        }
        false
    }

    /// Writes dynamic enum `name`. A variant whose bean holds this enum by value (a bean
    /// that may hold itself, `Node` with a dynamic `child` of `Node`s) holds a `Box` of
    /// its bean: a type of infinite size would not compile.
    fn dynamic(
        &self,
        name: &str,
        vals: &[(i64, String)],
        dyns: &BTreeMap<String, Vec<(i64, String)>>,
        out: &mut String,
    ) {
        let from = self.dynamic_docs.get(name).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "/// Dynamic variable `{}`: one of its beans, keyed on the wire by type id.",
            doc(from)
        );
        out.push_str(
            "#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]\n",
        );
        let _ = writeln!(out, "pub enum {name} {{");
        out.push_str("    /// No bean (type id 0, not written).\n    #[default]\n    Empty,\n");
        // Variants are named after their beans' types (never `Empty`: the type names
        // are not reserved ones), each once.
        let mut variants: Vec<String> = vec!["Empty".into()];
        for (id, bean) in vals {
            let t = self
                .names
                .get(bean)
                .cloned()
                .unwrap_or_else(|| fallback_type(bean));
            let mut v = t.clone();
            while variants.contains(&v) {
                v.push('_');
            }
            variants.push(v.clone());
            let _ = writeln!(out, "    /// `{}`, type id {id}.", doc(bean));
            let _ = writeln!(out, "    #[serde(rename = {})]", lit(&format!("{t}#{id}")));
            if self.reaches(&t, name, dyns) {
                let _ = writeln!(out, "    {v}(Box<{t}>),");
            } else {
                let _ = writeln!(out, "    {v}({t}),");
            }
        }
        out.push_str("}\n\n");
    }
}

/// The Rust source for every bean, dynamic variable, protocol and Rpc of `schema`, in a
/// stable order (sorted by full name), ready for `include!` or a module file.
pub fn generate(schema: &Schema) -> Result<String> {
    let beans = schema.bean_names();
    let protos = schema.protocols();
    let mut all: Vec<(&str, &str)> = beans.iter().map(|b| (*b, "bean")).collect();
    all.extend(protos.iter().map(|p| (p.name.as_str(), "protocol")));
    let mut g = Gen {
        names: type_names(&all)?,
        dynamics: BTreeMap::new(),
        dynamic_docs: HashMap::new(),
        dynamic_names: HashMap::new(),
        by_value: HashMap::new(),
        schema,
    };
    // Constants by the bean, protocol or module declaring them.
    let mut consts: BTreeMap<(u8, &str), Vec<&ConstDef>> = BTreeMap::new();
    for c in schema.consts() {
        let kind = match c.kind {
            ConstScope::Bean => 0,
            ConstScope::Protocol => 1,
            ConstScope::Module => 2,
        };
        consts.entry((kind, c.scope.as_str())).or_default().push(c);
    }
    let mut out = String::new();
    out.push_str("// Generated by gamewire zeze gen from a Zeze solution. Do not edit.\n\n");
    for n in &beans {
        let b = schema.bean(n)?;
        let cs = consts.remove(&(0, n)).unwrap_or_default();
        g.bean(b, &cs, &mut out)?;
    }
    let dyns = std::mem::take(&mut g.dynamics);
    for (name, vals) in &dyns {
        g.dynamic(name, vals, &dyns, &mut out);
    }
    for p in protos {
        let rname = g.names[&p.name].clone();
        let kind = if p.result.is_some() {
            "Rpc"
        } else {
            "Protocol"
        };
        let _ = writeln!(
            out,
            "/// {kind} `{}` (module id {}, protocol id {}).",
            doc(&p.name),
            p.module_id,
            p.protocol_id
        );
        out.push_str("#[derive(Debug, Clone, PartialEq, Default)]\n");
        let _ = writeln!(out, "pub struct {rname} {{");
        let arg = p
            .argument
            .as_ref()
            .map(|a| g.names.get(a).cloned().unwrap_or_else(|| fallback_type(a)));
        let res = p
            .result
            .as_ref()
            .map(|a| g.names.get(a).cloned().unwrap_or_else(|| fallback_type(a)));
        if let Some(a) = &arg {
            let _ = writeln!(out, "    /// The argument.\n    pub argument: {a},");
        }
        if let Some(r) = &res {
            let _ = writeln!(out, "    /// The result.\n    pub result: {r},");
        }
        out.push_str("}\n\n");
        let _ = writeln!(out, "impl {rname} {{");
        let _ = writeln!(out, "    /// The full name in the solution.");
        let _ = writeln!(
            out,
            "    pub const FULL_NAME: &'static str = {};",
            lit(&p.name)
        );
        let _ = writeln!(
            out,
            "    /// The module id.\n    pub const MODULE_ID: u32 = {};",
            p.module_id
        );
        let _ = writeln!(
            out,
            "    /// The protocol id.\n    pub const PROTOCOL_ID: u32 = {};",
            p.protocol_id
        );
        let cs = consts.remove(&(1, p.name.as_str())).unwrap_or_default();
        write_consts(&mut out, "    ", &cs, &const_names(&cs, PROTOCOL_CONSTS));
        frame_methods(&mut out, arg.is_some(), res.is_some());
        out.push_str("}\n\n");
    }
    // Module constants (and those of protocols without ids, which get no type), one Rust
    // module per Zeze module, named after its full name.
    let mut mods: BTreeMap<String, Vec<&ConstDef>> = BTreeMap::new();
    for ((_, scope), cs) in consts {
        let module = match cs.first().map(|c| c.kind) {
            Some(ConstScope::Module) => scope.to_owned(),
            _ => scope.rsplit_once('.').map_or("", |m| m.0).to_owned(),
        };
        mods.entry(module).or_default().extend(cs);
    }
    let mut mod_names: Vec<String> = Vec::new();
    for (module, cs) in &mods {
        // A keyword, a crate the code names (`serde`), or a name taken: `_consts` appended
        // (again while taken).
        let mut name = if module.is_empty() {
            "top_level".to_owned()
        } else {
            field_ident(&module.replace('.', "_").to_ascii_lowercase())
        };
        if name.starts_with("r#") || RESERVED_MODULES.contains(&name.as_str()) {
            name = format!("{}_consts", name.trim_start_matches("r#"));
        }
        while mod_names.contains(&name) {
            name.push_str("_consts");
        }
        mod_names.push(name.clone());
        let shown = if module.is_empty() {
            "(top level)"
        } else {
            module
        };
        let _ = writeln!(
            out,
            "/// The `<enum>` constants of module `{}`.",
            doc(shown)
        );
        let _ = writeln!(out, "pub mod {name} {{");
        write_consts(&mut out, "    ", cs, &const_names(cs, &[]));
        out.push_str("}\n\n");
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

/// `eTestEnum` -> `E_TEST_ENUM`, `HTTPCode` -> `HTTP_CODE`.
fn const_ident(name: &str) -> String {
    let cs: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in cs.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !out.ends_with('_') {
                out.push('_');
            }
            continue;
        }
        if c.is_ascii_uppercase() && i > 0 && !out.ends_with('_') {
            let prev = cs[i - 1];
            let next_lower = cs.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_uppercase());
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || out == "_" {
        out.insert(0, 'C');
    }
    out
}

/// The Rust expression for a variable's `default="..."`: the name of one of the bean's
/// `<enum>` constants when its type is the variable's (`Self::NAME`, `.to_owned()` for a
/// string), else the value (the constant's, or `init`) when it is a literal of the
/// variable's type; `None` otherwise. `names` are the constants' Rust names
/// ([`const_names`]).
fn initial_expr(
    ty: &Type,
    init: &str,
    consts: &[&ConstDef],
    names: &[Option<String>],
) -> Option<String> {
    let (zeze, rust) = match ty {
        Type::Bool => ("bool", "bool"),
        Type::Byte => ("byte", "i8"),
        Type::Short => ("short", "i16"),
        Type::Int => ("int", "i32"),
        Type::Long => ("long", "i64"),
        Type::Float => ("float", "f32"),
        Type::Double => ("double", "f64"),
        Type::String | Type::Decimal => ("string", "String"),
        _ => return None,
    };
    let literal = |value: &str| {
        let c = ConstDef {
            scope: String::new(),
            kind: ConstScope::Bean,
            name: String::new(),
            ty: zeze.to_owned(),
            value: value.to_owned(),
            comment: String::new(),
        };
        let (_, lit) = const_value(&c)?;
        Some(if rust == "String" {
            format!("{lit}.to_owned()")
        } else {
            lit
        })
    };
    if let Some(i) = consts.iter().position(|c| c.name == init) {
        let c = consts[i];
        let (cty, _) = const_value(c)?;
        return match (&names[i], cty) {
            (Some(n), t) if t == rust => Some(format!("Self::{n}")),
            (Some(n), "&str") if rust == "String" => Some(format!("Self::{n}.to_owned()")),
            _ => literal(&c.value),
        };
    }
    if rust == "String" {
        return Some(format!("{}.to_owned()", lit(init)));
    }
    literal(init)
}

/// The Rust type and literal for a constant, when its value is a literal of its type.
fn const_value(c: &ConstDef) -> Option<(&'static str, String)> {
    let int = |ty: &'static str, min: i128, max: i128| {
        let v = c.value.trim_end_matches(['L', 'l']).replace('_', "");
        let (neg, digits) = match v.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, v.as_str()),
        };
        let n = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(h) => i128::from_str_radix(h, 16).ok()?,
            None => digits.parse::<i128>().ok()?,
        };
        let n = if neg { -n } else { n };
        // Java's int constants may be written in hex with the sign bit set (0xffffffff).
        let n = if n > max && n <= max * 2 + 1 && !neg {
            n - (max + 1) * 2
        } else {
            n
        };
        (min..=max).contains(&n).then(|| (ty, n.to_string()))
    };
    let float = |ty: &'static str| {
        let v = c.value.trim_end_matches(['f', 'F', 'd', 'D']);
        let x: f64 = v.parse().ok()?;
        // Finite in the constant's type (1e300 is not an f32).
        let finite = if ty == "f32" {
            (x as f32).is_finite()
        } else {
            x.is_finite()
        };
        finite.then(|| (ty, format!("{x:?}")))
    };
    match c.ty.to_ascii_lowercase().as_str() {
        "bool" => match c.value.as_str() {
            "true" | "false" => Some(("bool", c.value.clone())),
            _ => None,
        },
        "byte" => int("i8", i8::MIN as i128, i8::MAX as i128),
        "short" => int("i16", i16::MIN as i128, i16::MAX as i128),
        "int" => int("i32", i32::MIN as i128, i32::MAX as i128),
        "long" => int("i64", i64::MIN as i128, i64::MAX as i128),
        "float" => float("f32"),
        "double" => float("f64"),
        "string" => {
            let v = c.value.as_str();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(v);
            Some(("&str", lit(v)))
        }
        _ => None,
    }
}

/// Names the generated code's own constants take on a bean's type.
const BEAN_CONSTS: &[&str] = &["FULL_NAME", "TYPE_ID"];

/// Names the generated code's own constants take on a protocol's type.
const PROTOCOL_CONSTS: &[&str] = &["FULL_NAME", "MODULE_ID", "PROTOCOL_ID"];

/// The Rust name of each of `consts` that is generated (names in upper snake case, `_`
/// appended while the name is taken by `taken` or an earlier constant), `None` for those
/// whose value is not a literal of their type.
fn const_names(consts: &[&ConstDef], taken: &[&str]) -> Vec<Option<String>> {
    let mut used: Vec<String> = taken.iter().map(|s| s.to_string()).collect();
    consts
        .iter()
        .map(|c| {
            const_value(c)?;
            let mut name = const_ident(&c.name);
            while used.contains(&name) {
                name.push('_');
            }
            used.push(name.clone());
            Some(name)
        })
        .collect()
}

/// Writes `pub const`s for `consts` under `names` (from [`const_names`]; the Zeze name in
/// the doc), and a comment for each value that is not a literal of its type.
fn write_consts(out: &mut String, indent: &str, consts: &[&ConstDef], names: &[Option<String>]) {
    for (c, name) in consts.iter().zip(names) {
        let (Some(name), Some((ty, value))) = (name, const_value(c)) else {
            let _ = writeln!(
                out,
                "{indent}// <enum name={} value={} type={}>: not a literal of its type, not generated.",
                lit(&c.name),
                lit(&c.value),
                lit(&c.ty)
            );
            continue;
        };
        let comment = if c.comment.is_empty() {
            String::new()
        } else {
            format!(": {}", doc(&c.comment))
        };
        let _ = writeln!(
            out,
            "{indent}/// `<enum name=\"{}\">`{comment}",
            doc(&c.name)
        );
        let _ = writeln!(out, "{indent}pub const {name}: {ty} = {value};");
    }
}

/// Writes the frame methods of a generated protocol (`write_frame`/`read_frame`) or Rpc
/// (`write_request`/`write_response`/`read_request`/`read_response`), through
/// [`crate::frame_typed`].
fn frame_methods(out: &mut String, argument: bool, result: bool) {
    let head = |family: &str, rc: &str, sid: &str| {
        format!(
            "gamewire_zeze::frame_typed::FrameHead {{ module_id: Self::MODULE_ID, protocol_id: Self::PROTOCOL_ID, family: gamewire_zeze::frame::Family::{family}, {rc}, session_id: {sid} }}"
        )
    };
    let read = |name: &str, doc: &str, field: &str, ty_field: &str| {
        format!(
            "    /// Reads {doc} frame of this type from the start of `data`: `Ok(None)` when more\n    /// bytes are needed, else the value (other fields at their defaults), the frame's head\n    /// (session id and result code) and its length.\n    /// A frame of another module or protocol id is an error.\n    #[allow(clippy::type_complexity, clippy::needless_update)]\n    pub fn {name}(data: &[u8], opts: &gamewire_zeze::frame::FrameOptions) -> gamewire_zeze::Result<Option<(Self, gamewire_zeze::frame_typed::FrameHead, usize)>> {{\n        match gamewire_zeze::frame_typed::read::<{ty_field}>(data, opts)? {{\n            None => Ok(None),\n            Some((head, bean, len)) => {{\n                if head.module_id != Self::MODULE_ID || head.protocol_id != Self::PROTOCOL_ID {{\n                    return Err(gamewire_zeze::Error::msg_at(0, format!(\"frame of module {{}} protocol {{}}, not {{}}\", head.module_id, head.protocol_id, Self::FULL_NAME)));\n                }}\n                Ok(Some((Self {{ {field}: bean, ..Default::default() }}, head, len)))\n            }}\n        }}\n    }}\n"
        )
    };
    if argument && !result {
        let _ = writeln!(
            out,
            "    /// Appends this protocol as one frame.\n    pub fn write_frame(&self, out: &mut Vec<u8>) -> gamewire_zeze::Result<()> {{\n        gamewire_zeze::frame_typed::write(&{}, &self.argument, out)\n    }}",
            head("Protocol", "result_code: None", "None")
        );
        out.push_str(&read("read_frame", "a protocol", "argument", "_"));
    }
    if argument && result {
        let _ = writeln!(
            out,
            "    /// Appends the request (the argument) as one frame.\n    pub fn write_request(&self, session_id: i64, out: &mut Vec<u8>) -> gamewire_zeze::Result<()> {{\n        gamewire_zeze::frame_typed::write(&{}, &self.argument, out)\n    }}",
            head("Request", "result_code: None", "Some(session_id)")
        );
        let _ = writeln!(
            out,
            "    /// Appends the response (the result, with a result code when given) as one frame.\n    pub fn write_response(&self, session_id: i64, result_code: Option<i64>, out: &mut Vec<u8>) -> gamewire_zeze::Result<()> {{\n        gamewire_zeze::frame_typed::write(&{}, &self.result, out)\n    }}",
            head("Response", "result_code", "Some(session_id)")
        );
        out.push_str(&read("read_request", "an Rpc request", "argument", "_"));
        out.push_str(&read("read_response", "an Rpc response", "result", "_"));
    }
}
