package xray

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Memory charging. Starlark keeps no account of what an evaluation
// allocates, so the sandbox keeps one (budget, in sandbox.go): every way an
// evaluator can make memory that outlives a step is charged to its file's
// budget before, or just after, it is made. Ahead of the call: the
// operators and methods the rewrite guards (guard.go) and the builtins that
// build a list, tuple, dict or set from an iterable (list, tuple, sorted,
// reversed, enumerate, zip, dict, set, bytes), whose size is known before
// they run — or, for an iterable of unknown length (s.elems()), is learnt
// by reading it into a charged list first. Just after: literals, slices,
// closures and each element a comprehension adds, which the rewrite wraps
// in __xray_new__ or __xray_item__; each is one step's worth of memory, or a
// copy of a value already charged, so the charge is never late by more
// than one value.
//
// The account is the evaluation's own (a thread-local budget): several
// files evaluated at once each answer for what they build, and the one that
// builds too much is the one stopped. Sampling the process's heap instead
// (runtime/metrics) cannot tell which of the concurrent evaluations holds
// what, and cannot stop a single builtin call that allocates gigabytes in
// one step, between two samples.

// The costs charged, about what the Go values take: a slot of a list or
// tuple (an interface), a slot a comprehension adds (and the room its list
// keeps to grow into, and the copy growing makes), a list or tuple itself,
// an entry of a dict or set, and a closure.
const (
	slotCost     = 16
	itemCost     = 32
	tupleCost    = 48
	setEntryCost = dictEntryCost
	closureCost  = 128
)

// shallowCost is what a value just built costs, not counting the values it
// holds (they were charged when they were built).
func shallowCost(v starlark.Value) int {
	switch v := v.(type) {
	case *starlark.List:
		return listCost + slotCost*v.Len()
	case starlark.Tuple:
		return tupleCost + slotCost*len(v)
	case *starlark.Dict:
		return dictEntryCost * (1 + v.Len())
	case *starlark.Set:
		return setEntryCost * (1 + v.Len())
	case *starlark.Function:
		return closureCost
	}
	return slotCost
}

// guardedNew charges a value just built (a literal, a slice, a closure) and
// returns it.
func guardedNew(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	if err := budgetOf(thread).charge("building values", shallowCost(args[0])); err != nil {
		return nil, err
	}
	return args[0], nil
}

// guardedItem charges one element a comprehension adds and returns it.
func guardedItem(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	if err := budgetOf(thread).charge("a comprehension", itemCost); err != nil {
		return nil, err
	}
	return args[0], nil
}

// chargedBuiltin replaces the Universe builtin name with one that first
// checks and charges what it builds: n elements of its first argument (an
// iterable), each costing perElement besides its slot. An iterable of
// unknown length is read into a charged list first.
func chargedBuiltin(name string, perElement int, entries bool) *starlark.Builtin {
	universe := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		bud := budgetOf(thread)
		what := name + "()"
		n := len(kwargs) // dict(a=1)
		args = append(starlark.Tuple(nil), args...)
		for i, a := range args {
			if i > 0 && name != "zip" {
				break // sorted's key is a keyword; no other builtin here takes a second iterable
			}
			length, materialised, err := lengthOf(bud, what, a)
			if err != nil {
				return nil, err
			}
			if materialised != nil {
				args[i] = materialised
			}
			switch {
			case name == "zip" && i == 0:
				n = length
			case name == "zip":
				n = min(n, length)
			default:
				n += length
			}
		}
		if err := bud.checkLength(what, n); err != nil {
			return nil, err
		}
		cost := slotCost
		if entries {
			cost = dictEntryCost
		}
		if name == "zip" {
			perElement = tupleOf(len(args))
		}
		if err := bud.charge(what, n*(cost+perElement)); err != nil {
			return nil, err
		}
		if x, ok := copyable(name, args, kwargs); ok {
			return x, nil
		}
		return starlark.Call(thread, universe, args, kwargs)
	})
}

// lengthOf is the number of elements of v, when v is iterable. An iterable
// that does not know its length is read, with each element charged, into a
// list that stands for it.
func lengthOf(bud *budget, what string, v starlark.Value) (int, *starlark.List, error) {
	switch v := v.(type) {
	case starlark.Sequence:
		return v.Len(), nil, nil
	case starlark.String, starlark.Bytes:
		return 0, nil, nil // not iterable: the builtin says so
	case starlark.Iterable:
		it := v.Iterate()
		defer it.Done()
		var elems []starlark.Value
		var x starlark.Value
		for it.Next(&x) {
			if len(elems)%1024 == 0 {
				if err := bud.checkLength(what, len(elems)+1024); err != nil {
					return 0, nil, err
				}
				if err := bud.charge(what, 1024*slotCost); err != nil {
					return 0, nil, err
				}
			}
			elems = append(elems, x)
		}
		return len(elems), starlark.NewList(elems), nil
	}
	return 0, nil, nil
}

// copyable builds list(x) and tuple(x) of an indexable x at once, in a
// slice of its final size (the Universe builtins grow theirs by appends:
// a million-element list is copied a dozen times over).
func copyable(name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, bool) {
	if len(args) != 1 || len(kwargs) != 0 || (name != "list" && name != "tuple") {
		return nil, false
	}
	x, ok := args[0].(starlark.Indexable)
	if !ok {
		return nil, false
	}
	elems := make([]starlark.Value, x.Len())
	for i := range elems {
		elems[i] = x.Index(i)
	}
	if name == "tuple" {
		return starlark.Tuple(elems), true
	}
	return starlark.NewList(elems), true
}

// tupleOf is the cost of a tuple of n elements.
func tupleOf(n int) int { return tupleCost + slotCost*n }

// chargedBuiltins are the Universe builtins that build from an iterable,
// replaced by charged ones.
var chargedBuiltins = starlark.StringDict{
	"list":      chargedBuiltin("list", 0, false),
	"tuple":     chargedBuiltin("tuple", 0, false),
	"sorted":    chargedBuiltin("sorted", slotCost, false), // and the keys
	"reversed":  chargedBuiltin("reversed", 0, false),
	"enumerate": chargedBuiltin("enumerate", tupleOf(2), false),
	"zip":       chargedBuiltin("zip", 0, false), // a tuple of one element from each iterable
	"dict":      chargedBuiltin("dict", 0, true),
	"set":       chargedBuiltin("set", 0, true),
}
