package outline

import "testing"

// TestRustBodies: rustBodies skips exactly the insides of function
// bodies, whatever braces strings, raw strings, characters, lifetimes,
// comments, fn pointer types and declarations without a body hold around
// them.
func TestRustBodies(t *testing.T) {
	checkSkips(t, "rust", []skipCase{
		"fn main() {⟦\n    println!(\"{}\", 1);\n⟧}\n",
		"pub(crate) async unsafe fn f<'a, T: Into<U>>(x: &'a T) -> Result<(), E> where T: Fn() -> u8 {⟦ x ⟧}\n",
		"impl<'a> S<'a> {\n    fn new() -> Self {⟦ S { a: '}' } ⟧}\n    const C: u8 = b'}';\n    fn g(&self) {⟦ let s = r#\"}\"#; ⟧}\n}\n",
		"trait T {\n    fn a(&self);\n    fn b(&self) -> u8 {⟦ 1 ⟧}\n}\nstruct S { f: fn(u8) -> u8, g: u8 }\n",
		"type F = fn(u8);\nstatic G: fn() = h;\nimpl X for fn() { fn m() {⟦ 1 ⟧} }\n",
		"fn f() {⟦ /* } /* nested } */ } */ let c = '\\''; let l: &'static str = \"}\\\"\"; ⟧}\nstruct After { a: u8 }\n",
		"fn f() {⟦ let s = br##\"}\"# }\"##; let b = b\"}\"; let c = c\"}\"; ⟧}\n",
		"extern \"C\" { fn ext(x: i32) -> i32; }\nfn r#match() {⟦ 'outer: loop { break 'outer; } ⟧}\n",
		"fn never_closed() { let x = 1;\n",
		"fn f() { let s = \"never closed }\n",
		"fn empty() {}\nfn é() {⟦ 'é' ⟧}\n",
		// Macro calls' tokens: no entry reads them.
		"cfg_rt! {⟦\n    pub fn spawn() { }\n⟧}\nthread_local!(⟦static X: u8 = 1;⟧);\nconst V: [u8; 2] = vec![⟦1, 2⟧];\n",
		"macro_rules! m { ($x:expr) => { $x }; }\nimpl !Send for S {}\nconst B: bool = A != C;\nstatic N: bool = !(A && C);\n",
	})
}

// FuzzRustBodies holds rustBodies to fuzzSkips' promise.
func FuzzRustBodies(f *testing.F) {
	fuzzSkips(f, "rust", []string{
		"//! Crate.\n/// Doc.\npub struct S {\n    /// field\n    a: u8, // a\n}\nimpl S {\n    /// m\n    fn m(&self) {}\n}\n/* end */",
		"use std::fmt;\n\npub struct S { pub a: i32, b: fn() }\n\nimpl S {\n    pub fn new() -> Self { S { a: 1, b: g } }\n}\n",
		"fn f<'a>(x: &'a str) -> &'a str { let c = '}'; x }\ntrait T { fn m(&self) -> u8 { 0 } fn n(&self); }\n",
		"macro_rules! m { ($x:ident) => { fn $x() {} }; }\nmod inner { pub fn g() { let s = r#\"{\"#; } }\n",
		"const C: u32 = { let x = 1; x + 1 };\nstatic F: fn() = || {};\nenum E { A { x: u8 }, B }\n",
		"impl<T> Drop for W<T> where T: Clone { fn drop(&mut self) { /* { */ } }\nunion U { a: u8, b: i8 }\n",
		"cfg_rt! { pub fn spawn() { } }\nthread_local!(static X: u8 = 1);\nmacro_rules! m { () => {} }\nimpl !Send for S {}\nstruct T { a: [u8; N!()] }\n",
	})
}
