pub fn leaf() {}
