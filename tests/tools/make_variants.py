#!/usr/bin/env python3
"""Re-write snapshot files in every form RankScope reads, with CPython's own modules (standard library only).

For each FILE (one of the project's own test snapshots, so loading it with pickle is safe) it writes:
  NAME.p0.pickle … NAME.p5.pickle                 pickle protocols 0, 1 (text opcodes), 2, 3 and 5
  NAME.pickle.gz                                  the original bytes, gzip-compressed
  NAME.gz.dat                                     the same gzip under a misleading extension
  NAME.json, NAME.json.gz                         JSON (tuples become arrays), plain and gzip-compressed
and, from magma27, newer/newer.p0.pickle, .p2.pickle, .p4.pickle and .json: the keys newer PyTorch writes
(external_annotations ranges, host_segments and host_traces, each trace entry's pool_id) in every form, edited as
make_scenarios.py edits its scenarios.
"""
import argparse
import gzip
import json
import os
import pickle
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('outdir', metavar='OUTDIR', help='where to write the variants')
    parser.add_argument('files', metavar='FILE', nargs='*', help="the project's own test snapshots")
    args = parser.parse_args()
    outdir = args.outdir
    os.makedirs(outdir, exist_ok=True)
    for path in args.files:
        name = os.path.basename(path)
        stem = name[:-len('.pickle')] if name.endswith('.pickle') else name
        with open(path, 'rb') as f:
            raw = f.read()
        data = pickle.loads(raw)
        for protocol in (0, 1, 2, 3, 5):
            with open(os.path.join(outdir, f'{stem}.p{protocol}.pickle'), 'wb') as f:
                pickle.dump(data, f, protocol=protocol)
        if stem == 'magma27_memory_snapshot':
            # As a user's script may leave it: the snapshot dict augmented with a second reference to a trace entry
            # (CPython writes it once and refers to it through the memo).
            data['last_entry'] = data['device_traces'][0][-1]
            with open(os.path.join(outdir, f'{stem}.augmented.pickle'), 'wb') as f:
                pickle.dump(data, f, protocol=4)
            del data['last_entry']
        packed = gzip.compress(raw, mtime=0)
        for out in (f'{stem}.pickle.gz', f'{stem}.gz.dat'):
            with open(os.path.join(outdir, out), 'wb') as f:
                f.write(packed)
        text = json.dumps(data).encode()
        with open(os.path.join(outdir, f'{stem}.json'), 'wb') as f:
            f.write(text)
        with open(os.path.join(outdir, f'{stem}.json.gz'), 'wb') as f:
            f.write(gzip.compress(text, mtime=0))
        if stem == 'magma27_memory_snapshot':
            newer_forms(os.path.join(outdir, 'newer'), raw)


def newer_forms(outdir, raw):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import make_scenarios  # noqa: E402  (the same edits as the scenarios)
    data = pickle.loads(raw)
    make_scenarios.add_ranges(data, 0)
    make_scenarios.add_host_memory(data, 512 << 20)
    make_scenarios.add_pool_ids(data)
    os.makedirs(outdir, exist_ok=True)
    for protocol in (0, 2, 4):
        with open(os.path.join(outdir, f'newer.p{protocol}.pickle'), 'wb') as f:
            pickle.dump(data, f, protocol=protocol)
    with open(os.path.join(outdir, 'newer.json'), 'wb') as f:
        f.write(json.dumps(data).encode())


if __name__ == '__main__':
    main()
