fn main() { let v = x.unwrap(); }
