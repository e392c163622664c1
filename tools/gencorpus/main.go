// Command gencorpus writes a synthetic Claude Code projects tree for
// benchmarks, with its true token totals beside it:
//
//	go run ./tools/gencorpus -size 1G -dir /tmp/corpus [-seed 1]
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() > 0 {
		return errors.New("usage: gencorpus -size 1G -dir DIR [-seed N] [-sessions N]")
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
