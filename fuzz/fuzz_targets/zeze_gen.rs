#![no_main]
//! Arbitrary text as a Zeze solution XML, then Rust code generation (`zeze gen` without
//! writing a file): never a panic, and the code of every solution `generate` accepts is
//! Rust that parses (`syn`), where nothing from the solution became an item of its own
//! (only the structs, enums, impls and constant modules the generator writes, and only
//! its own methods), and no two items, fields, variants or constants share a name. The
//! generated code is not compiled here (tests/gen_crate.rs builds the hostile solutions).
use gamewire_zeze::gen::generate;
use gamewire_zeze::schema::Schema;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

/// The methods the generator writes (frame methods, `Default`, `Deref`).
const METHODS: &[&str] = &[
    "write_frame",
    "read_frame",
    "write_request",
    "write_response",
    "read_request",
    "read_response",
    "default",
    "deref",
    "deref_mut",
];

/// Asserts the names of `names` are distinct (what rustc would refuse otherwise).
fn distinct<'a>(what: &str, names: impl IntoIterator<Item = String>, code: &'a str) {
    let mut seen = HashSet::new();
    for n in names {
        assert!(seen.insert(n.clone()), "two {what} named {n}:\n{code}");
    }
}

/// An identifier's name without `r#`.
fn name(i: &syn::Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn check_impl(imp: &syn::ItemImpl, code: &str) {
    let mut consts = Vec::new();
    for it in &imp.items {
        match it {
            syn::ImplItem::Const(c) => consts.push(name(&c.ident)),
            syn::ImplItem::Fn(f) => {
                let n = name(&f.sig.ident);
                assert!(METHODS.contains(&n.as_str()), "method {n}:\n{code}");
            }
            syn::ImplItem::Type(t) => assert_eq!(t.ident, "Target", "{code}"),
            other => panic!("impl item {other:?}:\n{code}"),
        }
    }
    distinct("constants", consts, code);
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(schema) = Schema::from_xml(text) else {
        return;
    };
    let Ok(code) = generate(&schema) else {
        return;
    };
    let file = syn::parse_file(&code)
        .unwrap_or_else(|e| panic!("generated code does not parse: {e}\n{code}"));
    let mut types = Vec::new();
    for item in &file.items {
        match item {
            syn::Item::Struct(s) => {
                types.push(name(&s.ident));
                let fields = s.fields.iter().filter_map(|f| f.ident.as_ref()).map(name);
                distinct("fields", fields, &code);
            }
            syn::Item::Enum(e) => {
                types.push(name(&e.ident));
                distinct("variants", e.variants.iter().map(|v| name(&v.ident)), &code);
            }
            syn::Item::Impl(imp) => check_impl(imp, &code),
            syn::Item::Mod(m) => {
                types.push(name(&m.ident));
                let (_, items) = m.content.as_ref().expect("an inline module");
                let mut consts = Vec::new();
                for it in items {
                    match it {
                        syn::Item::Const(c) => consts.push(name(&c.ident)),
                        other => panic!("module item {other:?}:\n{code}"),
                    }
                }
                distinct("constants", consts, &code);
            }
            other => panic!("item {other:?}:\n{code}"),
        }
    }
    // Types and modules share the type namespace.
    distinct("types or modules", types, &code);
});
