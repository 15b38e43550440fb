//! A plugin's stderr, kept as a bounded tail per store.
//!
//! A plugin's panic message (Rust's default panic hook writes it to stderr
//! before the abort traps) is what explains a trap, so stderr is captured
//! instead of discarded. Only the last [`StderrTail::capacity`] bytes are
//! kept, and writing never fails: a chatty plugin loses its oldest output,
//! never its call.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// Bytes kept of a plugin's stderr.
pub const STDERR_TAIL_BYTES: usize = 8 << 10;
/// What one `check-write` allows; the tail accepts any amount.
const WRITE_PERMIT: usize = 64 << 10;

/// The last bytes a store's guest wrote to stderr. Clones share the buffer.
#[derive(Debug, Clone)]
pub struct StderrTail {
    buffer: Arc<Mutex<VecDeque<u8>>>,
    capacity: usize,
}

impl StderrTail {
    pub fn new(capacity: usize) -> Self {
        StderrTail {
            buffer: Arc::new(Mutex::new(VecDeque::with_capacity(capacity.min(1024)))),
            capacity,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<u8>> {
        lingo_model::sync::lock(&self.buffer)
    }

    /// Forget what was written (at the start of each call).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn push(&self, bytes: &[u8]) {
        let mut buffer = self.lock();
        let bytes = &bytes[bytes.len().saturating_sub(self.capacity)..];
        let overflow = (buffer.len() + bytes.len()).saturating_sub(self.capacity);
        buffer.drain(..overflow);
        buffer.extend(bytes);
    }

    /// The kept text, lossily decoded; a character cut at the front of the
    /// tail is dropped.
    pub fn contents(&self) -> String {
        let buffer = self.lock();
        let (front, back) = buffer.as_slices();
        let mut bytes = Vec::with_capacity(buffer.len());
        bytes.extend_from_slice(front);
        bytes.extend_from_slice(back);
        let cut = bytes
            .iter()
            .take(3)
            .take_while(|&&b| b & 0xC0 == 0x80)
            .count();
        String::from_utf8_lossy(&bytes[cut..]).into_owned()
    }
}

impl IsTerminal for StderrTail {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for StderrTail {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl OutputStream for StderrTail {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        self.push(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        Ok(WRITE_PERMIT)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for StderrTail {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for StderrTail {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.push(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// The panic message in a Rust guest's stderr: the text after the last
/// `panicked at <location>:` line, up to the `note:` line, with its location.
pub fn panic_message(stderr: &str) -> Option<String> {
    let start = stderr.rfind("panicked at ")?;
    let rest = &stderr[start + "panicked at ".len()..];
    let (location, message) = rest.split_once('\n').unwrap_or((rest, ""));
    let location = location.trim_end().trim_end_matches(':');
    let message: Vec<&str> = message
        .lines()
        .take_while(|line| !line.starts_with("note: "))
        .collect();
    let message = message.join("\n");
    let message = message.trim();
    Some(if message.is_empty() {
        format!("panicked at {location}")
    } else {
        format!("panicked at {location}: {message}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_bytes_and_never_refuses_a_write() {
        let mut tail = StderrTail::new(16);
        for _ in 0..100 {
            tail.write(Bytes::from_static(b"0123456789")).unwrap();
        }
        tail.write(Bytes::from_static(b"the end")).unwrap();
        assert_eq!(tail.contents(), "123456789the end");
        assert_eq!(tail.check_write().unwrap(), WRITE_PERMIT);
        tail.write(Bytes::from(vec![b'x'; 100])).unwrap();
        assert_eq!(tail.contents(), "x".repeat(16));
        tail.clear();
        assert_eq!(tail.contents(), "");
        // A multi-byte character cut by the tail's start is dropped.
        let mut tail = StderrTail::new(4);
        tail.write(Bytes::from("aé€".as_bytes().to_vec())).unwrap();
        assert_eq!(tail.contents(), "€");
    }

    #[test]
    fn the_panic_message_is_found_in_the_default_hooks_output() {
        let stderr = "some log line\nthread '<unnamed>' panicked at src/lib.rs:78:14:\n\
                      rust plugin queries: symbols.scm: invalid field name `foo`\n\
                      note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            panic_message(stderr).unwrap(),
            "panicked at src/lib.rs:78:14: rust plugin queries: symbols.scm: invalid field name `foo`"
        );
        assert_eq!(panic_message("no panic here"), None);
    }
}
