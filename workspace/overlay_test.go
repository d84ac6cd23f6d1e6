package workspace

import "testing"

// TestOverlayResync checks the out-of-sync state: after a change that
// cannot be applied, the document keeps its last good text and version,
// incremental changes are refused, and a whole-document change (or a new
// Open) brings it back.
func TestOverlayResync(t *testing.T) {
	const uri = "file:///w/a.txt"
	at := func(line, char int) *Range { return &Range{Position{line, char}, Position{line, char}} }
	type step struct {
		open    bool         // Open the document with text instead of changing it
		lost    bool         // MarkOutOfSync instead of changing it
		changes []TextChange // applied as the next version
		wantErr bool
		want    string // text afterwards
		stale   bool   // OutOfSync afterwards
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"a failed change keeps the text and refuses increments", []step{
			{changes: []TextChange{{Range: &Range{Position{0, 3}, Position{0, 1}}, Text: "x"}}, wantErr: true, want: "hello\n", stale: true},
			{changes: []TextChange{{Range: at(0, 0), Text: ">"}}, wantErr: true, want: "hello\n", stale: true},
			{changes: []TextChange{{Text: "whole\n"}}, want: "whole\n"},
			{changes: []TextChange{{Range: at(0, 0), Text: ">"}}, want: ">whole\n"},
		}},
		{"a change lost in decoding", []step{
			{lost: true, want: "hello\n", stale: true},
			{changes: []TextChange{{Range: at(0, 5), Text: "!"}}, wantErr: true, want: "hello\n", stale: true},
			{changes: []TextChange{{Text: "new\n"}, {Range: at(0, 3), Text: "!"}}, want: "new!\n"},
		}},
		{"all or nothing within one notification", []step{
			{changes: []TextChange{{Range: at(0, 0), Text: "a"}, {Range: &Range{Position{0, 2}, Position{0, 1}}, Text: ""}},
				wantErr: true, want: "hello\n", stale: true},
		}},
		{"a new open resyncs", []step{
			{lost: true, want: "hello\n", stale: true},
			{open: true, want: "reopened\n"},
			{changes: []TextChange{{Range: at(0, 0), Text: "!"}}, want: "!reopened\n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := NewOverlay()
			o.Open(uri, "plaintext", 1, "hello\n")
			for i, st := range tt.steps {
				before := o.Get(uri).Version
				var err error
				switch {
				case st.open:
					o.Open(uri, "plaintext", before+1, st.want)
				case st.lost:
					o.MarkOutOfSync(uri)
				default:
					err = o.Change(uri, before+1, st.changes, UTF16)
				}
				if (err != nil) != st.wantErr {
					t.Fatalf("step %d: error %v; want an error: %v", i, err, st.wantErr)
				}
				doc := o.Get(uri)
				if string(doc.Content) != st.want || o.OutOfSync(uri) != st.stale {
					t.Fatalf("step %d: text %q, out of sync %v; want %q, %v", i, doc.Content, o.OutOfSync(uri), st.want, st.stale)
				}
				if st.wantErr && doc.Version != before {
					t.Errorf("step %d: a refused change moved the version from %d to %d", i, before, doc.Version)
				}
			}
		})
	}
}
