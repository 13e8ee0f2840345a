//go:build amd64 && gc && !purego

package cpulevel

import "github.com/klauspost/cpuid/v2"

func detect() Level {
	c := cpuid.CPU
	switch {
	case c.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512DQ, cpuid.AVX512VL, cpuid.AVX2, cpuid.BMI2):
		return AVX512
	case c.Supports(cpuid.AVX2, cpuid.BMI2):
		return AVX2
	}
	return Generic
}

func detectVBMI() bool { return cpuid.CPU.Supports(cpuid.AVX512VBMI) }
