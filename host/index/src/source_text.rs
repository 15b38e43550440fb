//! A file's text as a snapshot holds it: compressed in blocks of whole
//! lines, and decompressed for the request that reads it (the whole text,
//! or only the block that holds the line it quotes), with the last texts
//! and blocks each thread read kept.
//!
//! Every indexed file's bytes stay in memory so that answers quote exactly
//! the text the facts were made from (a file edited since is not read half
//! way through a refresh). Held as they are, they were a tenth of a large
//! workspace's index (75 MiB of 790 on a 1.7M-line tree); LZ4 keeps them in
//! about a quarter of that. A reference list quotes one line of each site's
//! file, and a position is turned into an offset on one line: blocks of
//! about [`BLOCK_BYTES`] let those read a few kilobytes instead of the whole
//! file. `lz4_flex` because it is pure Rust and its block format needs no
//! framing we would not use.

use std::cell::RefCell;
use std::sync::Arc;

/// Bytes of text a block holds at least (its last line is whole, so a
/// block ends at the first line end from here); the last block holds what
/// is left.
const BLOCK_BYTES: usize = 8 * 1024;

/// Whole texts each thread keeps decompressed: a resolution or an answer
/// reads one file's text many times in a row, and sometimes two files in
/// turn.
const RECENT_TEXTS_PER_THREAD: usize = 2;

/// Blocks each thread keeps decompressed: a reference list reads a few
/// lines of each of several files.
const RECENT_BLOCKS_PER_THREAD: usize = 8;

/// Decompressed texts a thread keeps, newest first, with their keys.
type Recent<K> = RefCell<Vec<(K, Arc<str>)>>;

thread_local! {
    /// The texts this thread read last, by content digest, newest first.
    static RECENT_TEXTS: Recent<Box<str>> = const { RefCell::new(Vec::new()) };
    /// The blocks this thread read last, by content digest and block
    /// number, newest first.
    static RECENT_BLOCKS: Recent<(Box<str>, usize)> = const { RefCell::new(Vec::new()) };
}

/// The text of one file, compressed. Cloning shares it.
#[derive(Clone)]
pub struct SourceText(Arc<Held>);

struct Held {
    /// The blocks, each an LZ4 block, one after another.
    compressed: Box<[u8]>,
    /// Where each block starts, in order.
    blocks: Box<[Block]>,
    /// Bytes of the text.
    len: usize,
    /// Lines of the text, as `str::lines` counts them.
    lines: u32,
}

/// Where one block starts: in the text, in the compressed bytes, and the
/// (zero-based) number of its first line. Every block but the first starts
/// a line.
#[derive(Clone, Copy)]
struct Block {
    text_start: usize,
    compressed_start: usize,
    first_line: usize,
}

impl SourceText {
    pub fn new(text: &str) -> SourceText {
        let bytes = text.as_bytes();
        let mut compressed = Vec::new();
        let mut blocks = Vec::new();
        let (mut start, mut first_line) = (0, 0);
        while start < bytes.len() {
            let least = (start + BLOCK_BYTES).min(bytes.len());
            // Through the end of the line that reaches `least` ('\n' is one
            // byte, so the cut is a character boundary).
            let end = bytes[least - 1..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |at| least + at);
            let block = &bytes[start..end];
            blocks.push(Block {
                text_start: start,
                compressed_start: compressed.len(),
                first_line,
            });
            compressed.extend(lz4_flex::block::compress(block));
            first_line += block.iter().filter(|&&b| b == b'\n').count();
            start = end;
        }
        SourceText(Arc::new(Held {
            compressed: compressed.into(),
            blocks: blocks.into(),
            len: bytes.len(),
            lines: text.lines().count().try_into().unwrap_or(u32::MAX),
        }))
    }

    /// The text, decompressed (one allocation of its length).
    pub fn text(&self) -> Arc<str> {
        let mut bytes = vec![0; self.0.len];
        for number in 0..self.0.blocks.len() {
            let (text, compressed) = self.0.block_ranges(number);
            self.0.decompress(compressed, &mut bytes[text]);
        }
        text_of(bytes)
    }

    /// The text whose digest is `sha256`, from this thread's recent texts
    /// or decompressed (and kept among them). The digest names the bytes,
    /// so a kept text is right for any entry that has it.
    pub fn text_by_digest(&self, sha256: &str) -> Arc<str> {
        if let Some(text) =
            RECENT_TEXTS.with_borrow_mut(|recent| take_recent(recent, |digest| **digest == *sha256))
        {
            return text;
        }
        let text = self.text();
        RECENT_TEXTS.with_borrow_mut(|recent| {
            keep_recent(recent, RECENT_TEXTS_PER_THREAD, sha256.into(), &text);
        });
        text
    }

    /// `read` of the line that holds byte `offset` (clamped to the text,
    /// and moved back to a character's start): the byte offset where the
    /// line starts and its text without the line end. Decompresses only
    /// the block that holds it, unless this thread has the text at hand.
    pub fn with_line_at<R>(
        &self,
        sha256: &str,
        offset: usize,
        read: impl FnOnce(usize, &str) -> R,
    ) -> R {
        let offset = offset.min(self.0.len);
        if let Some(text) = recent_text(sha256) {
            let (start, line) = line_around(&text, offset);
            return read(start, line);
        }
        // The last block that starts at or before the offset (the first
        // block starts at 0).
        let number = self
            .0
            .blocks
            .partition_point(|block| block.text_start <= offset)
            .saturating_sub(1);
        let Some(block) = self.0.blocks.get(number) else {
            return read(0, "");
        };
        let text = self.block_by_digest(sha256, number);
        let (start, line) = line_around(&text, offset - block.text_start);
        read(block.text_start + start, line)
    }

    /// `read` of zero-based line `line`: the byte offset where it starts and
    /// its text without the line end, or `None` past the text's last line
    /// (a text that ends with a line end has an empty last line after it).
    pub fn with_line<R>(
        &self,
        sha256: &str,
        line: usize,
        read: impl FnOnce(usize, &str) -> R,
    ) -> Option<R> {
        if let Some(text) = recent_text(sha256) {
            let (start, found) = nth_line(&text, line)?;
            return Some(read(start, found));
        }
        let number = self
            .0
            .blocks
            .partition_point(|block| block.first_line <= line)
            .saturating_sub(1);
        let Some(block) = self.0.blocks.get(number) else {
            // An empty text has one, empty, line.
            return (line == 0).then(|| read(0, ""));
        };
        let text = self.block_by_digest(sha256, number);
        let (start, found) = nth_line(&text, line - block.first_line)?;
        Some(read(block.text_start + start, found))
    }

    /// Block `number` of the text whose digest is `sha256`, from this
    /// thread's recent blocks or decompressed (and kept among them).
    fn block_by_digest(&self, sha256: &str, number: usize) -> Arc<str> {
        let is_key = |(digest, kept): &(Box<str>, usize)| **digest == *sha256 && *kept == number;
        if let Some(text) = RECENT_BLOCKS.with_borrow_mut(|recent| take_recent(recent, is_key)) {
            return text;
        }
        let (text, compressed) = self.0.block_ranges(number);
        let mut bytes = vec![0; text.len()];
        self.0.decompress(compressed, &mut bytes);
        let block = text_of(bytes);
        RECENT_BLOCKS.with_borrow_mut(|recent| {
            keep_recent(
                recent,
                RECENT_BLOCKS_PER_THREAD,
                (sha256.into(), number),
                &block,
            );
        });
        block
    }

    /// Lines of the text, as `str::lines` counts them.
    pub fn lines(&self) -> usize {
        self.0.lines as usize
    }

    /// Bytes the compressed text takes.
    pub fn compressed_len(&self) -> usize {
        self.0.compressed.len()
    }
}

impl Held {
    /// The ranges block `number` takes in the text and in the compressed
    /// bytes.
    fn block_ranges(&self, number: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let block = self.blocks[number];
        let next = self.blocks.get(number + 1);
        (
            block.text_start..next.map_or(self.len, |n| n.text_start),
            block.compressed_start..next.map_or(self.compressed.len(), |n| n.compressed_start),
        )
    }

    fn decompress(&self, compressed: std::ops::Range<usize>, into: &mut [u8]) {
        // The blocks were made from a `str` by `new` and are never written
        // again: failing to decompress one to its length is a broken
        // invariant of this process, not bad input.
        let written = lz4_flex::block::decompress_into(&self.compressed[compressed], into)
            .expect("a source block decompresses: it was compressed in this process");
        assert_eq!(
            written,
            into.len(),
            "a source block decompresses to its length"
        );
    }
}

/// Decompressed bytes as text.
fn text_of(bytes: Vec<u8>) -> Arc<str> {
    // Blocks are cut after a line end, so each one is UTF-8 on its own.
    String::from_utf8(bytes)
        .expect("a source text is UTF-8: it was made from a str")
        .into()
}

/// The text of `sha256` if this thread has it at hand.
fn recent_text(sha256: &str) -> Option<Arc<str>> {
    RECENT_TEXTS.with_borrow(|recent| {
        recent
            .iter()
            .find(|(digest, _)| **digest == *sha256)
            .map(|(_, text)| text.clone())
    })
}

/// The entry kept under the key `is_key` accepts, moved to the front.
fn take_recent<K>(
    recent: &mut Vec<(K, Arc<str>)>,
    is_key: impl Fn(&K) -> bool,
) -> Option<Arc<str>> {
    let at = recent.iter().position(|(kept, _)| is_key(kept))?;
    let hit = recent.remove(at);
    let text = hit.1.clone();
    recent.insert(0, hit);
    Some(text)
}

/// Keep `text` under `key` in front, leaving at most `most` entries.
fn keep_recent<K>(recent: &mut Vec<(K, Arc<str>)>, most: usize, key: K, text: &Arc<str>) {
    recent.truncate(most - 1);
    recent.insert(0, (key, text.clone()));
}

/// The line of `text` that holds byte `at` (at most the text's length):
/// where it starts and its text without the line end.
fn line_around(text: &str, mut at: usize) -> (usize, &str) {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, &text[start..end])
}

/// Where zero-based line `n` of `text` starts and its text without the
/// line end, or `None` when the text has fewer line ends than `n`.
fn nth_line(text: &str, n: usize) -> Option<(usize, &str)> {
    let mut start = 0;
    for _ in 0..n {
        start += text[start..].find('\n')? + 1;
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    Some((start, &text[start..end]))
}

#[cfg(test)]
mod tests {
    use super::{BLOCK_BYTES, SourceText, line_around, nth_line};

    fn texts() -> Vec<String> {
        vec![
            String::new(),
            "fn main() {}\n".into(),
            "no line end".into(),
            "line one\r\nline two\nlíne three — ünïcode 🦀\n".into(),
            "pub struct Runtime;\n".repeat(5_000),
            // Lines longer than a block, and multi-byte characters across
            // where a block would be cut.
            format!(
                "{}\n{}\nend",
                "é".repeat(BLOCK_BYTES),
                "x".repeat(3 * BLOCK_BYTES)
            ),
            format!("{}\n\n\n", "🦀 ".repeat(BLOCK_BYTES / 3)),
        ]
    }

    #[test]
    fn a_text_comes_back_as_it_went_in() {
        for text in texts() {
            let held = SourceText::new(&text);
            assert_eq!(&*held.text(), text);
            assert_eq!(held.lines(), text.lines().count());
        }
    }

    #[test]
    fn a_line_read_from_its_block_is_the_line_of_the_whole_text() {
        for (number, text) in texts().iter().enumerate() {
            let held = SourceText::new(text);
            // A digest no other test uses: nothing is at hand but blocks.
            let digest = format!("line-{number}");
            let offsets = (0..=text.len())
                .step_by(97)
                .chain([text.len(), text.len() + 5]);
            for offset in offsets {
                let whole = line_around(text, offset.min(text.len()));
                let read =
                    held.with_line_at(&digest, offset, |start, line| (start, line.to_string()));
                assert_eq!(
                    read,
                    (whole.0, whole.1.to_string()),
                    "offset {offset} of text {number}"
                );
            }
            let line_ends = text.matches('\n').count();
            for line in 0..=line_ends + 1 {
                let whole = nth_line(text, line).map(|(s, l)| (s, l.to_string()));
                let read = held.with_line(&digest, line, |start, l| (start, l.to_string()));
                assert_eq!(read, whole, "line {line} of text {number}");
            }
            // With the whole text at hand, the same lines from it.
            held.text_by_digest(&digest);
            for line in [0, line_ends / 2, line_ends, line_ends + 1] {
                let whole = nth_line(text, line).map(|(s, l)| (s, l.to_string()));
                let read = held.with_line(&digest, line, |start, l| (start, l.to_string()));
                assert_eq!(read, whole, "line {line} of text {number}, text at hand");
            }
        }
    }

    #[test]
    fn a_thread_keeps_the_texts_it_read_last_by_digest() {
        let first = SourceText::new("fn first() {}\n");
        let second = SourceText::new("fn second() {}\n");
        let third = SourceText::new("fn third() {}\n");
        let a = first.text_by_digest("a");
        assert!(std::sync::Arc::ptr_eq(&a, &first.text_by_digest("a")));
        let b = second.text_by_digest("b");
        assert!(std::sync::Arc::ptr_eq(&a, &first.text_by_digest("a")));
        assert!(std::sync::Arc::ptr_eq(&b, &second.text_by_digest("b")));
        // A third text pushes out the one read least recently ("a").
        assert_eq!(&*third.text_by_digest("c"), "fn third() {}\n");
        assert!(std::sync::Arc::ptr_eq(&b, &second.text_by_digest("b")));
        assert!(!std::sync::Arc::ptr_eq(&a, &first.text_by_digest("a")));
        assert_eq!(&*first.text_by_digest("a"), "fn first() {}\n");
    }

    #[test]
    fn repetitive_source_is_held_in_a_fraction_of_its_size() {
        let text =
            "impl Handle {\n    pub fn spawn(&self) -> JoinHandle {\n        todo!()\n    }\n}\n"
                .repeat(400);
        let held = SourceText::new(&text);
        assert!(
            held.compressed_len() * 4 < text.len(),
            "{} of {} bytes",
            held.compressed_len(),
            text.len()
        );
    }
}
