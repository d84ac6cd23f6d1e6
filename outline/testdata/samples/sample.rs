use std::collections::HashMap;
pub use crate::inner::Thing;
mod inner;
pub mod api {
    pub fn call() {}
    fn private() {}
    pub struct Req;
    pub enum Kind { A }
}

pub struct Point {
    pub x: i32,
    y: i32,
}

struct Tuple(i32, String);

pub enum Shape {
    Circle { r: f64 },
    Square(f64),
    Empty,
}

pub trait Draw {
    fn draw(&self);
    fn name(&self) -> String { String::new() }
}

impl Draw for Point {
    fn draw(&self) {}
}

impl Point {
    pub fn new(x: i32) -> Self { Point { x, y: 0 } }
    fn hidden(&self) {}
}

pub const MAX: usize = 10;
const MIN: usize = 1;
pub static NAME: &str = "x";
static mut COUNTER: u32 = 0;

pub fn main() {}
fn helper<T: Clone>(t: T) -> T { t }
pub(crate) fn crate_only() {}

type Alias = HashMap<String, i32>;
pub union U { a: u32, b: f32 }
macro_rules! my_macro { () => {} }
