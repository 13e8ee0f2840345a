package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/internal/errs"
	"github.com/zeebo/xxh3"
)

func sample() (Header, [][]byte) {
	h := Header{Family: FamilyBlocked, Version: 3, Seed: 0xfeed, Params: []uint64{1 << 40, 7, 0}}
	return h, [][]byte{[]byte("first part;"), bytes.Repeat([]byte{0xa5}, 100)}
}

func TestEnvelopeRoundTrip(t *testing.T) {
	h, parts := sample()
	data, err := AppendEnvelope([]byte("prefix"), h, parts...)
	if err != nil {
		t.Fatal(err)
	}
	data = data[len("prefix"):]
	if len(data) != HeaderSize+111 {
		t.Fatalf("envelope of %d bytes", len(data))
	}
	got, payload, err := DecodeEnvelope(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Family != h.Family || got.Version != h.Version || got.Seed != h.Seed || len(got.Params) != 3 || got.Params[0] != 1<<40 || got.PayloadLen != 111 {
		t.Fatalf("decoded header %+v", got)
	}
	if !bytes.Equal(payload, bytes.Join(parts, nil)) {
		t.Fatal("payload changed")
	}
	var buf bytes.Buffer
	if n, err := WriteEnvelope(&buf, h, parts...); err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("WriteEnvelope: %d bytes, %v", n, err)
	}
	buf.WriteString("next")
	got2, payload2, _, n, err := ReadEnvelope(&buf)
	if err != nil || n != int64(len(data)) || !bytes.Equal(payload2, payload) || got2.Seed != h.Seed {
		t.Fatalf("ReadEnvelope: %d bytes, %v", n, err)
	}
	if buf.String() != "next" {
		t.Fatal("ReadEnvelope read past the envelope")
	}
	if err := got.Expect(FamilyBlocked, 3, 3); err != nil {
		t.Error(err)
	}
	for _, bad := range []error{got.Expect(FamilyClassic, 3, 3), got.Expect(FamilyBlocked, 2, 3), got.Expect(FamilyBlocked, 3, 2)} {
		if !errors.Is(bad, errs.ErrFormat) {
			t.Errorf("Expect accepted a mismatch: %v", bad)
		}
	}
}

func TestEnvelopeCorruption(t *testing.T) {
	h, parts := sample()
	data, _ := AppendEnvelope(nil, h, parts...)
	for i := range data {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= flip
			if _, _, err := DecodeEnvelope(bad); !errors.Is(err, errs.ErrFormat) {
				t.Fatalf("byte %d ^ %#x: DecodeEnvelope err = %v", i, flip, err)
			}
			if _, _, _, _, err := ReadEnvelope(bytes.NewReader(bad)); !errors.Is(err, errs.ErrFormat) {
				t.Fatalf("byte %d ^ %#x: ReadEnvelope err = %v", i, flip, err)
			}
		}
	}
	for n := range len(data) {
		if _, _, err := DecodeEnvelope(data[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: no error", n)
		}
		if _, _, _, _, err := ReadEnvelope(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("ReadEnvelope truncated to %d bytes: no error", n)
		}
	}
	if _, _, err := DecodeEnvelope(append(bytes.Clone(data), 0)); err == nil {
		t.Fatal("a trailing byte after the payload was accepted")
	}
}

func TestEnvelopeTooManyParams(t *testing.T) {
	if _, err := AppendEnvelope(nil, Header{Params: make([]uint64, MaxParams+1)}); err == nil {
		t.Fatal("9 parameters accepted")
	}
}

// reseal recomputes the header checksum after a deliberate lie.
func reseal(b []byte) { binary.LittleEndian.PutUint64(b[120:], xxh3.Hash(b[:120])) }

func TestReadEnvelopeBoundedAllocation(t *testing.T) {
	h, parts := sample()
	data, _ := AppendEnvelope(nil, h, parts...)
	binary.LittleEndian.PutUint64(data[24:], 1<<40) // a 1 TiB payload, checksum intact
	reseal(data)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, _, err := ReadEnvelope(bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errs.ErrFormat) {
		t.Fatalf("err = %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 2*readChunk+HeaderSize+1024 {
		t.Fatalf("a %d-byte input claiming 1 TiB allocated %d bytes", len(data), grew)
	}
	// Nonzero reserved bytes and parameter slots are errors even when sealed.
	for _, off := range []int{14, 32 + 8*3, 104, 119} {
		bad, _ := AppendEnvelope(nil, h, parts...)
		bad[off] = 1
		reseal(bad)
		if _, _, err := DecodeEnvelope(bad); !errors.Is(err, errs.ErrFormat) {
			t.Errorf("nonzero byte at %d accepted: %v", off, err)
		}
	}
}

func FuzzDecodeEnvelope(f *testing.F) {
	h, parts := sample()
	data, _ := AppendEnvelope(nil, h, parts...)
	f.Add(data)
	f.Add(data[:HeaderSize])
	f.Fuzz(func(t *testing.T, data []byte) {
		h, payload, err := DecodeEnvelope(data)
		h2, payload2, _, n, err2 := ReadEnvelope(bytes.NewReader(data))
		// ReadEnvelope takes one envelope from a stream and may leave
		// bytes after it; DecodeEnvelope takes exactly one envelope.
		if err2 == nil {
			h3, payload3, err3 := DecodeEnvelope(data[:n])
			if err3 != nil || !bytes.Equal(payload3, payload2) || h3.Seed != h2.Seed {
				t.Fatalf("ReadEnvelope accepted %d bytes that DecodeEnvelope rejects: %v", n, err3)
			}
		}
		if err != nil {
			return
		}
		if err2 != nil || n != int64(len(data)) || !bytes.Equal(payload, payload2) || h.Seed != h2.Seed {
			t.Fatalf("DecodeEnvelope accepted what ReadEnvelope rejects or reads differently: %v", err2)
		}
		again, err := AppendEnvelope(nil, h, payload)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatal("a valid envelope does not re-encode to itself")
		}
	})
}

func TestWordsBytes(t *testing.T) {
	w := []uint64{0x0102030405060708, 0xf0e0d0c0b0a09080}
	b := WordsBytes(w)
	if b[0] != 0x08 || b[7] != 0x01 || b[8] != 0x80 {
		t.Fatalf("not little-endian: % x", b)
	}
	back := make([]uint64, 2)
	CopyWords(back, b)
	if back[0] != w[0] || back[1] != w[1] {
		t.Fatal("CopyWords(WordsBytes(w)) != w")
	}
	if WordsBytes(nil) != nil {
		t.Fatal("WordsBytes(nil) != nil")
	}
}
