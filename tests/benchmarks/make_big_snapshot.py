#!/usr/bin/env python3
"""Generate a large snapshot by repeating a real file's trace (standard library only).

Usage: make_big_snapshot.py REAL.pickle OUT.pickle MEGABYTES [--protocol N]
       make_big_snapshot.py REAL.pickle OUT.pickle --repetitions N

Each repetition copies every trace entry with its address shifted and its time moved on, so the result has the
shape of a long real recording: fresh entry dicts that share the real file's frame lists (as PyTorch's
interning does), final segments and blocks unchanged. The real input is one of the project's own test files, so
reading it with pickle is safe.
"""
import os
import pickle
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    fixed_reps = int(sys.argv[4]) if sys.argv[3] == '--repetitions' else None
    megabytes = 0.0 if fixed_reps else float(sys.argv[3])
    protocol = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == '--protocol' else 4
    with open(src, 'rb') as f:
        snapshot = pickle.load(f)
    trace = next(t for t in snapshot['device_traces'] if t)
    times = [e.get('time_us', 0) for e in trace]
    span = max(times) - min(times)

    def repeated(reps):
        big = []
        for r in range(reps):
            for e in trace:
                copy = dict(e)
                if 'addr' in copy and copy.get('action') != 'oom':
                    copy['addr'] = e['addr'] + r * (1 << 20)
                if 'time_us' in copy:
                    copy['time_us'] = e['time_us'] + r * (span + 1000)
                big.append(copy)
        return big

    if fixed_reps:
        reps = fixed_reps
    else:
        # Repetitions share the frame lists, so only the second one tells the size that each adds.
        whole = len(pickle.dumps(snapshot, protocol=protocol))
        extra = len(pickle.dumps(repeated(2), protocol=protocol)) - len(pickle.dumps(repeated(1), protocol=protocol))
        reps = max(1, 1 + int((megabytes * 1e6 - whole) / extra))
    big = repeated(reps)
    snapshot['device_traces'] = [big if t is trace else t for t in snapshot['device_traces']]
    with open(out, 'wb') as f:
        pickle.dump(snapshot, f, protocol=protocol)
    print(f'{out}: {os.path.getsize(out) / 1e6:.1f} MB, {len(big)} trace entries ({reps} repetitions)')


if __name__ == '__main__':
    main()
