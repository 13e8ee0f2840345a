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

// detectPrefetchFarL1 is true on AMD cores from Zen 5 (family 1Ah) on,
// where the grouped kernels ran faster with their far prefetches into
// L1; on Zen 4 (family 19h) L2 was the faster (the measurements are in
// bench/results/anchor-tried).
func detectPrefetchFarL1() bool {
	return cpuid.CPU.IsVendor(cpuid.AMD) && cpuid.CPU.Family >= 0x1a
}
