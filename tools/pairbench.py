#!/usr/bin/env python3
"""Paired before/after timing of two cctx binaries on the same files.

    tools/pairbench.py BEFORE_BIN AFTER_BIN TREE_DIR SESSION_DIR [RUNS]

TREE_DIR is a generated tree (go run ./tools/gencorpus -size 1G -seed 1),
SESSION_DIR one big session (-size 500M -sessions 1 -seed 2). Each case runs
RUNS times (default 5), the two binaries alternating in order, so that load
from elsewhere falls on both alike. Prints medians: seconds to the first
byte of stdout, wall seconds, CPU seconds (user+sys), bytes written.
"""
import json, os, resource, statistics, subprocess, sys, time

def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first, n = None, 0
    while True:
        b = p.stdout.read1(65536)
        if not b:
            break
        if first is None:
            first = time.perf_counter() - t0
        n += len(b)
    p.wait()
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return first or wall, wall, cpu, n, p.returncode

def main():
    before, after, tree, one = sys.argv[1:5]
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    bins = [("before", before), ("after", after)]
    ls = subprocess.run([after, "ls", "--dir", one, "--json"], capture_output=True, check=True)
    sid = json.loads(ls.stdout)["sessions"][0]["session_id"]
    cases = {
        "tokens --json (tree)": lambda b: [b, "tokens", "--dir", tree, "--json"],
        "show (session)": lambda b: [b, "show", "--dir", one, sid, "--no-pager", "--color", "never"],
        "tree (session)": lambda b: [b, "tree", "--dir", one, sid, "--color", "never"],
        "agents (session)": lambda b: [b, "agents", "--dir", one, sid, "--color", "never"],
    }
    res = {}
    print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
    for i in range(runs):
        for name, argv in cases.items():
            for label, b in (bins if i % 2 == 0 else bins[::-1]):
                res.setdefault((name, label), []).append(run(argv(b)))
    print("load average at end:   %.2f %.2f %.2f" % os.getloadavg())
    print("| command | binary | first s | wall s | CPU s | stdout bytes | exit |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in cases:
        for label, _ in bins:
            rs = res[(name, label)]
            med = lambda j: statistics.median(x[j] for x in rs)
            print(f"| {name} | {label} | {med(0):.3f} | {med(1):.3f} | {med(2):.3f} | {rs[0][3]} | {rs[0][4]} |")

if __name__ == "__main__":
    main()
