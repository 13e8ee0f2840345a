// Package report turns a run's results into tables (terminal and
// Markdown), CSV files and the report document.
package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// Table is a titled grid of formatted cells.
type Table struct {
	Title  string
	Note   string
	Header []string
	Rows   [][]string
}

// WriteText prints the table aligned for a terminal.
func (t Table) WriteText(w io.Writer) {
	fmt.Fprintf(w, "\n%s\n", t.Title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(t.Header, "\t")+"\t")
	for _, r := range t.Rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
	if t.Note != "" {
		fmt.Fprintf(w, "%s\n", t.Note)
	}
}

// WriteMarkdown writes the table as a GitHub Markdown table under a
// third-level heading.
func (t Table) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### %s\n\n", t.Title)
	if t.Note != "" {
		fmt.Fprintf(w, "%s\n\n", t.Note)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(t.Header, " | "))
	seps := make([]string, len(t.Header))
	for i := range seps {
		seps[i] = "---"
		if i > 0 {
			seps[i] = "---:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

func fmtNs(ns float64) string {
	if math.IsNaN(ns) {
		return "-"
	}
	return fmt.Sprintf("%.1f", ns)
}

func fmtRatio(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x)
}

// fmtRate prints a rate with four significant digits, "-" when unknown.
func fmtRate(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case x == 0:
		return "0"
	case x >= 0.001:
		return fmt.Sprintf("%.4f", x)
	}
	return fmt.Sprintf("%.3e", x)
}

func fmtSeconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// fmtCount prints a count with thousands separators.
func fmtCount[T ~int | ~uint64](n T) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
