package fuzzenv

import (
	"bytes"
	"encoding/binary"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/internal/store"
)

func envelope(t testing.TB, h store.Header, payload []byte) []byte {
	t.Helper()
	b, err := store.AppendEnvelope(nil, h, payload)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goods are valid envelopes whose every header field differs from its
// zero value and from the others', so a template that lost or swapped a
// field would seal something else.
func goods(t testing.TB) [][]byte {
	payload := make([]byte, 200)
	for i := range payload {
		payload[i] = byte(7*i + 3)
	}
	return [][]byte{
		envelope(t, store.Header{Family: store.FamilyShifting, Version: 3, Seed: 0xdead_beef_0123, Params: []uint64{1 << 40, 7, 0xffff_ffff_ffff_ffff}}, payload),
		envelope(t, store.Header{Family: store.FamilyWindow, Version: 2, Seed: 5, Params: []uint64{9, 8, 7, 6, 5, 4, 3, 2}}, payload[:64]),
		envelope(t, store.Header{Family: store.FamilyClassic, Version: 1, Seed: 1}, payload[:1]),
		envelope(t, store.Header{Family: store.FamilySpatial, Version: 4, Seed: 2, Params: []uint64{1}}, nil),
	}
}

// The sealed raw form of a good encoding is the encoding, byte for byte.
func TestSealRawIsIdentity(t *testing.T) {
	for i, good := range goods(t) {
		tmpl, corpus, err := Corpus(good)
		if err != nil {
			t.Fatal(err)
		}
		h, _, _ := store.DecodeEnvelope(good)
		if tmpl.Family != h.Family || tmpl.Version != h.Version || tmpl.Seed != h.Seed || tmpl.NParams != len(h.Params) {
			t.Fatalf("seed %d: template %+v from header %+v", i, tmpl, h)
		}
		raw, np, err := Raw(good)
		if err != nil || np != len(h.Params) {
			t.Fatalf("seed %d: Raw: %d params, %v", i, np, err)
		}
		if want := [][]byte{good, good[:store.HeaderSize], raw}; !slices.EqualFunc(corpus, want, bytes.Equal) {
			t.Fatalf("seed %d: corpus of %d inputs, want the envelope, its header and its raw form", i, len(corpus))
		}
		if len(raw) != len(good)-store.HeaderSize+8*np {
			t.Fatalf("seed %d: raw form of %d bytes from a %d-byte envelope with %d parameters", i, len(raw), len(good), np)
		}
		if sealed := tmpl.Seal(raw); !bytes.Equal(sealed, good) {
			t.Fatalf("seed %d: the sealed raw form differs from the encoding", i)
		}
	}
}

// envOffset is where byte at of the raw form of an envelope with np
// parameters lies in the envelope.
func envOffset(np, at int) int {
	if at < 8*np {
		return 32 + at
	}
	return store.HeaderSize + at - 8*np
}

// checksummed reports whether byte i of an envelope belongs to a checksum.
func checksummed(i int) bool { return 96 <= i && i < 104 || 120 <= i && i < 128 }

// A changed parameter or payload byte fails the envelope's checksums;
// the same change in the raw form, sealed, passes them and reaches the
// decoder as changed, with nothing else changed but the checksums.
func TestSealPassesChecksums(t *testing.T) {
	good := goods(t)[0]
	tmpl, _, _ := Corpus(good)
	raw, _, _ := Raw(good)
	for _, at := range []int{0, 8*tmpl.NParams - 1, 8 * tmpl.NParams, len(raw) - 1} {
		bad := slices.Clone(good)
		bad[envOffset(tmpl.NParams, at)] ^= 1
		if _, _, err := store.DecodeEnvelope(bad); err == nil {
			t.Fatalf("byte %d of the raw form changed in the envelope: DecodeEnvelope accepted it", at)
		}
		mutated := slices.Clone(raw)
		mutated[at] ^= 1
		sealed := tmpl.Seal(mutated)
		h, payload, err := store.DecodeEnvelope(sealed)
		if err != nil {
			t.Fatalf("byte %d of the raw form changed, sealed: %v", at, err)
		}
		if len(sealed) != len(bad) {
			t.Fatalf("byte %d: sealed %d bytes from a %d-byte envelope", at, len(sealed), len(bad))
		}
		for i := range sealed {
			if sealed[i] != bad[i] && !checksummed(i) {
				t.Fatalf("byte %d: the sealed mutation differs at byte %d of the envelope", at, i)
			}
		}
		if h.Family != tmpl.Family || h.Version != tmpl.Version || h.Seed != tmpl.Seed || len(h.Params) != tmpl.NParams {
			t.Fatalf("byte %d: sealed header %+v, template %+v", at, h, tmpl)
		}
		if again, _, _ := Raw(sealed); !bytes.Equal(again, mutated) || !bytes.Equal(payload, mutated[8*tmpl.NParams:]) {
			t.Fatalf("byte %d: the sealed envelope does not hold the mutated raw form", at)
		}
	}
}

// Seal returns nil for an input shorter than the parameters, and an
// envelope with an empty payload for one exactly as long.
func TestSealShort(t *testing.T) {
	good := goods(t)[0]
	tmpl, _, _ := Corpus(good)
	raw, _, _ := Raw(good)
	for n := range 8 * tmpl.NParams {
		if sealed := tmpl.Seal(raw[:n]); sealed != nil {
			t.Fatalf("%d bytes for %d parameters sealed into %d bytes", n, tmpl.NParams, len(sealed))
		}
	}
	h, payload, err := store.DecodeEnvelope(tmpl.Seal(raw[:8*tmpl.NParams]))
	if err != nil || len(payload) != 0 || binary.LittleEndian.Uint64(raw[8*(tmpl.NParams-1):]) != h.Params[tmpl.NParams-1] {
		t.Fatalf("the parameters alone: %+v, %d payload bytes, %v", h, len(payload), err)
	}
	none := Template{Family: store.FamilyClassic, Version: 1}
	if _, payload, err := store.DecodeEnvelope(none.Seal(nil)); err != nil || len(payload) != 0 {
		t.Fatalf("no parameters, no payload: %v", err)
	}
}

// The template is the first seed's; later seeds of another parameter
// count are added without a raw form, invalid ones as they are.
func TestCorpus(t *testing.T) {
	g := goods(t)
	tmpl, corpus, err := Corpus(g[0], g[1], g[1][:10], g[0][:store.HeaderSize+1])
	if err != nil {
		t.Fatal(err)
	}
	if tmpl.NParams != 3 || tmpl.Family != store.FamilyShifting {
		t.Fatalf("template %+v, want the first seed's", tmpl)
	}
	raw0, _, _ := Raw(g[0])
	want := [][]byte{
		g[0], g[0][:store.HeaderSize], raw0,
		g[1], g[1][:store.HeaderSize],
		g[1][:10],
		g[0][:store.HeaderSize+1], g[0][:store.HeaderSize],
	}
	if !slices.EqualFunc(corpus, want, bytes.Equal) {
		t.Fatalf("corpus of %d inputs, want %d", len(corpus), len(want))
	}
	for _, seeds := range [][][]byte{nil, {g[0][:store.HeaderSize]}, {g[0][1:]}} {
		if _, _, err := Corpus(seeds...); err == nil {
			t.Errorf("%d seeds, the first not an envelope: no error", len(seeds))
		}
	}
}

// Every input of Seal's length seals into an envelope that DecodeEnvelope
// accepts with the template's header and the input as its raw form.
func FuzzSeal(f *testing.F) {
	tmpl := AddSeeds(f, goods(f)...)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		sealed := tmpl.Seal(data)
		if len(data) < 8*tmpl.NParams {
			if sealed != nil {
				t.Fatal("an input shorter than the parameters sealed")
			}
			return
		}
		h, _, err := store.DecodeEnvelope(sealed)
		if err != nil {
			t.Fatal(err)
		}
		if h.Family != tmpl.Family || h.Version != tmpl.Version || h.Seed != tmpl.Seed {
			t.Fatalf("sealed header %+v, template %+v", h, tmpl)
		}
		if raw, np, _ := Raw(sealed); np != tmpl.NParams || !bytes.Equal(raw, data) {
			t.Fatal("the sealed envelope does not hold its input")
		}
	})
}

// Only _test files import this package: it imports testing, and a
// sealed hostile envelope is no part of the library.
func TestImportedOnlyByTests(t *testing.T) {
	const self = "github.com/filterengine/filterengine/internal/testkit/fuzzenv"
	root := filepath.Join("..", "..", "..")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == self {
				t.Errorf("%s imports %s", path, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("walked %d non-test Go files from %s, not the module", files, root)
	}
}
