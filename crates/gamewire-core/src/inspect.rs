//! The inspect tree: one node type that every format fills and every front end shows
//! (the CLI prints it as indented text or as JSON).
//!
//! A format walks its value and calls [`TreeBuilder`]: `leaf` for a value with no
//! children, `open` … `close` around a container, `keep` to elide long containers, and
//! `note` for a free line. The result is a list of [`Node`]s.
//!
//! ```
//! use gamewire_core::inspect::TreeBuilder;
//! let mut t = TreeBuilder::new(8);
//! t.open("player", "Dictionary", Some(2));
//! t.leaf("\"hp\"", "int", "87");
//! t.leaf("\"name\"", "String", "\"Ann\"");
//! t.close();
//! let nodes = t.finish();
//! assert_eq!(nodes[0].children.len(), 2);
//! assert_eq!(
//!     gamewire_core::inspect::render_text(&nodes),
//!     "  player: Dictionary (2 items)\n    \"hp\": int = 87\n    \"name\": String = \"Ann\"\n"
//! );
//! ```

use serde::Serialize;
use std::fmt::Write as _;

mod serializer;
pub use serializer::add_serialize;

/// The most nodes a tree keeps (see [`TreeBuilder::with_max_nodes`]): an inspect tree is
/// read by people, and a bound on it keeps `inspect`'s memory in proportion to its
/// input whatever the input's shape.
pub const MAX_NODES: usize = 100_000;

/// One line of an inspect tree and the lines under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    /// What the node is: a key, an index, a field name (may be empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Its type as the format names it (`Dictionary`, `int`, `class WizItemTemplate`);
    /// empty for a note.
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub ty: String,
    /// The value of a leaf, as text; `None` for a container or a note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// A container's number of items, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// A free text line (the node has no label, type or value then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Children shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
    /// Children left out after the first `max_items` (see [`TreeBuilder::keep`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub elided: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Node {
    fn new(label: &str, ty: &str) -> Self {
        Node {
            label: label.to_owned(),
            ty: ty.to_owned(),
            value: None,
            count: None,
            note: None,
            children: Vec::new(),
            elided: 0,
        }
    }
}

/// Builds a list of [`Node`]s; see the module docs.
#[derive(Debug)]
pub struct TreeBuilder {
    /// Finished top-level nodes.
    roots: Vec<Node>,
    /// Containers opened and not yet closed, outermost first.
    open: Vec<Node>,
    max_items: usize,
    /// Nodes kept so far, and the most kept.
    nodes: usize,
    max_nodes: usize,
    /// Nodes left out once `max_nodes` was reached (a container counts once: its
    /// children are not looked at).
    cut: usize,
    /// How many of the innermost open containers are past `max_nodes` (their nodes
    /// are dropped when they close).
    cut_open: usize,
}

impl TreeBuilder {
    /// An empty tree that elides containers past `max_items` children.
    pub fn new(max_items: usize) -> Self {
        TreeBuilder {
            roots: Vec::new(),
            open: Vec::new(),
            max_items,
            nodes: 0,
            max_nodes: MAX_NODES,
            cut: 0,
            cut_open: 0,
        }
    }

    /// Keeps at most `max_nodes` nodes (default [`MAX_NODES`]); what comes after is
    /// counted, and [`TreeBuilder::finish`] ends the tree with a note saying so.
    pub fn with_max_nodes(mut self, max_nodes: usize) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// The most children shown per container.
    pub fn max_items(&self) -> usize {
        self.max_items
    }

    /// Whether one more node may be kept (counting it); false once the tree is full,
    /// inside a container that was dropped included.
    fn admit(&mut self) -> bool {
        if self.cut_open > 0 {
            return false;
        }
        if self.nodes >= self.max_nodes {
            self.cut += 1;
            return false;
        }
        self.nodes += 1;
        true
    }

    fn push(&mut self, node: Node) {
        match self.open.last_mut() {
            Some(parent) => parent.children.push(node),
            None => self.roots.push(node),
        }
    }

    /// A leaf: `label: ty = value` (label may be empty).
    pub fn leaf(&mut self, label: &str, ty: &str, value: &str) {
        if !self.admit() {
            return;
        }
        let mut n = Node::new(label, ty);
        n.value = Some(value.to_owned());
        self.push(n);
    }

    /// Opens a container `label: ty (count items)`; its children follow until
    /// [`TreeBuilder::close`].
    pub fn open(&mut self, label: &str, ty: &str, count: Option<usize>) {
        if self.cut_open > 0 || !self.admit() {
            self.cut_open += 1;
            return;
        }
        let mut n = Node::new(label, ty);
        n.count = count;
        self.open.push(n);
    }

    /// Closes the container opened last.
    pub fn close(&mut self) {
        if self.cut_open > 0 {
            self.cut_open -= 1;
            return;
        }
        if let Some(n) = self.open.pop() {
            self.push(n);
        }
    }

    /// Closes the container opened last, which turned out to hold `count` children:
    /// for one opened without a count, its count and the children past `max_items`
    /// (not shown) are set now.
    pub fn close_counted(&mut self, count: usize) {
        if self.cut_open == 0 {
            if let Some(n) = self.open.last_mut() {
                if n.count.is_none() {
                    n.count = Some(count);
                    n.elided = count.saturating_sub(self.max_items);
                }
            }
        }
        self.close();
    }

    /// True when child `index` of a container of `count` children is shown; the rest
    /// are counted as elided.
    pub fn keep(&mut self, index: usize, count: usize) -> bool {
        if count <= self.max_items || index < self.max_items {
            return true;
        }
        if index == self.max_items && self.cut_open == 0 {
            match self.open.last_mut() {
                Some(parent) => parent.elided = count - self.max_items,
                None => {
                    let mut n = Node::new("", "");
                    n.note = Some(format!("… {} more", count - self.max_items));
                    self.roots.push(n);
                }
            }
        }
        false
    }

    /// A free text line at the current depth.
    pub fn note(&mut self, text: &str) {
        if !self.admit() {
            return;
        }
        let mut n = Node::new("", "");
        n.note = Some(text.to_owned());
        self.push(n);
    }

    /// The tree (containers left open are closed), ending with a note when nodes were
    /// left out past `max_nodes`.
    pub fn finish(mut self) -> Vec<Node> {
        self.cut_open = 0;
        while !self.open.is_empty() {
            self.close();
        }
        if self.cut > 0 {
            let mut n = Node::new("", "");
            n.note = Some(format!(
                "… the tree stops at {} nodes ({} more not shown)",
                self.max_nodes, self.cut
            ));
            self.roots.push(n);
        }
        self.roots
    }
}

/// The tree as indented text, two spaces a level, starting one level in: each line
/// `label: Type = value`, containers `label: Type (n items)` with their children under
/// them and `… n more` for elided ones.
pub fn render_text(nodes: &[Node]) -> String {
    let mut out = String::new();
    let mut stack: Vec<(&Node, usize)> = nodes.iter().rev().map(|n| (n, 1)).collect();
    // Elision lines are emitted after a container's last child: keep them as pseudo
    // entries on the stack (a container's own `elided` count at its children's depth).
    let mut pending: Vec<(usize, usize, usize)> = Vec::new(); // (stack len, depth, count)
    while let Some((n, depth)) = stack.pop() {
        while let Some(&(len, d, count)) = pending.last() {
            if stack.len() + 1 > len {
                break;
            }
            pad(&mut out, d);
            let _ = writeln!(out, "… {count} more");
            pending.pop();
        }
        pad(&mut out, depth);
        line(&mut out, n);
        if n.elided > 0 {
            pending.push((stack.len(), depth + 1, n.elided));
        }
        stack.extend(n.children.iter().rev().map(|c| (c, depth + 1)));
    }
    while let Some((_, d, count)) = pending.pop() {
        pad(&mut out, d);
        let _ = writeln!(out, "… {count} more");
    }
    out
}

fn pad(out: &mut String, depth: usize) {
    indent(out, depth);
}

/// Indents a line of a text tree at `depth`, the rule of every tree rendering (this
/// one, `o3de tree`, `resonite tree`): two spaces a level up to
/// [`PRETTY_DEPTH`](crate::json_out::PRETTY_DEPTH) levels, as the JSON writer indents;
/// deeper lines stop indenting further and start with their real depth, `[depth 5000] `,
/// so that a chain of 100,000 levels prints 100,000 lines of bounded width, not 20 GB of
/// spaces.
pub fn indent(out: &mut String, depth: usize) {
    use crate::json_out::PRETTY_DEPTH;
    for _ in 0..depth.min(PRETTY_DEPTH) {
        out.push_str("  ");
    }
    if depth > PRETTY_DEPTH {
        let _ = write!(out, "[depth {depth}] ");
    }
}

/// The text [`indent`] writes for `depth`.
pub fn indent_text(depth: usize) -> String {
    let mut s = String::new();
    indent(&mut s, depth);
    s
}

fn line(out: &mut String, n: &Node) {
    if let Some(note) = &n.note {
        out.push_str(note);
        out.push('\n');
        return;
    }
    if !n.label.is_empty() {
        let _ = write!(out, "{}: ", n.label);
    }
    match (&n.value, n.count) {
        (Some(v), _) => {
            let _ = writeln!(out, "{} = {v}", n.ty);
        }
        (None, Some(c)) => {
            let _ = writeln!(out, "{} ({c} item{})", n.ty, if c == 1 { "" } else { "s" });
        }
        (None, None) => {
            let _ = writeln!(out, "{}", n.ty);
        }
    }
}

/// A string for display in a tree: quoted, escaped, at most `max` characters (longer
/// strings end with `… (N chars)`).
pub fn short_str(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head:?}… ({count} chars)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past 32 levels lines are indented no further and start with their real depth.
    #[test]
    fn text_indentation_is_bounded() {
        let mut n = Node::new("leaf", "int");
        n.value = Some("1".into());
        for i in (0..100).rev() {
            let mut p = Node::new(&format!("l{i}"), "array");
            p.count = Some(1);
            p.children.push(n);
            n = p;
        }
        let text = render_text(&[n]);
        assert_eq!(text.lines().count(), 101);
        assert!(text.contains(&format!("\n{}l31: array (1 item)\n", "  ".repeat(32))));
        assert!(text.contains(&format!("\n{}[depth 33] l32: array", "  ".repeat(32))));
        assert!(text.ends_with(&format!("{}[depth 101] leaf: int = 1\n", "  ".repeat(32))));
        let widest = text.lines().map(str::len).max().unwrap();
        assert!(widest < 100, "a line of {widest} bytes");
        assert_eq!(indent_text(2), "    ");
        assert_eq!(
            indent_text(5000),
            format!("{}[depth 5000] ", "  ".repeat(32))
        );
    }

    #[test]
    fn text_indents_elides_and_closes_in_order() {
        let mut t = TreeBuilder::new(2);
        t.open("a", "Array", Some(4));
        for i in 0..4 {
            if t.keep(i, 4) {
                t.open(&format!("[{i}]"), "Array", Some(1));
                t.leaf("[0]", "int", &i.to_string());
                t.close();
            }
        }
        t.close();
        t.note("done");
        let nodes = t.finish();
        assert_eq!(nodes[0].elided, 2);
        assert_eq!(
            render_text(&nodes),
            "  a: Array (4 items)\n    [0]: Array (1 item)\n      [0]: int = 0\n    \
             [1]: Array (1 item)\n      [0]: int = 1\n    … 2 more\n  done\n"
        );
    }

    #[test]
    fn stops_at_max_nodes_with_a_note() {
        let mut t = TreeBuilder::new(100).with_max_nodes(4);
        t.open("a", "Array", Some(3));
        t.leaf("[0]", "int", "0");
        t.open("[1]", "Array", Some(50));
        t.leaf("[0]", "int", "1");
        t.leaf("[1]", "int", "2");
        t.open("[2]", "Array", Some(1));
        t.leaf("[0]", "int", "3");
        t.close();
        t.close();
        t.leaf("[2]", "int", "4");
        t.close();
        let nodes = t.finish();
        assert_eq!(
            render_text(&nodes),
            "  a: Array (3 items)\n    [0]: int = 0\n    [1]: Array (50 items)\n      \
             [0]: int = 1\n  … the tree stops at 4 nodes (3 more not shown)\n"
        );
    }
}
