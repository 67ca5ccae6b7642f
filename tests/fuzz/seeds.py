#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the real snapshots in tests/data (standard library only).

Usage: seeds.py OUT_DIR

pickle: the small real files as they are; json: the same snapshots re-written as JSON; gzip: the same pickles
gzip-compressed; split: a real trace cut to a few thousand entries (the split parse against the single one);
rankname: file and folder names real frameworks write. The real files are the project's own test
data, so unpickling them here is safe. Each corpus also holds what is not a snapshot though shaped like one (lists of
other records, a dict without segments, an empty snapshot, a log), which the readers must refuse or call empty.
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
    for corpus in ('pickle', 'split', 'json', 'gzip', 'rankname'):
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
    # Not snapshots, with a snapshot's outer shape: refused with the reason, or (the empty ones) said to be empty.
    others = {
        'records': [{'tool': 'diff', 'args': {'paths': ['a']}}, {'tool': 'info', 'args': {}}],
        'segments_of_records': {'segments': [{'name': 'a'}, {}]},
        'no_segments': {'tool': 'diff', 'args': {}},
        'empty_list': [],
        'empty_snapshot': {'segments': [], 'device_traces': [[]]},
    }
    for name, value in others.items():
        with open(os.path.join(out, 'json', name), 'w') as f:
            json.dump(value, f)
        with open(os.path.join(out, 'pickle', name), 'wb') as f:
            pickle.dump(value, f, protocol=4)
        with open(os.path.join(out, 'gzip', name), 'wb') as f:
            f.write(gzip.compress(json.dumps(value).encode(), mtime=0))
    # split: a real trace's first entries (CPython writes a list's items 1,000 at a time: the points lie between
    # batches), with their first frames, at protocol 4 and at protocol 2 (memo stores with their indices), each within
    # the fuzzers' 64 KiB; the last byte picks the split's place.
    with open(os.path.join(DATA, 'bcrafton_memory_snapshot.pickle'), 'rb') as f:
        real = pickle.load(f)
    entries = []
    for e in real['device_traces'][0][:1900]:
        entry = {k: e[k] for k in ('action', 'addr', 'size') if k in e}
        entry['frames'] = e.get('frames', [])[:1]
        entries.append(entry)
    for protocol, count in ((4, 1900), (2, 1500)):
        data = pickle.dumps({'segments': [], 'device_traces': [entries[:count]]}, protocol=protocol)
        for last in (0, 4, 8):
            with open(os.path.join(out, 'split', 'protocol%d_%d' % (protocol, last)), 'wb') as f:
                f.write(data + bytes([last]))
    for corpus in ('json', 'pickle', 'gzip'):
        with open(os.path.join(out, corpus, 'log'), 'wb') as f:
            f.write(b'2026-01-05 10:00:01 INFO step 10 loss 2.31 memory 41.2 GiB\n[rank1]: CUDA out of memory\n')
    names = ['rank3_memory_snapshot.pickle', 'memory_trace_12.pickle', 'snapshot_4_1.pickle', 'rank-7.json.gz',
             'oom_rank5.pickle', 'runs/rank2/snapshot.pickle', '3.pickle', 'a\nrank1.pickle\nrank0.pickle']
    for i, name in enumerate(names):
        with open(os.path.join(out, 'rankname', str(i)), 'w') as f:
            f.write(name)


if __name__ == '__main__':
    main()
