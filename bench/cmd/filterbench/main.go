// Command filterbench runs the bench's experiments — the awesome-bloom-filters evaluation's streaming
// configuration (a), the k sweep (b), sized filters against peers (c) and
// kernels against the generic reference (d) — and writes a terminal
// table, report.md, CSV files and SVG/PNG plots to an output directory.
// `make bench` at the repository root runs it with its defaults; -quick
// runs in under a minute. Ctrl-C stops between batches and still writes
// what was measured.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/filterengine/filterengine/bench/dataset"
	"github.com/filterengine/filterengine/bench/experiment"
	"github.com/filterengine/filterengine/bench/progress"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, stop)
	stop()
	os.Exit(code)
}

// run is the command; it returns the exit status: 0 done (also when
// interrupted, once the partial report is written), 1 failure, 2 usage.
// release, when non-nil, is called once the measurements end so that a
// second Ctrl-C during writing kills the process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, release func()) int {
	opts, cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.Progress = progress.New(stderr, 2*time.Second)
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		fmt.Fprintf(stderr, "filterbench: %v\n", err)
		return 1
	}
	if opts.writeData != "" {
		if err := writeData(opts.writeData, cfg, cfg.Progress); err != nil {
			fmt.Fprintf(stderr, "filterbench: %v\n", err)
			return 1
		}
	}
	started := time.Now()
	res, runErr := experiment.Run(ctx, cfg)
	if release != nil {
		release()
	}
	if res.Interrupted {
		fmt.Fprintln(stderr, "filterbench: interrupted; writing what was measured so far")
	}
	meta := newMeta(args, cfg, opts.quick, started)
	files, err := writeOutputs(opts.out, meta, res, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "filterbench: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "filterbench: wrote %s\n", strings.Join(files, ", "))
	if runErr != nil {
		fmt.Fprintf(stderr, "filterbench: %v\n", runErr)
		return 1
	}
	return 0
}

// writeData writes the selected data sets as the seed's files.
func writeData(dir string, cfg experiment.Config, prog *progress.Reporter) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range cfg.Dists {
		keys, err := dataset.Generate(d, cfg.Rows, cfg.Format, dataset.SeedRNG)
		if err != nil {
			return err
		}
		ext := ".txt"
		if cfg.Format == dataset.Binary {
			ext = ".f64"
		}
		path := filepath.Join(dir, d.String()+ext)
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := keys.Write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		prog.Note("wrote %s (%d rows)", path, keys.Len())
	}
	return nil
}
