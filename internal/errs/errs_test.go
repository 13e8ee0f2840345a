package errs

import (
	"errors"
	"math"
	"testing"
)

func TestParamChecks(t *testing.T) {
	bad := []error{
		CheckNP(0, 0.1), CheckNP(1, 0), CheckNP(1, 1), CheckNP(1, -1), CheckNP(1, math.NaN()), CheckNP(1, math.Inf(1)),
		CheckMK(0, 1, 10), CheckMK(1, 0, 10), CheckMK(1, 11, 10), CheckMK(MaxBits+1, 1, 10),
	}
	for i, err := range bad {
		if !errors.Is(err, ErrParam) {
			t.Errorf("case %d: err = %v, want ErrParam", i, err)
		}
	}
}
