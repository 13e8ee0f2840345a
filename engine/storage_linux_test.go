//go:build linux

package engine

const hugePagesSupported = true
