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

	"github.com/filterengine/filterengine/internal/testkit/conformance"
)

// Panics runs every call and requires each to panic with a message
// containing want.
func Panics(t *testing.T, want string, calls map[string]func()) {
	t.Helper()
	for name, call := range calls {
		Panic(t, name, want, call)
	}
}

// Panic runs call and requires it to panic with a message containing
// want; name says which call failed.
func Panic(t *testing.T, name, want string, call func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
			t.Errorf("%s: panic %v, want one containing %q", name, r, want)
		}
	}()
	call()
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

// KeyCalls is one call of every key form a membership type with
// concurrent writers has (single-key, batch and *Concurrent), for a
// table of what its zero value must do; a family adds its own methods to
// the map it returns.
func KeyCalls[T interface {
	conformance.Membership[T]
	conformance.Concurrent
}](z T) map[string]func() {
	out := make([]bool, 1)
	return map[string]func(){
		"Add":                  func() { z.Add([]byte("x")) },
		"Test":                 func() { z.Test([]byte("x")) },
		"TestAndAdd":           func() { z.TestAndAdd([]byte("x")) },
		"AddHash":              func() { z.AddHash(1) },
		"TestHash":             func() { z.TestHash(1) },
		"TestAndAddHash":       func() { z.TestAndAddHash(1) },
		"AddUint64":            func() { z.AddUint64(1) },
		"TestUint64":           func() { z.TestUint64(1) },
		"AddString":            func() { z.AddString("x") },
		"TestString":           func() { z.TestString("x") },
		"AddHashes":            func() { z.AddHashes([]uint64{1}) },
		"TestHashes":           func() { z.TestHashes([]uint64{1}, out) },
		"AddKeys":              func() { z.AddKeys([][]byte{{1}}) },
		"TestKeys":             func() { z.TestKeys([][]byte{{1}}, out) },
		"AddUint64s":           func() { z.AddUint64s([]uint64{1}) },
		"TestUint64s":          func() { z.TestUint64s([]uint64{1}, out) },
		"AddConcurrent":        func() { z.AddConcurrent([]byte("x")) },
		"AddHashConcurrent":    func() { z.AddHashConcurrent(1) },
		"AddHashesConcurrent":  func() { z.AddHashesConcurrent([]uint64{1}) },
		"AddUint64sConcurrent": func() { z.AddUint64sConcurrent([]uint64{1}) },
		"TestConcurrent":       func() { z.TestConcurrent([]byte("x")) },
		"TestHashConcurrent":   func() { z.TestHashConcurrent(1) },
		"EstimatedCount":       func() { z.EstimatedCount() },
		"Clone":                func() { z.Clone() },
		"MarshalBinary":        func() { _, _ = z.MarshalBinary() },
		"MarshalText":          func() { _, _ = z.MarshalText() },
		"WriteTo":              func() { _, _ = z.WriteTo(&bytes.Buffer{}) },
	}
}
