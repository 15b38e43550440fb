fn ok() -> u32 {
    1
}

fn missing_paren(a: u32 {
    a
}

fn stray() {
    let x = 1 +;
    x
}

struct S { a: u32 b: u32 }
