pub mod gears;
