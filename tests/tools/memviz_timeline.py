#!/usr/bin/env python3
"""A standard-library re-implementation of the official viewer's Active Memory Timeline.

It follows PyTorch's MemoryViz.js (`annotate_snapshot` and `process_alloc_data`, described in section 6 of the
snapshot format notes) step by step: free_requested + free_completed pairs become one 'free', allocations are paired
with frees by address, frees without an alloc and live blocks without one become the initial state, and
`max_at_time` is pushed exactly where the viewer's `advance()` pushes it. RankScope's history engine is tested
against `peak()` of this module; it shares no code with it.
"""


def annotated_trace(trace):
    """annotate_snapshot's rewrite of one device trace: a free_completed right after a free_requested of the same
    address turns that entry into 'free' and is dropped."""
    out = []
    for e in trace:
        if e['action'] == 'free_completed' and out and out[-1]['action'] == 'free_requested' \
                and out[-1].get('addr') == e.get('addr'):
            out[-1] = dict(out[-1], action='free')
            continue
        out.append(e)
    return out


def max_at_time(snapshot, device):
    """The viewer's max_at_time array (total memory after each plot step) for one device."""
    traces = snapshot.get('device_traces', []) if isinstance(snapshot, dict) else []
    segments = snapshot['segments'] if isinstance(snapshot, dict) else snapshot
    trace = annotated_trace(traces[device]) if device < len(traces) else []

    elements = []          # sizes
    initially_allocated = []
    actions = []
    addr_to_alloc = {}
    for e in trace:
        if e['action'] == 'alloc':
            elements.append(e['size'])
            addr_to_alloc[e['addr']] = len(elements) - 1
            actions.append(len(elements) - 1)
        elif e['action'] in ('free', 'free_completed'):
            if e['addr'] in addr_to_alloc:
                actions.append(addr_to_alloc.pop(e['addr']))
            else:
                elements.append(e['size'])
                initially_allocated.append(len(elements) - 1)
                actions.append(len(elements) - 1)
    for seg in segments:
        if seg.get('device', 0) != device:
            continue
        addr = seg['address']
        for b in seg.get('blocks', []):
            if b.get('state') == 'active_allocated' and addr not in addr_to_alloc:
                requested = b.get('requested_size') or b['size']
                elements.append(requested)
                initially_allocated.append(len(elements) - 1)
            addr += b['size']
    initially_allocated.reverse()
    if not actions and initially_allocated:
        actions.append(initially_allocated.pop())

    # Every element is drawn or summarized; both add to the total the same way, so the total alone decides the curve.
    total = sum(elements[i] for i in initially_allocated)
    result = []
    seen = set(initially_allocated)
    for elem in actions:
        size = elements[elem]
        if elem not in seen:       # first appearance: an alloc
            seen.add(elem)
            total += size
            result.append(total)   # add_allocation, then advance(1)
        else:                      # second appearance: a free
            result.append(total)   # advance(1) before the element is removed
            result.extend([total] * 3)  # the restack's advance(3), still before total_mem -= size
            total -= size
    return result


def peak(snapshot, device):
    values = max_at_time(snapshot, device)
    return max(values) if values else 0


def trace_incomplete(snapshot, device):
    """True when the trace frees blocks it never allocated: recording started late or the ring buffer wrapped."""
    traces = snapshot.get('device_traces', []) if isinstance(snapshot, dict) else []
    live = set()
    for e in (traces[device] if device < len(traces) else []):
        if e['action'] == 'alloc':
            live.add(e['addr'])
        elif e['action'] == 'free_completed':
            if e['addr'] not in live:
                return True
            live.discard(e['addr'])
    return False


def peak_event_index(snapshot, device):
    """The index in the raw trace of the event after which the peak is first reached; -1 for the initial state.

    Walks the unannotated trace: the viewer's steps are not trace events, but each of its pushes follows one alloc
    or free_completed, and the total is the same there."""
    traces = snapshot.get('device_traces', []) if isinstance(snapshot, dict) else []
    trace = traces[device] if device < len(traces) else []
    target = peak(snapshot, device)
    values = max_at_time(snapshot, device)
    initial = values[0] if values else 0
    # Recover the initial total: the curve before the first action.
    first = next((e for e in annotated_trace(trace) if e['action'] in ('alloc', 'free', 'free_completed')), None)
    if first is not None and first['action'] == 'alloc':
        initial = values[0] - first['size']
    if initial == target:
        return -1
    total = initial
    live = {}
    for i, e in enumerate(trace):
        if e['action'] == 'alloc':
            live[e['addr']] = e['size']
            total += e['size']
        elif e['action'] == 'free_completed':
            total -= live.pop(e['addr'], e['size'])
        if total == target:
            return i
    return -1
