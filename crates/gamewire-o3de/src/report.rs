//! Result codes and reports, after O3DE's `JsonSerializationResult`.
//!
//! A [`ResultCode`] packs a task, a processing state and an outcome. Combining two
//! codes keeps the more severe one (outcome first, then processing, then task) and
//! applies O3DE's partial rules: `Success` + `DefaultsUsed` = `PartialDefaults`,
//! `Success` + `Skipped` = `PartialSkip`, `Completed` + `Altered` = `PartialAlter`.

use std::fmt;

/// The task that was being performed when an issue was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Task {
    /// Retrieving information, for example from the type registry.
    RetrieveInfo = 1,
    /// Creating a default instance.
    CreateDefault,
    /// Converting a value from one type to another.
    Convert,
    /// Clearing a field or value.
    Clear,
    /// Reading a field from JSON into a value.
    ReadField,
    /// Writing a value to JSON.
    WriteValue,
    /// Merging two JSON documents (patches).
    Merge,
    /// Creating a patch between two JSON documents.
    CreatePatch,
    /// Importing a JSON document (`$import`).
    Import,
}

/// How a task was processed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Processing {
    /// Fully completed.
    Completed = 1,
    /// An issue was met but processing continued on another path.
    Altered,
    /// Some fields or values of an object or array were altered.
    PartialAlter,
    /// Processing could not complete.
    Halted,
}

/// The result of a task, from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
pub enum Outcome {
    /// Completed successfully.
    Success = 1,
    /// A field or value was skipped.
    Skipped,
    /// One or more fields of an object or array were skipped.
    PartialSkip,
    /// Only defaults were used.
    DefaultsUsed,
    /// Some defaults were used.
    PartialDefaults,
    /// The task tried to use space that is not available.
    Unavailable,
    /// An unsupported action was requested.
    Unsupported,
    /// Source and target are unrelated types.
    TypeMismatch,
    /// A test against a value failed.
    TestFailed,
    /// A required field or value was missing.
    Missing,
    /// A field or element has an invalid value.
    Invalid,
    /// Information was unknown or missing.
    Unknown,
    /// A general failure.
    Catastrophic,
}

const TASKS: [Task; 9] = [
    Task::RetrieveInfo,
    Task::CreateDefault,
    Task::Convert,
    Task::Clear,
    Task::ReadField,
    Task::WriteValue,
    Task::Merge,
    Task::CreatePatch,
    Task::Import,
];
const PROCESSINGS: [Processing; 4] = [
    Processing::Completed,
    Processing::Altered,
    Processing::PartialAlter,
    Processing::Halted,
];
const OUTCOMES: [Outcome; 13] = [
    Outcome::Success,
    Outcome::Skipped,
    Outcome::PartialSkip,
    Outcome::DefaultsUsed,
    Outcome::PartialDefaults,
    Outcome::Unavailable,
    Outcome::Unsupported,
    Outcome::TypeMismatch,
    Outcome::TestFailed,
    Outcome::Missing,
    Outcome::Invalid,
    Outcome::Unknown,
    Outcome::Catastrophic,
];

impl Outcome {
    /// The processing state O3DE gives a fresh code with this outcome.
    pub fn default_processing(self) -> Processing {
        match self {
            Outcome::Success
            | Outcome::Skipped
            | Outcome::PartialSkip
            | Outcome::DefaultsUsed
            | Outcome::PartialDefaults => Processing::Completed,
            Outcome::Unavailable | Outcome::Unsupported => Processing::Altered,
            _ => Processing::Halted,
        }
    }

    /// The outcome's name, as in O3DE.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Success => "Success",
            Outcome::Skipped => "Skipped",
            Outcome::PartialSkip => "PartialSkip",
            Outcome::DefaultsUsed => "DefaultsUsed",
            Outcome::PartialDefaults => "PartialDefaults",
            Outcome::Unavailable => "Unavailable",
            Outcome::Unsupported => "Unsupported",
            Outcome::TypeMismatch => "TypeMismatch",
            Outcome::TestFailed => "TestFailed",
            Outcome::Missing => "Missing",
            Outcome::Invalid => "Invalid",
            Outcome::Unknown => "Unknown",
            Outcome::Catastrophic => "Catastrophic",
        }
    }
}

impl Processing {
    /// The processing state's name, as in O3DE.
    pub fn name(self) -> &'static str {
        match self {
            Processing::Completed => "Completed",
            Processing::Altered => "Altered",
            Processing::PartialAlter => "PartialAlter",
            Processing::Halted => "Halted",
        }
    }
}

impl Task {
    /// The task's name, as in O3DE.
    pub fn name(self) -> &'static str {
        match self {
            Task::RetrieveInfo => "RetrieveInfo",
            Task::CreateDefault => "CreateDefault",
            Task::Convert => "Convert",
            Task::Clear => "Clear",
            Task::ReadField => "ReadField",
            Task::WriteValue => "WriteValue",
            Task::Merge => "Merge",
            Task::CreatePatch => "CreatePatch",
            Task::Import => "Import",
        }
    }
}

/// A task, processing state and outcome packed as O3DE does (outcome in the high bits),
/// so that the most severe of two codes is simply the larger number.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResultCode(u32);

impl ResultCode {
    /// A code for `task` that has done no work yet (its outcome reads as `DefaultsUsed`).
    pub const fn empty(task: Task) -> Self {
        ResultCode(task as u32)
    }

    /// A code for `task` with `outcome` and the processing state O3DE gives that outcome.
    pub fn new(task: Task, outcome: Outcome) -> Self {
        Self::from_parts(task, outcome.default_processing(), outcome)
    }

    /// A code from its three parts.
    pub fn from_parts(task: Task, processing: Processing, outcome: Outcome) -> Self {
        ResultCode(task as u32 | (processing as u32) << 8 | (outcome as u32) << 16)
    }

    fn raw_outcome(self) -> u32 {
        self.0 >> 16
    }

    fn raw_processing(self) -> u32 {
        (self.0 >> 8) & 0xff
    }

    /// True when an outcome has been set.
    pub fn has_done_work(self) -> bool {
        self.raw_outcome() != 0
    }

    /// The task.
    pub fn task(self) -> Task {
        let t = (self.0 & 0xff) as usize;
        TASKS[t.saturating_sub(1).min(TASKS.len() - 1)]
    }

    /// The processing state (`Completed` when none was set).
    pub fn processing(self) -> Processing {
        match self.raw_processing() as usize {
            0 => Processing::Completed,
            p => PROCESSINGS[(p - 1).min(3)],
        }
    }

    /// The outcome (`DefaultsUsed` when none was set).
    pub fn outcome(self) -> Outcome {
        match self.raw_outcome() as usize {
            0 => Outcome::DefaultsUsed,
            o => OUTCOMES[(o - 1).min(12)],
        }
    }

    /// True when processing halted.
    pub fn halted(self) -> bool {
        self.processing() == Processing::Halted
    }

    /// Combines two codes with O3DE's rules.
    pub fn combined(lhs: Self, rhs: Self) -> Self {
        let mut result = lhs.0.max(rhs.0);
        let (lo, ro) = (lhs.raw_outcome(), rhs.raw_outcome());
        let (s, d, k) = (
            Outcome::Success as u32,
            Outcome::DefaultsUsed as u32,
            Outcome::Skipped as u32,
        );
        if (lo == s && ro == d) || (lo == d && ro == s) {
            result = (result & 0xffff) | (Outcome::PartialDefaults as u32) << 16;
        } else if (lo == s && ro == k) || (lo == k && ro == s) {
            result = (result & 0xffff) | (Outcome::PartialSkip as u32) << 16;
        }
        let (lp, rp) = (lhs.raw_processing(), rhs.raw_processing());
        let (c, a) = (Processing::Completed as u32, Processing::Altered as u32);
        if (lp == c && rp == a) || (lp == a && rp == c) {
            result = (result & !0xff00) | (Processing::PartialAlter as u32) << 8;
        }
        ResultCode(result)
    }

    /// The sentence O3DE's `ResultCode::ToString(path)` writes, for example
    /// "The operation has taken an alternative approach for a read field operation for
    /// '/a' because the action was unsupported".
    pub fn describe(self, path: &str) -> String {
        if self.0 & 0xff == 0 {
            return "The result code wasn't initialized".to_string();
        }
        let mut s = String::from("The operation ");
        s.push_str(match self.processing() {
            Processing::Halted => "has halted during ",
            Processing::Altered => "has taken an alternative approach for ",
            Processing::PartialAlter => "has taken a partially alternative approach for ",
            Processing::Completed => "has completed ",
        });
        s.push_str(match self.task() {
            Task::RetrieveInfo => "a retrieve info operation ",
            Task::CreateDefault => "a create default operation ",
            Task::Convert => "a convert operation ",
            Task::Clear => "an unknown operation ",
            Task::ReadField => "a read field operation ",
            Task::WriteValue => "a write value operation ",
            Task::Merge => "a merge operation ",
            Task::CreatePatch => "a create patch operation ",
            // O3DE writes this one without a trailing space.
            Task::Import => "an import operation",
        });
        if !path.is_empty() {
            s.push_str("for '");
            s.push_str(path);
            s.push_str("' ");
        }
        s.push_str(match self.outcome() {
            Outcome::Success => "which resulted in success",
            Outcome::DefaultsUsed => "by using only default values",
            Outcome::PartialDefaults => "by using one or more default values",
            Outcome::Skipped => "because a field or value was skipped",
            Outcome::PartialSkip => "because one or more fields or values were skipped",
            Outcome::Unavailable => "because the target was unavailable",
            Outcome::Unsupported => "because the action was unsupported",
            Outcome::TypeMismatch => "because the source and target are unrelated types",
            Outcome::TestFailed => "because a test against a value failed",
            Outcome::Missing => "because a required field or value was missing",
            Outcome::Invalid => "because a field or element has an invalid value",
            Outcome::Unknown => "because information was missing",
            Outcome::Catastrophic => "because a catastrophic issue was encountered",
        });
        s
    }

    /// Combines `other` into `self` (see [`ResultCode::combined`]).
    pub fn combine(&mut self, other: Self) -> &mut Self {
        *self = Self::combined(*self, other);
        self
    }
}

impl fmt::Debug for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}",
            self.task().name(),
            self.processing().name(),
            self.outcome().name()
        )
    }
}

impl fmt::Display for ResultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// One issue met while loading or storing: where, what code, and a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    /// JSON Pointer (RFC 6901) to the value, `""` for the root.
    pub path: String,
    /// The code that was reported.
    pub code: ResultCode,
    /// What happened.
    pub message: String,
}

/// The overall result of a load or store and the issues met on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The combined result code.
    pub result: ResultCode,
    /// Issues whose processing was not `Completed`, or fields and values that were skipped.
    pub issues: Vec<Issue>,
}

impl Report {
    /// The overall processing state.
    pub fn processing(&self) -> Processing {
        self.result.processing()
    }

    /// The overall outcome.
    pub fn outcome(&self) -> Outcome {
        self.result.outcome()
    }

    /// Whether the task succeeded with nothing to tell: not halted, an outcome no worse
    /// than `PartialDefaults` (O3DE's own success outcomes: creating a patch, for one,
    /// reports `PartialDefaults`), and no issues. Tools stay quiet about such a report
    /// and print any other (a warning or a failure).
    pub fn is_clean(&self) -> bool {
        self.processing() != Processing::Halted
            && self.outcome() <= Outcome::PartialDefaults
            && self.issues.is_empty()
    }

    /// The report as JSON: `{"task", "processing", "outcome", "issues": [{"path", ...}]}`.
    pub fn to_json(&self) -> serde_json::Value {
        let issue = |i: &Issue| {
            serde_json::json!({
                "path": i.path,
                "task": i.code.task().name(),
                "processing": i.code.processing().name(),
                "outcome": i.code.outcome().name(),
                "message": i.message,
                "reason": i.code.describe(&i.path),
            })
        };
        serde_json::json!({
            "task": self.result.task().name(),
            "processing": self.result.processing().name(),
            "outcome": self.result.outcome().name(),
            "issues": self.issues.iter().map(issue).collect::<Vec<_>>(),
        })
    }
}

/// A reporting callback, as O3DE's `m_reporting` setting: called with the message,
/// the code and the JSON Pointer of each issue; the code it returns is the one
/// processing goes on with (so a callback can, for example, turn a halting error
/// into `PartialSkip` and let the rest of a patch apply).
pub type Reporting<'c> = dyn FnMut(&str, ResultCode, &str) -> ResultCode + 'c;

/// A [`Reporting`] callback shared by a loader or storer and the helpers it makes.
pub(crate) type SharedReporting<'r> =
    std::cell::RefCell<dyn FnMut(&str, ResultCode, &str) -> ResultCode + 'r>;

/// One step of the path to the value being processed.
#[derive(Debug, Clone)]
pub(crate) enum Seg<'a> {
    Key(&'a str),
    Owned(String),
    Index(usize),
}

impl Seg<'_> {
    /// The same segment, owning its text.
    pub(crate) fn to_owned_seg<'b>(&self) -> Seg<'b> {
        match self {
            Seg::Key(k) => Seg::Owned((*k).to_string()),
            Seg::Owned(k) => Seg::Owned(k.clone()),
            Seg::Index(i) => Seg::Index(*i),
        }
    }
}

/// Collects issues and tracks the JSON Pointer path of the value being processed.
#[derive(Debug, Default)]
pub(crate) struct Reporter<'a> {
    pub path: Vec<Seg<'a>>,
    pub issues: Vec<Issue>,
}

fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

impl<'a> Reporter<'a> {
    /// The current path as a JSON Pointer.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        for seg in &self.path {
            out.push('/');
            match seg {
                Seg::Key(k) => escape_into(&mut out, k),
                Seg::Owned(k) => escape_into(&mut out, k),
                Seg::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// Records `code` when it is worth reporting, and returns it.
    #[inline]
    pub fn code(&mut self, code: ResultCode, message: &str) -> ResultCode {
        if code.processing() != Processing::Completed
            || matches!(code.outcome(), Outcome::Skipped | Outcome::PartialSkip)
        {
            self.record(code, message);
        }
        code
    }

    #[cold]
    fn record(&mut self, code: ResultCode, message: &str) {
        let path = self.pointer();
        // A container re-reports a child's code; keep one issue per path and code.
        if let Some(last) = self.issues.last() {
            if last.code == code && last.path == path {
                return;
            }
        }
        self.issues.push(Issue {
            path,
            code,
            message: message.to_string(),
        });
    }

    /// Reports a fresh code for `task` and `outcome`.
    #[inline]
    pub fn report(&mut self, task: Task, outcome: Outcome, message: &str) -> ResultCode {
        self.code(ResultCode::new(task, outcome), message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_rules() {
        let s = ResultCode::new(Task::ReadField, Outcome::Success);
        let d = ResultCode::new(Task::ReadField, Outcome::DefaultsUsed);
        let k = ResultCode::new(Task::ReadField, Outcome::Skipped);
        let u = ResultCode::new(Task::ReadField, Outcome::Unsupported);
        let i = ResultCode::new(Task::ReadField, Outcome::Invalid);
        assert_eq!(
            ResultCode::combined(s, d).outcome(),
            Outcome::PartialDefaults
        );
        assert_eq!(
            ResultCode::combined(d, s).outcome(),
            Outcome::PartialDefaults
        );
        assert_eq!(ResultCode::combined(s, k).outcome(), Outcome::PartialSkip);
        let su = ResultCode::combined(s, u);
        assert_eq!(su.outcome(), Outcome::Unsupported);
        assert_eq!(su.processing(), Processing::PartialAlter);
        let ui = ResultCode::combined(su, i);
        assert_eq!(ui.processing(), Processing::Halted);
        assert_eq!(ui.outcome(), Outcome::Invalid);
        let e = ResultCode::empty(Task::ReadField);
        assert!(!e.has_done_work());
        assert_eq!(e.outcome(), Outcome::DefaultsUsed);
        assert_eq!(e.processing(), Processing::Completed);
        assert_eq!(ResultCode::combined(e, s), s);
        // Defaults then skipped: the more severe outcome (DefaultsUsed) wins.
        assert_eq!(ResultCode::combined(d, k).outcome(), Outcome::DefaultsUsed);
    }

    #[test]
    fn describes_like_o3de() {
        let c = ResultCode::new(Task::ReadField, Outcome::Unsupported);
        assert_eq!(
            c.describe("/a/0"),
            "The operation has taken an alternative approach for a read field operation for '/a/0' because the action was unsupported"
        );
        let c = ResultCode::new(Task::Merge, Outcome::Success);
        assert_eq!(
            c.describe(""),
            "The operation has completed a merge operation which resulted in success"
        );
    }

    #[test]
    fn pointer_escapes() {
        let mut r = Reporter {
            path: vec![Seg::Key("a/b"), Seg::Index(3), Seg::Key("m~n")],
            issues: vec![],
        };
        assert_eq!(r.pointer(), "/a~1b/3/m~0n");
        r.report(Task::ReadField, Outcome::Unsupported, "x");
        assert_eq!(r.issues[0].path, "/a~1b/3/m~0n");
    }
}
