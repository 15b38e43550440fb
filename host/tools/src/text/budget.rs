//! The text writer: lines under a token budget, grouped by file.

/// Bytes counted as one token. Tokenizers of current models read 3.5 to 4
/// bytes of code per token (bench/tokens measures it); counting 3 keeps
/// an answer within its budget.
pub const BYTES_PER_TOKEN: usize = 3;
/// `max_tokens` when the caller gives none.
pub const DEFAULT_MAX_TOKENS: usize = 2000;
/// The smallest budget accepted: room for a header, a few items and the
/// next page's arguments.
pub const MIN_MAX_TOKENS: usize = 200;
/// The largest budget accepted.
pub const MAX_MAX_TOKENS: usize = 100_000;
/// Bytes kept back for the closing lines (what was left out, the next
/// page's arguments), which are written whatever the budget.
const RESERVED_BYTES: usize = 600;

/// Lines of text, refused once the budget is spent; the first budgeted
/// line is always written, so that every page makes progress.
pub struct Writer {
    out: String,
    max_bytes: usize,
    group: Option<String>,
    cut: bool,
    written: usize,
}

impl Writer {
    pub fn new(max_tokens: usize) -> Self {
        let budget = max_tokens * BYTES_PER_TOKEN;
        Writer {
            out: String::new(),
            max_bytes: budget - RESERVED_BYTES.min(budget / 3),
            group: None,
            cut: false,
            written: 0,
        }
    }

    /// A line written whatever the budget (a header, a closing note).
    pub fn always(&mut self, line: &str) {
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// A line, when it fits; once one does not, every later one is refused
    /// too (the list stops there, not with holes).
    pub fn line(&mut self, line: &str) -> bool {
        let fits = self.out.len() + line.len() < self.max_bytes;
        if self.cut || (!fits && self.written > 0) {
            self.cut = true;
            return false;
        }
        self.always(line);
        self.written += 1;
        true
    }

    /// An item of the group `group` (a file path), written under the
    /// group's own line when it starts a new group; both fit or neither is
    /// written.
    pub fn grouped(&mut self, group: &str, line: &str) -> bool {
        if self.group.as_deref() == Some(group) {
            return self.line(line);
        }
        let both = format!("{group}\n{line}");
        if !self.line(&both) {
            return false;
        }
        self.group = Some(group.to_string());
        true
    }

    /// Forget the current group: the next grouped item repeats its group's
    /// line (a new section).
    pub fn end_group(&mut self) {
        self.group = None;
    }

    /// Text written as it is, when all of it fits; false (and nothing
    /// written) when it does not.
    pub fn whole(&mut self, text: &str) -> bool {
        if self.cut || self.out.len() + text.len() > self.max_bytes {
            return false;
        }
        self.out.push_str(text);
        true
    }

    /// Whether a line was refused.
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// Cut the text at the budget, at a line end: for texts written whole
    /// by their tool (the graph tools). Returns the lines left out.
    pub fn cut_whole(&mut self, text: &str) -> usize {
        let mut left_out = 0;
        for line in text.lines() {
            if !self.line(line) {
                left_out += 1;
            }
        }
        left_out
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stop_at_the_budget_and_stay_stopped() {
        let mut writer = Writer::new(MIN_MAX_TOKENS);
        let line = "x".repeat(10);
        let mut written = 0;
        while writer.line(&line) {
            written += 1;
        }
        let budget = MIN_MAX_TOKENS * BYTES_PER_TOKEN;
        assert_eq!(written, (budget - RESERVED_BYTES.min(budget / 3)) / 11);
        assert!(writer.is_cut());
        assert!(
            !writer.line("y"),
            "a short line after a refused one is refused too"
        );
        writer.always("closing");
        assert!(writer.finish().ends_with("closing\n"));
    }

    #[test]
    fn the_first_line_is_written_whatever_its_length() {
        let mut writer = Writer::new(MIN_MAX_TOKENS);
        writer.always(&"h".repeat(MIN_MAX_TOKENS * BYTES_PER_TOKEN));
        assert!(writer.line("first"), "a page always holds one item");
        assert!(!writer.line("second"));
    }

    #[test]
    fn a_group_line_comes_once_per_run_of_items() {
        let mut writer = Writer::new(DEFAULT_MAX_TOKENS);
        assert!(writer.grouped("a.rs", "  1:1 x"));
        assert!(writer.grouped("a.rs", "  2:1 y"));
        assert!(writer.grouped("b.rs", "  3:1 z"));
        writer.end_group();
        assert!(writer.grouped("b.rs", "  4:1 w"));
        assert_eq!(
            writer.finish(),
            "a.rs\n  1:1 x\n  2:1 y\nb.rs\n  3:1 z\nb.rs\n  4:1 w\n"
        );
    }
}
