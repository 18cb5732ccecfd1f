//! XML object files nest objects up to the depth limit (1,024) on any thread, and past
//! it the error names the byte, line and column.

use gamewire_kingsisle::{xml, TypeList};

const TYPES: &str = r#"{"version": 2, "classes": {"1": {"name": "class Node",
 "bases": ["PropertyClass"], "hash": 1, "singleton": false, "properties": {"m_child":
 {"type": "class Node", "id": 0, "offset": 8, "flags": 31, "container": "Static",
 "dynamic": false, "pointer": true, "hash": 77, "enum_options": {}}}}}}"#;

/// `<Objects>` holding one Node whose m_child holds a Node ... `depth` levels below it,
/// one element per line.
fn nested(depth: usize) -> String {
    let mut s = String::from("<Objects>\n");
    for _ in 0..depth {
        s.push_str("<Class Name=\"class Node\">\n<m_child>\n");
    }
    s.push_str("<Class Name=\"class Node\"></Class>\n");
    for _ in 0..depth {
        s.push_str("</m_child>\n</Class>\n");
    }
    s.push_str("</Objects>\n");
    s
}

#[test]
fn xml_nested_up_to_the_limit_reads_and_past_it_names_line_and_column() {
    let types = TypeList::from_json(TYPES.as_bytes()).unwrap();
    // 1,024 levels below the root: the limit itself, read on a 2 MiB test thread.
    let objs = xml::read(nested(1024).as_bytes(), &types).unwrap();
    assert_eq!(objs.len(), 1);
    let e = xml::read(nested(1025).as_bytes(), &types).unwrap_err();
    let text = e.to_string();
    // The 1,026th <Class> start tag is on line 2 + 2 * 1025.
    assert!(text.contains("limit of 1024"), "{text}");
    assert!(
        text.contains(&format!("line {}, column 1", 2 + 2 * 1025)),
        "{text}"
    );
    assert!(e.offset().is_some(), "{text}");
    // Writing recurses: on a thread with a bigger stack and budget, the 1,024-deep
    // object is written back and reads the same.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            gamewire_kingsisle::set_stack_budget(32 << 20);
            let again = xml::write(&objs, &types).unwrap();
            // Indentation stops at 32 levels (64 spaces).
            let widest = again.lines().map(|l| l.len() - l.trim_start().len()).max();
            assert_eq!(widest, Some(64));
            assert_eq!(xml::read(again.as_bytes(), &types).unwrap(), objs);
        })
        .unwrap()
        .join()
        .unwrap();
}
