#!/usr/bin/env python3
"""Load benchmark: `rankscope info --json` against CPython's pickle.load on the same generated snapshot.

Usage: bench_load.py RANKSCOPE_BINARY [--megabytes 160] [--runs 5] [--source tests/data/cranberrii_memory_snapshot.pickle]

Generates a snapshot of the requested size at run time (make_big_snapshot.py repeats the trace of a real file),
then runs each tool several times, one process per run, and prints the median wall time and median peak RSS of
each, and the ratios. Standard library only; nothing is written outside a temporary directory.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def measure(argv):
    """Wall seconds and peak RSS (MiB) of one process, from wait4's rusage for that child alone."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f'{argv[0]} failed ({proc.returncode}): {proc.stderr.read().decode(errors="replace")}')
    return wall, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('binary')
    parser.add_argument('--megabytes', type=float, default=160)
    parser.add_argument('--runs', type=int, default=5)
    parser.add_argument('--source', default=os.path.join(ROOT, 'tests', 'data', 'cranberrii_memory_snapshot.pickle'))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, 'big.pickle')
        subprocess.run([sys.executable, os.path.join(HERE, 'make_big_snapshot.py'), args.source, big,
                        str(args.megabytes)], check=True)
        size_mb = os.path.getsize(big) / 1e6
        tools = {
            'rankscope info --json': [args.binary, 'info', '--json', big],
            'python3 pickle.load': [sys.executable, '-c', f"import pickle; pickle.load(open({big!r}, 'rb'))"],
        }
        results = {}
        for name, argv in tools.items():
            runs = [measure(argv) for _ in range(args.runs)]
            results[name] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))

    ours_t, ours_m = results['rankscope info --json']
    peer_t, peer_m = results['python3 pickle.load']
    print(f'\nInput: {size_mb:.1f} MB pickle ({os.path.basename(args.source)} trace repeated), '
          f'median of {args.runs} runs, {os.cpu_count()} cores')
    print(f'{"tool":<24} {"wall s":>8} {"MB/s":>8} {"peak RSS MiB":>13}')
    for name, (t, m) in results.items():
        print(f'{name:<24} {t:>8.2f} {size_mb / t:>8.0f} {m:>13.0f}')
    print(f'speed-up {peer_t / ours_t:.1f}x (target >= 10x), '
          f'memory {ours_m / peer_m:.2f}x of CPython (target <= 0.25x)')


if __name__ == '__main__':
    main()
