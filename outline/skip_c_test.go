package outline

import "testing"

// TestCBodies: cBodies skips exactly the insides of function bodies in C
// and C++ — qualifiers, trailing return types, member initializers and
// macros between the parameters and the body — and never a struct,
// class, namespace or initializer's braces, nor a body whose conditional
// directives leave its braces doubtful.
func TestCBodies(t *testing.T) {
	checkSkips(t, "c", []skipCase{
		"#include <stdio.h>\n#define OPEN {\nint main(void) {⟦\n\tprintf(\"}\\n\");\n\treturn 0;\n⟧}\n",
		"static inline int f(int a, char **b) {⟦ char c = '}'; /* } */ // }\n ⟧}\nstruct S { int a; int (*fp)(int); };\n",
		"__attribute__((noreturn)) void die(const char *msg) {⟦ exit(1); ⟧}\n__attribute__((packed)) struct P { char c; };\n",
		"int table[] = { 1, 2 };\nstruct S s = (struct S){ .a = f(1) };\nvoid (*signal(int sig, void (*func)(int)))(int) {⟦ return 0; ⟧}\n",
		"int f(void) {⟦\n#ifdef X\n\tg();\n#else\n\th();\n#endif\n⟧}\n",
		"int f(void) {\n#ifdef X\n\tif (a) {\n#else\n\tif (b) {\n#endif\n\t}\n}\nint g(void) {⟦ return 1; ⟧}\n",
		"#define M(x) \\\n\t{ x }\nint h(int x) {⟦ return M(x); ⟧}\nint never(void) { \"",
	})
	checkSkips(t, "cpp", []skipCase{
		"namespace n {\nclass A : public B {\npublic:\n    A() : b_(1), c_{2} {⟦ init(); ⟧}\n    int get() const override {⟦ return b_; ⟧}\n    auto size() const noexcept(true) -> std::size_t {⟦ return 0; ⟧}\n    bool operator==(const A& o) const = default;\n    bool operator()(int x) const {⟦ return x; ⟧}\n    int x{5};\n};\n}\n",
		"template <typename T, int N = 3>\nT max(T a, T b) {⟦ return a > b ? a : b; ⟧}\nauto f = [](int x) -> int { return x; };\nconst char *s = R\"x(})x\";\nint big = 1'000'000;\nvoid g() {⟦ char c = u8'}'; ⟧}\n",
		"extern \"C\" {\nint c_func(void);\n}\nenum class E : int { A, B };\nstruct S final { int a; };\nTEST(Suite, Name) {⟦ EXPECT_EQ(1, 1); ⟧}\n",
		"void f() try {⟦ g(); ⟧} catch (...) { h(); }\nconcept C = requires(T a) { a.f(); };\n",
		"class A {\n  int f() { return 1; };\n  int g() /* ; */ {⟦ return 2; ⟧}\n};\n",
		"int f() {⟦ int x = 1'000'000 + 0x1'F; char c = '}'; double d = 1.5e3; return x; ⟧}\nint g() {⟦ return u8'}' + L'}'; ⟧}\n",
	})
}

// FuzzCBodies holds cBodies to fuzzSkips' promise in C.
func FuzzCBodies(f *testing.F) {
	fuzzSkips(f, "c", []string{
		"/* h */\n#define X 1 /* c */\n// f\nint f(void) { return 1; } // g\n/* s */\nstruct s { int a; /* a */\n  // b\n  int b;\n};\n",
		"#include <stdio.h>\n\nstruct point { int x, y; };\n\nstatic int add(int a, int b) { return a + b; }\n\nint main(void) {\n\tprintf(\"%d}\\n\", add(1, 2));\n\treturn 0;\n}\n",
		"#define BODY { return 1; }\ntypedef struct { int a; } T;\nint f(void) {\n#if X\n\treturn 1;\n#endif\n\treturn 0;\n}\nenum e { A, B };\n",
		"int (*fp)(int) = 0;\nint arr[] = {1, 2};\nvoid g(int n) { char c = '{'; while (n--) { if (n) { } } }\nunion u { int i; float f; };\n",
	})
}

// FuzzCppBodies holds cBodies to fuzzSkips' promise in C++.
func FuzzCppBodies(f *testing.F) {
	fuzzSkips(f, "cpp", []string{
		"// n\nnamespace n {\n/// A.\nclass A {\n public:\n  // f\n  int f() const { return 1; } // after\n  /* g */\n  int g_;\n};\n}  // namespace n\n",
		"namespace n {\nclass A : public B {\npublic:\n  A() : b_(1), c_{2} { init(); }\n  int get() const override { return b_; }\n  bool operator==(const A&) const = default;\nprivate:\n  int b_;\n};\n}\n",
		"template <typename T> T max(T a, T b) { return a > b ? a : b; }\nauto f = [](int x) -> int { return x; };\nconst char *s = R\"x(})x\";\nstruct S { int x{5}; void m() &&; };\n",
		"extern \"C\" { int c_func(void); }\nenum class E : int { A, B };\nvoid f() try { g(); } catch (...) { }\nint big = 1'000'000;\n",
		"class B {\n  int CountWalFiles() {\n    return 1;\n  };\n};\nstatic int h(int a) { return a; };\n",
		"int f() { int x = 1'000'000 + 0x1'F; char c = '}'; return x; }\nint g() { return u8'}' + L'}'; }\n",
	})
}
