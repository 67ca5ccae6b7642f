#!/usr/bin/env python3
"""Runs bench_diff on RANKS ranks of LIVE live allocations each, generated at run time from a real file.

Usage: bench_diff.py BENCH_DIFF_BINARY [--ranks 64] [--live 100000] [--source tests/data/magma27_memory_snapshot.pickle]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('binary')
    parser.add_argument('--ranks', type=int, default=64)
    parser.add_argument('--live', type=int, default=100000)
    parser.add_argument('--source', default=os.path.join(ROOT, 'tests', 'data', 'magma27_memory_snapshot.pickle'))
    args = parser.parse_args()
    make = os.path.join(HERE, 'make_live_snapshot.py')
    with tempfile.TemporaryDirectory() as tmp:
        typical, outlier = os.path.join(tmp, 'typical.pickle'), os.path.join(tmp, 'outlier.pickle')
        subprocess.run([sys.executable, make, args.source, typical, str(args.live)], check=True)
        subprocess.run([sys.executable, make, args.source, outlier, str(args.live), '--outlier'], check=True)
        subprocess.run([args.binary, typical, outlier, str(args.ranks)], check=True)


if __name__ == '__main__':
    main()
