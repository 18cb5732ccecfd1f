//! `gamewire resonite tree`: the full listing, `--slots` and `--depth N`.
#![cfg(feature = "resonite")]

mod common;
use common::gamewire_in_repo as gamewire;

fn text(args: &[&str]) -> String {
    let out = gamewire(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn slots_and_depth_shorten_the_tree() {
    let file = "samples/resonite/item.brson";
    let full = text(&["resonite", "tree", file]);
    let slots = text(&["resonite", "tree", "--slots", file]);
    let shallow = text(&["resonite", "tree", "--slots", "--depth", "1", file]);
    let count = |t: &str| t.lines().filter(|l| l.contains("  <")).count();
    // --slots: every slot and component type, no members.
    assert_eq!(count(&slots), count(&full));
    assert!(full.contains("Position: ") && !slots.contains("Position: "));
    assert!(slots.lines().count() * 2 < full.lines().count());
    // --depth 1: fewer slots, and a line saying how many are left out.
    assert!(count(&shallow) < count(&slots), "{shallow}");
    assert!(
        shallow.contains("slot(s) below depth 1 not shown"),
        "{shallow}"
    );
}
