package testutil

import "strings"

// YAMLBomb is a hostile rule file and the error a loader must stop with.
type YAMLBomb struct {
	Text string
	Want string // part of the error, from the file name on
}

// YAMLBombs are rule files (to be written as bomb.yml, Go rules) that
// exhausted the memory or the CPU of a process loading them: aliases of
// aliases (10⁹ values from 600 bytes), 100,000 nested brackets, and a
// file past the 8 MiB limit on YAML files.
func YAMLBombs() map[string]YAMLBomb {
	laughs := "id: bomb\nlanguage: go\nutils:\n  a0: &a0 {kind: identifier}\n"
	for i := 1; i <= 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		laughs += "  a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " {any: [" + strings.Repeat(prev+", ", 9) + prev + "]}\n"
	}
	laughs += "rule: {matches: a9}\n"
	return map[string]YAMLBomb{
		"aliases": {laughs, "bomb.yml:9:17: utils.a5.any: more than 100000 values once its aliases are expanded"},
		"nested":  {"id: bomb\nlanguage: go\nrule: " + strings.Repeat("[", 100_000) + "\n", "bomb.yml:3:1: nested more than 1000 levels deep"},
		"large":   {"id: bomb\nlanguage: go\nrule: {kind: identifier}\nnote: |\n" + strings.Repeat("  "+strings.Repeat("x", 1000)+"\n", 9<<10), "bomb.yml: the file is larger than 8 MiB"},
	}
}
