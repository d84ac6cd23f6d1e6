package conformance

// Case is one differential case: a pattern searched in one file.
type Case struct {
	Lang, Pattern, Code, Strictness, Selector string
}

// group builds cases sharing a language and a file.
func group(lang, code string, patterns ...string) []Case {
	var out []Case
	for _, p := range patterns {
		out = append(out, Case{Lang: lang, Pattern: p, Code: code})
	}
	return out
}

// strictly repeats a pattern at every strictness level.
func strictly(lang, code, pattern string) []Case {
	var out []Case
	for _, s := range []string{"cst", "smart", "ast", "relaxed", "signature", "template"} {
		out = append(out, Case{Lang: lang, Pattern: pattern, Code: code, Strictness: s})
	}
	return out
}

const goCode = `package p

import "fmt"

// f does things.
func f(a int, b string) (int, error) {
	if err := g(); err != nil {
		return 0, fmt.Errorf("g: %w", err)
	}
	x := a + 1 // inline comment
	y, z := x, b
	fmt.Println(x, y, z)
	for i := 0; i < 10; i++ {
		x += i
	}
	return x, nil
}
`

const jsCode = `import { a, b } from 'lib';
const x = foo(1, 2, 3);
let y = foo(/* note */ bar);
foo(bar);
console.log("hello", x, y);
function add(a, b) { return a + b; }
const add2 = (a, b) => a + b;
if (x === y) { console.log('eq'); } else { console.log("ne"); }
obj.method(a)(b);
foo(foo(1));
`

const tsCode = `interface User { name: string; age?: number }
function greet(u: User): string { return "hi " + u.name; }
const xs: Array<number> = [1, 2, 3];
let n = xs.map((x) => x * 2).filter((x) => x > 2);
export default class Box<T> { constructor(private v: T) {} get(): T { return this.v; } }
`

const pyCode = `import os
from typing import List

def f(x, y=1, *args, **kwargs):
    """doc"""
    if x:
        a()
        return x + y
    print(x, y)
    return None

class C(Base):
    def m(self, v):
        self.v = v
        return f(v) == f( v )

values = [i * 2 for i in range(10) if i % 2]
with open("f") as fh:
    data = fh.read()
`

const rustCode = `use std::collections::HashMap;

fn main() {
    let mut m = HashMap::new();
    m.insert("a", 1);
    let v: Vec<i32> = vec![1, 2, 3];
    if let Some(x) = m.get("a") {
        println!("{}", x);
    }
    let r = compute(1, 2).unwrap();
    match r { 0 => {}, n => println!("{}", n) }
}

fn compute(a: i32, b: i32) -> Result<i32, String> { Ok(a + b) }
`

const javaCode = `package p;

import java.util.List;

public class A extends B implements C {
    private int x = 1;
    // comment
    public int get(int y) {
        if (y > 0) { return x + y; }
        System.out.println("neg " + y);
        return foo(x, y, 3);
    }
}
`

const cCode = `#include <stdio.h>
#include <stdlib.h>

int add(int a, int b) { return a + b; }

int main(void) {
    char *p = malloc(10);
    if (p == NULL) { return 1; }
    printf("%d\n", add(1, 2));
    free(p);
    return 0;
}
`

const cppCode = `#include <vector>
#include <string>

class Widget {
public:
    int size() const { return n; }
private:
    int n = 0;
};

int main() {
    std::vector<int> v{1, 2, 3};
    auto w = std::make_unique<Widget>();
    for (auto x : v) { std::cout << x << std::endl; }
    return w->size();
}
`

const csCode = `using System;

namespace N {
    public class P {
        public static void Main(string[] args) {
            var x = Compute(1, 2);
            Console.WriteLine($"x = {x}");
            if (x > 2) { Console.WriteLine("big"); }
        }
        static int Compute(int a, int b) => a + b;
    }
}
`

const rubyCode = `require 'json'

class Greeter
  def initialize(name)
    @name = name
  end

  def greet(other = nil)
    puts "Hello #{@name}"
    [1, 2, 3].each { |i| puts i }
    other.nil? ? nil : other.greet
  end
end
`

const phpCode = `<?php
function add($a, $b) {
    return $a + $b;
}
$x = add(1, 2);
echo "x is $x";
if ($x > 2) { print_r([1, 2, 3]); }
$obj->method($x, 'y');
`

const kotlinCode = `package p

fun main(args: Array<String>) {
    val x = listOf(1, 2, 3).map { it * 2 }
    println("x = $x")
    if (x.isEmpty()) return
    val y: Int? = null
    y?.let { println(it) }
}

class Box(val v: Int) { fun get(): Int = v }
`

const swiftCode = `import Foundation

func greet(name: String, times: Int) -> String {
    let s = "Hello, \(name)"
    for _ in 0..<times { print(s) }
    return s
}

let r = greet(name: "a", times: 2)
if r.isEmpty { print("empty") }
`

const luaCode = `local function add(a, b)
  return a + b
end

local t = { x = 1, y = 2 }
print(add(1, 2), t.x)
for i = 1, 10 do
  if i % 2 == 0 then print(i) end
end
`

const bashCode = `#!/bin/bash
set -euo pipefail
NAME="$1"
if [ -z "$NAME" ]; then
  echo "usage: $0 name"
  exit 1
fi
for f in *.txt; do
  cat "$f" | grep foo
done
echo "done $NAME"
`

const jsonCode = `{
  "name": "x",
  "version": "1.0.0",
  "deps": { "a": "^1", "b": "~2" },
  "list": [1, 2, 3],
  "flag": true
}
`

const yamlCode = `name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: go test ./...
`

const cssCode = `body { margin: 0; padding: 0 }
.a, .b > p { color: red; font-size: 12px; }
@media (max-width: 600px) { .a { display: none } }
`

const htmlCode = `<!DOCTYPE html>
<html>
  <body>
    <div class="a" id="x"><p>Hello</p></div>
    <img src="a.png" alt="">
    <a href="/x">link</a>
  </body>
</html>
`

const scalaCode = `object Main {
  def add(a: Int, b: Int): Int = a + b
  def main(args: Array[String]): Unit = {
    val xs = List(1, 2, 3).map(x => x * 2)
    println(add(1, 2))
    if (xs.isEmpty) println("empty") else println(xs)
  }
}
`

const elixirCode = `defmodule Greeter do
  def hello(name) do
    IO.puts("Hello " <> name)
    Enum.map([1, 2, 3], fn x -> x * 2 end)
  end
end
`

const haskellCode = `module Main where

add :: Int -> Int -> Int
add a b = a + b

main :: IO ()
main = do
  print (add 1 2)
  mapM_ print [1, 2, 3]
`

const solidityCode = `pragma solidity ^0.8.0;

contract Token {
    mapping(address => uint256) public balances;
    function transfer(address to, uint256 amount) public returns (bool) {
        require(balances[msg.sender] >= amount, "low");
        balances[msg.sender] -= amount;
        balances[to] += amount;
        return true;
    }
}
`

var cases = concat(
	// Go
	group("go", goCode, "fmt.Errorf($$$ARGS)", "if err := $CALL; err != nil { $$$BODY }", "$A := $B", "$A, $B := $C, $D",
		"return $A, nil", "return $$$", "x += $I", "for $$$ { $$$BODY }", "$X + 1", "func $F($$$P) ($$$R) { $$$B }",
		"import \"fmt\"", "// inline comment", "$A"),
	[]Case{{Lang: "go", Pattern: "fmt.Println($$$A)", Code: goCode}},
	[]Case{
		{Lang: "go", Pattern: "func t() { fmt.Println($$$A) }", Code: goCode, Selector: "call_expression"},
		{Lang: "go", Pattern: "func t() { x := $A + 1 }", Code: goCode, Selector: "binary_expression"},
		{Lang: "javascript", Pattern: "class A { $F = $V }", Code: "class B { x = 1; y = f(); }\n", Selector: "field_definition"},
		{Lang: "python", Pattern: "class C:\n    def m(self, $A):\n        $$$B", Code: pyCode, Selector: "function_definition"},
		{Lang: "c", Pattern: "void f() { malloc($SIZE); }", Code: cCode, Selector: "call_expression"},
	},
	strictly("go", goCode, "fmt.Errorf($A, $B)"),
	// JavaScript
	group("javascript", jsCode, "foo($$$)", "foo($A, $$$REST)", "foo($$$A, 3)", "foo($$$A, $B, $$$C)", "foo(bar)", "foo(bar);",
		"console.log($$$ARGS)", "console.log($A)", "$A === $A", "$A === $B", "function $F($$$P) { $$$B }", "($A, $B) => $A + $B",
		"if ($C) { $$$T } else { $$$E }", "import { $$$NAMES } from 'lib'", "'eq'", "\"ne\"", "$OBJ.$M($A)($B)", "foo(foo($X))",
		"const $X = $Y", "let $X = $Y;", "$$A"),
	strictly("javascript", jsCode, "foo(bar)"),
	strictly("javascript", jsCode, "console.log('eq')"),
	// TypeScript and TSX
	group("typescript", tsCode, "interface $I { $$$M }", "function $F($$$P): $T { $$$B }", "$X.map($F)", "$A.map($F).filter($G)",
		"const $N: $T = $V", "($X) => $X * 2", "class $C<$T> { $$$B }", "return $A"),
	strictly("typescript", tsCode, "return $A"),
	group("tsx", "const App = () => <div className=\"a\"><Child x={1} /></div>;\n", "<Child $$$P />", "<div $$$A>$$$C</div>", "const $A = $B"),
	// Python
	group("python", pyCode, "def $F($$$ARGS):\n    $$$BODY", "print($$$A)", "return $A", "self.$A = $B", "f($A) == f($A)",
		"[$E for $I in $R if $C]", "with $A as $B:\n    $$$B2", "import $M", "from $M import $$$N", "class $C($B):\n    $$$BODY",
		"if $X:\n    a()\n    $$$REST", "$A + $B"),
	strictly("python", pyCode, "print($A, $B)"),
	// Rust
	group("rust", rustCode, "println!($$$A)", "$M.insert($K, $V)", "let $A = $B;", "let mut $A = $B;", "$X.unwrap()",
		"fn $F($$$P) -> $R { $$$B }", "if let Some($X) = $E { $$$B }", "vec![$$$A]", "match $E { $$$ARMS }", "Ok($A)"),
	strictly("rust", rustCode, "compute($A, $B)"),
	// Java
	group("java", javaCode, "System.out.println($A)", "return $A;", "foo($$$ARGS)", "if ($C) { $$$B }", "private int $X = $V;",
		"$A + $B", "public int $M(int $P) { $$$B }", "import $I;"),
	strictly("java", javaCode, "foo($A, $B, 3)"),
	// C and C++
	group("c", cCode, "printf($$$A);", "free($P);", "return $A;", "if ($C) { $$$B }", "int $F(int $A, int $B) { $$$ }", "$A + $B"),
	[]Case{{Lang: "c", Pattern: "malloc($SIZE)", Code: cCode}},
	group("cpp", cppCode, "std::vector<$T> $V{$$$I};", "return $A;", "for (auto $X : $V) { $$$B }", "int $F() const { $$$B }",
		"std::make_unique<$T>()"),
	// C#
	group("csharp", csCode, "Console.WriteLine($A)", "var $X = $E;", "if ($C) { $$$B }", "static int $F(int $A, int $B) => $E;"),
	// Ruby
	group("ruby", rubyCode, "puts $A", "def $M($$$A)\n  $$$B\nend", "@$N = $V", "$A.each { |$I| $$$B }", "require $L"),
	// PHP
	group("php", phpCode, "function $F($$$P) { $$$B }", "$A + $B", "add($$$A)", "$O->$M($$$A)", "echo $A;"),
	// Kotlin
	group("kotlin", kotlinCode, "println($A)", "val $X = $E", "listOf($$$A)", "fun $F($$$P) { $$$B }", "$A?.let { $$$B }"),
	// Swift
	group("swift", swiftCode, "print($A)", "let $X = $E", "func $F($$$P) -> $R { $$$B }", "greet(name: $N, times: $T)"),
	// Lua
	group("lua", luaCode, "print($$$A)", "local function $F($$$P)\n  $$$B\nend", "$A + $B", "local $T = { $$$F }"),
	// Bash
	group("bash", bashCode, "echo $$$A", "exit $C", "cat $F | grep $P", "for $V in $$$L; do $$$B; done", "set $$$O"),
	// JSON, YAML, CSS, HTML
	group("json", jsonCode, `"name": $V`, `[$$$A]`, `{ $$$P }`, `"flag": true`),
	group("yaml", yamlCode, "name: $N", "runs-on: $R", "- uses: $U", "on: [$$$E]"),
	group("css", cssCode, "$P: $V", "color: red", ".a { $$$D }", "@media $Q { $$$R }"),
	group("html", htmlCode, "<p>$C</p>", `<a href="/x">$T</a>`, `<div $$$A>$$$C</div>`),
	// Scala, Elixir, Haskell, Solidity
	group("scala", scalaCode, "println($A)", "def $F($$$P): $T = $E", "List($$$A)", "if ($C) $T else $E"),
	group("elixir", elixirCode, "IO.puts($A)", "Enum.map($L, $F)", "def $F($A) do\n    $$$B\n  end"),
	group("haskell", haskellCode, "print $A", "$F :: $T", "add $A $B"),
	group("solidity", solidityCode, "require($$$A);", "$A += $B;", "return $A;", "function $F($$$P) public returns (bool) { $$$B }"),
)

func concat(parts ...[]Case) []Case {
	var out []Case
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
