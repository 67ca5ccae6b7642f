#!/usr/bin/env python3
"""Generate a job's per-rank snapshots of a given size from a real file (standard library only).

Usage: make_job.py REAL.pickle OUTDIR --ranks N --megabytes M [--segment-copies C] [--shared-frames]

Each rank file repeats the real trace until it is about M MB: every repetition's entries are fresh dicts with fresh
frame lists (shifted addresses, times moved on), sharing the frame dicts and the strings the real trace shares
between its entries (an action's name), each with strings of its own where the real entries have their own (a
compile context's 'N/A'). The snapshot is written with one pickle.dump at protocol 4, as
`torch.cuda.memory._dump_snapshot` writes it: memo stores numbered by counting (MEMOIZE), frames of 64 KiB, every
frame dict after its first use and every shared string a memo reference. Bytes per event match the real file's.
Ranks differ in their addresses and clocks; with more than one rank the last one gets the real trace's busiest site
three times larger (an input imbalance, as from longer sequences). A rank is built in memory before it is written:
about four times its size.
With --segment-copies, the final segments (and their blocks) are repeated C times at shifted addresses, for a
block map of C times the real file's blocks.
With --shared-frames, each repetition's entries are fresh dicts that share the real entries' frame lists, as a
script that repeats a real trace writes them: every entry after the first repetition refers to a frame list defined
far earlier in the file (memo references), the other kind of file the reader must be fast on.
The real input is one of the project's own test files, so reading it with pickle is safe.
"""
import argparse
import os
import pickle
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import make_scenarios  # noqa: E402


def span_of(trace):
    """How far apart in time repetitions of a trace are put."""
    times = [e.get('time_us', 0) for e in trace]
    return max(times) - min(times) + 1000


def repeated(trace, r, rank, span, fresh_frames, own_strings):
    """Repetition `r` of a real trace for `rank`: fresh entry dicts at addresses and times of their own, each with a
    frame list of its own (as PyTorch writes them) or the real entry's (`fresh_frames` False: the pickle refers back to
    it through the memo), and a string of its own wherever the real entry's is in `own_strings` (ids)."""
    out = []
    for e in trace:
        copy = dict(e)
        if 'addr' in copy and copy.get('action') != 'oom':
            copy['addr'] = e['addr'] + (r << 32) + (rank << 44)
        if 'time_us' in copy:
            copy['time_us'] = e['time_us'] + r * span + rank * 7
        if fresh_frames and 'frames' in copy:
            copy['frames'] = list(e['frames'])
        for k, v in e.items():
            if id(v) in own_strings:
                copy[k] = v.encode().decode()  # equal, but another object: pickled anew, as PyTorch does
        out.append(copy)
    return out


def own_strings(trace):
    """The ids of the string values that only one entry of `trace` holds: PyTorch makes those anew for every entry."""
    holders = {}
    for e in trace:
        for v in e.values():
            if isinstance(v, str):
                holders[id(v)] = holders.get(id(v), 0) + 1
    return {i for i, n in holders.items() if n == 1}


def write_rank(snapshot, trace_index, path, megabytes, rank, fresh_frames):
    """One pickle.dump of the snapshot with its trace repeated to about `megabytes`; returns the entries written."""
    if trace_index is None:  # segments only: nothing to repeat
        with open(path, 'wb') as f:
            pickle.dump(snapshot, f, protocol=4)
        return 0
    trace = snapshot['device_traces'][trace_index]
    span = span_of(trace)
    own = own_strings(trace) if fresh_frames else set()  # a script that repeats a trace shares its strings

    def with_repetitions(n):
        traces = list(snapshot['device_traces'])
        traces[trace_index] = [e for r in range(n) for e in repeated(trace, r, rank, span, fresh_frames, own)]
        return dict(snapshot, device_traces=traces)

    first, second = (len(pickle.dumps(with_repetitions(n), protocol=4)) for n in (1, 2))
    repetitions = max(1, round(1 + (megabytes * 1e6 - first) / max(1, second - first)))
    whole = with_repetitions(repetitions)
    with open(path, 'wb') as f:
        pickle.dump(whole, f, protocol=4)
    return len(whole['device_traces'][trace_index])


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
        events = write_rank(snapshot, trace_index, path, args.megabytes, rank, not args.shared_frames)
        print(f'{path}: {os.path.getsize(path) / 1e6:.1f} MB, {events} trace entries', flush=True)


if __name__ == '__main__':
    main()
