package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// partialReceiver takes the partial results of one streamed request.
type partialReceiver struct {
	onPartial func(value json.RawMessage) error
	err       error // the first error onPartial returned; later partials are dropped
}

// ExecuteCommandStreaming runs a command with a partialResultToken (see
// partial.go): onPartial gets each partial result's value, in order, as it
// arrives (on the connection's read loop, so a slow onPartial slows the
// server's sending rather than piling results up), and the final result is
// returned. The value borrows the connection's read buffer: it is valid
// only during the call, so onPartial copies what it keeps (a streamed
// result can be hundreds of MB, and nothing printed needs keeping). When
// onPartial fails, the later partials are dropped and its first error is
// returned.
func (e *Editor) ExecuteCommandStreaming(ctx context.Context, command string, arg any,
	onPartial func(value json.RawMessage) error) (json.RawMessage, error) {
	e.mu.Lock()
	e.nextPartial++
	token := fmt.Sprintf("partial-%d", e.nextPartial)
	receiver := &partialReceiver{onPartial: onPartial}
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
	var result json.RawMessage
	err := e.Call(ctx, "workspace/executeCommand",
		map[string]any{"command": command, "arguments": []any{arg}, "partialResultToken": token}, &result)
	if err == nil {
		err = receiver.err // set on the read loop, which handled every partial before the reply
	}
	return result, err
}

// receivePartial hands a $/progress notification to the request whose
// partialResultToken it carries, and reports whether it did. params may
// borrow the read buffer: the value handed on is a slice of it, read in
// one pass, never copied.
func (e *Editor) receivePartial(params json.RawMessage) bool {
	var token string
	var value jsontext.Value
	err := eachMember(params, func(dec *jsontext.Decoder, name string) error {
		var err error
		switch name {
		case "token":
			var tok jsontext.Token
			if tok, err = dec.ReadToken(); err == nil && tok.Kind() == '"' {
				token = tok.String()
			}
		case "value":
			value, err = dec.ReadValue()
		default:
			err = dec.SkipValue()
		}
		return err
	})
	if err != nil || value == nil {
		return false
	}
	e.mu.Lock()
	receiver := e.partials[token]
	e.mu.Unlock()
	if receiver == nil {
		return false
	}
	if receiver.err == nil {
		receiver.err = receiver.onPartial(json.RawMessage(value))
	}
	return true
}

// PartialBatch is one partial result of a streamed command, a batch
// {matches, text?} (partial.go), as ReadPartialBatch reads it.
type PartialBatch struct {
	// Matches are the elements of the matches array exactly as sent, with
	// the commas between them (empty when there are none): a printer writes
	// them as they are. They borrow the value read.
	Matches []byte
	// Count is the number of matches.
	Count int
	// Text is the batch's text rendering, when it has one.
	Text string
}

// ReadPartialBatch reads a batch in one validating pass, without copying
// its matches (a streamed X-Ray listing of the Go standard library is
// 200 MB of JSON: decoding each match into a value of its own cost more
// than evaluating it).
func ReadPartialBatch(value json.RawMessage) (PartialBatch, error) {
	var b PartialBatch
	seenMatches := false
	err := eachMember(value, func(dec *jsontext.Decoder, name string) error {
		switch name {
		case "matches":
			if seenMatches {
				return fmt.Errorf("the batch has two matches arrays")
			}
			seenMatches = true
			return readMatches(dec, value, &b)
		case "text":
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			if tok.Kind() != '"' {
				return fmt.Errorf("the batch's text is a JSON %s, not a string", tok.Kind())
			}
			b.Text = tok.String()
			return nil
		}
		return dec.SkipValue()
	})
	return b, err
}

// readMatches reads the matches array dec is at: its elements' span of
// value, and their count.
func readMatches(dec *jsontext.Decoder, value []byte, b *PartialBatch) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '[' {
		return fmt.Errorf("the batch's matches are a JSON %s, not an array", tok.Kind())
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
	b.Matches = bytes.TrimLeft(value[start:end], " \t\r\n")
	return nil
}

// eachMember reads the JSON object data in one pass, calling member with
// the decoder at each member's value, which member must read (or skip).
// The decoder reads data in place (it is a bytes.Buffer), so the values it
// returns borrow data.
func eachMember(data []byte, member func(dec *jsontext.Decoder, name string) error) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("a JSON %s where an object was expected", tok.Kind())
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
	if _, err := dec.ReadToken(); err != nil { // '}', or the error that stopped the members
		return err
	}
	_, err = dec.ReadToken()
	if err == nil {
		return fmt.Errorf("data after the end of the JSON object")
	}
	if err != io.EOF {
		return err
	}
	return nil
}
