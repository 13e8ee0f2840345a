package blocked_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/engine"
)

// A service saves its filter atomically and, at the next start, opens the
// file in place instead of reading it: Open costs a few system calls, and
// pages come in as keys touch them.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "users.fe")

	f, _ := blocked.New(100_000, 0.01)
	f.Add([]byte("alice"))
	if err := f.WriteFile(path); err != nil { // temp file, fsync, rename
		fmt.Println(err)
		return
	}

	g, err := blocked.Open(path, engine.WithoutChecksum()) // mapped copy-on-write
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	fmt.Println(g.Test([]byte("alice")), g.Test([]byte("bob")))
	g.Add([]byte("bob")) // a private copy of one page; the file is unchanged
	fmt.Println(g.Test([]byte("bob")))
	// Output:
	// true false
	// true
}
