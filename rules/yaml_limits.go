package rules

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"
)

// A rule file is attacker-controlled input to a server that loads it on
// start: these limits keep a hostile one from exhausting memory, the stack
// or the CPU before its error can be reported (ast-grep's YAML library
// refuses an alias bomb the same way, in a fraction of a second).
const (
	// MaxYAMLFileSize bounds a YAML file (rules, utils, sgconfig.yml, rule
	// tests, snapshots): the parser's memory grows with the text.
	MaxYAMLFileSize = 8 << 20
	// maxYAMLTextDepth bounds nesting as seen in the text, before parsing
	// (open brackets, indentation levels): the parser's time and memory
	// grow fast with the nesting (100,000 `[` ran it out of 4 GB). The
	// parsed values are held to maxYAMLDepth.
	maxYAMLTextDepth = 1000
	// maxYAMLNodes bounds the values of one document with every alias
	// expanded: aliases of aliases expand exponentially (a 551-byte
	// "billion laughs" rule), and rules are compiled from the expansion.
	maxYAMLNodes = 100_000
)

// ReadYAMLFile reads a rule or configuration file, refusing one larger
// than MaxYAMLFileSize without reading it all.
func ReadYAMLFile(path string) ([]byte, error) {
	// Opened without blocking, so that a named pipe (or /dev/stdin, a
	// terminal) is refused below instead of waiting forever for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &Error{File: path, Message: fmt.Sprintf("not a regular file (%s): rules and configurations are read from regular files only", fileKind(info))}
	}
	return readYAML(f, path)
}

// readYAML reads a YAML file's text from r, up to MaxYAMLFileSize.
func readYAML(r io.Reader, path string) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxYAMLFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxYAMLFileSize {
		return nil, errYAMLTooLarge(path)
	}
	return src, nil
}

func errYAMLTooLarge(file string) *Error {
	return &Error{File: file, Message: fmt.Sprintf("the file is larger than %d MiB, the limit for YAML rule and configuration files: split it into smaller files", MaxYAMLFileSize>>20)}
}

// checkYAMLText refuses a text too large or nested too deep to parse.
// Nesting is over-counted on purpose (brackets inside scalars count, a
// block scalar's indentation counts), so that it is cheap and never misses
// a bomb; the limit is far above what rules write.
func checkYAMLText(file string, src []byte) error {
	if len(src) > MaxYAMLFileSize {
		return errYAMLTooLarge(file)
	}
	var indents []int // the indentation of the enclosing block lines
	flow := 0
	for lineNo, rest := 0, src; len(rest) > 0; lineNo++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		indent := len(line) - len(trimmed)
		for len(indents) > 0 && indents[len(indents)-1] >= indent {
			indents = indents[:len(indents)-1]
		}
		indents = append(indents, indent)
		depth := len(indents)
		for seq := trimmed; bytes.HasPrefix(seq, []byte("- ")); seq = bytes.TrimLeft(seq[2:], " ") {
			depth++ // "- - - x": a list in a list in a list
		}
		tooDeep := depth > maxYAMLTextDepth
	scan:
		for i, c := range trimmed {
			switch {
			case c == '[' || c == '{':
				flow++
				tooDeep = tooDeep || depth+flow > maxYAMLTextDepth
			case c == ']' || c == '}':
				flow = max(0, flow-1)
			case c == '#' && (i == 0 || trimmed[i-1] == ' ' || trimmed[i-1] == '\t'):
				break scan
			}
		}
		if tooDeep {
			return &Error{File: file, Line: lineNo + 1, Column: indent + 1, Message: fmt.Sprintf("nested more than %d levels deep: simplify the rule", maxYAMLTextDepth)}
		}
	}
	return nil
}
