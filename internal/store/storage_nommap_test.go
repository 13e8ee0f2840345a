//go:build !linux

package store

const hugePagesSupported = false
