package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/structls/structls/internal/english"
)

// partialReceiver takes the partial results of one streamed request:
// either each value as it is, or each batch as read.
type partialReceiver struct {
	command   string // for messages
	onPartial func(value json.RawMessage) error
	onBatch   func(PartialBatch) error
	err       error // the first error of a delivery; later partials are dropped
}

// ExecuteCommandStreaming runs a command with a partialResultToken (see
// lsp/partial.go): onPartial gets each partial result's value, in order, as it
// arrives (on the connection's read loop, so a slow onPartial slows the
// server's sending rather than piling results up), and the final result is
// returned. The value borrows the connection's read buffer: it is valid
// only during the call, so onPartial copies what it keeps (a streamed
// result can be hundreds of MB, and nothing printed needs keeping). When
// onPartial fails, the later partials are dropped and its first error is
// returned.
func (e *Editor) ExecuteCommandStreaming(ctx context.Context, command string, arg any,
	onPartial func(value json.RawMessage) error) (json.RawMessage, error) {
	return e.executeStreaming(ctx, command, arg, nil, &partialReceiver{command: command, onPartial: onPartial})
}

// ExecuteCommandBatches is ExecuteCommandStreaming for a command whose
// partial results are batches {matches, text?} (structls.astGrep,
// structls.xray) or {files, text?} (structls.outline): onBatch gets each batch read in the same pass that reads
// its notification, its matches as the bytes received (see PartialBatch),
// valid only during the call. A batch that does not decode ends the
// command with an error.
func (e *Editor) ExecuteCommandBatches(ctx context.Context, command string, arg any,
	onBatch func(PartialBatch) error) (json.RawMessage, error) {
	return e.executeStreaming(ctx, command, arg, nil, &partialReceiver{command: command, onBatch: onBatch})
}

// executeStreaming runs a command with the params extra adds (nil: none)
// and, when receiver is not nil, a partialResultToken whose partial
// results go to it.
func (e *Editor) executeStreaming(ctx context.Context, command string, arg any, extra map[string]any, receiver *partialReceiver) (json.RawMessage, error) {
	params := map[string]any{"command": command, "arguments": []any{arg}}
	for k, v := range extra {
		params[k] = v
	}
	if receiver != nil {
		e.mu.Lock()
		e.nextPartial++
		token := fmt.Sprintf("partial-%d", e.nextPartial)
		if e.partials == nil {
			e.partials = map[string]*partialReceiver{}
		}
		e.partials[token] = receiver
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.partials, token)
			e.mu.Unlock()
		}()
		params["partialResultToken"] = token
	}
	var result json.RawMessage
	err := e.Call(ctx, "workspace/executeCommand", params, &result)
	if err == nil && receiver != nil {
		err = receiver.err // set on the read loop, which handled every partial before the reply
	}
	return result, err
}

// receivePartial hands a $/progress notification to the request whose
// partialResultToken it carries, and reports whether it did. params may
// borrow the read buffer: what is handed on is a slice of it, never a
// copy. The params are read in one pass: when the token comes before the
// value, as the server sends it, a batch is read in place.
func (e *Editor) receivePartial(params json.RawMessage) bool {
	var receiver *partialReceiver
	var value jsontext.Value
	var batch *PartialBatch
	err := eachMember(params, func(dec *jsontext.Decoder, name string) error {
		switch name {
		case "token":
			tok, err := dec.ReadToken()
			if err == nil && tok.Kind() == '"' {
				e.mu.Lock()
				receiver = e.partials[tok.String()]
				e.mu.Unlock()
			}
			return err
		case "value":
			if receiver != nil && receiver.onBatch != nil {
				b, err := readBatch(dec, params)
				batch = &b
				return err
			}
			var err error
			value, err = dec.ReadValue()
			return err
		}
		return dec.SkipValue()
	})
	switch {
	case receiver == nil || (err == nil && value == nil && batch == nil):
		return false // not a partial result: plain progress
	case receiver.err != nil:
	case err != nil:
		receiver.err = fmt.Errorf("decoding a partial result of %s: %w (the server sent a malformed batch: please report it)", receiver.command, err)
	case receiver.onPartial != nil:
		receiver.err = receiver.onPartial(json.RawMessage(value))
	case batch == nil: // the value came before the token
		b, err := readPartialBatch(value)
		if err != nil {
			receiver.err = fmt.Errorf("decoding a partial result of %s: %w (the server sent a malformed batch: please report it)", receiver.command, err)
			break
		}
		receiver.err = receiver.onBatch(b)
	default:
		receiver.err = receiver.onBatch(*batch)
	}
	return true
}

// PartialBatch is one partial result of a streamed command, a batch
// {matches, text?} (lsp/partial.go), as ExecuteCommandBatches hands it on.
type PartialBatch struct {
	// Matches are the elements of the matches (or files) array exactly as sent, with
	// the commas between them (empty when there are none): a printer writes
	// them as they are. They borrow the notification read.
	Matches []byte
	// Count is the number of matches.
	Count int
	// Text is the batch's text rendering, when it has one.
	Text string
}

// readPartialBatch reads a batch that is the whole of value.
func readPartialBatch(value []byte) (PartialBatch, error) {
	dec := newInPlaceDecoder(value)
	b, err := readBatch(dec, value)
	if err == nil {
		err = expectEnd(dec)
	}
	return b, err
}

// readBatch reads the batch dec is at, in one validating pass, without
// copying its matches (a streamed X-Ray listing of the Go standard library
// is 200 MB of JSON: decoding each match into a value of its own cost more
// than evaluating it). data is what dec reads.
func readBatch(dec *jsontext.Decoder, data []byte) (PartialBatch, error) {
	var b PartialBatch
	seenMatches := false
	err := readMembers(dec, func(dec *jsontext.Decoder, name string) error {
		switch name {
		case "matches", "files": // a search's matches, an outline's files
			if seenMatches {
				return fmt.Errorf("the batch has two lists (matches or files)")
			}
			seenMatches = true
			return readMatches(dec, data, &b)
		case "text":
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if tok.Kind() != '"' {
				return fmt.Errorf("the batch's text is a JSON %s, not a string", english.JSONKind(tok.Kind()))
			}
			b.Text = tok.String()
			return nil
		}
		return dec.SkipValue()
	})
	return b, err
}

// readMatches reads the matches array dec is at: its elements' span of
// data, and their count.
func readMatches(dec *jsontext.Decoder, data []byte, b *PartialBatch) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '[' {
		return fmt.Errorf("the batch's matches are a JSON %s, not an array", english.JSONKind(tok.Kind()))
	}
	start := dec.InputOffset()
	end := start
	for dec.PeekKind() != ']' {
		if _, err := dec.ReadValue(); err != nil {
			return err
		}
		b.Count++
		end = dec.InputOffset()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	b.Matches = bytes.TrimLeft(data[start:end], " \t\r\n")
	return nil
}

// eachMember reads the JSON object data in one pass, calling member with
// the decoder at each member's value, which member must read (or skip).
// The values the decoder returns borrow data.
func eachMember(data []byte, member func(dec *jsontext.Decoder, name string) error) error {
	dec := newInPlaceDecoder(data)
	if err := readMembers(dec, member); err != nil {
		return err
	}
	return expectEnd(dec)
}

// newInPlaceDecoder reads data in place (from a bytes.Buffer, jsontext
// does not copy), so the values it returns borrow data.
func newInPlaceDecoder(data []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
}

// readMembers reads the JSON object dec is at, calling member with the
// decoder at each member's value, which member must read (or skip).
func readMembers(dec *jsontext.Decoder, member func(dec *jsontext.Decoder, name string) error) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("a JSON %s where an object was expected", english.JSONKind(tok.Kind()))
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := member(dec, name.String()); err != nil {
			return err
		}
	}
	_, err = dec.ReadToken() // '}', or the error that stopped the members
	return err
}

// expectEnd checks that dec has read all of its input.
func expectEnd(dec *jsontext.Decoder) error {
	_, err := dec.ReadToken()
	switch {
	case err == nil:
		return fmt.Errorf("data after the end of the JSON object")
	case err == io.EOF:
		return nil
	}
	return err
}
