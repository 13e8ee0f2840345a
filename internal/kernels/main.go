// Command kernels prints the kernel levels this CPU and build can run, one
// per line, lowest first. The Makefile runs the test suite once per level.
package main

import (
	"fmt"

	"github.com/filterengine/filterengine/asm"
)

func main() {
	for _, l := range asm.Available() {
		fmt.Println(l)
	}
}
