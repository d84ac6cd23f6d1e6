package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/rules"
)

// CommandScan runs ast-grep YAML rules (inline, or each folder's
// sgconfig.yml) over the workspace (its contract: docs/protocol.md and docs/rules.md).
const CommandScan = "structls.scan"

// runScan decodes the query and runs the rules engine. With fix: true the
// fixes become a pending preview, as structls.astEdit's, applied by
// structls.applyEdit with the id the result carries.
func (s *Server) runScan(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q rules.Query
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	res, err := rules.Scan(ctx, env, q)
	if err != nil {
		return nil, "", err
	}
	if plan := res.Plan(); plan != nil {
		s.edits.Add(plan)
	}
	if len(res.RuleErrors) > 0 {
		return res, fmt.Sprintf("rules did not load: %s", res.RuleErrors[0].Message), nil
	}
	return res, fmt.Sprintf("%d diagnostics (%d errors) in %d files", len(res.Diagnostics), res.ErrorCount, res.FilesScanned), nil
}
