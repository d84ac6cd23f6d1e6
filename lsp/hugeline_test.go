package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCancelOnHugeOneLineFile: a file that is one long line with tens of
// thousands of matches used to cost a position count from the line's start
// per submatch or capture (minutes), and $/cancelRequest did not stop it.
// Now the query either finishes or stops at the cancel, well within the
// read deadline of the client (which fails the test on a hang).
func TestCancelOnHugeOneLineFile(t *testing.T) {
	dir := t.TempDir()
	line := "package p; var x = " + strings.Repeat("a+", 300_000) + "a // é😀\n"
	if err := os.WriteFile(filepath.Join(dir, "one.go"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "min.txt"), []byte(strings.Repeat("xy é😀 ", 400_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, arg := range []string{
		`{"command":"structls.search","arguments":[{"pattern":"xy","limit":0,"perFileLimit":0}]}`,
		`{"command":"structls.astGrep","arguments":[{"pattern":"$A + $B","lang":"go","limit":0}]}`,
	} {
		id := fmt.Sprint(10 + i)
		c := newRawClient(t)
		c.initialize(dir)
		start := time.Now()
		c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"workspace/executeCommand","params":%s}`, id, arg))
		// Cancel once the work is well under way (300 ms after its progress
		// began: inside the one file's matches); a query that is done before
		// then has nothing left to cancel.
		m := c.readUntil(func(m message) bool {
			return m.Method == "$/progress" && strings.Contains(string(m.Params), `"kind":"begin"`) || m.Method == "" && string(m.ID) == id
		})
		if m.Method != "" {
			time.Sleep(300 * time.Millisecond)
			c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}`, id))
			m = c.reply(id)
		}
		switch {
		case m.Error != nil && m.Error.Code == int(RequestCancelled):
			t.Logf("%s: cancelled after %v", arg[12:30], time.Since(start))
		case m.Error != nil:
			t.Fatalf("%s: error %v; want the result or RequestCancelled", arg, m.Error.Message)
		default:
			t.Logf("%s: finished before the cancel took effect, after %v (%d bytes)", arg[12:30], time.Since(start), len(m.Result))
		}
		c.send(99, "shutdown", nil)
		c.reply("99")
		c.send(nil, "exit", nil)
		<-c.code
	}
}
