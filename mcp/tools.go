package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTools registers every tool.
func (s *Server) addTools() {
	s.addSearchTools()
	s.addEditTools()
	s.addXRayTools()
	s.addOutlineTools()
}

// Tool annotations: what a tool does to the workspace.
var (
	readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	// previewOnly tools write nothing to the workspace but keep state in
	// the server (a preview, a job).
	previewOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	destructive = &sdk.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(false)}
)

// addTool registers a tool whose handler returns the reply text and its
// structured summary. The schemas are derived from In and Out, each
// optional field with one type; tune adjusts the input's (defaults, enums,
// ranges).
func addTool[In, Out any](s *Server, name, description string, ann *sdk.ToolAnnotations, tune func(*jsonschema.Schema),
	handle func(ctx context.Context, req *sdk.CallToolRequest, in In) (string, Out, error)) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("the %s input schema: %v", name, err))
	}
	singleTypes(schema)
	if tune != nil {
		tune(schema)
	}
	output, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("the %s output schema: %v", name, err))
	}
	singleTypes(output)
	tool := &sdk.Tool{Name: name, Description: description, Annotations: ann, InputSchema: schema, OutputSchema: output}
	sdk.AddTool(s.mcp, tool, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
		text, out, err := handle(ctx, req, in)
		var ask *needInput
		if errors.As(err, &ask) {
			var zero Out
			return &sdk.CallToolResult{InputRequests: ask.requests}, zero, nil
		}
		if err != nil {
			var zero Out
			return nil, zero, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, out, nil
	})
}

// needInput is a handler's answer when it needs the person's input first
// (elicitation): the SDK asks the client — in a multi round-trip result,
// or for older protocol versions with a request of its own — and calls the
// handler again with the responses in req.Params.InputResponses.
type needInput struct{ requests sdk.InputRequestMap }

func (*needInput) Error() string { return "the person's input is needed" }

// prop returns a property of an object schema; a missing one is a bug.
func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("no property " + name)
	}
	return p
}

// withDefault sets a property's default (the SDK fills it in when absent).
func withDefault(s *jsonschema.Schema, name string, v any) {
	raw, _ := json.Marshal(v)
	prop(s, name).Default = raw
}

// withEnum restricts a string property to values.
func withEnum(s *jsonschema.Schema, name string, values ...string) {
	p := prop(s, name)
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
}

// withRange bounds a number property.
func withRange(s *jsonschema.Schema, name string, lo, hi float64) {
	p := prop(s, name)
	p.Minimum = &lo
	if hi > lo {
		p.Maximum = &hi
	}
}

// progressOf returns the function that forwards a command's progress to
// the client as MCP progress notifications, or nil when the call carries
// no progress token. Progress counts the reports, so it always increases
// as the protocol requires; the message says how far the work is.
func progressOf(ctx context.Context, req *sdk.CallToolRequest) func(message string, pct, total float64) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	n := 0.0
	return func(message string, pct, _ float64) {
		n++
		if pct >= 0 {
			message = fmt.Sprintf("%s (%.0f%%)", message, pct)
		}
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: message, Progress: n})
	}
}

// singleTypes gives each optional pointer or slice field its plain type
// (the inferred ["null", T]): "absent" already says "default", and some
// clients mishandle a type list.
func singleTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		singleTypes(p)
	}
	singleTypes(s.Items)
}
