// Command checkfloor measures the floor under a warm run of cctx: what the
// summary cache's validation alone costs (issue 20: an entry is used only
// when the file's status and the hashes of its first 4 KiB and of the 4 KiB
// before the stored offset still match). For each <session>.jsonl of each
// project folder of a projects dir it opens the file (by name, from its
// open folder), takes its status, reads 4 KiB at its start and 4 KiB
// before its end, and closes it, on a few workers; nothing else. Run it as a process, paired with cctx:
//
//	go build -o /tmp/checkfloor ./tools/checkfloor
//	/tmp/checkfloor /tmp/cctx-cache-trees/gen5k/projects [workers]
//
// (BENCHMARKS.md, "The floor under the gen5k targets"). Linux only: it
// reads as cctx does there (open with O_NOATIME, pread), without Go's
// os.File, which adds an fcntl and an epoll_ctl a file.

//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: checkfloor PROJECTS_DIR [WORKERS]")
		os.Exit(2)
	}
	workers := 4
	if len(os.Args) > 2 {
		n, err := strconv.Atoi(os.Args[2])
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "checkfloor: WORKERS is a number from 1")
			os.Exit(2)
		}
		workers = n
	}
	start := time.Now()
	// Each file is opened by its name from its open folder (openat), as
	// cctx's listing opens them.
	type file struct {
		dir  int
		name string
	}
	var files []file
	dirs, err := os.ReadDir(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkfloor:", err)
		os.Exit(1)
	}
	for _, d := range dirs {
		dir := filepath.Join(os.Args[1], d.Name())
		dfd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "checkfloor: skipped:", err)
			continue
		}
		defer syscall.Close(dfd) // open until the files are read, as the listing's are
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") {
				files = append(files, file{dfd, e.Name()})
			}
		}
	}
	var next atomic.Int64
	var bytes atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			buf := make([]byte, 8192)
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				fd, err := syscall.Openat(files[i].dir, files[i].name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOATIME, 0)
				if err != nil {
					continue
				}
				var st syscall.Stat_t
				if syscall.Fstat(fd, &st) == nil {
					a, _ := syscall.Pread(fd, buf[:4096], 0)
					b, _ := syscall.Pread(fd, buf[4096:], max(0, st.Size-4096))
					bytes.Add(int64(max(a, 0) + max(b, 0)))
				}
				syscall.Close(fd)
			}
		})
	}
	wg.Wait()
	fmt.Printf("%d files, %d workers, %d KiB read: %.1f ms\n", len(files), workers, bytes.Load()>>10, float64(time.Since(start).Microseconds())/1000)
}
