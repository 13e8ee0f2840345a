//go:build !linux

package main

import "time"

var start = time.Now()

// threadNanos is wall time off Linux.
func threadNanos() int64 { return int64(time.Since(start)) }
