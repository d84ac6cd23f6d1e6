package xray

import (
	"go.starlark.net/syntax"
)

// The evaluator's code is rewritten before it is compiled so that every
// operation that can build a large value in one step goes through a check
// first (sandbox.go): the step budget bounds loops, but `"x" * 10**9`,
// `s = s + s` or `l.extend(l)` make gigabytes in a few steps. The rewrite:
//
//   x + y, x * y, x % y        → __xray_binop__("+", x, y) …
//   x - y, x | y, x & y, x ^ y  → __xray_binop__("|", x, y) … (set and dict results)
//   x += y (also *=, %=)        → x += __xray_grow__("+=", x, y)
//   (but x + 1 and x += 1, a number literal added, stay as they are)
//   x.join (and the other methods in guardedMethods) → __xray_attr__(x, "join")
//   d[k] = v                    → d[k] = __xray_store__(d, v)
//
// and every operation that builds a value a step at a time, which the step
// budget alone does not bound in memory (a step may keep tens of bytes, and
// a file has 100 million steps), is charged to the evaluation's budget:
//
//   [a, b], (a, b), {k: v}, x[i:j], lambda: …  → __xray_new__(…), charged its size
//   def f(): … (a closure, made each time the def runs) → followed by f = __xray_new__(f)
//   [e for …], {k: v for …}     → [__xray_item__(e) for …], {k: __xray_item__(v) for …}
//
// The builtins that build lists, tuples, dicts and sets from an iterable
// are replaced by charged ones (charge.go). The names start with "__xray_"
// so that no evaluator uses them by chance.

const (
	binopGuard = "__xray_binop__"
	growGuard  = "__xray_grow__"
	attrGuard  = "__xray_attr__"
	storeGuard = "__xray_store__"
	newGuard   = "__xray_new__"
	itemGuard  = "__xray_item__"
)

// guardedMethods are the string and list methods whose result size the
// sandbox checks before calling them.
var guardedMethods = map[string]bool{
	"join": true, "replace": true, "format": true, "split": true, "rsplit": true, "splitlines": true,
	"extend": true, "append": true, "insert": true, "update": true, "setdefault": true,
	"upper": true, "lower": true, "title": true, "capitalize": true, // a new string as long as the old
	"items": true, "keys": true, "values": true, // a dict's lists
	"add": true, "union": true, "intersection": true, "difference": true, "symmetric_difference": true, // sets
}

// guardFile rewrites every statement of f in place. Its top-level defs
// (the entry point) are made once, and not charged.
func guardFile(f *syntax.File) {
	for _, s := range f.Stmts {
		if def, ok := s.(*syntax.DefStmt); ok {
			guardParams(def.Params)
			def.Body = guardStmts(def.Body)
			continue
		}
		guardStmt(s)
	}
}

// guardStmts rewrites stmts and returns them with a charge after each def.
func guardStmts(stmts []syntax.Stmt) []syntax.Stmt {
	out := stmts[:0:0]
	for _, s := range stmts {
		guardStmt(s)
		out = append(out, s)
		if def, ok := s.(*syntax.DefStmt); ok {
			name := &syntax.Ident{NamePos: def.Name.NamePos, Name: def.Name.Name}
			out = append(out, &syntax.AssignStmt{OpPos: def.Def, Op: syntax.EQ, LHS: name,
				RHS: call(newGuard, def.Def, &syntax.Ident{NamePos: def.Name.NamePos, Name: def.Name.Name})})
		}
	}
	return out
}

func guardStmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.LHS = guardTarget(s.LHS)
		s.RHS = guardExpr(s.RHS)
		switch s.Op {
		case syntax.PLUS_EQ, syntax.STAR_EQ, syntax.PERCENT_EQ:
			if s.Op == syntax.PLUS_EQ && isNumberLiteral(s.RHS) {
				break // i += 1: see isNumberLiteral
			}
			s.RHS = call(growGuard, s.OpPos, str(s.Op.String(), s.OpPos), s.LHS, s.RHS)
		case syntax.EQ:
			if index, ok := s.LHS.(*syntax.IndexExpr); ok {
				s.RHS = call(storeGuard, s.OpPos, index.X, s.RHS)
			}
		}
	case *syntax.DefStmt:
		guardParams(s.Params)
		s.Body = guardStmts(s.Body)
	case *syntax.ExprStmt:
		s.X = guardExpr(s.X)
	case *syntax.IfStmt:
		s.Cond = guardExpr(s.Cond)
		s.True = guardStmts(s.True)
		s.False = guardStmts(s.False)
	case *syntax.ForStmt:
		s.Vars = guardTarget(s.Vars)
		s.X = guardExpr(s.X)
		s.Body = guardStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = guardExpr(s.Cond)
		s.Body = guardStmts(s.Body)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = guardExpr(s.Result)
		}
	}
}

// guardParams rewrites the default values of parameters (name=expr).
func guardParams(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = guardExpr(b.Y)
		}
	}
}

// guardTarget rewrites the expressions inside an assignment target (an
// index, say) but keeps the target's own shape.
func guardTarget(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X = guardTarget(e.X)
		e.Y = guardExpr(e.Y)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ParenExpr:
		e.X = guardTarget(e.X)
	}
	return e
}

func guardExprs(list []syntax.Expr) {
	for i, x := range list {
		list[i] = guardExpr(x)
	}
}

// guardExpr returns e with its size-growing operations routed through the guards.
func guardExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
		switch e.Op {
		case syntax.PLUS, syntax.MINUS, syntax.PIPE, syntax.AMP, syntax.CIRCUMFLEX:
			if isNumberLiteral(e.X) || isNumberLiteral(e.Y) {
				return e // line + 1: see isNumberLiteral
			}
			return call(binopGuard, e.OpPos, str(e.Op.String(), e.OpPos), e.X, e.Y)
		case syntax.STAR, syntax.PERCENT:
			return call(binopGuard, e.OpPos, str(e.Op.String(), e.OpPos), e.X, e.Y)
		}
	case *syntax.DotExpr:
		e.X = guardExpr(e.X)
		if guardedMethods[e.Name.Name] {
			return call(attrGuard, e.Dot, e.X, str(e.Name.Name, e.NamePos))
		}
	case *syntax.CallExpr:
		e.Fn = guardExpr(e.Fn)
		for i, a := range e.Args {
			switch a := a.(type) {
			case *syntax.BinaryExpr:
				if a.Op == syntax.EQ { // name=value
					a.Y = guardExpr(a.Y)
					continue
				}
			case *syntax.UnaryExpr:
				if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
					a.X = guardExpr(a.X)
					continue
				}
			}
			e.Args[i] = guardExpr(a)
		}
	case *syntax.ParenExpr:
		e.X = guardExpr(e.X)
	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = guardExpr(e.X)
		}
	case *syntax.IndexExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
	case *syntax.SliceExpr:
		e.X = guardExpr(e.X)
		for _, p := range []*syntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = guardExpr(*p)
			}
		}
		return call(newGuard, e.Lbrack, e)
	case *syntax.ListExpr:
		guardExprs(e.List)
		return call(newGuard, e.Lbrack, e)
	case *syntax.TupleExpr:
		guardExprs(e.List)
		return call(newGuard, tupleStart(e), e)
	case *syntax.DictExpr:
		for _, entry := range e.List {
			d := entry.(*syntax.DictEntry)
			d.Key, d.Value = guardExpr(d.Key), guardExpr(d.Value)
		}
		return call(newGuard, e.Lbrace, e)
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = guardExpr(e.Cond), guardExpr(e.True), guardExpr(e.False)
	case *syntax.Comprehension:
		if d, ok := e.Body.(*syntax.DictEntry); ok {
			d.Key, d.Value = guardExpr(d.Key), guardExpr(d.Value)
			d.Value = call(itemGuard, e.Lbrack, d.Value)
		} else {
			e.Body = call(itemGuard, e.Lbrack, guardExpr(e.Body))
		}
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars = guardTarget(c.Vars)
				c.X = guardExpr(c.X)
			case *syntax.IfClause:
				c.Cond = guardExpr(c.Cond)
			}
		}
	case *syntax.LambdaExpr:
		guardParams(e.Params)
		e.Body = guardExpr(e.Body)
		return call(newGuard, e.Lambda, e)
	}
	return e
}

// tupleStart is where a tuple begins (a tuple without parentheses has no
// Lparen).
func tupleStart(e *syntax.TupleExpr) syntax.Position {
	if e.Lparen.IsValid() {
		return e.Lparen
	}
	start, _ := e.Span()
	return start
}

// isNumberLiteral reports whether e is an int or float literal. Adding,
// subtracting or combining bits with a number builds nothing large (a
// number one bit longer at most; with anything else, an error), so
// `line + 1` and `end - 1`, the most common arithmetic of evaluators, skip
// the guard's call.
func isNumberLiteral(e syntax.Expr) bool {
	lit, ok := e.(*syntax.Literal)
	return ok && (lit.Token == syntax.INT || lit.Token == syntax.FLOAT)
}

func call(fn string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

func str(s string, pos syntax.Position) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: `"` + s + `"`, Value: s}
}
