package lsp

import (
	"context"
	"fmt"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/engine"
)

// CommandNodeAt answers "which kind is this?": the chain of syntax nodes
// (kind, field, range) from the root of a document's tree down to the node
// under a position, on the editor's buffer (astgrep.NodeAt).
const CommandNodeAt = "structls.nodeAt"

func (s *Server) runNodeAt(ctx context.Context, env engine.Env, arg []byte) (any, string, error) {
	var q astgrep.NodeAtQuery
	if err := decodeArgument(arg, &q); err != nil {
		return nil, "", err
	}
	res, err := astgrep.NodeAt(ctx, env, q)
	if err != nil {
		return nil, "", err
	}
	return res, fmt.Sprintf("%d nodes down to %s", len(res.Nodes), res.Nodes[len(res.Nodes)-1].Kind), nil
}
