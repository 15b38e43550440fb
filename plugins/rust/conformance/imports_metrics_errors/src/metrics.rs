//! Functions of known complexity (fixture for metrics).

fn straight(a: u32, b: u32) -> u32 {
    // A comment line.
    a + b
}

fn branches(x: i32, flag: bool) -> &'static str {
    if x > 0 && flag {
        "positive"
    } else if x < 0 || !flag {
        "negative"
    } else {
        "zero"
    }
}

fn nested(items: &[Vec<u8>]) -> Result<usize, String> {
    let mut total = 0;
    for row in items {
        for cell in row {
            while total < 10 {
                if *cell == 0 {
                    continue;
                }
                total += 1;
            }
        }
    }
    let value = parse(total)?;
    match value {
        0 => Ok(0),
        n if n > 100 && n < 200 && n != 150 => Ok(n),
        _ => Err("out of range".into()),
    }
}

impl Thing {
    fn method(&self, f: impl Fn(u8) -> u8) -> u8 {
        let inner = |v: u8| {
            if v > 1 { f(v) } else { v }
        };
        fn helper(z: u8) -> u8 {
            if z == 0 { 1 } else { z }
        }
        inner(helper(2))
    }
}
