const std = @import("std");
const Point = struct {
    x: i32,
    y: i32 = 0,
    pub fn norm(self: Point) i32 {
        return self.x * self.x + self.y * self.y;
    }
};
pub fn main() !void {
    var list = std.ArrayList(u8).init(std.heap.page_allocator);
    defer list.deinit();
    for (0..3) |i| {
        if (i == 1) continue;
        try list.append(@intCast(i));
    }
    const p = Point{ .x = 1 };
    std.debug.print("{d}\n", .{p.norm()});
    while (true) break;
}
