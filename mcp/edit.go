package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// The edit flow: ast_edit (or scan's fixes) previews an edit — the server
// computes it, keeps the plan under an id and writes nothing — and resolve
// applies exactly that plan, refused with nothing written when any of its
// files changed since, or discards it.

// editOp is one rewrite: every match of pat becomes out.
type editOp struct {
	Pat string `json:"pat" jsonschema:"the ast-grep pattern to replace"`
	Out string `json:"out" jsonschema:"the replacement template ($A, $$$ARGS expand to the captures); empty deletes the match"`
}

// astEditInput is the seed ast_edit tool's input.
type astEditInput struct {
	Ops        []editOp `json:"ops,omitempty" jsonschema:"the rewrites, applied to the code as it is before the edit"`
	Paths      []string `json:"paths,omitempty" jsonschema:"files, directories or globs relative to the root; default: the whole root"`
	Lang       string   `json:"lang,omitempty" jsonschema:"the language of the patterns; default: each file's own"`
	Strictness string   `json:"strictness,omitempty" jsonschema:"how exactly the patterns must match"`
	Selector   string   `json:"selector,omitempty" jsonschema:"the node kind inside the pattern to match"`
	Diff       bool     `json:"diff,omitempty" jsonschema:"add the unified diff of every file to the preview"`
	ID         string   `json:"id,omitempty" jsonschema:"with skip, show more of the preview of this id instead of making a new one"`
	Skip       int      `json:"skip,omitempty" jsonschema:"preview lines to skip (paging a preview by its id)"`
	Root       string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// editSummary is the structuredContent of ast_edit and scan's fixes.
type editSummary struct {
	ID                string `json:"id,omitempty" jsonschema:"pass it to resolve to apply or discard the edit; empty when there is nothing to apply"`
	TotalReplacements int    `json:"totalReplacements"`
	FilesTouched      int    `json:"filesTouched"`
	FilesSearched     int    `json:"filesSearched,omitempty"`
	Lines             int    `json:"lines" jsonschema:"lines of the preview text"`
	Skip              int    `json:"skip"`
	NextSkip          *int   `json:"nextSkip,omitempty"`
}

// resolveInput is the seed resolve tool's input.
type resolveInput struct {
	ID     string `json:"id" jsonschema:"the id ast_edit (or scan) returned"`
	Action string `json:"action" jsonschema:"apply writes exactly the previewed edit (refused, nothing written, when a file changed since); discard forgets it"`
	Reason string `json:"reason,omitempty" jsonschema:"why (kept in the reply)"`
	Root   string `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// resolveSummary is the structuredContent of resolve.
type resolveSummary struct {
	ID                string `json:"id"`
	Action            string `json:"action"`
	Applied           bool   `json:"applied"`
	FilesChanged      int    `json:"filesChanged"`
	TotalReplacements int    `json:"totalReplacements"`
}

func (s *Server) addEditTools() {
	addTool(s, "ast_edit", "Preview a structural rewrite: every match of each op's pat (an ast-grep pattern) becomes its out "+
		"template. Nothing is written: the reply lists each replacement as -LINE:COL before / +LINE:COL after (first line, "+
		"120 characters) and an id; call resolve {id, action: \"apply\"} to write exactly this edit, or \"discard\". "+
		"diff: true adds unified diffs. A long preview ends with the skip=N to page it: ast_edit {id, skip}.", previewOnly,
		func(sc *jsonschema.Schema) {
			withEnum(sc, "strictness", "cst", "smart", "ast", "relaxed", "signature", "template")
			withRange(sc, "skip", 0, 0)
			prop(sc, "ops").MinItems = new(1)
		}, s.astEdit)
	addTool(s, "resolve", "Apply or discard a previewed edit (ast_edit, or scan's fixes) by its id. apply writes exactly "+
		"the previewed replacements, atomically per file; when any file changed since the preview, nothing is written and "+
		"the reply says to preview again. The person may be asked to confirm first.", destructive,
		func(sc *jsonschema.Schema) { withEnum(sc, "action", "apply", "discard") }, s.resolve)
}

func (s *Server) astEdit(ctx context.Context, req *sdk.CallToolRequest, in astEditInput) (string, editSummary, error) {
	var sum editSummary
	if in.ID != "" {
		if len(in.Ops) > 0 {
			return "", sum, &toolError{msg: "give ops to preview a new edit, or id and skip to page an earlier preview, not both"}
		}
		p, ok := s.edits.get(in.ID)
		if !ok {
			return "", sum, &toolError{msg: fmt.Sprintf("no preview %q is kept here (applied, discarded, or dropped after 16 newer ones): call ast_edit with the ops again", in.ID)}
		}
		return p.page(in.Skip)
	}
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	if len(in.Ops) == 0 {
		return "", sum, &toolError{msg: "`ops` needs at least one {pat, out}"}
	}
	q := rewrite.Query{Lang: in.Lang, Strictness: in.Strictness, Selector: in.Selector, Scope: workspace.Scope{Paths: in.Paths}}
	for i, op := range in.Ops {
		if strings.TrimSpace(op.Pat) == "" {
			return "", sum, &toolError{msg: fmt.Sprintf("`ops[%d].pat` must be a non-empty pattern", i)}
		}
		q.Ops = append(q.Ops, rewrite.Op{Pattern: op.Pat, Rewrite: &op.Out})
	}
	q.Format, q.TextOnly = "text", true // the text is all this tool shows: the files are not sent
	var res rewrite.Result
	if err := r.runInto(ctx, call{command: lsp.CommandAstEdit, arg: q, report: progressOf(ctx, req)}, &res); err != nil {
		return "", sum, err
	}
	p := &preview{root: r, id: res.ID, replacements: res.TotalReplacements, files: res.FilesTouched,
		searched: res.FilesSearched, text: previewText(&res, in.Diff)}
	if res.ID != "" {
		s.edits.add(p)
	}
	return p.page(0)
}

// preview is an edit's preview as ast_edit showed it, kept to page it and
// to tell the person what resolve would apply.
type preview struct {
	root                          *root
	id                            string
	replacements, files, searched int
	text                          string
}

// page returns the preview's lines from skip on that fit in a reply.
func (p *preview) page(skip int) (string, editSummary, error) {
	again := fmt.Sprintf("for the rest call ast_edit with id %q and", p.id)
	text, lines := pageLines(p.text, skip, again)
	return text, editSummary{ID: p.id, TotalReplacements: p.replacements, FilesTouched: p.files, FilesSearched: p.searched,
		Lines: lines.Lines, Skip: skip, NextSkip: lines.NextSkip}, nil
}

// previewText is the server's preview text (the seed ast_edit tool's
// format: files grouped under their directory, each replacement as
// "-LINE:COL before" and "+LINE:COL after", the notes), the diffs it ends
// with only when asked for, after a line on how to apply it.
func previewText(res *rewrite.Result, diff bool) string {
	text := res.Text
	if i := strings.Index(text, "\n\n--- a/"); i >= 0 && !diff {
		text = text[:i+1]
	}
	if res.ID == "" {
		return text
	}
	return fmt.Sprintf("Preview %s: call resolve {id: %q, action: \"apply\"} to write exactly this edit, or \"discard\".\n", res.ID, res.ID) + text
}

func (s *Server) resolve(ctx context.Context, req *sdk.CallToolRequest, in resolveInput) (string, resolveSummary, error) {
	sum := resolveSummary{ID: in.ID, Action: in.Action}
	if in.ID == "" {
		return "", sum, &toolError{msg: "resolve needs the id ast_edit or scan returned"}
	}
	r, err := s.rootFor(req, in.Root)
	p, kept := s.edits.get(in.ID)
	if kept {
		r, err = p.root, nil // the preview's own root
	}
	if err != nil {
		return "", sum, err
	}
	label := "the edit " + in.ID
	if kept {
		label = fmt.Sprintf("%d replacement(s) in %d file(s)", p.replacements, p.files)
	}
	reason := ""
	if in.Reason != "" {
		reason = " Reason: " + in.Reason
	}
	switch in.Action {
	case "discard":
		if _, err := r.run(ctx, call{command: lsp.CommandDiscardEdit, arg: map[string]string{"id": in.ID}}); err != nil {
			return "", sum, err
		}
		s.edits.drop(in.ID)
		return fmt.Sprintf("Discarded: %s.%s\n", label, reason), sum, nil
	case "apply":
	default:
		return "", sum, &toolError{msg: `action must be "apply" or "discard"`}
	}
	files := 2 // a preview no longer kept here may span several files
	if kept {
		files = p.files
	}
	if s.mustConfirm(req, files) {
		answer, asked := req.Params.InputResponses[confirmID].(*sdk.ElicitResult)
		if !asked {
			return "", sum, &needInput{requests: sdk.InputRequestMap{confirmID: confirmation(p, label)}}
		}
		if answer.Action != "accept" {
			return fmt.Sprintf("Not applied: the person did not confirm %s (%s). Nothing was written; the preview is kept: call resolve again, or discard it.\n", label, answer.Action), sum, nil
		}
	}
	var reply struct {
		Applied           bool   `json:"applied"`
		FailureReason     string `json:"failureReason"`
		FilesChanged      int    `json:"filesChanged"`
		TotalReplacements int    `json:"totalReplacements"`
	}
	err = r.runInto(ctx, call{command: lsp.CommandApplyEdit, arg: map[string]string{"id": in.ID}}, &reply)
	if te := (*toolError)(nil); errors.As(err, &te) && te.code == codeContentModified {
		// A stale plan can never pass the check again: forget it here and in the server.
		s.edits.drop(in.ID)
		_, _ = r.run(ctx, call{command: lsp.CommandDiscardEdit, arg: map[string]string{"id": in.ID}})
		return "", sum, &toolError{msg: fmt.Sprintf("Preview is stale / no longer matches; no replacements were applied. Preview expected %s. %v "+
			"Call ast_edit again to preview the edit on the files as they are now.", label, err)}
	}
	if err != nil {
		return "", sum, err
	}
	if !reply.Applied {
		return "", sum, &toolError{msg: "not applied: " + reply.FailureReason}
	}
	s.edits.drop(in.ID)
	sum.Applied, sum.FilesChanged, sum.TotalReplacements = true, reply.FilesChanged, reply.TotalReplacements
	return fmt.Sprintf("Applied %d replacement(s) in %d file(s).%s\n", reply.TotalReplacements, reply.FilesChanged, reason), sum, nil
}

// mustConfirm reports whether resolve asks the person before applying an
// edit of files files: when the client can be asked (elicitation) and
// ConfirmEdits says so.
func (s *Server) mustConfirm(req *sdk.CallToolRequest, files int) bool {
	if req.Session == nil {
		return false
	}
	init := req.Session.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.Elicitation == nil {
		return false
	}
	switch s.opts.ConfirmEdits {
	case "always":
		return true
	case "multiFile":
		return files > 1
	}
	return false
}

// confirmID names resolve's question in the input requests.
const confirmID = "confirm"

// confirmation is the question resolve asks the person before applying a
// preview: the edit's size and the start of its preview (p nil: a preview
// no longer kept here, known by its id alone).
func confirmation(p *preview, label string) *sdk.ElicitParams {
	shown := ""
	if p != nil {
		shown, _ = pageLines(p.text, 0, "")
	}
	const maxShown = 4 << 10
	if len(shown) > maxShown {
		shown = workspace.CutToBytes(shown, maxShown) + "…\n"
	}
	return &sdk.ElicitParams{
		Message:         fmt.Sprintf("Apply the structls edit %s?\n\n%s", label, shown),
		RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}},
	}
}
