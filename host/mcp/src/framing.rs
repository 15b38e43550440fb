//! Line-delimited framing over a byte stream, with a hard cap on line length:
//! an oversized line is skipped to its end and reported, never buffered whole.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One frame read from the stream.
#[derive(Debug, PartialEq)]
pub enum Frame {
    Line(Vec<u8>),
    /// A line longer than the limit; its length in bytes.
    TooLarge(usize),
    Eof,
}

/// Read the next non-empty line of at most `limit` bytes (newline excluded).
pub async fn next_frame<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    limit: usize,
) -> std::io::Result<Frame> {
    let mut line = Vec::new();
    let mut seen = 0usize;
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(match seen {
                0 => Frame::Eof,
                n if n > limit => Frame::TooLarge(n),
                _ if is_blank(&line) => Frame::Eof,
                _ => Frame::Line(line),
            });
        }
        let (chunk, found_newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], true),
            None => (buffer, false),
        };
        seen += chunk.len();
        if seen <= limit {
            line.extend_from_slice(chunk);
        } else {
            line = Vec::new(); // drop what was buffered; keep counting
        }
        let consumed = chunk.len() + usize::from(found_newline);
        reader.consume(consumed);
        if found_newline {
            if seen > limit {
                return Ok(Frame::TooLarge(seen));
            }
            if is_blank(&line) {
                seen = 0;
                line.clear();
                continue;
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Frame::Line(line));
        }
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn splits_lines_and_skips_oversized_ones() {
        let input = format!("{{\"a\":1}}\n\n{}\n{{\"b\":2}}\r\n", "x".repeat(100));
        let mut reader = tokio::io::BufReader::with_capacity(16, input.as_bytes());
        assert_eq!(
            next_frame(&mut reader, 50).await.unwrap(),
            Frame::Line(b"{\"a\":1}".to_vec())
        );
        assert_eq!(
            next_frame(&mut reader, 50).await.unwrap(),
            Frame::TooLarge(100)
        );
        assert_eq!(
            next_frame(&mut reader, 50).await.unwrap(),
            Frame::Line(b"{\"b\":2}".to_vec())
        );
        assert_eq!(next_frame(&mut reader, 50).await.unwrap(), Frame::Eof);
    }
}
