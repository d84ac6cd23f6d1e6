import Foundation
protocol Shape { func area() -> Double }
struct Circle: Shape {
    let r: Double
    func area() -> Double { return Double.pi * r * r }
}
enum Color: String { case red, green = "g" }
final class Box<T>: NSObject {
    private var items: [T] = []
    init(_ items: [T]) { self.items = items }
    func map<U>(_ f: (T) -> U) -> [U] { items.map(f) }
}
func main() async throws {
    let xs = [1, 2, 3].map { $0 * 2 }.filter { x in x > 2 }
    guard let first = xs.first else { return }
    for x in xs where x > 1 { print("\(x) \(first)") }
    switch first { case 0...4: break; default: print(first) }
    let c = Circle(r: 2)
    print(c.area(), Color.red.rawValue, xs.count as Int?)
}
let missing: Int? = nil
