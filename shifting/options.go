package shifting

import (
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
)

// secondArray is the family option of WithSecondArray.
type secondArray struct{}

// WithSecondArray adds the second-array variant (the improvement the
// awesome-bloom-filters project proposes for ShBF_M) to a
// membership filter: a second bit array of as many bits as the first, in
// which every key also sets one bit h_{k/2+2}(e) mod m, checked by one more
// probe. It doubles the memory; see the package doc for what it buys.
// NewAssociation and NewMultiplicity reject it.
func WithSecondArray() engine.Option { return config.FamilyOption(secondArray{}) }

// membershipConfig reads the options of New and NewMK.
func membershipConfig(opts []engine.Option) (config.Config, bool, error) {
	cfg := config.Apply(opts)
	second := false
	for _, v := range cfg.Family() {
		if _, ok := v.(secondArray); !ok {
			return cfg, false, config.UnknownOption("shifting", v)
		}
		second = true
	}
	return cfg, second, nil
}

// plainConfig reads the options of constructors without family options.
func plainConfig(family string, opts []engine.Option) (config.Config, error) {
	cfg := config.Apply(opts)
	for _, v := range cfg.Family() {
		return cfg, config.UnknownOption(family, v)
	}
	return cfg, nil
}
