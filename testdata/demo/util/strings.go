// Package util holds helpers for the demo.
package util

import (
	"errors"
	"strings"
)

// Greeting builds a greeting from the arguments.
func Greeting(args []string) (string, error) {
	if len(args) == 0 {
		return "", errors.New("no name given")
	}
	// TODO: support more than one language
	return "Hello, " + strings.Join(args, " ") + "!", nil
}

// Shout upper-cases a greeting.
func Shout(s string) string {
	return strings.ToUpper(s)
}
