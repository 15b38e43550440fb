pub struct Gear;
