package hadoop

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
)

// The Writable encoding is java.io.DataOutput's: big-endian ints, longs and
// doubles. reader and writer keep the first error and turn every later
// call into a no-op, so the decoders read straight through and check once.

// chunk bounds every read: memory grows only as bytes actually arrive, so a
// declared size the stream does not hold fails before it is allocated.
const chunk = 4096

type reader struct {
	r   io.Reader
	err error
	buf [chunk]byte
}

func (r *reader) fill(n int) []byte {
	if r.err != nil {
		return nil
	}
	if _, err := io.ReadFull(r.r, r.buf[:n]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			r.err = formatErr("truncated stream: %v", io.ErrUnexpectedEOF)
		} else {
			r.err = err
		}
		return nil
	}
	return r.buf[:n]
}

func (r *reader) int8() int8 {
	if b := r.fill(1); b != nil {
		return int8(b[0])
	}
	return 0
}

func (r *reader) int32() int32 {
	if b := r.fill(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

func (r *reader) float64() float64 {
	if b := r.fill(8); b != nil {
		return math.Float64frombits(binary.BigEndian.Uint64(b))
	}
	return 0
}

// bytes reads n bytes into a slice that grows with the data read.
func (r *reader) bytes(n int) []byte {
	var out []byte
	for len(out) < n && r.err == nil {
		b := r.fill(min(chunk, n-len(out)))
		out = append(out, b...)
	}
	if r.err != nil {
		return nil
	}
	return out
}

// words reads nbytes bytes into 64-bit words: little-endian words for a
// bit vector (bit i in byte i/8 under 1<<(i%8) is bit i of the words), or
// big-endian Java longs (bigEndian, nbytes a multiple of 8). A partial
// last word is zero-padded.
func (r *reader) words(nbytes int, bigEndian bool) []uint64 {
	var out []uint64
	for done := 0; done < nbytes && r.err == nil; {
		n := min(chunk, nbytes-done)
		b := r.fill(n)
		for i := 0; i < len(b); i += 8 {
			var w [8]byte
			copy(w[:], b[i:])
			if bigEndian {
				out = append(out, binary.BigEndian.Uint64(w[:]))
			} else {
				out = append(out, binary.LittleEndian.Uint64(w[:]))
			}
		}
		done += n
	}
	if r.err != nil {
		return nil
	}
	return out
}

type writer struct {
	w   io.Writer
	n   int64
	err error
	buf []byte
}

func newWriter(w io.Writer) *writer { return &writer{w: w, buf: make([]byte, 0, chunk)} }

func (w *writer) room(n int) {
	if len(w.buf)+n > cap(w.buf) {
		w.flush()
	}
}

func (w *writer) flush() {
	if w.err == nil && len(w.buf) > 0 {
		var m int
		m, w.err = w.w.Write(w.buf)
		w.n += int64(m)
	}
	w.buf = w.buf[:0]
}

func (w *writer) int8(v int8) {
	w.room(1)
	w.buf = append(w.buf, byte(v))
}

func (w *writer) int32(v int32) {
	w.room(4)
	w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(v))
}

// float64 writes Double.doubleToLongBits(v): every NaN as 0x7ff8000000000000.
func (w *writer) float64(v float64) {
	b := math.Float64bits(v)
	if v != v {
		b = 0x7ff8000000000000
	}
	w.room(8)
	w.buf = binary.BigEndian.AppendUint64(w.buf, b)
}

func (w *writer) bytes(p []byte) {
	for len(p) > 0 {
		w.room(1)
		n := min(len(p), cap(w.buf)-len(w.buf))
		w.buf = append(w.buf, p[:n]...)
		p = p[n:]
	}
}

// words writes the first nbytes bytes of ws, as the reader's words reads them.
func (w *writer) words(ws []uint64, nbytes int, bigEndian bool) {
	for i := 0; nbytes > 0; i++ {
		var b [8]byte
		if bigEndian {
			binary.BigEndian.PutUint64(b[:], ws[i])
		} else {
			binary.LittleEndian.PutUint64(b[:], ws[i])
		}
		n := min(8, nbytes)
		w.room(n)
		w.buf = append(w.buf, b[:n]...)
		nbytes -= n
	}
}

// done flushes and returns WriteTo's results.
func (w *writer) done() (int64, error) {
	w.flush()
	return w.n, w.err
}
