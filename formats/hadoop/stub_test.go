package hadoop

import "testing"

func goldenCounting(t *testing.T, c *goldenCase, k goldenKeys, n *tally)  { t.Skip("todo") }
func goldenDynamic(t *testing.T, c *goldenCase, k goldenKeys, n *tally)   { t.Skip("todo") }
func goldenRetouched(t *testing.T, c *goldenCase, k goldenKeys, n *tally) { t.Skip("todo") }
