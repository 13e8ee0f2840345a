package shifting

import "github.com/filterengine/filterengine/engine"

// secondArray is the family option of WithSecondArray.
type secondArray struct{}

// WithSecondArray adds the improved variant of seed 004 (section 4) to a
// membership filter: a second bit array of as many bits as the first, in
// which every key also sets one bit h_{k/2+2}(e) mod m, checked by one more
// probe. It doubles the memory; see the package doc for what it buys.
// NewAssociation and NewMultiplicity reject it.
func WithSecondArray() engine.Option { return engine.FamilyOption(secondArray{}) }

// membershipConfig reads the options of New and NewMK.
func membershipConfig(opts []engine.Option) (engine.Config, bool, error) {
	cfg := engine.Apply(opts)
	second := false
	for _, v := range cfg.Family() {
		if _, ok := v.(secondArray); !ok {
			return cfg, false, engine.UnknownOption("shifting", v)
		}
		second = true
	}
	return cfg, second, nil
}

// plainConfig reads the options of constructors without family options.
func plainConfig(family string, opts []engine.Option) (engine.Config, error) {
	cfg := engine.Apply(opts)
	for _, v := range cfg.Family() {
		return cfg, engine.UnknownOption(family, v)
	}
	return cfg, nil
}
