//go:build !linux

package perkey

import "time"

// ThreadCPU falls back to the wall clock off Linux.
func ThreadCPU() time.Duration { return time.Since(epoch) }
