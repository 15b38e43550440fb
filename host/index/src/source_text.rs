//! A file's text as a snapshot holds it: compressed, and decompressed for
//! the request that reads it, with the last texts each thread read kept.
//!
//! Every indexed file's bytes stay in memory so that answers quote exactly
//! the text the facts were made from (a file edited since is not read half
//! way through a refresh). Held as they are, they were a tenth of a large
//! workspace's index (75 MiB of 790 on a 1.7M-line tree); LZ4 keeps them in
//! about a quarter of that and gives a file back in about 13 µs (24 KB),
//! well inside a request. `lz4_flex` because it is pure Rust and its block
//! format needs no framing we would not use.

use std::cell::RefCell;
use std::sync::Arc;

/// Texts each thread keeps decompressed: a resolution or an answer reads
/// one file's text many times in a row, and sometimes two files in turn.
const RECENT_PER_THREAD: usize = 2;

thread_local! {
    /// The texts this thread read last, by content digest, newest first.
    static RECENT: RefCell<Vec<(Box<str>, Arc<str>)>> = const { RefCell::new(Vec::new()) };
}

/// The text of one file, compressed. Cloning shares it.
#[derive(Clone)]
pub struct SourceText {
    /// LZ4 block of the text, its length prepended.
    compressed: Arc<[u8]>,
    /// Lines of the text, as `str::lines` counts them.
    lines: u32,
}

impl SourceText {
    pub fn new(text: &str) -> SourceText {
        SourceText {
            compressed: lz4_flex::compress_prepend_size(text.as_bytes()).into(),
            lines: text.lines().count().try_into().unwrap_or(u32::MAX),
        }
    }

    /// The text, decompressed (one allocation of its length).
    pub fn text(&self) -> Arc<str> {
        // The block was made from a `str` by `new` and is never written
        // again: failing to decompress it or to read it as UTF-8 is a
        // broken invariant of this process, not bad input.
        let bytes = lz4_flex::decompress_size_prepended(&self.compressed)
            .expect("a source text decompresses: it was compressed in this process");
        String::from_utf8(bytes)
            .expect("a source text is UTF-8: it was made from a str")
            .into()
    }

    /// The text whose digest is `sha256`, from this thread's recent texts
    /// or decompressed (and kept among them). The digest names the bytes,
    /// so a kept text is right for any entry that has it.
    pub fn text_by_digest(&self, sha256: &str) -> Arc<str> {
        let kept = RECENT.with_borrow_mut(|recent| {
            let at = recent.iter().position(|(digest, _)| **digest == *sha256)?;
            let hit = recent.remove(at);
            let text = hit.1.clone();
            recent.insert(0, hit);
            Some(text)
        });
        if let Some(text) = kept {
            return text;
        }
        let text = self.text();
        RECENT.with_borrow_mut(|recent| {
            recent.truncate(RECENT_PER_THREAD - 1);
            recent.insert(0, (sha256.into(), text.clone()));
        });
        text
    }

    /// Lines of the text, as `str::lines` counts them.
    pub fn lines(&self) -> usize {
        self.lines as usize
    }

    /// Bytes the compressed text takes.
    pub fn compressed_len(&self) -> usize {
        self.compressed.len()
    }
}

#[cfg(test)]
mod tests {
    use super::SourceText;

    #[test]
    fn a_text_comes_back_as_it_went_in() {
        let texts = [
            "",
            "fn main() {}\n",
            "line one\r\nline two\nlíne three — ünïcode 🦀\n",
            &"pub struct Runtime;\n".repeat(5_000),
        ];
        for text in texts {
            let held = SourceText::new(text);
            assert_eq!(&*held.text(), text);
            assert_eq!(held.lines(), text.lines().count());
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
