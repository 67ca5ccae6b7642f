#!/usr/bin/env python3
"""Derive the bundled four-rank example set from one real snapshot (standard library only).

Usage: make_examples.py SOURCE.pickle OUTDIR

SOURCE is magma27_memory_snapshot.pickle from the project's test data (tests/data/, copied unchanged from a public
repository; see tests/data/README.md). Every rank is a copy of it with its device addresses moved to a rank-specific
range and its clock shifted a little, as separate processes would show. Rank 0 also does extra work the others do
not: around its peak it allocates a 1 GiB segment of evaluation outputs gathered from the other ranks (the classic
`if rank == 0: evaluate()` burden), which it frees again, so its final state stays consistent with its trace.
"""
import os
import pickle
import sys

RANKS = 4
MiB = 1 << 20


def shift_addresses(s, delta):
    """Moves every segment, block and trace address by `delta` (oom and snapshot entries carry none)."""
    for seg in s['segments']:
        seg['address'] += delta
        for block in seg['blocks']:
            if 'address' in block:
                block['address'] += delta
    for trace in s['device_traces']:
        for e in trace:
            if 'addr' in e and e['action'] not in ('oom', 'snapshot'):
                e['addr'] += delta


def shifted(snapshot, rank):
    # A pickle round trip copies the plain data a snapshot is, shared objects shared alike, in a tenth of
    # copy.deepcopy's time (the fixtures' build spent most of its time copying).
    return shift(pickle.loads(pickle.dumps(snapshot, pickle.HIGHEST_PROTOCOL)), rank)


def shift(s, rank):
    """Gives a snapshot of one's own (a fresh copy) rank's addresses and clock, in place."""
    shift_addresses(s, rank << 36)
    for trace in s['device_traces']:
        for e in trace:
            if 'time_us' in e:
                e['time_us'] += rank * 1500
    for a in s.get('external_annotations', []):
        a['time_us'] += rank * 1500
    return s


def peak_index(trace):
    current = best = 0
    at = 0
    for i, e in enumerate(trace):
        if e['action'] == 'alloc':
            current += e['size']
        elif e['action'] == 'free_completed':
            current -= e['size']
        if current > best:
            best, at = current, i
    return at


def add_evaluation_burden(s):
    trace = s['device_traces'][0]
    at = peak_index(trace)
    # The new stack reuses the file's own outermost frame (the training script's <module>) and its directory, so
    # it reads like the rest of the file: evaluate() gathering predictions from every rank onto this one.
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    script_dir = outer['filename'].rsplit('\\', 1)[0]
    frames = [
        {'name': 'gather_predictions', 'filename': script_dir + '\\metrics.py', 'line': 88},
        {'name': 'evaluate', 'filename': outer['filename'], 'line': 301},
        outer,
    ]
    base = max(seg['address'] + seg['total_size'] for seg in s['segments']) + (8 << 30)
    segment_size = 1024 * MiB
    pieces = 4
    piece = segment_size // pieces
    t0 = trace[at].get('time_us', 0)
    t1 = trace[at + 1].get('time_us', t0)

    def event(action, addr, size, t, with_frames=True):
        e = {'action': action, 'addr': addr, 'size': size, 'stream': 0, 'time_us': t,
             'compile_context': 'N/A', 'user_metadata': ''}
        if with_frames:
            e['frames'] = frames
        return e

    allocate = [event('segment_alloc', base, segment_size, t0)]
    allocate += [event('alloc', base + i * piece, piece, t0) for i in range(pieces)]
    release = []
    for i in range(pieces):
        release.append(event('free_requested', base + i * piece, piece, t1))
        release.append(event('free_completed', base + i * piece, piece, t1))
    release.append(event('segment_free', base, segment_size, t1))
    # Allocate right after the peak event and free after the next one, so the extra gigabyte sits on top of the
    # training peak.
    trace[at + 1:at + 1] = allocate
    insert_release = at + 1 + len(allocate) + 1
    trace[insert_release:insert_release] = release


def main():
    source, outdir = sys.argv[1], sys.argv[2]
    with open(source, 'rb') as f:
        snapshot = pickle.load(f)
    os.makedirs(outdir, exist_ok=True)
    for rank in range(RANKS):
        s = shifted(snapshot, rank)
        if rank == 0:
            add_evaluation_burden(s)
        path = os.path.join(outdir, f'rank{rank}_memory_snapshot.pickle')
        with open(path, 'wb') as f:
            pickle.dump(s, f, protocol=4)
        print(f'{path}: {os.path.getsize(path)} bytes')


if __name__ == '__main__':
    main()
