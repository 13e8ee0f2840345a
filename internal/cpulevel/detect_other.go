//go:build !amd64 || !gc || purego

package cpulevel

func detect() Level { return Generic }

func detectVBMI() bool { return false }

func detectPrefetchFarL1() bool { return false }
