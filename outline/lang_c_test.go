package outline

import (
	"slices"
	"testing"
)

// TestCPreprocessorConditionals: a declaration inside `#ifndef` (an include
// guard), `#ifdef`, `#if`/`#elif`/`#else`, however nested, is an item of the
// level the conditional is at, in C and C++, at the top level and in a
// namespace; a conditional inside a function body adds nothing.
func TestCPreprocessorConditionals(t *testing.T) {
	header := `#ifndef A_H
#define A_H
#include <stddef.h>
struct buf { size_t len; };
typedef int myint;
void buf_init(struct buf *b);
static inline void buf_free(struct buf *b) {
#ifdef DEBUG
	int local = 0;
#endif
}
#ifdef WINDOWS
int win_only(void);
#elif defined(LINUX)
int linux_only(void);
#else
#if DEEP
extern int deep;
#endif
#endif
#endif
`
	want := []string{"A_H", "stddef.h", "buf", "myint", "buf_init", "buf_free", "win_only", "linux_only", "deep"}
	for _, language := range []string{"c", "cpp"} {
		var got []string
		for _, it := range outlineOf(t, language, []byte(header)) {
			got = append(got, it.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: items %q, want %q", language, got, want)
		}
	}

	src := "namespace ns {\n#ifdef X\nclass C {};\nint f();\n#endif\n}\n"
	items := outlineOf(t, "cpp", []byte(src))
	var members []string
	if len(items) == 1 {
		for _, m := range items[0].Members {
			members = append(members, m.Name)
		}
	}
	if len(items) != 1 || items[0].Name != "ns" || !slices.Equal(members, []string{"C", "f"}) {
		t.Errorf("cpp namespace: %d items, members %q; want ns with members [C f]", len(items), members)
	}
}
