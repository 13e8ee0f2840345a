package hadoop

import "testing"

func goldenRetouched(t *testing.T, c *goldenCase, k goldenKeys, n *tally) { t.Skip("todo") }
