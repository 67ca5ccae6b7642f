#!/usr/bin/env python3
"""A snapshot whose trace ends with LIVE allocations still held, made from a real file (standard library only).

Usage: make_live_snapshot.py REAL.pickle OUT.pickle LIVE [--outlier]

Repeats the real trace's alloc events (their stacks shared, addresses shifted) until LIVE allocations are held at
the end, with no frees, so the peak is the end. With --outlier, the allocations of the site holding the most are
ten times larger (as on a rank given much longer sequences).
"""
import os
import pickle
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import make_scenarios  # noqa: E402


def main():
    src, out, live = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(src, 'rb') as f:
        snapshot = pickle.load(f)
    allocs = [e for e in snapshot['device_traces'][0] if e['action'] == 'alloc']
    trace = []
    r = 0
    while len(trace) < live:
        for e in allocs[:live - len(trace)]:
            copy = dict(e)
            copy['addr'] = e['addr'] + (r << 40)
            trace.append(copy)
        r += 1
    snapshot['device_traces'][0] = trace
    if '--outlier' in sys.argv:
        make_scenarios.scale_top_site(snapshot, 10.0)
    with open(out, 'wb') as f:
        pickle.dump(snapshot, f, protocol=4)


if __name__ == '__main__':
    main()
