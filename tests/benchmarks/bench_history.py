#!/usr/bin/env python3
"""Runs bench_history on a snapshot of about 3,000,000 trace events generated at run time from a real file.

Usage: bench_history.py BENCH_HISTORY_BINARY [--events 3000000] [--source tests/data/cranberrii_memory_snapshot.pickle]
"""
import argparse
import os
import pickle
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('binary')
    parser.add_argument('--events', type=int, default=3000000)
    parser.add_argument('--source', default=os.path.join(ROOT, 'tests', 'data', 'cranberrii_memory_snapshot.pickle'))
    args = parser.parse_args()
    with open(args.source, 'rb') as f:
        per_copy = len(next(t for t in pickle.load(f)['device_traces'] if t))
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, 'big.pickle')
        # make_big_snapshot sizes by megabytes; one repetition of this file's trace is a known size, so ask for
        # enough repetitions to reach the event count.
        reps = -(-args.events // per_copy)
        subprocess.run([sys.executable, os.path.join(HERE, 'make_big_snapshot.py'), args.source, big,
                        '--repetitions', str(reps)], check=True)
        subprocess.run([args.binary, big], check=True)


if __name__ == '__main__':
    main()
