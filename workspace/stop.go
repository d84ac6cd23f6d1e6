package workspace

import (
	"context"
	"errors"
)

// ErrStoppedByUser is the cause of a context the person stopped with the
// Cancel button of a progress notification, as opposed to a client
// withdrawing its request ($/cancelRequest) or a deadline. An engine that
// can hand back what it found so far (X-Ray, whose evaluators may run for
// minutes) returns that, marked cancelled; the others fail as for any
// cancellation.
var ErrStoppedByUser = errors.New("stopped by the user")

// StoppedByUser reports whether ctx ended because the person pressed Cancel.
func StoppedByUser(ctx context.Context) bool {
	return ctx.Err() != nil && errors.Is(context.Cause(ctx), ErrStoppedByUser)
}
