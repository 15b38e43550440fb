//! Reads JSON lines `{"id": .., "text": ".."}` on stdin and writes
//! `{"id": .., "tokens": n, "bytes": n}` lines: the token count of each text
//! under o200k_base, the tokenizer of current OpenAI models, whose
//! vocabulary the tiktoken-rs crate ships (no download at run time).

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tokenizer = tiktoken_rs::o200k_base()?;
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let item: Value = serde_json::from_str(&line)?;
        let text = item["text"].as_str().unwrap_or_default();
        let tokens = tokenizer.encode_ordinary(text).len();
        writeln!(
            stdout,
            "{}",
            json!({ "id": item["id"], "tokens": tokens, "bytes": text.len() })
        )?;
    }
    Ok(())
}
