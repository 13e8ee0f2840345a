package blocked_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// Example_readme is the README's example, word for word
// (TestReadmeExample keeps the two the same): build, add, test, dedup,
// a batch of integer keys, then an atomic save and a mapped open.
func Example_readme() {
	f, err := blocked.New(1_000_000, 0.01, engine.WithSeed(42)) // n keys, target FPR
	if err != nil {
		log.Fatal(err)
	}
	f.Add([]byte("alice"))
	f.AddString("carol")                                        // no copy, no allocation
	fmt.Println(f.Test([]byte("alice")), f.Test([]byte("bob"))) // true false (bob: except with probability ~1%)

	if !f.TestAndAdd([]byte("dave")) { // the dedup call: false the first time
		fmt.Println("new event")
	}

	ids := []uint64{7, 11, 13}
	f.AddUint64s(ids) // a batch, hashed and probed by the AVX2/AVX-512 kernels
	hits := f.TestUint64s(ids, make([]bool, len(ids)))
	fmt.Println(hits, f.TestUint64(7)) // 3 true

	path := filepath.Join(os.TempDir(), "users.fe")
	if err := f.WriteFile(path); err != nil { // atomic: temp file, fsync, rename
		log.Fatal(err)
	}
	defer os.Remove(path)
	g, err := blocked.Open(path) // mapped in place, checksum verified
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	fmt.Println(g.Test([]byte("alice"))) // true
	// Output:
	// true false
	// new event
	// 3 true
	// true
}

// TestReadmeExample fails when the README's example and Example_readme
// drift apart, so the README's code is the code this package runs.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	want := between(t, readme, "func main() {\n", "}\n```")
	got := between(t, self, "func Example_readme() {\n", "\t// Output:")
	if got != want {
		t.Fatalf("README example and Example_readme differ:\nREADME:\n%s\nExample:\n%s", want, got)
	}
	for _, line := range strings.Split(between(t, readme, "package main\n\nimport (\n", ")\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" && !bytes.Contains(self, []byte(line)) {
			t.Errorf("the README example imports %s, Example_readme does not", line)
		}
	}
}

// between returns the text of b after the first start up to the next end.
func between(t *testing.T, b []byte, start, end string) string {
	t.Helper()
	s := string(b)
	i := strings.Index(s, start)
	if i < 0 {
		t.Fatalf("no %q", start)
	}
	s = s[i+len(start):]
	j := strings.Index(s, end)
	if j < 0 {
		t.Fatalf("no %q after %q", end, start)
	}
	return s[:j]
}
