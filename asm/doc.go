// Package asm holds the batch kernels and their dispatch. For each kernel
// an untagged xxxGeneric function in Go is the specification; on amd64 the
// avo-generated xxxAVX2 and xxxAVX512 twins (gen/, files *_amd64.s) must
// return bit-identical results. The level is chosen once at start-up from
// cpuid: AVX-512 (F, BW, DQ, VL) over AVX2 (with BMI2) over generic.
// FILTERENGINE_KERNEL=generic|avx2|avx512 caps that choice; an unknown value
// stops the program at start-up rather than being ignored. Built with
// -tags purego, or on other architectures, no assembly is compiled.
//
// Kernels never allocate and branch on the level once per batch. The one
// exception is the blocked family's single-key kernels
// (blocked{Test,Add,TestAndAdd}{Key,Uint64}, gen/blocked/key.go): a
// service calls them once per key, so each checks the level itself and
// jumps to its Generic twin below avx2 or for a key it does not take,
// and the exported wrapper inlines into the caller as one call (a Go
// switch in front measured 12% slower at n = 1e6).
//
// What a user of the library needs here is the level control (Kernel,
// Available, UseLevel, EnvKernel) and HashUint64s. The other exported
// names are the building blocks the filter packages call across package
// lines (the layout keeps the kernels in this one top-level package):
// they follow each family's format and change with it, and are not an
// API to build on.
//
// Names and arguments follow one convention. A kernel is
// <family><Op>Hashes{Generic,AVX2,AVX512}, behind an exported dispatcher
// <Family><Op>Hashes(array, parameters..., hs, out). The assembly stubs take
// the array first, then the hashes and the answers as slices, then the
// scalar parameters, and last the prefetch distance dist (how many keys
// ahead a kernel requests lines) where it has one: (array, hs, out,
// parameters..., dist). The hash kernels, which have no array, take
// (dst, keys, parameters...). The scalar forms (BlockedTestHash, ...) are the
// Go probes those Generic twins loop over.
package asm
