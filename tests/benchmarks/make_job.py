#!/usr/bin/env python3
"""Generate a job's per-rank snapshots of a given size from a real file (standard library only).

Usage: make_job.py REAL.pickle OUTDIR --ranks N --megabytes M [--segment-copies C] [--shared-frames]

Each rank file repeats the real trace until it is about M MB: every repetition's entries are fresh dicts with fresh
frame lists (shifted addresses, times moved on), sharing the frame dicts, as PyTorch writes them, so bytes per
event match the real file's. Ranks differ in their addresses and clocks; with more than one rank the last one gets
the real trace's busiest site three times larger (an input imbalance, as from longer sequences). Files are
streamed one repetition at a time, so a 1 GB rank needs the memory of one repetition, not of the whole file.
With --segment-copies, the final segments (and their blocks) are repeated C times at shifted addresses, for a
block map of C times the real file's blocks.
With --shared-frames, each repetition's entries are fresh dicts that share the real entries' frame lists, and the
snapshot is written with one pickle.dump, as a script that repeats a real trace writes it: every entry after the
first repetition refers to a frame list defined far earlier in the file (memo references), the other kind of file
the reader must be fast on. That file is built in memory (about ten times its size). The real input is one of the project's own test files, so reading it with pickle is safe.
"""
import argparse
import os
import pickle
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import make_scenarios  # noqa: E402


def body(value):
    """The opcodes that push `value` (protocol 2, no PROTO and STOP): pieces each use their own memo indices,
    which may overwrite earlier ones; every reference follows its own store, so that is safe."""
    data = pickle.dumps(value, protocol=2)
    assert data[:2] == b'\x80\x02' and data[-1:] == b'.'
    return data[2:-1]


def appends(entries):
    """Opcodes that append `entries` to the list below them on the stack: the list's own pickle without the
    EMPTY_LIST and BINPUT that made it."""
    data = body(entries)
    assert data[:1] == b']' and data[1:2] == b'q'
    return data[3:]


def key(text):
    return body(text)


def span_of(trace):
    """How far apart in time repetitions of a trace are put."""
    times = [e.get('time_us', 0) for e in trace]
    return max(times) - min(times) + 1000


def repeated(trace, r, rank, span, fresh_frames):
    """Repetition `r` of a real trace for `rank`: fresh entry dicts at addresses and times of their own, each with a
    frame list of its own (as PyTorch writes them) or the real entry's (`fresh_frames` False: the pickle refers back to
    it through the memo)."""
    out = []
    for e in trace:
        copy = dict(e)
        if 'addr' in copy and copy.get('action') != 'oom':
            copy['addr'] = e['addr'] + (r << 32) + (rank << 44)
        if 'time_us' in copy:
            copy['time_us'] = e['time_us'] + r * span + rank * 7
        if fresh_frames and 'frames' in copy:
            copy['frames'] = list(e['frames'])
        out.append(copy)
    return out


def write_rank(snapshot, trace_index, path, megabytes, rank):
    if trace_index is None:  # segments only: nothing to repeat
        with open(path, 'wb') as f:
            pickle.dump(snapshot, f, protocol=4)
        return 0
    trace = snapshot['device_traces'][trace_index]
    span = span_of(trace)

    def repetition(r):
        return repeated(trace, r, rank, span, True)


    target = megabytes * 1e6
    events = 0
    with open(path, 'wb') as f:
        f.write(b'\x80\x02}(')  # PROTO 2, the top dict, MARK for its items
        for k, v in snapshot.items():
            if k == 'device_traces':
                continue
            f.write(key(k) + body(v))
        f.write(key('device_traces') + b']')
        for i, t in enumerate(snapshot['device_traces']):
            if i != trace_index:
                f.write(body(t) + b'a')
                continue
            f.write(b']')
            r = 0
            while True:
                chunk = repetition(r)
                f.write(appends(chunk))
                events += len(chunk)
                r += 1
                if f.tell() >= target:
                    break
            f.write(b'a')
        f.write(b'u.')  # SETITEMS into the top dict, STOP
    return events


def write_shared_rank(snapshot, trace_index, path, megabytes, rank):
    """One pickle.dump of the snapshot whose trace repeats the real one with fresh entry dicts that keep the real
    entries' frame lists (the same list objects, so the pickle refers back to them through the memo)."""
    trace = snapshot['device_traces'][trace_index]
    span = span_of(trace)

    def repetition(r):
        return repeated(trace, r, rank, span, False)  # 'frames' stays the same list object

    def size(repetitions):
        entries = [entry for r in range(repetitions) for entry in repetition(r)]
        return len(pickle.dumps(dict(snapshot, device_traces=[entries]), protocol=4))

    first, second = size(1), size(2)
    repetitions = max(1, round(1 + (megabytes * 1e6 - first) / max(1, second - first)))
    entries = [entry for r in range(repetitions) for entry in repetition(r)]
    traces = list(snapshot['device_traces'])
    traces[trace_index] = entries
    with open(path, 'wb') as f:
        pickle.dump(dict(snapshot, device_traces=traces), f, protocol=4)
    return len(entries)


def shifted_segment(segment, copy):
    if copy == 0:
        return segment
    out = dict(segment, address=segment['address'] + (copy << 40))
    out['blocks'] = [dict(b, address=b['address'] + (copy << 40)) if 'address' in b else dict(b)
                     for b in segment.get('blocks', [])]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('source')
    parser.add_argument('outdir')
    parser.add_argument('--ranks', type=int, default=1)
    parser.add_argument('--megabytes', type=float, default=100)
    parser.add_argument('--segment-copies', type=int, default=1)
    parser.add_argument('--shared-frames', action='store_true')
    args = parser.parse_args()
    with open(args.source, 'rb') as f:
        base = f.read()
    os.makedirs(args.outdir, exist_ok=True)
    for rank in range(args.ranks):
        snapshot = pickle.loads(base)
        trace_index = next((i for i, t in enumerate(snapshot['device_traces']) if t), None)
        segments = snapshot['segments']
        snapshot['segments'] = [shifted_segment(s, c) for c in range(args.segment_copies) for s in segments]
        if args.ranks > 1 and rank == args.ranks - 1:
            make_scenarios.scale_top_site(snapshot, 3.0)
        path = os.path.join(args.outdir, f'rank{rank}_memory_snapshot.pickle')
        if args.shared_frames and trace_index is not None:
            events = write_shared_rank(snapshot, trace_index, path, args.megabytes, rank)
        else:
            events = write_rank(snapshot, trace_index, path, args.megabytes, rank)
        print(f'{path}: {os.path.getsize(path) / 1e6:.1f} MB, {events} trace entries', flush=True)


if __name__ == '__main__':
    main()
