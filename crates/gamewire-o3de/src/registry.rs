//! The type registry: classes and enums declared in a JSON file, standing in for
//! O3DE's SerializeContext (Rust has no C++ reflection).
//!
//! ```json
//! {
//!   "classes": [
//!     {"name": "Base", "uuid": "{...}", "abstract": true,
//!      "fields": [{"name": "Id", "type": "u64"}]},
//!     {"name": "Thing", "bases": ["Base"],
//!      "fields": [{"name": "Name", "type": "string", "default": "thing"},
//!                 {"name": "Children", "type": "vector<Base*>"}]}
//!   ],
//!   "enums": [
//!     {"name": "Flags", "underlying": "u32", "values": {"None": 0, "A": 1, "B": 2}}
//!   ]
//! }
//! ```

use crate::load::Loader;
use crate::types::{builtin, parse_raw, ClassId, EnumId, RawArg, RawType, TypeExpr};
use crate::uuid::Uuid;
use crate::value::Value;
use gamewire_core::{Error, Result};
use std::collections::HashMap;

/// One field of a class.
#[derive(Debug, Clone)]
pub struct Field {
    /// The field's name as declared (stores use it as the JSON key).
    pub name: String,
    /// The field's type.
    pub ty: TypeExpr,
    /// The default given in the registry, as JSON (loaded onto the type's zero value).
    pub default_json: Option<serde_json::Value>,
    /// Stored even when equal to its default (`"keep": true` in the registry), as
    /// O3DE's serializers that never report defaults write their values (a prefab's
    /// entity ids).
    pub keep: bool,
}

/// A registered class.
#[derive(Debug, Clone)]
pub struct Class {
    /// The class name.
    pub name: String,
    /// The class UUID (a name-derived one when none was declared).
    pub uuid: Uuid,
    /// True when the UUID was declared in the registry file.
    pub uuid_declared: bool,
    /// Direct base classes.
    pub bases: Vec<ClassId>,
    /// True when no instance may be created (only derived classes).
    pub is_abstract: bool,
    /// False when the registry does not know the class's default values
    /// (`"defaults_known": false`, as `registry import` writes: the engine's dumps hold no
    /// defaults). A store then writes every value of the class, so that none O3DE would
    /// keep is left out as "equal to its default".
    pub defaults_known: bool,
    /// The class version declared in the registry (O3DE's `Version(n)`), when given.
    pub version: Option<u64>,
    /// Fields declared by this class itself.
    pub own_fields: Vec<Field>,
    /// All fields in layout order: base classes' fields first, then this class's own.
    pub fields: Vec<Field>,
    /// Indices into `fields` in O3DE's name-lookup order (derived before base).
    pub(crate) lookup: Vec<usize>,
    /// The default instance.
    pub(crate) default: Value,
    /// True when no two fields' names differ only by case (exact-name lookup is then safe).
    pub(crate) names_unique_ci: bool,
}

/// A registered enum.
#[derive(Debug, Clone)]
pub struct Enum {
    /// The enum name.
    pub name: String,
    /// The enum UUID (a name-derived one when none was declared).
    pub uuid: Uuid,
    /// The underlying integer type.
    pub underlying: TypeExpr,
    /// Named values in declaration order; values are the underlying type's bits as i128.
    pub values: Vec<(String, i128)>,
}

impl Enum {
    /// True when the underlying type is signed.
    pub fn signed(&self) -> bool {
        matches!(
            self.underlying,
            TypeExpr::I8 | TypeExpr::I16 | TypeExpr::I32 | TypeExpr::I64
        )
    }
}

/// Classes and enums, with lookups by (case-insensitive) name and by UUID.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Classes by id.
    pub classes: Vec<Class>,
    /// Enums by id.
    pub enums: Vec<Enum>,
    by_name: HashMap<String, Vec<ClassId>>,
    /// Exact-case names to the same groups as `by_name`, to look up without allocating.
    by_exact_name: HashMap<String, Vec<ClassId>>,
    by_uuid: HashMap<Uuid, ClassId>,
    enum_by_name: HashMap<String, Vec<EnumId>>,
    enum_by_uuid: HashMap<Uuid, EnumId>,
}

/// A stable UUID derived from a name (FNV-1a 128), for classes declared without one.
fn name_uuid(name: &str) -> Uuid {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in name.bytes() {
        h ^= b as u128;
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    Uuid(h.to_be_bytes())
}

fn err(msg: impl Into<String>) -> Error {
    Error::msg(msg)
}

fn obj_str<'a>(o: &'a serde_json::Value, key: &str) -> Option<&'a str> {
    o.get(key).and_then(|v| v.as_str())
}

impl Registry {
    /// Reads a registry file (JSON, comments allowed).
    pub fn from_slice(bytes: &[u8]) -> Result<Registry> {
        let json = crate::comments::parse_json(bytes)?;
        Self::from_json(&json)
    }

    /// The JSON of the registry of the engine's core types shipped inside gamewire
    /// (`data/core-registry.json`: Entity, the editor components every prefab holds,
    /// the prefab instance; see that file for where each fact comes from).
    pub fn bundled_json() -> serde_json::Value {
        crate::comments::parse_json(BUNDLED.as_bytes())
            .unwrap_or_else(|_| serde_json::Value::Object(Default::default()))
    }

    /// The registry of the engine's core types shipped inside gamewire.
    pub fn bundled() -> Registry {
        Self::from_json(&Self::bundled_json()).unwrap_or_default()
    }

    /// Reads a registry file (JSON, comments allowed) and merges it over the bundled
    /// core types ([`merge_registry_json`]): a user class or enum replaces the bundled
    /// one of the same name or UUID.
    pub fn from_slice_over_bundled(bytes: &[u8]) -> Result<Registry> {
        let user = crate::comments::parse_json(bytes)?;
        Self::from_json(&merge_registry_json(&Self::bundled_json(), &user)?)
    }

    /// Builds a registry from its JSON form.
    pub fn from_json(json: &serde_json::Value) -> Result<Registry> {
        let mut reg = Registry::default();
        let empty = Vec::new();
        let classes = match json.get("classes") {
            None => &empty,
            Some(serde_json::Value::Array(a)) => a,
            Some(_) => return Err(err("registry: \"classes\" must be an array")),
        };
        let enums = match json.get("enums") {
            None => &empty,
            Some(serde_json::Value::Array(a)) => a,
            Some(_) => return Err(err("registry: \"enums\" must be an array")),
        };
        // Pass 1: names and UUIDs.
        for (i, e) in enums.iter().enumerate() {
            let name = obj_str(e, "name")
                .ok_or_else(|| err(format!("registry: enum #{i} has no \"name\"")))?;
            let uuid = match obj_str(e, "uuid") {
                Some(u) => Uuid::parse(u)
                    .ok_or_else(|| err(format!("registry: enum {name}: bad uuid '{u}'")))?,
                None => name_uuid(name),
            };
            let id = reg.enums.len();
            reg.enums.push(Enum {
                name: name.to_string(),
                uuid,
                underlying: TypeExpr::I32,
                values: Vec::new(),
            });
            reg.enum_by_name
                .entry(name.to_ascii_lowercase())
                .or_default()
                .push(id);
            reg.enum_by_uuid.insert(uuid, id);
        }
        for (i, c) in classes.iter().enumerate() {
            let name = obj_str(c, "name")
                .ok_or_else(|| err(format!("registry: class #{i} has no \"name\"")))?;
            let (uuid, declared) = match obj_str(c, "uuid") {
                Some(u) => (
                    Uuid::parse(u)
                        .ok_or_else(|| err(format!("registry: class {name}: bad uuid '{u}'")))?,
                    true,
                ),
                None => (name_uuid(name), false),
            };
            if reg.by_uuid.contains_key(&uuid) {
                return Err(err(format!(
                    "registry: class {name}: uuid {uuid} is used twice"
                )));
            }
            let id = reg.classes.len();
            reg.classes.push(Class {
                name: name.to_string(),
                uuid,
                uuid_declared: declared,
                bases: Vec::new(),
                is_abstract: c.get("abstract").and_then(|v| v.as_bool()).unwrap_or(false),
                defaults_known: c
                    .get("defaults_known")
                    .and_then(|v| v.as_bool())
                    .unwrap_or(true),
                version: c.get("version").and_then(|v| v.as_u64()),
                own_fields: Vec::new(),
                fields: Vec::new(),
                lookup: Vec::new(),
                default: Value::Object(Vec::new()),
                names_unique_ci: true,
            });
            reg.by_name
                .entry(name.to_ascii_lowercase())
                .or_default()
                .push(id);
            reg.by_uuid.insert(uuid, id);
        }
        // Pass 2: enum values, bases and field types.
        for (id, e) in enums.iter().enumerate() {
            let name = reg.enums[id].name.clone();
            let underlying = match obj_str(e, "underlying") {
                None => TypeExpr::I32,
                Some(u) => match builtin(u) {
                    Some(
                        t @ (TypeExpr::I8
                        | TypeExpr::I16
                        | TypeExpr::I32
                        | TypeExpr::I64
                        | TypeExpr::U8
                        | TypeExpr::U16
                        | TypeExpr::U32
                        | TypeExpr::U64),
                    ) => t,
                    _ => {
                        return Err(err(format!(
                            "registry: enum {name}: underlying type '{u}' is not an integer type"
                        )))
                    }
                },
            };
            let mut values = Vec::new();
            let mut push = |n: &str, v: &serde_json::Value| -> Result<()> {
                let raw = if let Some(i) = v.as_i64() {
                    i as i128
                } else if let Some(u) = v.as_u64() {
                    u as i128
                } else {
                    return Err(err(format!(
                        "registry: enum {name}: value of '{n}' must be an integer"
                    )));
                };
                let (lo, hi) = int_range(&underlying);
                if raw < lo || raw > hi {
                    return Err(err(format!(
                        "registry: enum {name}: value {raw} of '{n}' does not fit in {underlying}"
                    )));
                }
                values.push((n.to_string(), raw));
                Ok(())
            };
            match e.get("values") {
                Some(serde_json::Value::Object(m)) => {
                    for (n, v) in m {
                        push(n, v)?;
                    }
                }
                Some(serde_json::Value::Array(a)) => {
                    for item in a {
                        let n = obj_str(item, "name").ok_or_else(|| {
                            err(format!("registry: enum {name}: value without a name"))
                        })?;
                        push(n, item.get("value").unwrap_or(&serde_json::Value::Null))?;
                    }
                }
                None => {}
                Some(_) => {
                    return Err(err(format!(
                        "registry: enum {name}: \"values\" must be an object or an array"
                    )))
                }
            }
            reg.enums[id].underlying = underlying;
            reg.enums[id].values = values;
        }
        for (id, c) in classes.iter().enumerate() {
            let cname = reg.classes[id].name.clone();
            let mut bases = Vec::new();
            if let Some(bs) = c.get("bases") {
                let bs = bs.as_array().ok_or_else(|| {
                    err(format!(
                        "registry: class {cname}: \"bases\" must be an array"
                    ))
                })?;
                for b in bs {
                    let bname = b.as_str().ok_or_else(|| {
                        err(format!(
                            "registry: class {cname}: base names must be strings"
                        ))
                    })?;
                    match reg.parse_type(bname)? {
                        TypeExpr::Class(bid) => bases.push(bid),
                        _ => {
                            return Err(err(format!(
                                "registry: class {cname}: base '{bname}' is not a class"
                            )))
                        }
                    }
                }
            }
            let mut fields = Vec::new();
            if let Some(fs) = c.get("fields") {
                let fs = fs.as_array().ok_or_else(|| {
                    err(format!(
                        "registry: class {cname}: \"fields\" must be an array"
                    ))
                })?;
                for f in fs {
                    let fname = obj_str(f, "name").ok_or_else(|| {
                        err(format!("registry: class {cname}: a field has no \"name\""))
                    })?;
                    let fty = obj_str(f, "type").ok_or_else(|| {
                        err(format!(
                            "registry: class {cname}: field {fname} has no \"type\""
                        ))
                    })?;
                    let ty = reg
                        .parse_type(fty)
                        .map_err(|e| err(format!("registry: class {cname}: field {fname}: {e}")))?;
                    fields.push(Field {
                        name: fname.to_string(),
                        ty,
                        default_json: f.get("default").cloned(),
                        keep: f.get("keep").and_then(|k| k.as_bool()).unwrap_or(false),
                    });
                }
            }
            reg.classes[id].bases = bases;
            reg.classes[id].own_fields = fields;
        }
        for c in &reg.classes {
            let group = reg
                .by_name
                .get(&c.name.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default();
            reg.by_exact_name.insert(c.name.clone(), group);
        }
        reg.check_cycles()?;
        for id in 0..reg.classes.len() {
            let (fields, lookup) = reg.flatten(id, 0)?;
            let mut lower: Vec<String> =
                fields.iter().map(|f| f.name.to_ascii_lowercase()).collect();
            lower.sort();
            let unique = lower.windows(2).all(|w| w[0] != w[1]);
            reg.classes[id].fields = fields;
            reg.classes[id].lookup = lookup;
            reg.classes[id].names_unique_ci = unique;
        }
        reg.check_sizes()?;
        reg.compute_defaults();
        Ok(reg)
    }

    /// Refuses classes whose default instance would hold more than [`MAX_DEFAULT_VALUES`]
    /// values (fixed arrays whose sizes multiply, classes holding many copies of other
    /// classes), and registries whose defaults together would: a small registry must
    /// not build an enormous default. Runs after [`Registry::check_cycles`], so the
    /// by-value graph has no cycles.
    fn check_sizes(&self) -> Result<()> {
        let mut memo: Vec<Option<u128>> = vec![None; self.classes.len()];
        let mut total: u128 = 0;
        for id in self.by_value_order() {
            let c = &self.classes[id];
            let mut n: u128 = 1;
            for f in &c.fields {
                let k = value_count(&f.ty, &memo);
                if k > MAX_DEFAULT_VALUES as u128 {
                    return Err(err(format!(
                        "registry: class {}: field {} of type {} would hold {k} values, past the limit of {MAX_DEFAULT_VALUES}",
                        c.name,
                        f.name,
                        self.type_to_string(&f.ty)
                    )));
                }
                n = n.saturating_add(k);
            }
            if n > MAX_DEFAULT_VALUES as u128 {
                return Err(err(format!(
                    "registry: class {}: a default instance would hold {n} values, past the limit of {MAX_DEFAULT_VALUES}",
                    c.name
                )));
            }
            memo[id] = Some(n);
            total = total.saturating_add(n);
            if total > MAX_TOTAL_DEFAULT_VALUES as u128 {
                return Err(err(format!(
                    "registry: the default instances would hold more than {MAX_TOTAL_DEFAULT_VALUES} values together (at class {})",
                    c.name
                )));
            }
        }
        Ok(())
    }

    /// Class ids ordered so that every class comes after the classes it holds by value
    /// or inherits from (no cycles: [`Registry::check_cycles`] ran first).
    fn by_value_order(&self) -> Vec<ClassId> {
        let mut order = Vec::with_capacity(self.classes.len());
        let mut state = vec![0u8; self.classes.len()];
        for root in 0..self.classes.len() {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let mut stack = vec![(root, self.by_value_deps(root))];
            while let Some((c, mut ds)) = stack.pop() {
                if let Some(d) = ds.pop() {
                    stack.push((c, ds));
                    if state[d] == 0 {
                        state[d] = 1;
                        stack.push((d, self.by_value_deps(d)));
                    }
                } else {
                    state[c] = 2;
                    order.push(c);
                }
            }
        }
        order
    }

    /// The classes `c` inherits from or holds by value.
    fn by_value_deps(&self, c: ClassId) -> Vec<ClassId> {
        let mut d = self.classes[c].bases.clone();
        for f in &self.classes[c].own_fields {
            by_value(&f.ty, &mut d);
        }
        d
    }

    /// Rejects classes that contain themselves by value or inherit from themselves.
    fn check_cycles(&self) -> Result<()> {
        // 0 = unvisited, 1 = on stack, 2 = done
        let mut state = vec![0u8; self.classes.len()];
        for root in 0..self.classes.len() {
            if state[root] != 0 {
                continue;
            }
            let mut stack: Vec<(ClassId, Vec<ClassId>)> = Vec::new();
            let deps = |c: ClassId| self.by_value_deps(c);
            state[root] = 1;
            stack.push((root, deps(root)));
            while let Some((c, mut ds)) = stack.pop() {
                if let Some(d) = ds.pop() {
                    stack.push((c, ds));
                    match state[d] {
                        1 => {
                            return Err(err(format!(
                                "registry: class {} contains or inherits itself",
                                self.classes[d].name
                            )))
                        }
                        0 => {
                            state[d] = 1;
                            stack.push((d, deps(d)));
                        }
                        _ => {}
                    }
                } else {
                    state[c] = 2;
                }
            }
        }
        Ok(())
    }

    fn flatten(&self, id: ClassId, depth: usize) -> Result<(Vec<Field>, Vec<usize>)> {
        if depth > 256 {
            return Err(err("registry: class hierarchy too deep"));
        }
        let c = &self.classes[id];
        let mut fields = Vec::new();
        let mut base_ranges = Vec::new();
        for &b in &c.bases {
            let (bf, bl) = self.flatten(b, depth + 1)?;
            let off = fields.len();
            fields.extend(bf);
            base_ranges.push(bl.into_iter().map(|i| i + off).collect::<Vec<_>>());
        }
        let own_start = fields.len();
        fields.extend(c.own_fields.iter().cloned());
        // O3DE walks the element list backwards: own fields (last first), then bases
        // (last base first), each base in its own lookup order.
        let mut lookup: Vec<usize> = (own_start..fields.len()).rev().collect();
        for r in base_ranges.into_iter().rev() {
            lookup.extend(r);
        }
        Ok((fields, lookup))
    }

    fn compute_defaults(&mut self) {
        for c in &mut self.classes {
            let zeros = c.fields.iter().map(|f| zero_value(&f.ty, None)).collect();
            c.default = Value::Object(zeros);
        }
        // A first pass in by-value order builds each default once from finished parts;
        // the passes below then only settle defaults given through pointers or `any`.
        for id in self.by_value_order() {
            let v = self.class_default(id);
            self.classes[id].default = v;
        }
        // Each pass loads the registry defaults with the previous pass's class defaults;
        // nesting converges after as many passes as the deepest chain of classes.
        let passes = (self.classes.len() + 1).min(64);
        for _ in 0..passes {
            let mut changed = false;
            let mut next = Vec::with_capacity(self.classes.len());
            for (id, c) in self.classes.iter().enumerate() {
                let v = self.class_default(id);
                changed |= v != c.default;
                next.push(v);
            }
            for (c, v) in self.classes.iter_mut().zip(next) {
                c.default = v;
            }
            if !changed {
                break;
            }
        }
    }

    /// The default instance of class `id` from its fields' registry defaults, loaded
    /// onto the current defaults of the types they hold.
    fn class_default(&self, id: ClassId) -> Value {
        let c = &self.classes[id];
        let mut vals = Vec::with_capacity(c.fields.len());
        for f in &c.fields {
            let mut v = self.zero(&f.ty);
            if let Some(j) = &f.default_json {
                let opts = crate::LoadOptions::default();
                let mut loader = Loader::new(self, &opts);
                let mut j = j.clone();
                loader.load(&f.ty, &mut j, &mut v, true);
            }
            vals.push(v);
        }
        Value::Object(vals)
    }

    /// Parses a type expression such as `vector<Foo*>`, resolving class and enum names.
    pub fn parse_type(&self, text: &str) -> Result<TypeExpr> {
        let raw = parse_raw(text).map_err(err)?;
        self.resolve(&raw)
    }

    fn resolve(&self, raw: &RawType) -> Result<TypeExpr> {
        match raw {
            RawType::Pointer(t) => Ok(TypeExpr::Pointer(Box::new(self.resolve(t)?))),
            RawType::Named(n) => self.resolve_name(n),
            RawType::Generic(name, args) => {
                let base = name.rsplit("::").next().unwrap_or(name);
                let ty = |i: usize| -> Result<TypeExpr> {
                    match args.get(i) {
                        Some(RawArg::Type(t)) => self.resolve(t),
                        _ => Err(err(format!(
                            "{name}<...> needs a type as argument {}",
                            i + 1
                        ))),
                    }
                };
                let num = |i: usize| -> Result<usize> {
                    match args.get(i) {
                        Some(RawArg::Number(n)) => Ok(*n),
                        _ => Err(err(format!(
                            "{name}<...> needs a number as argument {}",
                            i + 1
                        ))),
                    }
                };
                let arity = |n: usize| -> Result<()> {
                    if args.len() == n {
                        Ok(())
                    } else {
                        Err(err(format!(
                            "{name}<...> takes {n} argument(s), found {}",
                            args.len()
                        )))
                    }
                };
                let b = |t: TypeExpr| Box::new(t);
                Ok(match base {
                    "vector" => {
                        arity(1)?;
                        TypeExpr::Vector(b(ty(0)?))
                    }
                    "list" | "forward_list" => {
                        arity(1)?;
                        TypeExpr::List(b(ty(0)?))
                    }
                    "fixed_vector" => {
                        arity(2)?;
                        TypeExpr::FixedVector(b(ty(0)?), num(1)?)
                    }
                    "array" => {
                        arity(2)?;
                        let n = num(1)?;
                        if n > 1 << 16 {
                            return Err(err(format!("array<...,{n}> is too large")));
                        }
                        let t = TypeExpr::Array(b(ty(0)?), n);
                        // Nested arrays multiply: the product is what a default holds.
                        let k = value_count(&t, &[]);
                        if k > MAX_DEFAULT_VALUES as u128 {
                            return Err(err(format!(
                                "{} would hold {k} values, past the limit of {MAX_DEFAULT_VALUES}",
                                self.type_to_string(&t)
                            )));
                        }
                        t
                    }
                    "set" => {
                        arity(1)?;
                        TypeExpr::Set(b(ty(0)?))
                    }
                    "unordered_set" => {
                        arity(1)?;
                        TypeExpr::UnorderedSet(b(ty(0)?))
                    }
                    "unordered_multiset" => {
                        arity(1)?;
                        TypeExpr::UnorderedMultiset(b(ty(0)?))
                    }
                    "map" => {
                        arity(2)?;
                        TypeExpr::Map(b(ty(0)?), b(ty(1)?))
                    }
                    "unordered_map" => {
                        arity(2)?;
                        TypeExpr::UnorderedMap(b(ty(0)?), b(ty(1)?))
                    }
                    "unordered_multimap" => {
                        arity(2)?;
                        TypeExpr::UnorderedMultimap(b(ty(0)?), b(ty(1)?))
                    }
                    "pair" => {
                        arity(2)?;
                        TypeExpr::Pair(b(ty(0)?), b(ty(1)?))
                    }
                    "tuple" => {
                        TypeExpr::Tuple((0..args.len()).map(ty).collect::<Result<Vec<_>>>()?)
                    }
                    "unique_ptr" => {
                        arity(1)?;
                        TypeExpr::UniquePtr(b(ty(0)?))
                    }
                    "shared_ptr" | "intrusive_ptr" => {
                        arity(1)?;
                        TypeExpr::SharedPtr(b(ty(0)?))
                    }
                    "Asset" => {
                        arity(1)?;
                        let n = match &args[0] {
                            RawArg::Type(RawType::Named(n)) => n.clone(),
                            _ => return Err(err("Asset<...> takes an asset type name")),
                        };
                        TypeExpr::Asset(n)
                    }
                    _ => return Err(err(format!("unknown generic type '{name}'"))),
                })
            }
        }
    }

    fn resolve_name(&self, n: &str) -> Result<TypeExpr> {
        if let Some(t) = builtin(n) {
            return Ok(t);
        }
        if n.starts_with('{') {
            let u = Uuid::parse(n).ok_or_else(|| err(format!("bad uuid '{n}'")))?;
            // A type with its own serializer, by its O3DE type id (as O3DE picks
            // serializers), even when this registry also lists it as a class.
            if let Some(t) = crate::types::o3de_builtin(&u) {
                return Ok(t);
            }
            if let Some(&c) = self.by_uuid.get(&u) {
                return Ok(TypeExpr::Class(c));
            }
            if let Some(&e) = self.enum_by_uuid.get(&u) {
                return Ok(TypeExpr::Enum(e));
            }
            return Err(err(format!("no class or enum has uuid {u}")));
        }
        let l = n.to_ascii_lowercase();
        let classes = self.by_name.get(&l).map(|v| v.as_slice()).unwrap_or(&[]);
        let enums = self
            .enum_by_name
            .get(&l)
            .map(|v| v.as_slice())
            .unwrap_or(&[]);
        match (classes, enums) {
            ([c], []) => Ok(TypeExpr::Class(*c)),
            ([], [e]) => Ok(TypeExpr::Enum(*e)),
            ([], []) => Err(err(format!("unknown type '{n}'"))),
            _ => Err(err(format!(
                "type name '{n}' is ambiguous: use the uuid of the intended class"
            ))),
        }
    }

    /// Classes with this name (case-insensitive, surrounding spaces trimmed).
    pub fn classes_named(&self, name: &str) -> &[ClassId] {
        let name = name.trim();
        if let Some(v) = self.by_exact_name.get(name) {
            return v;
        }
        self.by_name
            .get(&name.to_ascii_lowercase())
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    /// The class with this UUID.
    pub fn class_by_uuid(&self, uuid: &Uuid) -> Option<ClassId> {
        self.by_uuid.get(uuid).copied()
    }

    /// The enum with this UUID.
    pub fn enum_by_uuid(&self, uuid: &Uuid) -> Option<EnumId> {
        self.enum_by_uuid.get(uuid).copied()
    }

    /// Enums with this name (case-insensitive).
    pub fn enums_named(&self, name: &str) -> &[EnumId] {
        self.enum_by_name
            .get(&name.trim().to_ascii_lowercase())
            .map(|v| v.as_slice())
            .unwrap_or(&[])
    }

    /// True when `derived` is `base` or inherits from it (O3DE's `CanDowncast`).
    pub fn derives_from(&self, derived: ClassId, base: ClassId) -> bool {
        let mut stack = vec![derived];
        let mut seen = 0usize;
        while let Some(c) = stack.pop() {
            if c == base {
                return true;
            }
            seen += 1;
            if seen > 100_000 {
                return false;
            }
            stack.extend(self.classes[c].bases.iter().copied());
        }
        false
    }

    /// The default instance of a type: registry defaults for classes, zero otherwise.
    pub fn zero(&self, ty: &TypeExpr) -> Value {
        zero_value(ty, Some(self))
    }

    /// A type expression written with class and enum names (the inverse of [`Registry::parse_type`]).
    pub fn type_to_string(&self, ty: &TypeExpr) -> String {
        use TypeExpr as X;
        let n = |t: &TypeExpr| self.type_to_string(t);
        match ty {
            X::Class(c) => self.classes[*c].name.clone(),
            X::Enum(e) => self.enums[*e].name.clone(),
            X::Vector(t) => format!("vector<{}>", n(t)),
            X::List(t) => format!("list<{}>", n(t)),
            X::FixedVector(t, k) => format!("fixed_vector<{},{k}>", n(t)),
            X::Array(t, k) => format!("array<{},{k}>", n(t)),
            X::Set(t) => format!("set<{}>", n(t)),
            X::UnorderedSet(t) => format!("unordered_set<{}>", n(t)),
            X::UnorderedMultiset(t) => format!("unordered_multiset<{}>", n(t)),
            X::Map(k, v) => format!("map<{},{}>", n(k), n(v)),
            X::UnorderedMap(k, v) => format!("unordered_map<{},{}>", n(k), n(v)),
            X::UnorderedMultimap(k, v) => format!("unordered_multimap<{},{}>", n(k), n(v)),
            X::Pair(a, b) => format!("pair<{},{}>", n(a), n(b)),
            X::Tuple(ts) => format!("tuple<{}>", ts.iter().map(n).collect::<Vec<_>>().join(",")),
            X::UniquePtr(t) => format!("unique_ptr<{}>", n(t)),
            X::SharedPtr(t) => format!("shared_ptr<{}>", n(t)),
            X::Pointer(t) => format!("{}*", n(t)),
            other => other.to_string(),
        }
    }

    /// The name O3DE writes in `$type` for a class: its name, or `{UUID} Name` when
    /// another class shares the name.
    pub fn type_name(&self, id: ClassId) -> String {
        let c = &self.classes[id];
        if self.classes_named(&c.name).len() > 1 {
            format!("{} {}", c.uuid, c.name)
        } else {
            c.name.clone()
        }
    }
}

/// The bundled registry's JSON text.
const BUNDLED: &str = include_str!("../data/core-registry.json");

/// `over` merged over `base` (both registry JSON): the classes and enums of `over`,
/// then those of `base` whose name (case-insensitive) and UUID `over` does not use.
pub fn merge_registry_json(
    base: &serde_json::Value,
    over: &serde_json::Value,
) -> Result<serde_json::Value> {
    let mut out = serde_json::Map::new();
    for key in ["classes", "enums"] {
        let list = |j: &serde_json::Value| -> Result<Vec<serde_json::Value>> {
            match j.get(key) {
                None => Ok(Vec::new()),
                Some(serde_json::Value::Array(a)) => Ok(a.clone()),
                Some(_) => Err(err(format!("registry: \"{key}\" must be an array"))),
            }
        };
        let mut items = list(over)?;
        let names: std::collections::HashSet<String> = items
            .iter()
            .filter_map(|c| obj_str(c, "name"))
            .map(|n| n.to_ascii_lowercase())
            .collect();
        let uuids: std::collections::HashSet<Uuid> = items
            .iter()
            .filter_map(|c| obj_str(c, "uuid").and_then(Uuid::parse))
            .collect();
        for c in list(base)? {
            let named =
                obj_str(&c, "name").is_some_and(|n| names.contains(&n.to_ascii_lowercase()));
            let same_id = obj_str(&c, "uuid")
                .and_then(Uuid::parse)
                .is_some_and(|u| uuids.contains(&u));
            if !named && !same_id {
                items.push(c);
            }
        }
        out.insert(key.to_string(), serde_json::Value::Array(items));
    }
    Ok(serde_json::Value::Object(out))
}

/// The most values one default instance may hold (see [`Registry::from_json`]).
pub const MAX_DEFAULT_VALUES: usize = 1 << 20;
/// The most values the default instances of all classes of a registry may hold together.
pub const MAX_TOTAL_DEFAULT_VALUES: usize = 1 << 23;

/// The classes `t` holds by value (not through pointers or containers that start empty).
fn by_value(t: &TypeExpr, out: &mut Vec<ClassId>) {
    match t {
        TypeExpr::Class(c) => out.push(*c),
        TypeExpr::Array(e, n) if *n > 0 => by_value(e, out),
        TypeExpr::Pair(a, b) => {
            by_value(a, out);
            by_value(b, out);
        }
        TypeExpr::Tuple(ts) => ts.iter().for_each(|t| by_value(t, out)),
        _ => {}
    }
}

/// How many values a default of `t` holds, classes counted from `classes` (1 when not
/// known yet); saturating, so enormous products stay comparable.
fn value_count(t: &TypeExpr, classes: &[Option<u128>]) -> u128 {
    match t {
        TypeExpr::Array(e, n) => (*n as u128).saturating_mul(value_count(e, classes)).max(1),
        TypeExpr::Pair(a, b) => 1u128
            .saturating_add(value_count(a, classes))
            .saturating_add(value_count(b, classes)),
        TypeExpr::Tuple(ts) => ts
            .iter()
            .fold(1u128, |n, t| n.saturating_add(value_count(t, classes))),
        TypeExpr::Class(c) => classes.get(*c).copied().flatten().unwrap_or(1),
        _ => 1,
    }
}

/// The (lowest, highest) value of an integer type.
pub(crate) fn int_range(t: &TypeExpr) -> (i128, i128) {
    match t {
        TypeExpr::I8 => (i8::MIN as i128, i8::MAX as i128),
        TypeExpr::I16 => (i16::MIN as i128, i16::MAX as i128),
        TypeExpr::I32 => (i32::MIN as i128, i32::MAX as i128),
        TypeExpr::I64 => (i64::MIN as i128, i64::MAX as i128),
        TypeExpr::U8 => (0, u8::MAX as i128),
        TypeExpr::U16 => (0, u16::MAX as i128),
        TypeExpr::U32 => (0, u32::MAX as i128),
        TypeExpr::U64 => (0, u64::MAX as i128),
        _ => (0, 0),
    }
}

/// Identity for matrices of `rows` x `cols` (row-major).
pub(crate) fn identity(rows: usize, cols: usize) -> Box<[f32]> {
    let mut m = vec![0.0f32; rows * cols];
    for i in 0..rows.min(cols) {
        m[i * cols + i] = 1.0;
    }
    m.into()
}

fn zero_value(ty: &TypeExpr, reg: Option<&Registry>) -> Value {
    use TypeExpr as T;
    match ty {
        T::Bool => Value::Bool(false),
        T::I8 | T::I16 | T::I32 | T::I64 => Value::Int(0),
        T::U8 | T::U16 | T::U32 | T::U64 => Value::UInt(0),
        T::F32 => Value::F32(0.0),
        T::F64 => Value::F64(0.0),
        T::String => Value::String(String::new()),
        T::Uuid => Value::Uuid(Uuid::NULL),
        T::Color | T::Vector2 | T::Vector3 | T::Vector4 => {
            Value::Math(vec![0.0; ty.math_len().unwrap_or(0)].into())
        }
        T::Quaternion => Value::Math(vec![0.0, 0.0, 0.0, 1.0].into()),
        T::Transform => Value::Transform {
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: 1.0,
        },
        T::Matrix3x3 => Value::Math(identity(3, 3)),
        T::Matrix3x4 => Value::Math(identity(3, 4)),
        T::Matrix4x4 => Value::Math(identity(4, 4)),
        // `AZ::EntityId()` is the invalid id.
        T::EntityId => Value::UInt(crate::load::INVALID_ENTITY_ID),
        T::Array(e, n) => Value::Seq((0..*n).map(|_| zero_value(e, reg)).collect()),
        T::Vector(_)
        | T::List(_)
        | T::FixedVector(..)
        | T::Set(_)
        | T::UnorderedSet(_)
        | T::UnorderedMultiset(_) => Value::Seq(Vec::new()),
        T::Map(..) | T::UnorderedMap(..) | T::UnorderedMultimap(..) => Value::Map(Vec::new()),
        T::Pair(a, b) => Value::Tuple(vec![zero_value(a, reg), zero_value(b, reg)]),
        T::Tuple(ts) => Value::Tuple(ts.iter().map(|t| zero_value(t, reg)).collect()),
        T::UniquePtr(_) | T::SharedPtr(_) | T::Pointer(_) => Value::Ptr(None),
        T::Any => Value::Any(None),
        T::Asset(_) => Value::Asset(Box::default()),
        T::Class(c) => match reg {
            Some(r) => r.classes[*c].default.clone(),
            None => Value::Object(Vec::new()),
        },
        T::Enum(e) => match reg {
            Some(r) if !r.enums[*e].signed() => Value::UInt(0),
            Some(_) => Value::Int(0),
            None => Value::Int(0),
        },
    }
}
