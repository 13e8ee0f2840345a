//go:build linux

package store

const hugePagesSupported = true
