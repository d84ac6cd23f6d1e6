package main

import (
	"fmt"
	"os"
)

type Shape interface{ Area() float64 }

type Circle struct {
	R float64 `json:"r"`
}

func (c *Circle) Area() float64 { return 3.14 * c.R * c.R }

func main() {
	xs := []int{1, 2, 3}
	m := map[string]int{"a": 1}
	for i, x := range xs {
		if err := do(x); err != nil {
			fmt.Fprintln(os.Stderr, i, err)
			return
		}
	}
	go func() { defer close(ch) }()
	switch v := any(m).(type) {
	case int:
		_ = v
	}
	var s Shape = &Circle{R: 2}
	fmt.Println(s.Area(), m["a"], xs[1:])
}
