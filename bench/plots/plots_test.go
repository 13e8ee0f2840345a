package plots

import "testing"

func TestShortCount(t *testing.T) {
	for n, want := range map[uint64]string{1_000_000: "1e6", 20_000_000: "2e7", 100_000: "1e5", 123: "123", 1500: "1500", 10: "10"} {
		if got := shortCount(n); got != want {
			t.Errorf("shortCount(%d) = %q, want %q", n, got, want)
		}
	}
}
