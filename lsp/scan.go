package lsp

import (
	"context"
	"errors"
	"fmt"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
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
	if q.Config != "" && !s.opts.ConfigAnywhere {
		config, err := configInFolders(env.Snapshot, q.Config)
		if err != nil {
			return nil, "", err
		}
		q.Config = config
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

// configInFolders resolves structls.scan's config as paths are resolved
// (relative to the first folder, confined to the folders, symbolic links
// evaluated) and returns its path: a file inside the workspace folders.
func configInFolders(snap *workspace.Snapshot, config string) (string, error) {
	r, err := snap.ResolvePaths([]string{config}, false)
	var pathErr *workspace.PathError
	switch {
	case errors.As(err, &pathErr):
		return "", workspace.Inputf("config %s: %s", config, pathErr.Msg)
	case err != nil:
		return "", err
	case len(r.Missing) > 0:
		return "", workspace.Inputf("config %s does not exist (it is relative to the first workspace folder)", config)
	case len(r.Targets) != 1 || r.Targets[0].IsDir || r.Targets[0].Glob != "":
		return "", workspace.Inputf("config %s is not a file: name the sgconfig.yml itself", config)
	}
	return r.Targets[0].Base, nil
}
