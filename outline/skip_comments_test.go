package outline

import "testing"

// TestCommentRuns: the body scanners skip the runs of comments that have
// lines of their own, outside bodies, one range a run; never a comment
// after a token on its line (TypeScript's automatic semicolon ends a type
// alias after it), nor one that ends the text without a line break, nor
// comments within a directive.
func TestCommentRuns(t *testing.T) {
	checkSkips(t, "rust", []skipCase{
		"⟦//! The crate.\n\n/// Doc.\n    /// More { doc.\n/* and */⟧\npub fn f() {⟦ 1 ⟧}\nstruct S; // not alone on its line\n  ⟦/* nested /* } */ */⟧\nimpl S {\n    ⟦/// A method.⟧\n    fn m(&self) {⟦ /* inside */ ⟧}\n}\n// the end, without a line break",
	})
	checkSkips(t, "java", []skipCase{
		"⟦/**\n * Doc {\n */⟧\npublic class A {\n    ⟦// a field⟧\n    int x; /* after x */\n    ⟦/** M. */⟧\n    void m() {⟦ // inside\n    ⟧}\n}\n",
	})
	checkSkips(t, "c", []skipCase{
		"⟦/* header */⟧\n#define X 1 /* in the directive */\n#include <a.h> // in the directive too\n\t⟦// before f⟧\nint f(void) {⟦ return 1; ⟧}\nint a; /* after a */\n",
	})
	checkSkips(t, "csharp", []skipCase{
		"⟦/// <summary>S.</summary>⟧\npublic class S {\n    ⟦// M.⟧\n    public void M() {⟦ ⟧}\n}\n#region R // in the directive\n",
	})
	checkSkips(t, "typescript", []skipCase{
		"type A = \"x\" // ends the alias\nconst b = 1\n⟦// alone⟧\ntype C = \"y\"\n⟦/* alone\n   too */⟧\nexport default b\n",
	})
	checkSkips(t, "javascript", []skipCase{
		"const a = 1 /* not alone */\n⟦// alone⟧\nfunction f() {⟦ return `${x /* in a template */}`; ⟧}\nconst t = `\n// in a template\n`;\n",
	})
}
