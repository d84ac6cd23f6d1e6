package outline

import "testing"

// TestCSharpBodies: csharpBodies skips exactly the insides of method,
// constructor, accessor and lambda bodies, whatever braces verbatim,
// interpolated and raw strings hold, and never a type's, an object
// initializer's or an accessor list's braces.
func TestCSharpBodies(t *testing.T) {
	checkSkips(t, "csharp", []skipCase{
		"namespace N {\n    public class A : B {\n        public A(int x) : base(x) {⟦ init(); ⟧}\n        public T M<T>(T x) where T : class, new() {⟦ return x; ⟧}\n        void N() {⟦\n            var s = $\"{x} }}{{ {y}\";\n        ⟧}\n    }\n}\n",
		"class C {\n    int X { get {⟦ return x; ⟧} set {⟦ x = value; ⟧} }\n    int Y { get; init; }\n    public int this[int i] { get {⟦ return i; ⟧} }\n    Foo f = new Foo(1) { Bar = 2 };\n    Foo g = new() { Bar = 3 };\n    Action a = () => {⟦ Go(); ⟧};\n    public static C operator +(C a, C b) {⟦ return a; ⟧}\n}\n",
		"record R(int A) {\n    public int B() {⟦ return A; ⟧}\n}\nclass P(int x) : Base(x) { }\n",
		"class S {\n    [Obsolete(\"}\")] void M() {⟦ var v = @\"}\"\"}\"; var r = \"\"\"\n        }\n        \"\"\"; char c = '}'; ⟧}\n#region R\n    void Q() {⟦\n#if DEBUG\n        Log();\n#endif\n    ⟧}\n#endregion\n}\n",
		"class U { void V() { var s = \"never closed\n",
	})
}

// FuzzCSharpBodies holds csharpBodies to fuzzSkips' promise.
func FuzzCSharpBodies(f *testing.F) {
	fuzzSkips(f, "csharp", []string{
		"/// <summary/>\nclass A {\n  // m\n  void M() { }\n  #region R\n  // q\n  int x; // r\n  #endregion\n}\n",
		"using System;\n\nnamespace N {\n    public class A : B {\n        public A(int x) : base(x) { }\n        public int P { get { return 1; } set { } }\n        public void M() { Console.WriteLine($\"{1}}}\"); }\n    }\n}\n",
		"class C { Foo f = new Foo(1) { Bar = 2 }; Action a = () => { }; T M<T>() where T : new() { return new T(); } }\nrecord R(int A) { }\n",
		"struct S { public static S operator +(S a, S b) { return a; } event EventHandler E { add { } remove { } } }\ninterface I { void M() { } }\n",
	})
}
