package rules

import (
	"fmt"

	"github.com/structls/structls/syntax"
)

// maxMatchSteps bounds the work of one rule at one node: the candidates
// its relational rules try and the utils it calls. A rule recursing
// through `matches` inside `inside` and `has` (each node's ancestors try
// their descendants, which try their ancestors…) never ended on an
// 8-line file; the rules ast-grep finishes take far fewer steps per node
// (an `inside` with stopBy: end in a `has` with stopBy: end, tried at the
// root of a 200,000-node file 40 levels deep, takes 8·10⁶).
const maxMatchSteps = 1 << 24

// overLimitFinding reports that rule r used up maxMatchSteps at node n: an
// error-severity finding of the rule there, saying so, so that scan, test
// and the editor all name the rule and the file. The rule is not tried on
// the rest of the file.
func (r *Rule) overLimitFinding(t *syntax.Tree, n int32) Finding {
	node := &t.Nodes[n]
	start, end := int(node.Start), int(node.End)
	return Finding{Rule: r, RuleID: r.ID, Severity: SeverityError, Start: start, End: end,
		Message: fmt.Sprintf("structls stopped evaluating rule %s here and skipped it for the rest of this file: it took more than %d steps at one node, so it probably recurses through `matches` in `inside`/`has`; give the recursion a base case or a stopBy", r.ID, maxMatchSteps),
		Labels:  []Label{{Start: start, End: end, Style: "primary"}}}
}
