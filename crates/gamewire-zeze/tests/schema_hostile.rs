//! Hostile solution XML: beans holding themselves by value, exponential defaults, deep
//! type expressions, and runs of empty beans much larger than their bytes.

use gamewire_zeze::schema::{Schema, MAX_DEFAULT_VALUES};
use gamewire_zeze::Options;

fn solution(beans: &str) -> String {
    format!(r#"<solution name="s"><module name="m" id="1">{beans}</module></solution>"#)
}

fn load_err(beans: &str) -> String {
    Schema::from_xml(&solution(beans))
        .map(|_| ())
        .expect_err("the schema should be refused")
        .to_string()
}

#[test]
fn a_bean_holding_itself_is_refused_at_load() {
    let e = load_err(r#"<bean name="A"><variable id="1" name="me" type="A"/></bean>"#);
    assert!(e.contains("s.m.A holds itself by value"), "{e}");
    assert!(e.contains("s.m.A.me -> s.m.A"), "{e}");
}

#[test]
fn two_beans_holding_each_other_are_refused_naming_the_chain() {
    let e = load_err(
        r#"<bean name="A"><variable id="1" name="b" type="B"/></bean>
           <bean name="B"><variable id="1" name="x" type="int"/>
                          <variable id="2" name="a" type="A"/></bean>"#,
    );
    assert!(e.contains("holds itself by value"), "{e}");
    assert!(e.contains("s.m.A.b -> s.m.B.a -> s.m.A"), "{e}");
}

#[test]
fn a_base_holding_the_derived_bean_is_refused() {
    let e = load_err(
        r#"<bean name="Base"><variable id="1" name="d" type="D"/></bean>
           <bean name="D" base="Base"><variable id="1" name="x" type="int"/></bean>"#,
    );
    assert!(e.contains("holds itself by value"), "{e}");
}

#[test]
fn self_reference_through_collections_and_dynamics_is_fine() {
    let s = Schema::from_xml(&solution(
        r#"<bean name="Tree">
             <variable id="1" name="kids" type="list[Tree]"/>
             <variable id="2" name="byName" type="map[string,Tree]"/>
             <variable id="3" name="any" type="dynamic"><value bean="Tree:1"/></variable>
           </bean>"#,
    ))
    .unwrap();
    // An empty bean decodes to its (finite) default.
    let j = s.decode("Tree", &[0], &Options::default()).unwrap();
    assert_eq!(j["kids"], serde_json::json!([]));
    assert_eq!(j["any"], serde_json::json!({"type_id": 0}));
}

/// Bean `L0` holds 8 `L1`s, each holds 8 `L2`s ... 10 levels: 8^10 default objects.
fn exponential(levels: usize, fields: usize) -> String {
    let mut s = String::new();
    for l in 0..levels {
        s.push_str(&format!("<bean name=\"L{l}\">"));
        for f in 0..fields {
            s.push_str(&format!(
                "<variable id=\"{}\" name=\"f{f}\" type=\"L{}\"/>",
                f + 1,
                l + 1
            ));
        }
        s.push_str("</bean>");
    }
    s.push_str(&format!(
        "<bean name=\"L{levels}\"><variable id=\"1\" name=\"x\" type=\"int\"/></bean>"
    ));
    s
}

#[test]
fn exponential_defaults_are_refused_at_load() {
    let text = exponential(10, 8);
    assert!(text.len() < 4096, "a small schema: {}", text.len());
    let e = load_err(&text);
    assert!(e.contains("default value holds"), "{e}");
    assert!(e.contains(&MAX_DEFAULT_VALUES.to_string()), "{e}");
    // A modest fan-out stays legitimate and decodes from a single byte.
    let s = Schema::from_xml(&solution(&exponential(3, 4))).unwrap();
    let j = s.decode("L0", &[0], &Options::default()).unwrap();
    assert_eq!(j["f3"]["f0"]["f2"]["x"], 0);
}

#[test]
fn a_long_chain_of_beans_held_by_value_is_refused() {
    let mut s = String::new();
    for i in 0..1000 {
        s.push_str(&format!(
            "<bean name=\"C{i}\"><variable id=\"1\" name=\"n\" type=\"C{}\"/></bean>",
            i + 1
        ));
    }
    s.push_str("<bean name=\"C1000\"/>");
    let e = load_err(&s);
    assert!(e.contains("nest") && e.contains("deep"), "{e}");
}

#[test]
fn deeply_nested_type_expressions_are_refused_quickly() {
    let depth = 40_000;
    let ty = format!("{}int{}", "list[".repeat(depth), "]".repeat(depth));
    let e = load_err(&format!(
        r#"<bean name="A"><variable id="1" name="x" type="{ty}"/></bean>"#
    ));
    assert!(e.contains("nests deeper than"), "{e}");
}

#[test]
fn runs_of_empty_beans_cannot_expand_defaults_without_bound() {
    // 20 fields per bean; a list of n empty beans is about n bytes of input.
    let mut vars = String::new();
    for i in 1..=20 {
        vars.push_str(&format!(
            "<variable id=\"{i}\" name=\"v{i}\" type=\"long\"/>"
        ));
    }
    let s = Schema::from_xml(&solution(&format!(
        r#"<bean name="E">{vars}</bean>
           <bean name="H"><variable id="1" name="items" type="list[E]"/></bean>"#
    )))
    .unwrap();
    let list = |n: u32| {
        // tag: id 1, wire type list (4); header 0xf6 (bean elements, count >= 15), count - 15.
        let mut b = vec![0x14, 0xf6];
        let rest = n - 15;
        // WriteUInt for values below 2^21 (three bytes at most here).
        if rest < 0x80 {
            b.push(rest as u8);
        } else if rest < 0x4000 {
            b.extend_from_slice(&[0x80 | (rest >> 8) as u8, rest as u8]);
        } else {
            b.extend_from_slice(&[0xc0 | (rest >> 16) as u8, (rest >> 8) as u8, rest as u8]);
        }
        b.extend(std::iter::repeat(0u8).take(n as usize));
        b.push(0);
        b
    };
    // A few hundred empty beans are ordinary data.
    let j = s.decode("H", &list(300), &Options::default()).unwrap();
    assert_eq!(j["items"].as_array().unwrap().len(), 300);
    // 200,000 bytes of empty beans would be 4 million default values.
    let e = s
        .decode("H", &list(200_000), &Options::default())
        .unwrap_err();
    assert!(e.to_string().contains("expand past the limit"), "{e}");
    assert!(e.offset().is_some(), "{e}");
}
