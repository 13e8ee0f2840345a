package gen

// The generators share one pinned avo; this import keeps it in go.mod even
// while a generator is being rewritten.
import _ "github.com/mmcloughlin/avo/build"
