// Package config holds what options fold into: the settings every
// family's constructor, decoder and Open read. engine defines the options
// users pass; families apply them here.
package config

import "github.com/filterengine/filterengine/internal/errs"

// Option configures any family's constructor. The options shared by every
// family are defined here; a family defines its own through FamilyOption
// and rejects any family option it does not know.
type Option func(*Config)

// HugePageMode says whether a filter's bits live in anonymous memory
// advised for transparent huge pages.
type HugePageMode uint8

const (
	// HugePagesAuto uses huge-page memory for arrays of at least
	// HugePageThreshold bytes: large filters see fewer TLB misses per probe.
	HugePagesAuto HugePageMode = iota
	// HugePagesAlways maps every array (Linux; the heap elsewhere).
	HugePagesAlways
	// HugePagesNever gives no array huge pages: arrays below
	// HugePageThreshold live on the Go heap, larger ones in mapped memory
	// advised against them (store.NewStorage).
	HugePagesNever
)

// HugePageThreshold is the array size from which every mode maps memory
// (HugePagesAuto advised for huge pages):
// 4 MiB, two 2 MiB pages. The L2 TLB of a recent core holds 1536 to 4096
// entries (6 to 16 MiB of 4 KiB pages), shared with everything else the
// program touches, so random probes over a few MiB already walk the page
// tables; a huge page costs nothing there, because only the array's whole
// 2 MiB pages are advised (storage_linux.go), never a padded tail.
const HugePageThreshold = 4 << 20

// Config is the result of applying options.
type Config struct {
	Seed      uint64
	HugePages HugePageMode
	// SkipChecksum is set by WithoutChecksum.
	SkipChecksum bool
	family       []any
}

// FamilyOption wraps a family-specific setting; the family reads it back
// from Config.Family.
func FamilyOption(v any) Option { return func(c *Config) { c.family = append(c.family, v) } }

// Family returns the family-specific settings in the order given.
func (c *Config) Family() []any { return c.family }

// Apply folds opts over the defaults (seed 0, HugePagesAuto).
func Apply(opts []Option) Config {
	var c Config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// UnknownOption is the error a family returns for a family option it does
// not understand.
func UnknownOption(family string, v any) error {
	return errs.ParamErrorf("option %T is not an option of %s", v, family)
}
