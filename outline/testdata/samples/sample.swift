import Foundation
@preconcurrency import Dispatch

public class Service: Base {
    var name: String = ""
    private var secret = 0
    init(name: String) { self.name = name }
    public func run() {}
    func helper() -> Int { 1 }
}

protocol Api {
    func call()
}

struct Point {
    let x: Int
    func length() -> Double { 0 }
}

enum Color {
    case red, green
}

actor Counter {
    func increment() {}
}

extension Point {
    func twice() -> Point { self }
}

func topLevel() {}
let answer = 42
typealias Name = String
