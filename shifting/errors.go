package shifting

import (
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

func paramErrorf(format string, args ...any) error {
	return errs.ParamErrorf("shifting: "+format, args...)
}

func paramErr(n uint64, p float64) error {
	return paramErrorf("n = %d keys at p = %v need more than %d bits", n, p, uint64(engine.MaxBits))
}
