// Package contracttest holds test helpers for the parts of the family
// contract that a type checks in its own tests (spatial, which is not a
// membership type, and a family's extra constructors): the misuse panics
// and the text and gob codecs.
package contracttest

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Panics runs every call and requires each to panic with a message
// containing want.
func Panics(t *testing.T, want string, calls map[string]func()) {
	t.Helper()
	for name, call := range calls {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
					t.Errorf("%s: panic %v, want one containing %q", name, r, want)
				}
			}()
			call()
		}()
	}
}

// Codec is what a filter needs for encoding/json and encoding/gob to carry
// it: the text and the binary form.
type Codec interface {
	encoding.TextMarshaler
	encoding.BinaryMarshaler
}

// JSONAndGob encodes a struct holding f with encoding/json and with
// encoding/gob and returns the filter each decodes.
func JSONAndGob[T Codec](t *testing.T, f T) (fromJSON, fromGob T) {
	t.Helper()
	type holder struct {
		Name   string
		Filter T
	}
	js, err := json.Marshal(holder{"name", f})
	if err != nil {
		t.Fatal(err)
	}
	var j holder
	if err := json.Unmarshal(js, &j); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(holder{"name", f}); err != nil {
		t.Fatal(err)
	}
	var g holder
	if err := gob.NewDecoder(&buf).Decode(&g); err != nil {
		t.Fatal(err)
	}
	return j.Filter, g.Filter
}
