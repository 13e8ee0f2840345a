package plots

import "testing"

func TestShortCount(t *testing.T) {
	for n, want := range map[uint64]string{1_000_000: "1e6", 20_000_000: "2e7", 100_000: "1e5", 123: "123", 1500: "1500", 10: "10"} {
		if got := shortCount(n); got != want {
			t.Errorf("shortCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{2e6: "2M", 12.5e6: "12.5M", 5e5: "500k", 42: "42", 0: "0"} {
		if got := compact(v); got != want {
			t.Errorf("compact(%v) = %q, want %q", v, got, want)
		}
	}
}
