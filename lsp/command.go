package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// command is one workspace/executeCommand command. run decodes its single
// argument, does the work in env (the request's snapshot, encoding and
// progress, and the server's parse cache: the Env every engine takes) and
// returns the result (encoded as JSON by the caller) and a one-line
// summary for the progress End.
type command struct {
	title string
	run   func(s *Server, ctx context.Context, env engine.Env, arg []byte) (any, string, error)
}

// commands maps command names to their implementations (one file each).
var commands = map[string]command{
	CommandSearch:      {title: "Searching", run: (*Server).runSearch},
	CommandAstGrep:     {title: "Structural search", run: (*Server).runAstGrep},
	CommandAstEdit:     {title: "Structural rewrite preview", run: (*Server).runAstEdit},
	CommandApplyEdit:   {title: "Applying rewrite", run: (*Server).runApplyEdit},
	CommandDiscardEdit: {title: "Discarding rewrite", run: (*Server).runDiscardEdit},
	CommandXRay:        {title: "X-Ray search", run: (*Server).runXRay},
	CommandNodeAt:      {title: "Finding the node at the cursor", run: (*Server).runNodeAt},
	CommandScan:        {title: "Scanning with rules", run: (*Server).runScan},
	CommandOutline:     {title: "Outline", run: (*Server).runOutline},
}

// prepareCommand decodes an executeCommand request and captures its
// snapshot; it runs on the read loop, so the snapshot reflects exactly the
// notifications sent before the request. The returned func does the work.
func (s *Server) prepareCommand(raw []byte) (func(context.Context) (any, error), error) {
	var p protocol.ExecuteCommandParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, invalidParams("workspace/executeCommand: %v", err)
	}
	cmd, ok := commands[p.Command]
	if !ok {
		return nil, invalidParams("unknown command %q: structls supports %s", p.Command, strings.Join(Commands, ", "))
	}
	if len(p.Arguments) != 1 {
		return nil, invalidParams("%s takes exactly one argument, a JSON object; got %d", p.Command, len(p.Arguments))
	}
	arg := bytes.Clone(p.Arguments[0])
	token := p.WorkDoneToken
	partial, err := partialTokenOf(raw)
	if err != nil {
		return nil, err
	}
	folders, docs, enc := s.snapshotParts()
	return func(ctx context.Context) (any, error) {
		snap := workspace.NewSnapshot(folders, s.currentSettings(), docs)
		work, cancel := context.WithCancelCause(s.withPartialResults(ctx, partial))
		defer cancel(nil)
		wd := s.startProgress(cmd.title, token, func() { cancel(workspace.ErrStoppedByUser) })
		env := engine.Env{Snapshot: snap, Encoding: enc, Progress: wd.report, Trees: s.trees()}
		result, summary, err := cmd.run(s, work, env, arg)
		if err != nil || work.Err() != nil {
			summary = "failed"
			if work.Err() != nil {
				summary = "cancelled" // or stopped, with what was found so far as the result (X-Ray)
			}
		}
		wd.end(summary)
		if err != nil {
			return nil, s.commandError(work, p.Command, err)
		}
		out, err := encodeResult(result)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%s: encoding the result: %v", p.Command, err)
		}
		return jsonrpc2.RawMessage(out), nil
	}, nil
}

// commandError maps an engine error to the JSON-RPC error the client sees.
func (s *Server) commandError(ctx context.Context, name string, err error) error {
	var pathErr *workspace.PathError
	var inputErr *workspace.InputError
	var argErr *argumentError
	var staleErr *rewrite.StaleError
	var writeErr *writeFailedError
	switch {
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return cancelledError()
	case errors.As(err, &staleErr):
		return staleError(name, staleErr)
	case errors.As(err, &writeErr):
		return jsonrpc2.NewError(RequestFailed, fmt.Sprintf("%s: %v", name, err))
	case errors.As(err, &inputErr) && len(inputErr.Suggests) > 0:
		// The settings the message suggests, for clients that name them
		// otherwise (the command line's flags).
		data, _ := json.Marshal(map[string]any{"suggests": inputErr.Suggests})
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("%s: %v", name, err), Data: data}
	case errors.As(err, &pathErr), errors.As(err, &argErr), errors.As(err, &inputErr):
		return invalidParams("%s: %v", name, err)
	}
	s.log.Error("command failed", zap.String("command", name), zap.Error(err))
	return jsonrpc2.Errorf(jsonrpc2.InternalError, "%s failed: %v", name, err)
}

// argumentError is a command argument that does not decode.
type argumentError struct{ msg string }

func (e *argumentError) Error() string { return e.msg }

// decodeArgument decodes a command's JSON object argument into v. Field
// names are matched exactly, as they are written in the command's contract
// (encoding/json would take "ignorecase" for "ignoreCase"); an unknown field
// is refused with the known field it may mean and the list of known ones.
func decodeArgument(arg []byte, v any) error {
	err := jsonv2.Unmarshal(arg, v, jsonv2.RejectUnknownMembers(true))
	if err == nil {
		return nil
	}
	return &argumentError{msg: describeArgumentError(err)}
}

// describeArgumentError turns a decoding error into a message that says
// which field is wrong and what it should hold.
func describeArgumentError(err error) string {
	var semErr *jsonv2.SemanticError
	if !errors.As(err, &semErr) {
		return "the argument must be a single JSON object: " + strings.TrimPrefix(err.Error(), "jsontext: ")
	}
	where := string(semErr.JSONPointer)
	if errors.Is(semErr.Err, jsonv2.ErrUnknownName) {
		name := semErr.JSONPointer.LastToken()
		known := jsonFields(semErr.GoType)
		in := ""
		if parent := string(semErr.JSONPointer.Parent()); parent != "" {
			in = " in " + parent
		}
		return fmt.Sprintf("the argument has an unknown field %q%s%s; known fields: %s",
			name, in, didYouMean(name, known), strings.Join(known, ", "))
	}
	got := "a JSON " + english.JSONKind(semErr.JSONKind)
	if semErr.JSONKind == 0 {
		got = "a value out of range"
	}
	want := goTypeName(semErr.GoType)
	if where == "" {
		return fmt.Sprintf("the argument must be a JSON object, not %s", got)
	}
	return fmt.Sprintf("field %s of the argument must be %s, not %s", strings.TrimPrefix(where, "/"), want, got)
}

// goTypeName says in JSON terms what a Go type accepts.
func goTypeName(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "a valid value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer (in range)"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(goTypeName(t.Elem()), "a "), "an ") + "s"
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	}
	return "a valid value"
}

// jsonFields lists the JSON names of a struct type's fields.
func jsonFields(t reflect.Type) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// encodeResult encodes a command result, through its own fast encoder when
// it has one (a search may return a hundred thousand matches).
func encodeResult(result any) ([]byte, error) { return appendResult(nil, result) }

// appendResult appends the encoding of a command result to b.
func appendResult(b []byte, result any) ([]byte, error) {
	if a, ok := result.(interface{ AppendJSON([]byte) []byte }); ok {
		return a.AppendJSON(b), nil
	}
	encoded, err := json.Marshal(result)
	return append(b, encoded...), err
}
