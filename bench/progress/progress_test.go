package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestReporterSaysWhatHowFarAndTimeLeft(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, 0)
	r.Phase("phase x", 100)
	time.Sleep(time.Millisecond)
	r.Advance(25, "filter y")
	r.Done()
	out := buf.String()
	for _, want := range []string{"== phase x", "filter y", " 25%", "left", "phase x done in"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestReporterRateLimited(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, time.Hour)
	r.Phase("p", 10)
	for range 10 {
		r.Advance(1, "w")
	}
	if n := strings.Count(buf.String(), "\n"); n != 1 {
		t.Errorf("%d lines within one interval, want only the phase line:\n%s", n, buf.String())
	}
}

func TestNilReporterIsSilent(t *testing.T) {
	var r *Reporter
	r.Phase("p", 1)
	r.Advance(1, "w")
	r.Note("n")
	r.Done()
}
