// Package asm holds the batch kernels and their dispatch. For each kernel
// an untagged xxxGeneric function in Go is the specification; on amd64 the
// avo-generated xxxAVX2 and xxxAVX512 twins (gen/, files *_amd64.s) must
// return bit-identical results. The level is chosen once at start-up from
// cpuid: AVX-512 (F, BW, DQ, VL) over AVX2 (with BMI2) over generic.
// FILTERENGINE_KERNEL=generic|avx2|avx512 caps that choice; an unknown value
// stops the program at start-up rather than being ignored. Built with
// -tags purego, or on other architectures, no assembly is compiled.
//
// Kernels never allocate and branch on the level once per batch.
package asm
