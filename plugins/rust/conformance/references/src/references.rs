//! Uses of names (fixture for references and locals).

use crate::shapes::Shape;

pub trait Named: Clone + fmt::Debug {
    fn name(&self) -> String;
}

pub fn total<T: Named>(items: &[T], limit: usize) -> usize {
    let mut count = 0;
    for (index, item) in items.iter().enumerate() {
        if let Some(first) = item.name().chars().next() {
            count += first.len_utf8();
        }
        count = count.max(index);
    }
    let shape = Shape::Circle { radius: 1.0 };
    match shape {
        Shape::Square(side) => helper(side as usize),
        other => std::mem::drop(other),
    }
    let count = count + limit;
    'outer: loop {
        break 'outer;
    }
    let parse = |text: &str| text.parse::<usize>().unwrap_or(0);
    parse("4") + count + crate::util::helper(limit)
}

fn helper(value: usize) -> usize {
    let mut state = State::default();
    state.total = value;
    state.total += 1;
    Vec::<usize>::new().len() + state.total
}

fn checks(limit: usize) {
    assert_eq!(helper(limit), vec![State::default(); 2].len(), "{limit}");
}
