package outline

import "testing"

// TestJavaBodies: javaBodies skips exactly the insides of method,
// constructor, lambda and static initializer bodies, and never a class
// body, an anonymous class, an array initializer or a switch.
func TestJavaBodies(t *testing.T) {
	checkSkips(t, "java", []skipCase{
		"class A {\n    void f() {⟦\n        g();\n    ⟧}\n}\n",
		"public class A<T extends Comparable<T>> implements I {\n    public <U> List<U> map(Function<T, U> f) throws IOException, java.sql.SQLException {⟦ return null; ⟧}\n    A(int x) {⟦ super(x); ⟧}\n}\n",
		"class A {\n    static final Map<String, Integer> M = new HashMap<>();\n    static {⟦ M.put(\"}\", 1); ⟧}\n    int[] a = {1, 2};\n    Runnable r = () -> {⟦ run(); ⟧};\n    Object o = new Object() {\n        public String toString() {⟦ return \"{\"; ⟧}\n    };\n}\n",
		"record R(int a, int b) implements I {\n    R { check(); }\n    int sum() {⟦ return a + b; ⟧}\n}\n",
		"@interface Ann {\n    int value() default 1;\n    String[] names() default {\"a\"};\n}\n",
		"class A {\n    @Override\n    @SuppressWarnings(\"unchecked\") public void f(@Ann(1) int x) {⟦ char c = '}'; String s = \"\"\"\n      }\"\"\"; ⟧}\n    int x = switch (y) { case 1 -> {⟦ yield 2; ⟧} default -> 3; };\n}\n",
		"enum E {\n    A(1), B(2);\n    E(int v) {⟦ this.v = v; ⟧}\n    abstract void m();\n}\n",
		"interface I {\n    void m();\n    default void n() {⟦ /* } */ ⟧}\n}\n",
		"class A { void f() { String s = \"never closed }\n",
	})
}

// FuzzJavaBodies holds javaBodies to fuzzSkips' promise.
func FuzzJavaBodies(f *testing.F) {
	fuzzSkips(f, "java", []string{
		"/** A. */\npublic class A {\n  /** x */\n  int x; // y\n  // z\n  void m() {}\n}\n// end\n",
		"package p;\n\nimport java.util.*;\n\npublic class A {\n    private int x;\n    public A(int x) { this.x = x; }\n    public int get() { return x; }\n}\n",
		"class B { static { init(); } Object o = new Object() { public String toString() { return \"}\"; } }; Runnable r = () -> { }; }\n",
		"enum E { A { void m() {} }, B; abstract void m(); }\nrecord R(int a) { R { if (a < 0) throw new IllegalArgumentException(); } }\n",
		"interface I { default void n() { char c = '{'; } int[] A = {1, 2}; }\n@interface Ann { String v() default \"}\"; }\n",
		"class C<T> { <U extends T> U f(U u) throws Exception { return u; } class Inner { void g() { int x = switch (1) { case 1 -> { yield 1; } default -> 2; }; } } }\n",
	})
}
