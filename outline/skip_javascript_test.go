package outline

import "testing"

// TestJavaScriptBodies: the JavaScript and TypeScript scanners skip
// exactly the insides of function bodies and statement blocks, whatever
// braces strings, template literals, regular expressions, JSX and return
// types hold around them, and never a class's, a switch's or an object's
// braces.
func TestJavaScriptBodies(t *testing.T) {
	checkSkips(t, "javascript", []skipCase{
		"function f(a, b) {⟦\n  return a + b;\n⟧}\nexport class A extends B {\n  constructor() {⟦ super(); ⟧}\n  get x() {⟦ return 1; ⟧}\n  static {⟦ init(); ⟧}\n}\n",
		"const f = (x) => {⟦ return `${x}}`; ⟧};\nconst o = { a: 1, m() {⟦ return '}'; ⟧}, class: 2 };\nconst re = /[}{]/g;\nconst g = async function* () {⟦ yield 1; ⟧};\n",
		"if (x) {⟦ a(); ⟧} else {⟦ b(); ⟧}\nswitch (x) { case 1: break; }\ntry {⟦ c(); ⟧} finally {⟦ d(); ⟧}\nclass C extends mixin(D) { m() {} }\n",
		"function App() {⟦\n  return <div className=\"x\" onClick={() => { go(); }}>Don't {\"}\"} stop</div>;\n⟧}\nconst h = a / b / c;\n",
		"function t() {⟦ return `a ${ `nested ${ x } }` } b`; ⟧}\nlet y = x++ / 2;\nfunction u() {⟦ return /\\}/.test(s); ⟧}\n",
		"#!/usr/bin/env node\nfunction main() {⟦ /* } */ ⟧}\n",
		"function broken() { const s = `never closed\n",
	})
	checkSkips(t, "typescript", []skipCase{
		"export function f<T extends { a: number }>(x: T): { a: number } {⟦ return x; ⟧}\nexport interface I { m(): { b: string }; n(x: number): void }\n",
		"class A implements I {\n  constructor(private x: number) {}\n  m(): Promise<Map<string, number>> {⟦ return p; ⟧}\n  n = (y: number): number => {⟦ return y; ⟧};\n  abstract o(): void;\n}\nenum E { A, B }\nnamespace N { export const c = 1; }\n",
		"const g = <T>(x: T): T => {⟦ return x; ⟧};\nfunction is(x: unknown): x is string {⟦ return true; ⟧}\ntype F = (x: number) => void;\n",
	})
}

// FuzzJavaScriptBodies holds the JavaScript scanner to fuzzSkips' promise.
func FuzzJavaScriptBodies(f *testing.F) {
	fuzzSkips(f, "javascript", []string{
		"const a = 1 // c\n// alone\nexport default a /* x */\n/* y\n */\nlet b = 2\nclass K {\n  // k\n  m() { }\n  p = 1 // p\n}\n// the end",
		"import x from 'x';\n\nexport function f(a) { return a + 1; }\n\nexport class A extends B {\n  constructor() { super(); }\n  m() { return `}${1}`; }\n}\n\nconst g = () => { return /}/; };\n",
		"function App() { return <div onClick={() => { go(); }}>it's {x}</div>; }\nconst o = { m() { }, 'k': 1 };\nswitch (x) { case 1: { break; } }\n",
		"let a = b / c / d;\nif (x) { y(); } else { z(); }\nclass C { static { init(); } #p = 1; get q() { return this.#p; } }\n",
	})
}

// FuzzTypeScriptBodies holds the TypeScript scanner to fuzzSkips'
// promise.
func FuzzTypeScriptBodies(f *testing.F) {
	fuzzSkips(f, "typescript", []string{
		"type A = \"x\" // ends the alias\nconst b = 1\n// alone\ntype C = \"y\" /* c */\n/** doc */\nexport default b\ninterface I {\n  // i\n  a: number // a\n}\n",
		"export interface I { m(): { a: number }; }\nexport function f(x: number): { a: number } { return { a: x }; }\nexport class A implements I { m() { return { a: 1 }; } }\n",
		"const g = <T>(x: T): T => { return x; };\nenum E { A = 1, B }\nnamespace N { export function h(): void { } }\ntype F = (x: number) => { y: string };\n",
		"abstract class B<T extends { k: string }> { abstract m(): Promise<Map<string, T>>; n(): void { } }\ndeclare module 'm' { export const c: number; }\n",
	})
}
