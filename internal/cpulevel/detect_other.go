//go:build !amd64 || !gc || purego

package cpulevel

func detect() Level { return Generic }

func detectVBMI() bool { return false }
