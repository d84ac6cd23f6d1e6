package main

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
)

// TestCLIErrorsNameFlags: the errors the CLI prints name its flags (-F,
// --inline-rules), while the server's errors keep the LSP field names.
func TestCLIErrorsNameFlags(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runBinary(t, dir, nil, "search", "(?<=x)y", ".")
	if code != 2 || !strings.Contains(stderr, "use -F to search the text as is") || strings.Contains(stderr, "literal") {
		t.Errorf("search with lookaround: exit %d, stderr %q; want the -F flag named", code, stderr)
	}
	code, _, stderr = runBinary(t, dir, nil, "scan", ".")
	if code != 2 || !strings.Contains(stderr, "(--inline-rules YAML)") || strings.Contains(stderr, "rules: YAML") {
		t.Errorf("scan without sgconfig.yml: exit %d, stderr %q; want the --inline-rules flag named", code, stderr)
	}

	// The server, as an editor sees it: the field, not the flag.
	ctx := context.Background()
	s, err := startSession(ctx, dir, client.EditorOptions{}, lsp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close(ctx)
	_, err = s.execute(ctx, lsp.CommandSearch, grep.Query{Pattern: "(?<=x)y"}, nil)
	if err == nil || !strings.Contains(err.Error(), "use literal: true to search the text as is") {
		t.Errorf("the server's error: %v; want the field literal named", err)
	}
	if got := cliError(err).Error(); !strings.Contains(got, "use -F to search") {
		t.Errorf("cliError of the server's error: %s", got)
	}
}
