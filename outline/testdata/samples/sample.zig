const std = @import("std");
pub const Point = struct { x: i32, y: i32, pub fn len(self: Point) i32 { return self.x; } };
const Color = enum { red, green };
pub fn main() void {}
fn helper() void {}
var counter: u32 = 0;
test "adds" {}
