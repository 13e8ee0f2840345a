//go:build !linux

package filters

import "time"

var cpuEpoch = time.Now()

// threadCPU falls back to the wall clock.
func threadCPU() time.Duration { return time.Since(cpuEpoch) }
