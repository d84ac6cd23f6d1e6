package main

import (
	"encoding/json"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/structls/structls/workspace"
)

// The server words its errors for LSP clients, naming command fields
// ("use literal: true"); the command line has flags instead. An error that
// suggests settings carries them (workspace.Setting, in the JSON-RPC error's
// data when it comes from the server), and run names each as its flag,
// here, in one place.

// flagOf is the flag of each command field an error may suggest.
var flagOf = map[string]string{
	"literal":    "-F",
	"ignoreCase": "-i",
	"rules":      "--inline-rules",
	"lang":       "-l",
	"maxFiles":   "--max-files",
	"limit":      "--limit",
	"skip":       "--skip",
	"selector":   "--selector",
	"strictness": "--strictness",
}

// cliError is err with the settings it suggests written as flags.
func cliError(err error) error {
	suggests := suggestedSettings(err)
	if len(suggests) == 0 {
		return err
	}
	return errors.New(cliWords(err.Error(), suggests))
}

// cliWords is msg with each of the settings it suggests written as its
// flag: "literal: true" as "-F", "rules: YAML" as "--inline-rules YAML".
func cliWords(msg string, suggests []workspace.Setting) string {
	for _, s := range suggests {
		flag, ok := flagOf[s.Field]
		if !ok {
			continue
		}
		words := flag + " " + s.Value
		if s.Value == "true" {
			words = flag
		}
		msg = strings.ReplaceAll(msg, s.String(), words)
	}
	return msg
}

// suggestedSettings returns the settings an error suggests: an InputError's
// own, or those in a server error's data.
func suggestedSettings(err error) []workspace.Setting {
	var input *workspace.InputError
	if errors.As(err, &input) {
		return input.Suggests
	}
	var rpc *jsonrpc2.Error
	if !errors.As(err, &rpc) || len(rpc.Data) == 0 {
		return nil
	}
	var data struct {
		Suggests []workspace.Setting `json:"suggests"`
	}
	if json.Unmarshal(rpc.Data, &data) != nil {
		return nil
	}
	return data.Suggests
}
