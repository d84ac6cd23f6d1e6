package sub

import "errors"

// ErrNotFound is returned when nothing is found.
var ErrNotFound = errors.New("not found")

func find(xs []string, x string) (int, error) {
	for i, v := range xs {
		if v == x {
			return i, nil
		}
	}
	return -1, ErrNotFound // TODO(find): wrap with context
}
