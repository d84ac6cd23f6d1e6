package grep

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// TestSearchSkipsOpenDocumentOverLimit: an unsaved buffer larger than
// maxFileSize is skipped with a warning, as a file on disk is.
func TestSearchSkipsOpenDocumentOverLimit(t *testing.T) {
	dir := testutil.WriteTree(t, "-- small.txt --\nneedle\n")
	f, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	o := workspace.NewOverlay()
	o.Open(workspace.PathToURI(filepath.Join(dir, "big.txt")), "plaintext", 1, "needle\n"+strings.Repeat("x", 2000))
	snap := workspace.NewSnapshot([]workspace.Folder{f}, workspace.Settings{MaxFileSize: 1000}, o.Documents())
	res, err := Search(context.Background(), snap, Query{Pattern: "needle"}, workspace.UTF16, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || res.Matches[0].Path != "small.txt" {
		t.Errorf("matches %+v; want small.txt only", res.Matches)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "big.txt") || !strings.Contains(res.Warnings[0], "maxFileSize") {
		t.Errorf("warnings %q; want one naming big.txt and maxFileSize", res.Warnings)
	}
}
