#!/usr/bin/env python3
"""Runs bench_gui on RANKS rank files of about MEGABYTES each, generated at run time from a real file.

Usage: bench_gui.py BENCH_GUI_BINARY [--ranks 8] [--megabytes 160] [--source tests/data/cranberrii_memory_snapshot.pickle]

One big file is generated (the real file's trace repeated) and linked under one name per rank, so the window loads
RANKS files of that size in parallel, as from a job's folder.
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
    parser.add_argument('--ranks', type=int, default=8)
    parser.add_argument('--megabytes', type=float, default=160)
    parser.add_argument('--source', default=os.path.join(ROOT, 'tests', 'data', 'cranberrii_memory_snapshot.pickle'))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, 'big.pickle')
        subprocess.run([sys.executable, os.path.join(HERE, 'make_big_snapshot.py'), args.source, big,
                        str(args.megabytes)], check=True)
        ranks = []
        for r in range(args.ranks):
            path = os.path.join(tmp, f'rank{r}.pickle')
            os.link(big, path)
            ranks.append(path)
        size = os.path.getsize(big) / 1e6
        print(f'\nInput: {args.ranks} ranks × {size:.1f} MB pickle ({os.path.basename(args.source)} trace repeated)')
        sys.stdout.flush()
        subprocess.run([args.binary] + ranks, check=True)


if __name__ == '__main__':
    main()
