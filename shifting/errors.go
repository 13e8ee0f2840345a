package shifting

import (
	"fmt"

	"github.com/filterengine/filterengine/engine"
)

func paramErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: shifting: "+format, append([]any{engine.ErrParam}, args...)...)
}

func paramErr(n uint64, p float64) error {
	return paramErrorf("n = %d keys at p = %v need more than %d bits", n, p, uint64(engine.MaxBits))
}
