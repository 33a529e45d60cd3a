package service

import (
	"errors"
	"fmt"

	"github.com/credo-rl/credo/service/wire"
)

// Error kinds of docs/SERVICE.md §1, each with its HTTP status.
const (
	kindBadRequest  = "bad_request"
	kindAuth        = "unauthorized"
	kindNotFound    = "not_found"
	kindMethod      = "method_not_allowed"
	kindTooLarge    = "too_large"
	kindBusy        = "busy"
	kindDeadline    = "deadline"
	kindInternal    = "internal"
	errorKindsCount = 8
)

// errorKinds lists every kind, for the metrics' zero rows.
var errorKinds = [errorKindsCount]string{kindBadRequest, kindAuth, kindNotFound, kindMethod, kindTooLarge, kindBusy, kindDeadline, kindInternal}

// apiError is an error answered as {"error": {kind, path, message}}.
type apiError struct {
	status int
	kind   string
	path   string // the field at fault, "" for the body
	msg    string
}

func (e *apiError) Error() string {
	if e.path == "" {
		return fmt.Sprintf("%s: %s", e.kind, e.msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.kind, e.path, e.msg)
}

// badRequest is a 400 naming the field at path.
func badRequest(path, msg string) *apiError {
	return &apiError{status: 400, kind: kindBadRequest, path: path, msg: msg}
}

// badf is badRequest with a formatted message.
func badf(path, format string, args ...any) *apiError {
	return badRequest(path, fmt.Sprintf(format, args...))
}

// tooMany is a 413 for a count over a limit.
func tooMany(path string, n, limit int, what string) *apiError {
	return &apiError{status: 413, kind: kindTooLarge, path: path, msg: fmt.Sprintf("%d %s, more than the limit of %d", n, what, limit)}
}

// fromWire turns the request decoder's error into the API's, at the same
// path with the same message: a 413 for a count over a limit, else a 400.
// Errors of the service's own (an *apiError already) pass through.
func fromWire(err error) error {
	var we *wire.Error
	if !errors.As(err, &we) {
		return err
	}
	if we.TooLarge {
		return &apiError{status: 413, kind: kindTooLarge, path: we.Path, msg: we.Msg}
	}
	return badRequest(we.Path, we.Msg)
}
