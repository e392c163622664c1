// Command gencorpus writes a synthetic Claude Code projects tree for
// benchmarks, with its true token totals beside it:
//
//	go run ./tools/gencorpus -size 1G -dir /tmp/corpus [-seed 1]
//
// With -chain N it writes instead one session of a single chain of N
// entries (~311 bytes each), and with -line SIZE one session whose first
// line is SIZE bytes: the big files of the memory benchmarks
// (tools/membench.sh).
//
// The tree is DIR/projects (pass DIR or DIR/projects to cctx --dir); the
// totals are DIR/totals.json. The same seed and size give the same bytes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gencorpus", flag.ContinueOnError)
	size := fs.String("size", "256M", "approximate `SIZE` of the tree: bytes, or with K, M, G")
	dir := fs.String("dir", "", "output `DIR` (created; must be empty or absent)")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same tree")
	sessions := fs.Int("sessions", 0, "number of sessions (0: one per ~5 MB)")
	chain := fs.Int("chain", 0, "write one session of a single chain of `N` entries instead")
	line := fs.String("line", "", "write one session whose first line is `SIZE` bytes instead")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return errors.New("usage: gencorpus -size 1G -dir DIR [-seed N] [-sessions N] | -chain N -dir DIR | -line SIZE -dir DIR")
	}
	if *chain > 0 || *line != "" {
		return writeBig(*dir, *chain, *line)
	}
	n, err := parseSize(*size)
	if err != nil {
		return err
	}
	if ents, err := os.ReadDir(*dir); err == nil && len(ents) > 0 {
		// Refuse to mix trees: totals.json would no longer describe the tree.
		return fmt.Errorf("%s is not empty", *dir)
	}
	start := time.Now()
	t, err := corpus.Generate(corpus.Options{Dir: *dir, Size: n, Seed: *seed, Sessions: *sessions})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gencorpus: wrote %d sessions, %d files (%d .jsonl), %.1f MB, %d lines in %s; totals in %s/totals.json\n",
		len(t.Sessions), t.Files, t.JSONLFiles, float64(t.Bytes)/1e6, t.Lines, time.Since(start).Round(time.Millisecond), *dir)
	return nil
}

// parseSize reads 300, 64K, 256M, 1G, 1.5G (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := float64(1)
	t := strings.ToUpper(strings.TrimSuffix(strings.TrimSpace(s), "B"))
	t = strings.TrimSuffix(t, "I") // accept GiB/MiB spellings
	switch {
	case strings.HasSuffix(t, "K"):
		mult = 1 << 10
	case strings.HasSuffix(t, "M"):
		mult = 1 << 20
	case strings.HasSuffix(t, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		t = t[:len(t)-1]
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad -size %q: want a positive size such as 256M or 1G", s)
	}
	return int64(v * mult), nil
}

// writeBig writes the -chain or -line session.
func writeBig(dir string, chain int, line string) error {
	start := time.Now()
	var path string
	var err error
	if chain > 0 {
		path, err = writeChain(dir, chain)
	} else {
		var n int64
		if n, err = parseSize(line); err == nil {
			path, err = writeLongLine(dir, n)
		}
	}
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gencorpus: wrote %s, %.1f MB in %s\n", path, float64(st.Size())/1e6, time.Since(start).Round(time.Millisecond))
	return nil
}
