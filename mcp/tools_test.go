package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestToolsListed checks every tool is listed with its seed input names,
// its schema's defaults and enums, and annotations that say what it does.
func TestToolsListed(t *testing.T) {
	h := start(t, map[string]string{"a.go": "package a\n"}, harnessOptions{})
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type schema struct {
		Properties map[string]struct {
			Type    any   `json:"type"`
			Default any   `json:"default"`
			Enum    []any `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	want := map[string][]string{ // each tool's inputs; the required ones first, marked *
		"ast_grep":          {"*pat", "paths", "lang", "strictness", "selector", "skip", "limit"},
		"search":            {"*pattern", "paths", "i", "literal", "multiline", "context", "skip", "limit"},
		"ast_edit":          {"ops", "paths", "lang", "strictness", "selector", "diff", "id", "skip"},
		"resolve":           {"*id", "*action", "reason"},
		"xray_search":       {"*pattern", "evaluator_code", "search_target", "include_patterns", "exclude_patterns", "path", "case_sensitive", "context_lines", "multiline", "timeout_seconds", "max_results", "await_seconds"},
		"xray_explore":      {"*pattern", "evaluator_code", "max_debug_nodes", "await_seconds"},
		"xray_search_batch": {"*scans", "timeout_seconds", "max_results", "await_seconds"},
		"job_status":        {"*job_id", "skip"},
		"cancel_job":        {"*job_id"},
		"outline":           {"*paths", "items", "view"},
		"scan":              {"config", "rules", "paths", "fix"},
		"dump_syntax_tree":  {"code", "path", "language", "format"},
	}
	seen := map[string]bool{}
	for _, tool := range res.Tools {
		seen[tool.Name] = true
		inputs, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var s schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			name := strings.TrimPrefix(in, "*")
			if _, ok := s.Properties[name]; !ok {
				t.Errorf("%s: no input %s", tool.Name, name)
			}
			required := false
			for _, r := range s.Required {
				required = required || r == name
			}
			if required != strings.HasPrefix(in, "*") {
				t.Errorf("%s: input %s required=%v", tool.Name, name, required)
			}
		}
		var out schema
		raw, _ = json.Marshal(tool.OutputSchema)
		if err := json.Unmarshal(raw, &out); err != nil || len(out.Properties) == 0 {
			t.Errorf("%s: no output schema: %s", tool.Name, raw)
		}
		for side, sc := range map[string]schema{"input": s, "output": out} {
			for name, p := range sc.Properties {
				if _, isList := p.Type.([]any); isList {
					t.Errorf("%s: %s %s has a list type %v (null in it): clients expect one type", tool.Name, side, name, p.Type)
				}
			}
		}
		if tool.Description == "" || tool.Annotations == nil {
			t.Errorf("%s: no description or annotations", tool.Name)
			continue
		}
		switch tool.Name {
		case "resolve":
			if tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint == nil || !*tool.Annotations.DestructiveHint {
				t.Errorf("resolve must be marked destructive, not read-only: %+v", tool.Annotations)
			}
		case "ast_grep", "search", "outline", "dump_syntax_tree", "job_status":
			if !tool.Annotations.ReadOnlyHint || !tool.Annotations.IdempotentHint {
				t.Errorf("%s must be read-only and idempotent: %+v", tool.Name, tool.Annotations)
			}
		default:
			if !tool.Annotations.ReadOnlyHint {
				t.Errorf("%s writes nothing: it must be read-only: %+v", tool.Name, tool.Annotations)
			}
		}
		if tool.Name == "ast_grep" {
			if d := s.Properties["limit"].Default; d != float64(50) {
				t.Errorf("ast_grep limit default %v, want 50", d)
			}
			if got := fmt.Sprint(s.Properties["strictness"].Enum); got != "[cst smart ast relaxed signature template]" {
				t.Errorf("ast_grep strictness enum %s", got)
			}
		}
		if strings.HasPrefix(tool.Name, "xray_") {
			if d := s.Properties["await_seconds"].Default; d != float64(20) {
				t.Errorf("%s await_seconds default %v, want 20", tool.Name, d)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("tool %s not listed", name)
		}
	}
}

// TestBadInputIsAToolError checks bad input gets an error result a model
// can act on, not a protocol error or a crash.
func TestBadInputIsAToolError(t *testing.T) {
	h := start(t, map[string]string{"a.go": "package a\n"}, harnessOptions{})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"ast_grep", map[string]any{"pat": "  "}, "non-empty pattern"},
		{"ast_grep", map[string]any{"pat": "f($A)", "lang": "gox"}, "go"},
		{"ast_grep", map[string]any{"pat": "f($A)", "root": "elsewhere"}, "not one of this server's workspace roots"},
		{"ast_grep", map[string]any{"pat": "f($A)", "limit": -1}, "limit"},
		{"search", map[string]any{"pattern": "(?<=x)"}, "invalid regex"},
		{"resolve", map[string]any{"id": "edit-0000000000000000", "action": "apply"}, "edit-0000000000000000"},
		{"resolve", map[string]any{"id": "x", "action": "keep"}, "action"},
		{"job_status", map[string]any{"job_id": "xray-nope"}, "no job"},
		{"dump_syntax_tree", map[string]any{"code": "f(x)"}, "language"},
		{"ast_edit", map[string]any{"ops": []any{}}, "ops"},
	} {
		r := h.call(c.tool, c.args)
		if !r.isError || !strings.Contains(r.text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want an error saying %q", c.tool, c.args, r.isError, r.text, c.want)
		}
	}
}

// skipLine is the last line of a reply that continues.
var skipLine = regexp.MustCompile(`skip=(\d+)\n$`)
