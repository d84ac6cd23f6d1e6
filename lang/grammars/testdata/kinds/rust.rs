use std::collections::HashMap;
#[derive(Debug, Clone)]
pub struct Point<T> { x: T, y: T }
pub trait Area { fn area(&self) -> f64; }
impl<T: Into<f64> + Copy> Area for Point<T> {
    fn area(&self) -> f64 { self.x.into() * self.y.into() }
}
enum Shape { Circle(f64), Rect { w: f64, h: f64 } }
macro_rules! square { ($x:expr) => { $x * $x }; }
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut m: HashMap<&str, i32> = HashMap::new();
    m.insert("a", 1);
    for (k, v) in &m { println!("{} {}", k, v); }
    let s = match Shape::Circle(1.0) { Shape::Circle(r) if r > 0.0 => r, _ => 0.0 };
    let f = |x: i32| -> i32 { x + 1 };
    let v: Vec<_> = (0..3).map(f).collect();
    if let Some(x) = v.first() { return Ok(()); }
    unsafe { std::ptr::null::<u8>(); }
    Ok(())
}
