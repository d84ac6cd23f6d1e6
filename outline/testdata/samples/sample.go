package p

import f "fmt"
import . "os"

import (
	"io"
	strs "strings"
)

const (
	A, B = 1, 2
	c    = 3
)

type (
	T1 struct{ x int }
	t2 int
)

func F() {
	const local = 1
	var v = 2
	type inner struct{}
	_ = func() {}
}

type G[T any] struct {
	X, Y T
	*Emb
}
type S struct {
	*Emb
	io.Reader
	G[int]
	A, B int `json:"a"`
	N    struct{ X int }
}

type I interface {
	io.Reader
	M(x int) error
	~int | ~string
}

type Alias = B
type Fn func()

var x2, _ = 1, 2

func (l *List[T]) Push(v T) {}

// Foo is a thing.
type Foo9 struct {
	A int
	b string
}

type Bar9 interface {
	Do() error
}

const X9 = 1

var y9, Z9 = 2, 3

func (f *Foo9) Method(a int) error {
	return nil
}

func mainFn() {
	fmt.Println(os.Args)
}
