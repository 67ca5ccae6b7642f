#!/usr/bin/env python3
"""Compute `rankscope info` figures (the peak through memviz_timeline.py) for snapshot files with CPython's own pickle module (standard library only).

Usage: expected_info.py FILE... > expected.json

This is the reference the C++ reader is tested against. It opens the files with pickle.load, so run it only on
trusted files (the repository's own test data): unlike RankScope, CPython's unpickler will execute code.
"""
import gzip
import json
import os
import pickle
import sys

import memviz_timeline


def load(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    opener = gzip.open if head == b'\x1f\x8b' else open
    with opener(path, 'rb') as f:
        data = f.read()
    stripped = data.lstrip(b'\xef\xbb\xbf \t\r\n')
    if stripped[:1] in (b'{', b'['):
        return json.loads(data)
    return pickle.loads(data)


def device_figures(snapshot):
    if isinstance(snapshot, list):
        snapshot = {'segments': snapshot}
    segments = snapshot['segments']
    traces = snapshot.get('device_traces', [])
    count = len(traces)
    for seg in segments:
        count = max(count, seg.get('device', 0) + 1)
    devices = []
    for d in range(count):
        trace = traces[d] if d < len(traces) else []
        segs = [s for s in segments if s.get('device', 0) == d]
        blocks = [b for s in segs for b in s.get('blocks', [])]

        def total(states, key='size'):
            return sum(b.get(key, 0) for b in blocks if b.get('state') in states)

        figures = {
            'device': d,
            'segments': len(segs),
            'blocks': len(blocks),
            'trace_entries': len(trace),
            'reserved_bytes': sum(s.get('total_size', 0) for s in segs),
            'allocated_bytes': total(('active_allocated',)),
            'active_bytes': total(('active_allocated', 'active_pending_free')),
            'requested_bytes': total(('active_allocated',), 'requested_size'),
            'oom_events': sum(1 for e in trace if e.get('action') == 'oom'),
            'peak_allocated_bytes': memviz_timeline.peak(snapshot, d),
            'peak_event_index': memviz_timeline.peak_event_index(snapshot, d),
            'trace_incomplete': memviz_timeline.trace_incomplete(snapshot, d),
        }
        times = [e['time_us'] for e in trace if 'time_us' in e]
        if times:
            figures['first_time_us'] = times[0]
            figures['last_time_us'] = times[-1]
        devices.append(figures)
    return devices


def main():
    files = [{'path': os.path.basename(p), 'devices': device_figures(load(p))} for p in sys.argv[1:]]
    json.dump({'files': files}, sys.stdout, indent=2)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
