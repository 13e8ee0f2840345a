package hadoop

import (
	"fmt"

	"github.com/filterengine/filterengine/engine"
)

// paramErr reports a bad argument (where Hadoop would throw
// IllegalArgumentException or worse); it wraps engine.ErrParam.
func paramErr(format string, args ...any) error {
	return fmt.Errorf("%w: hadoop: "+format, append([]any{engine.ErrParam}, args...)...)
}

// formatErr reports bytes that are not a Writable Hadoop could have
// written; it wraps engine.ErrFormat.
func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: hadoop: "+format, append([]any{engine.ErrFormat}, args...)...)
}
