//! Hostile Zeze solutions for code generation: names and comments that try to end a
//! comment, a string or an item, names of Rust's prelude and keywords, modules named
//! after crates the generated code uses. `ACCEPTED` must generate code that compiles
//! (tests/gen_crate.rs builds it); `REFUSED` must be refused, naming both clashing names.

/// (Rust module, solution XML) that `gen` accepts.
pub const ACCEPTED: &[(&str, &str)] = &[
    (
        "hostile_names",
        r#"<solution name="h">
  <module name="m" id="7">
    <bean name="Injected">
      <enum name="X" value="1" description="first line&#10;pub fn injected() -> i32 { 1 } /* &#13;&#x2028;&#x202e; */"/>
      <enum name="FULL_NAME" value="5"/>
      <enum name="Big" type="float" value="1e300"/>
      <enum name="Str" type="string" value="&quot;a&quot;b\&#10;c&quot;"/>
      <variable id="1" name="a&quot;b&#10;pub fn injected2() {}" type="int"/>
      <variable id="2" name="é" type="int"/>
      <variable id="3" name="type" type="long" default="FULL_NAME"/>
      <variable id="4" name="self" type="string" default="Str"/>
      <variable id="5" name="crate" type="long" default="X"/>
      <variable id="6" name="1a" type="float" default="Big"/>
      <variable id="7" name="a__b" type="string" default="x&quot;y&#10;z"/>
      <variable id="8" name="super" type="int" default="1&#10;}"/>
      <variable id="9" name="base" type="Option"/>
    </bean>
    <bean name="Option"><variable id="1" name="v" type="Vec"/></bean>
    <bean name="Vec"><variable id="1" name="s" type="list[String]"/></bean>
    <bean name="String"><variable id="1" name="r" type="map[int,Result]"/></bean>
    <bean name="Result"><variable id="1" name="d" type="Default"/></bean>
    <bean name="Default"/>
    <bean name="Self" base="Default"><variable id="1" name="b" type="Box"/></bean>
    <bean name="Box"/>
    <bean name="Some"/>
    <bean name="None"/>
    <bean name="Ok"/>
    <bean name="Err"/>
    <bean name="Empty"/>
    <bean name="Bé"/>
    <bean name="a_b"/>
    <bean name="Holder">
      <variable id="1" name="any" type="dynamic"><value bean="Empty"/><value bean="Some"/><value bean="Option"/></variable>
      <variable id="2" name="ion" type="dynamic"><value bean="Ok"/></variable>
    </bean>
    <bean name="Opt">
      <variable id="1" name="ion" type="dynamic"><value bean="Err"/></variable>
    </bean>
    <protocol name="Pro&#10;fn x(){}" id="1" argument="Option"/>
    <rpc name="Rpc" id="2" argument="Self" result="Result"/>
  </module>
  <module name="serde"><enum name="A" value="1"/></module>
  <module name="std"><enum name="A" value="2"/></module>
  <module name="gamewire_zeze"><enum name="A" value="3"/></module>
  <module name="self"><enum name="A" value="3"/></module>
  <module name="é"><enum name="A" value="3"/></module>
  <module name="std_consts"><enum name="A" value="3"/></module>
</solution>"#,
    ),
    // Constants at the solution's level go into a module named after the solution:
    // `serde`, `std`, `gamewire_zeze` would hide the crates the code names.
    (
        "hostile_serde",
        r#"<solution name="serde"><enum name="A" value="1"/>
  <module name="m" id="1">
    <bean name="B" base="C"><variable id="1" name="x" type="map[int,list[long]]"/></bean>
    <bean name="C"><variable id="1" name="b" type="binary"/></bean>
    <protocol name="P" id="1" argument="B"/>
  </module></solution>"#,
    ),
    (
        "hostile_std",
        r#"<solution name="std"><enum name="A" value="1"/>
  <bean name="B" base="C"><variable id="1" name="x" type="map[int,list[long]]"/></bean>
  <bean name="C"><variable id="1" name="b" type="binary"/><variable id="2" name="v" type="vector3"/></bean>
  </solution>"#,
    ),
    (
        "hostile_gamewire_zeze",
        r#"<solution name="gamewire_zeze"><enum name="A" value="1"/>
  <bean name="B" base="C"><variable id="1" name="x" type="map[float,string]"/></bean>
  <bean name="C"><variable id="1" name="b" type="binary"/><variable id="2" name="d" type="dynamic"><value bean="B"/></variable></bean>
  <module name="m" id="2"><rpc name="R" id="1" argument="B" result="C"/></module>
  </solution>"#,
    ),
    // A bean that may hold itself through a dynamic variable (a tree), directly and
    // through another bean.
    (
        "hostile_tree",
        r#"<solution name="t">
  <bean name="Node"><variable id="1" name="child" type="dynamic"><value bean="Node"/><value bean="Leaf"/></variable></bean>
  <bean name="Leaf"/>
  <bean name="A"><variable id="1" name="b" type="B"/></bean>
  <bean name="B"><variable id="1" name="d" type="dynamic"><value bean="A"/></variable></bean>
  </solution>"#,
    ),
];

/// (test name, solution XML, texts the error must contain) that `gen` refuses.
pub const REFUSED: &[(&str, &str, &[&str])] = &[
    (
        "bean-a_b-aB",
        r#"<solution name="s"><bean name="a_b"/><bean name="aB"/></solution>"#,
        &["`s.a_b`", "`s.aB`", "Rust type name `AB`"],
    ),
    (
        "bean-x.B-y.B-XB",
        r#"<solution name="s"><module name="x"><bean name="B"/></module><module name="y"><bean name="B"/></module><bean name="XB"/></solution>"#,
        &["`s.x.B`", "`s.XB`", "Rust type name `XB`"],
    ),
    (
        "bean-Be-B",
        r#"<solution name="s"><bean name="Bé"/><bean name="B"/></solution>"#,
        &["`s.Bé`", "`s.B`", "Rust type name `B`"],
    ),
    (
        "bean-Option-Option_",
        r#"<solution name="s"><bean name="Option"/><bean name="Option_"/></solution>"#,
        &["`s.Option`", "`s.Option_`", "Rust type name `Option_`"],
    ),
    (
        "protocol-and-bean",
        r#"<solution name="s"><module name="m" id="1"><bean name="Vec"/><protocol name="vec" id="1" argument="Vec"/></module></solution>"#,
        &[
            "bean `s.m.Vec`",
            "protocol `s.m.vec`",
            "Rust type name `Vec_`",
        ],
    ),
    (
        "variables-self-Self",
        r#"<solution name="s"><bean name="A"><variable id="1" name="self" type="int"/><variable id="2" name="Self" type="int"/></bean></solution>"#,
        &["`self` and `Self`", "Rust field name `self_`"],
    ),
    (
        "variables-e-u",
        r#"<solution name="s"><bean name="A"><variable id="1" name="é" type="int"/><variable id="2" name="ü" type="int"/></bean></solution>"#,
        &["`é` and `ü`", "Rust field name `field_`"],
    ),
];
