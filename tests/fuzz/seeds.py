#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the real snapshots in tests/data (standard library only).

Usage: seeds.py OUT_DIR

pickle: the small real files as they are; json: the same snapshots re-written as JSON; gzip: the same pickles
gzip-compressed; rankname: file and folder names real frameworks write. The real files are the project's own test
data, so unpickling them here is safe.
"""
import gzip
import json
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), 'data')
# Small enough that every fuzzing run covers them many times over.
SMALL = ['angel_my_snapshot', 'sunny_dump_snapshot', 'albi2_dump_snapshot', 'voxelflex_dump_snapshot',
         'jog_my_snapshot']


def main():
    out = sys.argv[1]
    for corpus in ('pickle', 'json', 'gzip', 'rankname'):
        os.makedirs(os.path.join(out, corpus), exist_ok=True)
    for name in SMALL:
        with open(os.path.join(DATA, name + '.pickle'), 'rb') as f:
            raw = f.read()
        snapshot = pickle.loads(raw)
        with open(os.path.join(out, 'pickle', name), 'wb') as f:
            f.write(raw)
        with open(os.path.join(out, 'json', name), 'w') as f:
            json.dump(snapshot, f, default=str)
        with open(os.path.join(out, 'gzip', name), 'wb') as f:
            f.write(gzip.compress(raw, mtime=0))
    names = ['rank3_memory_snapshot.pickle', 'memory_trace_12.pickle', 'snapshot_4_1.pickle', 'rank-7.json.gz',
             'oom_rank5.pickle', 'runs/rank2/snapshot.pickle', '3.pickle', 'a\nrank1.pickle\nrank0.pickle']
    for i, name in enumerate(names):
        with open(os.path.join(out, 'rankname', str(i)), 'w') as f:
            f.write(name)


if __name__ == '__main__':
    main()
