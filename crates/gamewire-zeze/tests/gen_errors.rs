//! Bad solutions: each error names the file, line, column and element it is about, and
//! `gen` writes nothing for a schema with errors.

use gamewire_zeze::schema::Schema;
use std::path::{Path, PathBuf};

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gen-errors-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes `files` into a fresh directory and loads the first; returns the error text
/// and the directory.
fn load_err(name: &str, files: &[(&str, &str)]) -> (String, PathBuf) {
    let d = dir(name);
    for (f, text) in files {
        std::fs::write(d.join(f), text).unwrap();
    }
    let e = Schema::from_file(&d.join(files[0].0))
        .err()
        .unwrap_or_else(|| panic!("{name}: loaded"))
        .to_string();
    (e, d)
}

fn at(d: &Path, file: &str, line: usize, col: usize) -> String {
    format!("{}:{line}:{col}: ", d.join(file).display())
}

#[test]
fn duplicate_variable_id_names_the_second_variable() {
    let xml = "<solution name=\"s\">\n  <bean name=\"Foo\">\n    <variable id=\"3\" name=\"a\" type=\"int\"/>\n    <variable id=\"3\" name=\"x\" type=\"long\"/>\n  </bean>\n</solution>\n";
    let (e, d) = load_err("dup-id", &[("solution.xml", xml)]);
    let want = format!(
        "{}<variable id=\"3\" name=\"x\" type=\"long\"/>: duplicate id 3 in bean s.Foo",
        at(&d, "solution.xml", 4, 5)
    );
    assert!(e.contains(&want), "{e}\nwanted {want}");
}

#[test]
fn duplicate_variable_name_is_refused() {
    let xml = "<solution name=\"s\">\n<bean name=\"Foo\">\n<variable id=\"1\" name=\"a\" type=\"int\"/>\n<variable id=\"2\" name=\"a\" type=\"int\"/>\n</bean>\n</solution>";
    let (e, d) = load_err("dup-name", &[("solution.xml", xml)]);
    assert!(e.starts_with(&at(&d, "solution.xml", 4, 1)), "{e}");
    assert!(e.contains("duplicate variable name a in bean s.Foo"), "{e}");
}

#[test]
fn unknown_type_names_the_variable() {
    let xml = "<solution name=\"s\">\n  <module name=\"m\">\n    <bean name=\"A\">\n      <variable id=\"1\" name=\"b\" type=\"list[Nope]\"/>\n    </bean>\n  </module>\n</solution>";
    let (e, d) = load_err("unknown", &[("solution.xml", xml)]);
    assert!(
        e.starts_with(&format!(
            "{}<variable id=\"1\" name=\"b\" type=\"list[Nope]\"/>: ",
            at(&d, "solution.xml", 4, 7)
        )),
        "{e}"
    );
    assert!(e.contains("unknown type or bean \"Nope\""), "{e}");
}

#[test]
fn a_bean_holding_itself_names_the_variable_that_closes_the_loop() {
    // Directly.
    let xml = "<solution name=\"s\">\n<bean name=\"A\">\n  <variable id=\"1\" name=\"me\" type=\"A\"/>\n</bean>\n</solution>";
    let (e, d) = load_err("self", &[("solution.xml", xml)]);
    assert!(
        e.starts_with(&format!(
            "{}<variable id=\"1\" name=\"me\" type=\"A\"/>: ",
            at(&d, "solution.xml", 3, 3)
        )),
        "{e}"
    );
    assert!(e.contains("bean s.A holds itself by value"), "{e}");
    // Through another bean in an imported file.
    let a = "<solution name=\"s\">\n<import file=\"b.xml\"/>\n<bean name=\"A\">\n  <variable id=\"1\" name=\"b\" type=\"B\"/>\n</bean>\n</solution>";
    let b = "<solution name=\"s\">\n\n<bean name=\"B\">\n\t<variable id=\"2\" name=\"a\" type=\"A\"/>\n</bean>\n</solution>";
    let (e, d) = load_err("loop", &[("a.xml", a), ("b.xml", b)]);
    assert!(
        e.contains("holds itself by value (s.A.b -> s.B.a -> s.A)"),
        "{e}"
    );
    assert!(
        e.starts_with(&format!(
            "{}<variable id=\"2\" name=\"a\" type=\"A\"/>: ",
            at(&d, "b.xml", 4, 2)
        )),
        "{e}"
    );
}

#[test]
fn a_missing_import_names_the_import_element() {
    let xml = "<solution name=\"s\">\n   <import file=\"gone.xml\"/>\n</solution>";
    let (e, d) = load_err("import", &[("solution.xml", xml)]);
    assert!(
        e.starts_with(&format!(
            "{}<import file=\"gone.xml\"/>: cannot read the imported file {}",
            at(&d, "solution.xml", 2, 4),
            d.join("gone.xml").display()
        )),
        "{e}"
    );
}

#[test]
fn a_bean_declared_twice_names_both_places() {
    let a = "<solution name=\"s\">\n<import file=\"b.xml\"/>\n<bean name=\"A\"/>\n</solution>";
    let b = "<solution name=\"s\">\n  <bean name=\"A\">\n  </bean>\n</solution>";
    let (e, d) = load_err("twice", &[("a.xml", a), ("b.xml", b)]);
    // The files are read first to last; the second declaration is the error.
    let first = d.join("a.xml");
    assert!(e.starts_with(&at(&d, "b.xml", 2, 3)), "{e}");
    assert!(
        e.contains(&format!(
            "<bean name=\"A\">: bean s.A is declared twice (first at {}:3:1)",
            first.display()
        )),
        "{e}"
    );
}

#[test]
fn xml_syntax_errors_have_a_line_and_column() {
    let xml = "<solution name=\"s\">\n<bean name=\"A\">\n<variable id=\"1\" name=\"a\" type=\"int\"/>\n</beam>\n</solution>";
    let (e, d) = load_err("syntax", &[("solution.xml", xml)]);
    assert!(e.starts_with(&at(&d, "solution.xml", 4, 1)), "{e}");
    assert!(e.contains("bad XML"), "{e}");
    // From a string: `<input>` stands for the file.
    let e = Schema::from_xml(xml).unwrap_err().to_string();
    assert!(e.starts_with("<input>:4:1: bad XML"), "{e}");
}

/// `gen` loads and generates everything before it writes: a schema with an error leaves
/// the output directory as it was, and an existing output file untouched.
#[test]
fn gen_writes_nothing_for_a_schema_with_errors() {
    let d = dir("gen-nothing");
    let bad = d.join("bad.xml");
    std::fs::write(
        &bad,
        "<solution name=\"s\"><bean name=\"A\"><variable id=\"1\" name=\"a\" type=\"Nope\"/></bean></solution>",
    )
    .unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let e = gamewire_zeze::gen::gen(&bad, &out).unwrap_err().to_string();
    assert!(e.contains("bad.xml:1:"), "{e}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
    // An output file from an earlier run stays as it was.
    let file = out.join("zeze_gen.rs");
    std::fs::write(&file, "// earlier\n").unwrap();
    assert!(gamewire_zeze::gen::gen(&bad, &out).is_err());
    assert!(gamewire_zeze::gen::gen(&bad, &file).is_err());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "// earlier\n");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    // A missing schema file: also nothing.
    assert!(gamewire_zeze::gen::gen(d.join("gone.xml"), &out).is_err());
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn unknown_base_and_protocol_argument_name_their_elements() {
    let xml = "<solution name=\"s\">\n  <bean name=\"D\" base=\"Gone\"/>\n</solution>";
    let (e, d) = load_err("base", &[("solution.xml", xml)]);
    assert!(
        e.starts_with(&format!(
            "{}<bean name=\"D\" base=\"Gone\"/>: bean s.D: base: unknown type or bean \"Gone\"",
            at(&d, "solution.xml", 2, 3)
        )),
        "{e}"
    );
    let xml = "<solution name=\"s\">\n<module name=\"m\" id=\"1\">\n<rpc name=\"R\" id=\"2\" argument=\"A\" result=\"Gone\"/>\n<bean name=\"A\"/>\n</module>\n</solution>";
    let (e, d) = load_err("proto", &[("solution.xml", xml)]);
    assert!(e.starts_with(&at(&d, "solution.xml", 3, 1)), "{e}");
    assert!(
        e.contains("<rpc name=\"R\" id=\"2\" argument=\"A\" result=\"Gone\"/>: result: unknown type or bean \"Gone\""),
        "{e}"
    );
    // A base cycle names a bean of the cycle.
    let xml = "<solution name=\"s\">\n<bean name=\"A\" base=\"B\"/>\n<bean name=\"B\" base=\"A\"/>\n</solution>";
    let (e, d) = load_err("cycle", &[("solution.xml", xml)]);
    assert!(e.contains("has a base cycle"), "{e}");
    assert!(
        e.starts_with(&d.join("solution.xml").display().to_string()),
        "{e}"
    );
}

#[test]
fn gen_creates_a_missing_output_folder() {
    let d = dir("new-folder");
    let schema = d.join("solution.xml");
    std::fs::write(
        &schema,
        "<solution name=\"s\"><bean name=\"Foo\"><variable id=\"1\" name=\"a\" type=\"int\"/></bean></solution>",
    )
    .unwrap();
    // A path ending with `/`, and one without an `.rs` extension: folders, created.
    let slash = format!("{}/", d.join("out1/deeper").display());
    let got = gamewire_zeze::gen::gen(&schema, &slash).unwrap();
    assert_eq!(got, d.join("out1/deeper/zeze_gen.rs"));
    assert!(std::fs::read_to_string(&got)
        .unwrap()
        .contains("pub struct Foo"));
    let got = gamewire_zeze::gen::gen(&schema, d.join("out2")).unwrap();
    assert_eq!(got, d.join("out2/zeze_gen.rs"));
    assert!(got.is_file());
    // A `.rs` path is the file itself, its folder created.
    let got = gamewire_zeze::gen::gen(&schema, d.join("out3/mine.rs")).unwrap();
    assert_eq!(got, d.join("out3/mine.rs"));
    assert!(got.is_file());
}

/// Generates from `xml` into a fresh folder and returns the error and what the folder
/// holds afterwards.
fn gen_err(name: &str, xml: &str) -> (String, Vec<String>) {
    let d = dir(name);
    let schema = d.join("solution.xml");
    std::fs::write(&schema, xml).unwrap();
    let out = d.join("out");
    let e = gamewire_zeze::gen::gen(&schema, &out)
        .err()
        .unwrap_or_else(|| panic!("{name}: generated"))
        .to_string();
    let mut left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    (e, left)
}

#[test]
fn beans_with_the_same_rust_name_are_refused_naming_both() {
    let xml = "<solution name=\"s\"><module name=\"m\">\
        <bean name=\"type\"><variable id=\"1\" name=\"a\" type=\"int\"/></bean>\
        <bean name=\"Type\"><variable id=\"1\" name=\"b\" type=\"int\"/></bean>\
        </module></solution>";
    let (e, left) = gen_err("same-type-name", xml);
    assert!(e.contains("`s.m.type`") && e.contains("`s.m.Type`"), "{e}");
    assert!(e.contains("Rust type name `Type`"), "{e}");
    assert_eq!(left, ["solution.xml"], "nothing written");
}

#[test]
fn variables_with_the_same_rust_field_name_are_refused_naming_both() {
    let xml = "<solution name=\"s\"><bean name=\"Foo\">\
        <variable id=\"1\" name=\"a_b\" type=\"int\"/>\
        <variable id=\"2\" name=\"aB\" type=\"int\"/>\
        </bean></solution>";
    let (e, left) = gen_err("same-field-name", xml);
    assert!(e.contains("bean `s.Foo`"), "{e}");
    assert!(e.contains("`a_b` and `aB`"), "{e}");
    assert!(e.contains("Rust field name `a_b`"), "{e}");
    assert_eq!(left, ["solution.xml"], "nothing written");
}

mod common;
use common::hostile;

/// Names that collide after the naming rules (`a_b`/`aB`, `x.B` + `y.B` + `XB`, `Bé`/`B`,
/// `Option`/`Option_`, a bean and a protocol, `self`/`Self`, `é`/`ü`) are refused naming
/// both, and nothing is written.
#[test]
fn names_that_collide_after_the_naming_rules_are_refused() {
    for (name, xml, wanted) in hostile::REFUSED {
        let (e, left) = gen_err(name, xml);
        for w in *wanted {
            assert!(e.contains(w), "{name}: {e}\nwanted {w}");
        }
        assert!(e.contains("rename one of them"), "{name}: {e}");
        assert_eq!(left, ["solution.xml"], "{name}: nothing written");
    }
}

/// Generates the accepted hostile solution `module`.
fn hostile_code(module: &str) -> String {
    let xml = hostile::ACCEPTED
        .iter()
        .find(|(m, _)| *m == module)
        .unwrap()
        .1;
    let s = Schema::from_xml(xml).unwrap_or_else(|e| panic!("{module}: {e}"));
    gamewire_zeze::gen::generate(&s).unwrap_or_else(|e| panic!("{module}: {e}"))
}

/// What a solution says stays inside comments and string literals: an enum comment
/// holding a newline and `pub fn injected()`, a variable name with a quote and a newline,
/// a protocol name with a newline.
#[test]
fn names_and_comments_cannot_end_a_comment_or_a_string() {
    let code = hostile_code("hostile_names");
    for line in code.lines() {
        let t = line.trim_start();
        if line.contains("injected") || line.contains("fn x") {
            // Only inside a doc comment, a string literal in `rename`, or the field's
            // identifier (every other character an `_`).
            assert!(
                t.starts_with("///")
                    || t.starts_with("#[serde(rename = \"a\\\"b\\u{a}pub fn")
                    || t.starts_with(
                        "pub const FULL_NAME: &'static str = \"h.m.Pro\\u{a}fn x(){}\";"
                    )
                    || t.starts_with("pub a_b_pub_fn_injected2_: i32,")
                    || t.starts_with("a_b_pub_fn_injected2_: Default::default(),"),
                "code from the solution: {line}"
            );
        }
        // No control or bidirectional character reaches the file.
        assert!(
            !line.chars().any(|c| c.is_control()
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || c == '\u{2028}'),
            "raw control character: {line:?}"
        );
    }
    assert!(code.contains(
        "/// `<enum name=\"X\">`: first line\\u{a}pub fn injected() -> i32 { 1 } /* \\u{d}\\u{2028}\\u{202e} */\n"
    ));
    assert!(code.contains("    #[serde(rename = \"a\\\"b\\u{a}pub fn injected2() {}#1\")]\n"));
    assert!(code.contains("pub const FULL_NAME: &'static str = \"h.m.B\\u{e9}\";"));
    // A string constant keeps its quote, backslash and newline escaped.
    assert!(
        code.contains("pub const STR: &str = \"a\\\"b\\\\\\u{a}c\";"),
        "{code}"
    );
}

/// Names of Rust's prelude and keywords get the stated renames; defaults naming
/// constants use the constants' final names and types.
#[test]
fn prelude_names_and_keywords_are_renamed_by_the_stated_rules() {
    let code = hostile_code("hostile_names");
    for t in [
        "Option", "Vec", "String", "Result", "Default", "Self", "Box", "Some", "None", "Ok", "Err",
        "Empty",
    ] {
        assert!(code.contains(&format!("pub struct {t}_ {{")), "{t}");
        assert!(!code.contains(&format!("pub struct {t} {{")), "{t}");
    }
    // `Opt` + `ion` is not the dynamic enum `Option`.
    assert!(code.contains("pub enum OptIon {"));
    // Bean `a_b` is camel case, `Bé` is `B`.
    assert!(code.contains("pub struct AB {") && code.contains("pub struct B {"));
    for field in [
        "pub r#type: i64,",
        "pub self_: String,",
        "pub crate_: i64,",
        "pub super_: i32,",
        "pub field_: i32,",
        "pub _1a: f32,",
        "pub a_b: String,",
        "pub a_b_pub_fn_injected2_: i32,",
    ] {
        assert!(code.contains(field), "{field}");
    }
    // The constant `FULL_NAME` became `FULL_NAME_`; an int constant for a long
    // variable is its value; 1e300 is no f32; a string constant is `.to_owned()`.
    assert!(code.contains("pub const FULL_NAME_: i32 = 5;"));
    assert!(code.contains("            r#type: 5,\n"));
    assert!(code.contains("            crate_: 1,\n"));
    assert!(code.contains("            self_: Self::STR.to_owned(),\n"));
    assert!(code.contains("            _1a: Default::default(),\n"));
    assert!(code.contains("// <enum name=\"Big\" value=\"1e300\" type=\"float\">: not a literal"));
    // Constants modules named after crates the code uses get `_consts`.
    assert!(hostile_code("hostile_serde").contains("pub mod serde_consts {"));
    assert!(hostile_code("hostile_std").contains("pub mod std_consts {"));
    assert!(hostile_code("hostile_gamewire_zeze").contains("pub mod gamewire_zeze_consts {"));
}

/// A bean that may hold itself through a dynamic variable holds a `Box` there.
#[test]
fn a_bean_holding_itself_through_a_dynamic_is_boxed() {
    let code = hostile_code("hostile_tree");
    assert!(code.contains("    Node(Box<Node>),\n"), "{code}");
    assert!(code.contains("    Leaf(Leaf),\n"), "{code}");
    assert!(code.contains("    A(Box<A>),\n"), "{code}");
}

/// The temporary output has an unpredictable name, created exclusively: a link planted
/// at the old fixed name `zeze_gen.rs.tmp` (or any name) redirects nothing.
#[cfg(unix)]
#[test]
fn a_link_planted_at_the_temporary_name_redirects_nothing() {
    let d = dir("planted-link");
    let schema = d.join("solution.xml");
    std::fs::write(
        &schema,
        "<solution name=\"s\"><bean name=\"Foo\"><variable id=\"1\" name=\"a\" type=\"int\"/></bean></solution>",
    )
    .unwrap();
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("zeze_gen.rs.tmp")).unwrap();
    let got = gamewire_zeze::gen::gen(&schema, &out).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::read_to_string(&got)
        .unwrap()
        .contains("pub struct Foo"));
    // Nothing else is left: the output and the planted link.
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["zeze_gen.rs", "zeze_gen.rs.tmp"]);
    // The output is readable as an ordinary file is (not the temporary file's 0600).
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&got).unwrap().permissions().mode();
    assert_eq!(mode & 0o044, 0o044 & !umask(), "mode {mode:o}");
}

/// The process's umask (read by setting and restoring it is not possible without
/// unsafe code): the mode a file created with 0666 gets.
#[cfg(unix)]
fn umask() -> u32 {
    use std::os::unix::fs::PermissionsExt;
    let p = dir("umask").join("f");
    std::fs::write(&p, "").unwrap();
    !std::fs::metadata(&p).unwrap().permissions().mode() & 0o666
}
