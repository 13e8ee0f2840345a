package report

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/filterengine/filterengine/bench/experiment"
)

// Meta describes the run at the top of the report.
type Meta struct {
	Command  string
	Started  string
	Duration string
	Machine  string
	Kernel   string
	Commit   string
	Settings []string
	Filters  []string // "name: about" lines
}

// WriteMarkdown writes the report: the run's description, every table,
// the notes and the plots (paths relative to the report).
func WriteMarkdown(w io.Writer, m Meta, r *experiment.Results, plots []string) {
	fmt.Fprintf(w, "# filterbench report\n\n")
	if r.Interrupted {
		fmt.Fprintf(w, "**Interrupted**: the run was stopped before the end; below is what it measured until then.\n\n")
	}
	fmt.Fprintf(w, "- command: `%s`\n- source: %s\n- started: %s, took %s\n- machine: %s\n- kernel in use: %s\n", m.Command, m.Commit, m.Started, m.Duration, m.Machine, m.Kernel)
	for _, s := range m.Settings {
		fmt.Fprintf(w, "- %s\n", s)
	}
	fmt.Fprintf(w, "\n## Filters\n\n")
	for _, f := range m.Filters {
		fmt.Fprintf(w, "- %s\n", f)
	}
	fmt.Fprintf(w, "\n## Results\n\n")
	for _, t := range Tables(r) {
		t.WriteMarkdown(w)
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		fmt.Fprintln(w)
	}
	if len(plots) > 0 {
		fmt.Fprintf(w, "## Plots\n\n")
		for _, p := range plots {
			if filepath.Ext(p) == ".png" {
				fmt.Fprintf(w, "![%s](%s)\n\n", p, p)
			}
		}
		fmt.Fprintf(w, "Each plot is also written as SVG beside its PNG.\n")
	}
}
