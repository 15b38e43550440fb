//! Shapes and their areas (fixture for the declaration facts).

use std::fmt;

/// A point on the plane.
///
/// Coordinates are in pixels.
#[derive(Debug, Clone, Copy)]
pub struct Point {
    /// Horizontal.
    pub x: i32,
    y: i32,
}

/** The shapes we can draw. */
pub(crate) enum Shape {
    Circle { radius: f64 },
    Square(f64),
}

trait Area {
    /// The area in square pixels.
    fn area(&self) -> f64;
    type Unit;
    fn describe(&self) -> String {
        format!("{}", self.area())
    }
}

impl Area for Shape {
    type Unit = f64;
    fn area(&self) -> f64 {
        0.0
    }
}

pub struct Wrapper<T>(T);

impl<T: fmt::Debug> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl Point {
    pub const ORIGIN: Point = Point { x: 0, y: 0 };

    // Not a doc comment.
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// Moves the point.

    pub(super) async unsafe fn shift(&mut self, dx: i32) {
        self.x += dx;
    }
}

mod inner {
    pub static mut COUNT: u32 = 0;
    pub type Id = u64;
    macro_rules! twice {
        ($e:expr) => {
            $e * 2
        };
    }
}

pub union Bits {
    i: u32,
    f: f32,
}

extern "C" fn callback(
    code: i32,
) -> i32 {
    code
}
