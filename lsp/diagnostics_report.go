package lsp

import (
	"cmp"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// Turning the rules engine's findings (byte offsets) into protocol
// diagnostics and fixes (positions in the session's encoding).

// newReport maps the findings of one document version to its report.
func newReport(doc *workspace.Document, generation uint64, findings []rules.Finding, enc workspace.Encoding) (*documentReport, error) {
	m := workspace.NewMapper(doc.Content)
	report := &documentReport{doc: doc, generation: generation, enc: enc, diagnostics: []protocol.Diagnostic{}}
	for _, f := range findings {
		severity, shown := diagnosticSeverity(f.Severity)
		if !shown {
			continue
		}
		start, end := primarySpan(f)
		rng, err := m.OffsetRange(start, end, enc)
		if err != nil {
			return nil, fmt.Errorf("rule %s: the finding at bytes %d-%d: %w", f.RuleID, start, end, err)
		}
		report.findings = append(report.findings, f)
		diag := protocol.Diagnostic{
			Range:    protocolRange(rng),
			Severity: severity,
			Code:     protocol.String(f.RuleID),
			Source:   protocol.NewOptional(diagnosticSource),
			Message:  protocol.String(cmp.Or(f.Message, f.RuleID) + fixErrors(f)), // VS Code hides an empty message
		}
		if f.URL != "" {
			diag.CodeDescription = protocol.CodeDescription{Href: uri.URI(f.URL)}
		}
		related, err := relatedLabels(doc.URI, m, f, enc)
		if err != nil {
			return nil, err
		}
		diag.RelatedInformation = related
		report.diagnostics = append(report.diagnostics, diag)
		for _, fix := range f.Fixes {
			if fix.Err != nil {
				continue // no quick fix: the diagnostic's message says why
			}
			editRange, err := m.OffsetRange(fix.Start, fix.End, enc)
			if err != nil {
				return nil, fmt.Errorf("rule %s: the fix at bytes %d-%d: %w", f.RuleID, fix.Start, fix.End, err)
			}
			report.fixes = append(report.fixes, diagnosticFix{
				finding: len(report.diagnostics) - 1, ruleID: f.RuleID, title: fix.Title, diagnostic: rng, edit: editRange,
				bytes:  workspace.ByteRange{Start: fix.Start, End: fix.End},
				before: string(doc.Content[fix.Start:fix.End]), text: fix.Text,
			})
		}
	}
	return report, nil
}

// fixErrors is what a diagnostic's message adds for the fixes of its
// finding that could not be rendered: those are not offered, and the
// reader learns why ("" when every fix rendered).
func fixErrors(f rules.Finding) string {
	var b strings.Builder
	for _, fix := range f.Fixes {
		switch {
		case fix.Err == nil:
		case fix.Title != "":
			fmt.Fprintf(&b, "\n(structls offers no fix %q: %v)", fix.Title, fix.Err)
		default:
			fmt.Fprintf(&b, "\n(structls offers no fix here: %v)", fix.Err)
		}
	}
	return b.String()
}

// diagnosticSeverity maps an ast-grep severity to the protocol's; "off"
// (and anything unknown) is not shown at all.
func diagnosticSeverity(s rules.Severity) (protocol.DiagnosticSeverity, bool) {
	switch s {
	case rules.SeverityError:
		return protocol.DiagnosticSeverityError, true
	case rules.SeverityWarning:
		return protocol.DiagnosticSeverityWarning, true
	case rules.SeverityInfo:
		return protocol.DiagnosticSeverityInformation, true
	case rules.SeverityHint:
		return protocol.DiagnosticSeverityHint, true
	}
	return 0, false
}

// primarySpan is where a finding's diagnostic goes: its primary label (a
// rule's labels may put it on a part of the match), else the matched node,
// as ast-grep's language server does.
func primarySpan(f rules.Finding) (start, end int) {
	for _, l := range f.Labels {
		if l.Style == "primary" {
			return l.Start, l.End
		}
	}
	return f.Start, f.End
}

// relatedLabels turns the labels that carry a message into related
// information (labels without one add nothing a reader can use).
func relatedLabels(docURI string, m *workspace.Mapper, f rules.Finding, enc workspace.Encoding) ([]protocol.DiagnosticRelatedInformation, error) {
	var related []protocol.DiagnosticRelatedInformation
	for _, l := range f.Labels {
		if l.Message == "" {
			continue
		}
		rng, err := m.OffsetRange(l.Start, l.End, enc)
		if err != nil {
			return nil, fmt.Errorf("rule %s: the label at bytes %d-%d: %w", f.RuleID, l.Start, l.End, err)
		}
		related = append(related, protocol.DiagnosticRelatedInformation{
			Location: protocolLocation(docURI, rng),
			Message:  l.Message,
		})
	}
	return related, nil
}

// fixAll is the edit "fix all" makes: the first fix of each finding, in
// document order, skipping any that overlaps one taken before (outer
// matches win), exactly as `ast-grep scan -U` and `structls scan --apply`.
func (r *documentReport) fixAll() (rewrite.FileEdit, error) {
	m := workspace.NewMapper(r.doc.Content)
	version := r.doc.Version
	file := rewrite.FileEdit{URI: r.doc.URI, Version: &version}
	for _, e := range rules.FixEdits(r.findings) {
		rng, err := m.OffsetRange(e.Start, e.End, r.enc)
		if err != nil {
			return rewrite.FileEdit{}, fmt.Errorf("a fix at bytes %d-%d: %w", e.Start, e.End, err)
		}
		file.Replacements = append(file.Replacements, rewrite.Replacement{Range: rng,
			ByteRange: workspace.ByteRange{Start: e.Start, End: e.End}, Before: string(r.doc.Content[e.Start:e.End]), After: e.Text})
	}
	return file, nil
}
