//go:build linux && !race

package memlimit

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const supported = true

// heapRoom is the free Go heap Limit leaves the test under the cap.
const heapRoom = 64 << 20

// Limit caps the process's address space (RLIMIT_AS) at what it has
// mapped now plus headroom bytes: from then on a mapping that would pass
// the cap fails with ENOMEM. The Go heap keeps 64 MiB of free room
// reserved beforehand, so headroom is what is left for the mappings the
// test asks for.
// It returns the cap. Only a child (Child) may call it: the cap holds for
// the rest of the process.
func Limit(t *testing.T, headroom uint64) uint64 {
	t.Helper()
	if os.Getenv(envVar) != t.Name() {
		t.Fatal("memlimit.Limit outside the limited child")
	}
	// Room for the Go heap to grow under the cap without new address
	// space: 64 MiB allocated and freed stays reserved by the runtime, so
	// the test's own allocations after the cap (buffers, errors, the
	// collector's work) never need a mapping the cap refuses, which
	// would end the process.
	runtime.KeepAlive(make([]byte, heapRoom))
	runtime.GC()
	used, err := vmSize()
	if err != nil {
		t.Fatal(err)
	}
	limit := used + headroom
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatalf("setrlimit: %v", err)
	}
	t.Logf("address space capped at %d MiB (%d MiB in use)", limit>>20, used>>20)
	return limit
}

// vmSize reads the process's mapped address space from /proc/self/status.
func vmSize() (uint64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmSize in /proc/self/status")
}
