// Package asm holds the batch kernels every filter family runs and picks
// the instruction-set level they run at.
//
// What a user needs here:
//
//   - Kernel() names the level in use: "avx512" (AVX-512 F, BW, DQ and
//     VL, with AVX2 and BMI2), "avx2" (AVX2 with BMI2) or "generic" (the
//     Go reference kernels). It is chosen once at start-up, the highest
//     the CPU supports.
//   - Available() lists the levels this CPU and build can run, lowest
//     first; "generic" is always one.
//   - The environment variable FILTERENGINE_KERNEL=generic|avx2|avx512
//     caps the choice at start-up; an unknown value stops the program
//     there rather than being ignored.
//   - Built with -tags purego, or on architectures other than amd64, no
//     assembly is compiled and every kernel is the generic one.
//
// Every level gives bit-identical answers: a filter built at one level
// answers alike at every other, and its serialized bytes are the same.
// Kernel, Available and every kernel are safe to call from many
// goroutines at once; a kernel that writes a filter needs the exclusive
// use, or the atomic forms, that the filter's family documents.
//
// HashUint64s hashes integer keys in batch, as engine.HashUint64Seed does
// one at a time.
//
// The other exported names are the building blocks the filter packages
// call across package lines (the layout keeps the kernels in this one
// top-level package) and the constants the generators in gen/ build the
// assembly from. They follow each family's format and change with it;
// they are not an API to build on.
//
// # Layout
//
// For each kernel an untagged xxxGeneric function in Go is the
// specification; on amd64 the avo-generated xxxAVX2 and xxxAVX512 twins
// (gen/, files *_amd64.s) must return bit-identical results. Kernels never
// allocate and branch on the level once per batch. The exception is the
// single-key kernels (blocked, counting, shifting and spatial
// Test/Add by key or uint64): a service calls them once per key, so each
// checks the level itself and jumps to its Generic twin below the level
// its body needs or for a key it does not take, and the exported wrapper
// inlines into the caller as one call.
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
