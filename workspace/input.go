package workspace

import "fmt"

// InputError is a command argument the user must fix (a bad pattern, a
// negative limit, …); its message says how. The server answers it with
// InvalidParams.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// Inputf makes an InputError.
func Inputf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// TextFormat reads a command's `format` field: "json" (or "") for the JSON
// result alone, "text" to add the agent-friendly rendering.
func TextFormat(format string) (bool, error) {
	switch format {
	case "", "json":
		return false, nil
	case "text":
		return true, nil
	}
	return false, Inputf("format %q is not supported: use \"json\" or \"text\"", format)
}
