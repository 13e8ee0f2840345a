package engine

import "github.com/filterengine/filterengine/internal/config"

// Option configures a constructor, a decoder or Open of any family.
// The options shared by every family are defined here; a family defines
// its own (blocked.WithBlockBits, spatial.WithLineLocal, ...), and a
// family given an option it does not know returns an error wrapping
// ErrParam.
type Option = config.Option

// HugePageMode says whether a filter's bits live in anonymous memory
// advised for transparent huge pages (Linux; elsewhere no array gets the
// advice). Arrays of at least 4 MiB are mapped memory in every mode where
// the system has mmap (the package doc's Memory).
type HugePageMode = config.HugePageMode

const (
	// HugePagesAuto, the default, uses huge-page memory for arrays of
	// at least 4 MiB: random probes over a few MiB already miss the TLB
	// of 4 KiB pages.
	HugePagesAuto = config.HugePagesAuto
	// HugePagesAlways maps every array.
	HugePagesAlways = config.HugePagesAlways
	// HugePagesNever gives no array huge pages: arrays below 4 MiB live
	// on the Go heap, larger ones in mapped memory advised against them.
	HugePagesNever = config.HugePagesNever
)

// WithSeed sets the hash seed; filters combine or compare only with
// filters of the same seed.
func WithSeed(seed uint64) Option { return func(c *config.Config) { c.Seed = seed } }

// WithHugePages chooses the storage of the bit array.
func WithHugePages(mode HugePageMode) Option {
	return func(c *config.Config) { c.HugePages = mode }
}

// WithoutChecksum makes Open and View skip the payload checksum. The header
// (its own checksum, family, version, parameters and the payload length
// against the file size) is still checked, so a truncated or foreign file
// is still an error; a corrupted payload byte is not, and answers from
// it may be wrong (never a fault). Verifying reads every byte of the
// file once, at about memory speed; skipping it makes Open cost a few
// system calls whatever the size, and leaves the pages on disk until
// keys touch them. Use it where the bytes were verified elsewhere (a
// checksummed store, a file this process wrote). Decode and Read always
// verify.
func WithoutChecksum() Option { return func(c *config.Config) { c.SkipChecksum = true } }
