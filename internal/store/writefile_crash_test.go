package store

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// envSaveChild makes the test binary a child that saves two envelopes
// alternately to the named path until it is killed.
const envSaveChild = "FILTERENGINE_TEST_SAVE_CHILD"

// childSaved is the line the child prints after its first whole save.
const childSaved = "saved\n"

// crashEnvelopes are the two payloads the child saves in turn: 8 MiB
// each, so a save takes long enough to be interrupted in its middle.
func crashEnvelopes() (Header, [2][]uint64) {
	var ws [2][]uint64
	for i := range ws {
		ws[i] = make([]uint64, 1<<20)
		for j := range ws[i] {
			ws[i][j] = uint64(i+1)*0x9e3779b97f4a7c15 + uint64(j)
		}
	}
	return Header{Family: FamilyBlocked, Version: 1, Params: []uint64{1 << 26, 6}}, ws
}

// TestWriteFileKilled runs this test binary as a child that saves two
// filters in turn, kills it with SIGKILL at random moments, and requires
// the path to hold one of the two envelopes whole every time.
func TestWriteFileKilled(t *testing.T) {
	if path := os.Getenv(envSaveChild); path != "" {
		h, ws := crashEnvelopes()
		for i := 0; ; i++ {
			if err := WriteFile(path, h, WordsPart(ws[i%2])); err != nil {
				os.Exit(3)
			}
			if i == 0 {
				os.Stdout.WriteString(childSaved)
			}
		}
	}
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h, ws := crashEnvelopes()
	var want [2][]byte
	for i, w := range ws {
		want[i], _ = AppendEnvelope(nil, h, WordsBytes(w))
	}
	r := rand.New(rand.NewPCG(1, 2))
	path := filepath.Join(t.TempDir(), "snapshot.fe")
	for round := range 8 {
		cmd := exec.Command(exe, "-test.run=^TestWriteFileKilled$")
		cmd.Env = append(os.Environ(), envSaveChild+"="+path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the child to say its first save is whole (however
		// long a loaded machine takes), then kill at a random moment.
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if line != childSaved {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the child did not save: %q, %v", line, err)
		}
		time.Sleep(time.Duration(r.IntN(40_000)) * time.Microsecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[0]) && !bytes.Equal(got, want[1]) {
			t.Fatalf("round %d: after the kill the file (%d bytes) is neither whole save", round, len(got))
		}
		if _, err := OpenEnvelope(path); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
