package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/store"
)

// holder is a user's struct holding a filter, for encoding/json and
// encoding/gob.
type holder[T any] struct {
	Name   string
	Filter T
	N      int
}

// loaded is a filter with its keys, its bytes and probe keys.
type loaded[T Membership[T]] struct {
	f      T
	data   []byte
	kb, ku keySet // added
	pb, pu keySet // not added
}

func (s *suite[T]) load(t testing.TB, nk uint64, stream uint64, extra ...engine.Option) loaded[T] {
	t.Helper()
	l := loaded[T]{f: s.new(t, nk, p, extra...)}
	g := s.keys(stream, extra...)
	l.kb, l.ku = g.mixed(int(nk / 3))
	l.pb, l.pu = g.mixed(int(nk))
	l.f.AddKeys(l.kb.b)
	l.f.AddUint64s(l.ku.u)
	l.data = s.marshal(t, l.f)
	return l
}

// same fails t unless d has l's bytes, keys and answers.
func (s *suite[T]) same(t testing.TB, what string, l loaded[T], d T) {
	t.Helper()
	if got := s.marshal(t, d); !bytes.Equal(got, l.data) {
		t.Errorf("%s: %s: the copy encodes to other bytes (%d vs %d, first difference at byte %d)", s.fam.Name, what, len(got), len(l.data), firstDiff(got, l.data))
	}
	s.allPresent(t, d, what, l.kb, l.ku)
	for _, ks := range []keySet{l.pb, l.pu} {
		want, got := make([]bool, ks.len()), make([]bool, ks.len())
		l.f.TestKeys(ks.b, want)
		d.TestKeys(ks.b, got)
		if i := slices.Index(boolBytes(want), 1); !slices.Equal(want, got) {
			t.Errorf("%s: %s: the copy answers absent keys differently (first false positive of the original at %d)", s.fam.Name, what, i)
		}
	}
}

// codecs round-trips a loaded filter, with the default seed and another,
// through every codec, and checks Clone's independence.
func (s *suite[T]) codecs(t *testing.T) {
	for _, seeded := range s.seedings() {
		var extra []engine.Option
		if seeded {
			extra = append(extra, engine.WithSeed(otherSeed))
		}
		l := s.load(t, 3000, 11, extra...)
		s.roundTrips(t, l)
		s.clone(t, l)
		if t.Failed() {
			t.Logf("seeded: %v", seeded)
			return
		}
	}
}

func (s *suite[T]) roundTrips(t *testing.T, l loaded[T]) {
	t.Helper()
	// withTail is the bytes and one more, which a stream reader must
	// leave unread.
	withTail := append(slices.Clone(l.data), 0xAB)
	if s.fam.Decode != nil {
		in := slices.Clone(l.data)
		d, err := s.fam.Decode(in, s.opts()...)
		if err != nil {
			t.Fatalf("%s: Decode of MarshalBinary's bytes: %v", s.fam.Name, err)
		}
		clear(in)
		s.same(t, "Decode (input overwritten after)", l, d)
	}
	in := slices.Clone(l.data)
	z := zeroOf[T]()
	if err := z.UnmarshalBinary(in); err != nil {
		t.Fatalf("%s: UnmarshalBinary into a zero value: %v", s.fam.Name, err)
	}
	clear(in)
	s.same(t, "UnmarshalBinary into a zero value (input overwritten after)", l, z)
	o := s.new(t, 10, 0.3)
	o.Add([]byte("other"))
	if err := o.UnmarshalBinary(l.data); err != nil {
		t.Fatalf("%s: UnmarshalBinary into another filter: %v", s.fam.Name, err)
	}
	s.same(t, "UnmarshalBinary into another filter", l, o)

	var buf bytes.Buffer
	nw, err := l.f.WriteTo(&buf)
	if err != nil || nw != int64(buf.Len()) || !bytes.Equal(buf.Bytes(), l.data) {
		t.Errorf("%s: WriteTo wrote %d bytes (reported %d, error %v), not MarshalBinary's %d", s.fam.Name, buf.Len(), nw, err, len(l.data))
	}
	r := bytes.NewReader(withTail)
	z = zeroOf[T]()
	if nr, err := z.ReadFrom(r); err != nil || nr != int64(len(l.data)) || r.Len() != 1 {
		t.Fatalf("%s: ReadFrom: %d bytes read, %d left of one past the filter, error %v", s.fam.Name, nr, r.Len(), err)
	}
	s.same(t, "ReadFrom into a zero value", l, z)
	if s.fam.Read != nil {
		r := bytes.NewReader(withTail)
		d, err := s.fam.Read(r, s.opts()...)
		if err != nil || r.Len() != 1 {
			t.Fatalf("%s: Read: %d bytes left of one past the filter, error %v", s.fam.Name, r.Len(), err)
		}
		s.same(t, "Read", l, d)
	}

	text, err := l.f.MarshalText()
	if err != nil {
		t.Fatalf("%s: MarshalText: %v", s.fam.Name, err)
	}
	z = zeroOf[T]()
	if err := z.UnmarshalText(text); err != nil {
		t.Fatalf("%s: UnmarshalText of MarshalText's form: %v", s.fam.Name, err)
	}
	s.same(t, "MarshalText/UnmarshalText", l, z)

	js, err := json.Marshal(holder[T]{Name: "a", Filter: l.f, N: 7})
	if err != nil {
		t.Fatalf("%s: json.Marshal of a struct holding the filter: %v", s.fam.Name, err)
	}
	if !bytes.Contains(js, []byte(`"Filter":"`)) {
		t.Fatalf("%s: json.Marshal writes the filter as %.80s, want a JSON string (MarshalText)", s.fam.Name, js[bytes.Index(js, []byte(`"Filter"`)):])
	}
	var hj holder[T]
	if err := json.Unmarshal(js, &hj); err != nil || hj.Name != "a" || hj.N != 7 {
		t.Fatalf("%s: json.Unmarshal of a struct holding the filter: %v", s.fam.Name, err)
	}
	s.same(t, "encoding/json", l, hj.Filter)

	var gb bytes.Buffer
	if err := gob.NewEncoder(&gb).Encode(holder[T]{Name: "a", Filter: l.f, N: 7}); err != nil {
		t.Fatalf("%s: gob encoding of a struct holding the filter: %v", s.fam.Name, err)
	}
	var hg holder[T]
	if err := gob.NewDecoder(&gb).Decode(&hg); err != nil || hg.Name != "a" || hg.N != 7 {
		t.Fatalf("%s: gob decoding of a struct holding the filter: %v", s.fam.Name, err)
	}
	s.same(t, "encoding/gob", l, hg.Filter)
}

// clone wants Clone to copy everything and share nothing.
func (s *suite[T]) clone(t *testing.T, l loaded[T]) {
	t.Helper()
	c := l.f.Clone()
	s.same(t, "Clone", l, c)
	// Keys added to the clone do not reach the original, and back.
	before := make([]bool, l.pb.len())
	l.f.TestKeys(l.pb.b, before)
	c.AddKeys(l.pb.b)
	after := make([]bool, l.pb.len())
	l.f.TestKeys(l.pb.b, after)
	if !slices.Equal(before, after) || !bytes.Equal(s.marshal(t, l.f), l.data) {
		t.Errorf("%s: keys added to a Clone changed the original", s.fam.Name)
	}
	s.allPresent(t, c, "keys added to a Clone", l.pb)
	cdata := s.marshal(t, c)
	l.f.AddUint64s(l.pu.u)
	if !bytes.Equal(s.marshal(t, c), cdata) {
		t.Errorf("%s: keys added to the original changed its Clone", s.fam.Name)
	}
}

// decoder is one way to turn bytes into a filter.
type decoder[T Membership[T]] struct {
	name string
	fn   func(data []byte) error
}

// decoders returns every decoder of the binary form. UnmarshalText is one
// when MarshalText is base64 of MarshalBinary (as for l), in the same
// alphabet, so that a corrupted binary form has a corrupted text form.
func (s *suite[T]) decoders(l loaded[T]) []decoder[T] {
	ds := []decoder[T]{
		{"UnmarshalBinary", func(d []byte) error { return zeroOf[T]().UnmarshalBinary(d) }},
		{"ReadFrom", func(d []byte) error { _, err := zeroOf[T]().ReadFrom(bytes.NewReader(d)); return err }},
	}
	if text, err := l.f.MarshalText(); err == nil {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if string(text) == enc.EncodeToString(l.data) {
				ds = append(ds, decoder[T]{"UnmarshalText", func(d []byte) error {
					return zeroOf[T]().UnmarshalText([]byte(enc.EncodeToString(d)))
				}})
				break
			}
		}
	}
	if s.fam.Decode != nil {
		ds = append(ds, decoder[T]{"Decode", func(d []byte) error { _, err := s.fam.Decode(d, s.opts()...); return err }})
	}
	if s.fam.Read != nil {
		ds = append(ds, decoder[T]{"Read", func(d []byte) error { _, err := s.fam.Read(bytes.NewReader(d), s.opts()...); return err }})
	}
	return ds
}

// rejects runs every decoder on data and fails t unless each returns an
// error wrapping engine.ErrFormat without panicking. It returns false
// after the first failure.
func (s *suite[T]) rejects(t testing.TB, what string, data []byte, ds []decoder[T]) bool {
	t.Helper()
	for _, d := range ds {
		var err error
		if v := catch(func() { err = d.fn(data) }); v != nil {
			t.Errorf("%s: %s on %s panicked: %v", s.fam.Name, d.name, what, v)
			return false
		}
		if !errors.Is(err, engine.ErrFormat) {
			t.Errorf("%s: %s on %s: error %v, want one wrapping engine.ErrFormat", s.fam.Name, d.name, what, err)
			return false
		}
	}
	return true
}

// corruption wants every single-byte change, every truncation and an
// appended byte rejected by every decoder, and a failed UnmarshalBinary
// to leave its filter as it was.
func (s *suite[T]) corruption(t *testing.T) {
	l := s.load(t, 100, 12)
	ds := s.decoders(l)
	if !isEnvelope(l.data) {
		s.corruptionUnchecked(t, l, ds)
		return
	}
	target := s.load(t, 100, 13)
	// Every byte with every mask through the first decoder (the cheapest,
	// UnmarshalBinary); the header's bytes, and every 61st byte of the
	// payload, through every decoder, and into a loaded filter that must
	// stay as it was.
	for i := range l.data {
		all := i < store.HeaderSize || i%61 == 0
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			d := slices.Clone(l.data)
			d[i] ^= mask
			what := fmt.Sprintf("the bytes with byte %d of %d xor %#x", i, len(d), mask)
			use := ds[:1]
			if all {
				use = ds
			}
			if !s.rejects(t, what, d, use) {
				return
			}
			if all && mask == 0x01 {
				if err := target.f.UnmarshalBinary(d); err == nil || !bytes.Equal(s.marshal(t, target.f), target.data) {
					t.Fatalf("%s: UnmarshalBinary of %s changed the filter (error %v)", s.fam.Name, what, err)
				}
			}
		}
	}
	for i := range len(l.data) {
		if !s.rejects(t, fmt.Sprintf("the first %d of %d bytes", i, len(l.data)), l.data[:i:i], ds) {
			return
		}
	}
	tail := append(slices.Clone(l.data), 0)
	var strict []decoder[T]
	for _, d := range ds {
		if d.name != "Read" && d.name != "ReadFrom" { // streams stop at the envelope's end
			strict = append(strict, d)
		}
	}
	s.rejects(t, "the bytes and one more", tail, strict)
}

// hostile decodes headers that claim huge payloads or odd parameters,
// with valid checksums: errors wrapping engine.ErrFormat (or a working
// filter, for parameters), never a panic, never a large allocation.
func (s *suite[T]) hostile(t *testing.T) {
	l := s.load(t, 300, 14)
	ds := s.decoders(l)
	if !isEnvelope(l.data) {
		t.Skipf("%s does not write engine's envelope; its format's own tests cover hostile headers", s.fam.Name)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, claim := range []uint64{1 << 31, 1 << 40, 1 << 62, math.MaxUint64} {
		d := slices.Clone(l.data)
		binary.LittleEndian.PutUint64(d[24:], claim)
		reseal(d)
		s.rejects(t, fmt.Sprintf("a header claiming a %d-byte payload", claim), d, ds)
		s.rejects(t, fmt.Sprintf("a lone header claiming a %d-byte payload", claim), d[:store.HeaderSize], ds)
	}
	np := int(binary.LittleEndian.Uint16(l.data[12:]))
	for i := range np {
		for _, v := range []uint64{0, 1, 3, 64, 1 << 32, 1 << 62, math.MaxUint64} {
			d := slices.Clone(l.data)
			binary.LittleEndian.PutUint64(d[32+8*i:], v)
			reseal(d)
			what := fmt.Sprintf("parameter %d set to %d", i, v)
			if s.fam.Decode == nil {
				continue
			}
			var f T
			var err error
			if v := catch(func() { f, err = s.fam.Decode(d, s.opts()...) }); v != nil {
				t.Errorf("%s: Decode with %s panicked: %v", s.fam.Name, what, v)
				continue
			}
			if err != nil {
				if !errors.Is(err, engine.ErrFormat) {
					t.Errorf("%s: Decode with %s: error %v, want one wrapping engine.ErrFormat", s.fam.Name, what, err)
				}
				continue
			}
			// Accepted: it must work.
			if v := catch(func() {
				f.TestKeys(l.kb.b, make([]bool, l.kb.len()))
				f.TestUint64s(l.ku.u, make([]bool, l.ku.len()))
				f.AddKeys(l.pb.b[:10])
				_ = f.String()
			}); v != nil {
				t.Errorf("%s: a filter decoded with %s panics: %v", s.fam.Name, what, v)
			}
		}
	}
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
		t.Errorf("%s: decoding hostile headers allocated %d MiB", s.fam.Name, a>>20)
	}
}

// reseal rewrites the header checksum of an envelope.
func reseal(d []byte) {
	binary.LittleEndian.PutUint64(d[120:], xxh3.Hash(d[:120]))
}

// envelopeMagic opens engine's envelope.
const envelopeMagic = "\x89FLTENG\n"

// isEnvelope reports whether data is in engine's envelope, whose
// checksums make every corrupted byte an error.
func isEnvelope(data []byte) bool { return bytes.HasPrefix(data, []byte(envelopeMagic)) }

// corruptionUnchecked is the corruption check of a format without
// checksums (parquet.Filter's Parquet form): a changed byte may decode, but
// never panics, and an error wraps engine.ErrFormat; every truncation is
// an error.
func (s *suite[T]) corruptionUnchecked(t *testing.T, l loaded[T], ds []decoder[T]) {
	accepted := 0
	for i := range l.data {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			d := slices.Clone(l.data)
			d[i] ^= mask
			for _, dec := range ds {
				var err error
				if v := catch(func() { err = dec.fn(d) }); v != nil {
					t.Fatalf("%s: %s on the bytes with byte %d xor %#x panicked: %v", s.fam.Name, dec.name, i, mask, v)
				}
				if err == nil {
					accepted++
				} else if !errors.Is(err, engine.ErrFormat) {
					t.Fatalf("%s: %s on the bytes with byte %d xor %#x: error %v, want one wrapping engine.ErrFormat", s.fam.Name, dec.name, i, mask, err)
				}
			}
		}
	}
	t.Logf("%s: not engine's envelope, no checksum: %d corrupted decodes accepted", s.fam.Name, accepted)
	for i := range len(l.data) {
		if !s.rejects(t, fmt.Sprintf("the first %d of %d bytes", i, len(l.data)), l.data[:i:i], ds) {
			return
		}
	}
}
