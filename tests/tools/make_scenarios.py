#!/usr/bin/env python3
"""Build multi-rank test scenarios by editing copies of real snapshots (standard library only).

Usage: make_scenarios.py DATA_DIR OUTDIR

DATA_DIR is the project's tests/data (real files, so reading them with pickle is safe). Each scenario is a folder of
rank<r>_memory_snapshot.pickle files plus scenario.expect (JSON) with the verdict the diff must give:

  burden_<N>      every rank a copy of magma27 (addresses and clocks shifted per rank); the last rank also holds
                  1 GiB of gathered evaluation outputs at its peak (the bundled example's edit)
  input_<N>       copies of magma27; on the last rank every allocation of the site holding the most at the peak
                  (einsum in the model's forward) is 3x larger, as with longer padded sequences
  balanced_8      eight shifted copies of magma27 and nothing else
  oom_outside_4   four shifted copies of magma27; the last one also ran out of memory at the end with the
                  allocations unchanged (an `oom` event as PyTorch records it: requested size, device_free)
  snapshot_burden_4 / snapshot_more_4
                  copies of kk (segments only, no trace), compared at the snapshot; the last rank gets one extra
                  segment of 4 GiB of evaluation outputs at its own site, or eight extra 1 GiB blocks with no stack
                  (the site every block of that file has)

Field scenarios: the same code at other paths, as real jobs run it (magma27 is a Windows snapshot):
  relocated_input_4     ranks 0-1 from /home/user/proj and its .venv, ranks 2-3 from a container (/workspace/proj,
                        /opt/venv/lib/python3.10/site-packages); the last rank's busiest site 3x larger
  relocated_balanced_4  two checkouts (/home/alice/proj, /srv/bob/work/proj) and a built-in method whose name
                        carries a per-process address: the control, no finding at all
  windows_linux_burden_4  ranks 0 and 2 on Windows, 1 and 3 on Linux; the last rank gathers evaluation outputs
  drive_case_balanced_4 ranks 1 and 3 typed the path as d:\dev\... (Windows keeps the case typed): the control
  native_frames_burden_4  every stack starts with CPython C frames (paths and lines, as stacks="all" records them)
                        and an Inductor-generated frame; the last rank gathers evaluation outputs
  shared_burden_4       ranks 0 and 1 both gather evaluation outputs: more_on_rank on each, with two ranks at the site
  two_trees_4           the last rank's model code (cs336_basics/model.py) sits in another folder of the same tree:
                        another file, so its sites are only on that rank, while its total stays balanced
"""
import json
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'resources', 'examples'))
import make_examples  # noqa: E402  (shares the burden edit with the bundled example)

MiB = 1 << 20


def copies(base_bytes, ranks):
    """Fresh deep copies, addresses and clocks shifted per rank (pickle.loads is the cheapest deep copy)."""
    return [make_examples.shifted(pickle.loads(base_bytes), r) for r in range(ranks)]


def peak_live(trace):
    live, best, at_peak, total = {}, -1, {}, 0
    for e in trace:
        if e['action'] == 'alloc':
            live[e['addr']] = e
            total += e['size']
        elif e['action'] == 'free_completed':
            live.pop(e['addr'], None)
            total -= e['size']
        if total > best:
            best, at_peak = total, dict(live)
    return at_peak


def scale_top_site(snapshot, factor):
    trace = snapshot['device_traces'][0]
    by_stack = {}
    for e in peak_live(trace).values():
        if e.get('frames'):
            by_stack.setdefault(id(e['frames']), [e['frames'], 0])[1] += e['size']
    frames = max(by_stack.values(), key=lambda v: v[1])[0]
    scaled = {}
    for e in trace:
        if e['action'] == 'alloc' and e.get('frames') is frames:
            e['size'] = int(e['size'] * factor)
            scaled[e['addr']] = e['size']
        elif e['action'] in ('free_requested', 'free_completed') and e['addr'] in scaled:
            e['size'] = scaled[e['addr']]
            if e['action'] == 'free_completed':
                del scaled[e['addr']]
    return frames[0]['name']


def add_segments(snapshot, count, size, frames):
    base = max(s['address'] + s['total_size'] for s in snapshot['segments']) + (1 << 32)
    for i in range(count):
        address = base + i * (size + (1 << 30))
        snapshot['segments'].append({
            'device': 0, 'address': address, 'total_size': size, 'allocated_size': size, 'active_size': size,
            'requested_size': size, 'stream': 0, 'segment_type': 'large', 'segment_pool_id': (0, 0),
            'is_expandable': False, 'frames': frames,
            'blocks': [{'address': address, 'size': size, 'requested_size': size, 'state': 'active_allocated',
                        'frames': frames}],
        })


WINDOWS_CODE = 'D:\\Dev\\assignment2-systems\\'
WINDOWS_PACKAGES = WINDOWS_CODE + '.venv\\Lib\\site-packages\\'


def relocate(snapshot, code, packages, sep='/', rename=None, files=None):
    """Rewrites every frame as if the rank ran from another checkout and virtualenv (each frame dict once)."""
    seen = set()

    def fix(frames):
        for f in frames:
            if id(f) in seen:
                continue
            seen.add(id(f))
            name = f['filename']
            if files and name in files:
                name = files[name]
            if name.startswith(WINDOWS_PACKAGES):
                name = packages + name[len(WINDOWS_PACKAGES):].replace('\\', sep)
            elif name.startswith(WINDOWS_CODE):
                name = code + name[len(WINDOWS_CODE):].replace('\\', sep)
            f['filename'] = name
            if rename:
                f['name'] = rename(f)

    for trace in snapshot['device_traces']:
        for e in trace:
            fix(e.get('frames', []))
    for seg in snapshot['segments']:
        fix(seg.get('frames', []))
        for block in seg['blocks']:
            fix(block.get('frames', []))
    return snapshot


def write(outdir, name, snapshots, expected):
    folder = os.path.join(outdir, name)
    os.makedirs(folder, exist_ok=True)
    for r, s in enumerate(snapshots):
        with open(os.path.join(folder, f'rank{r}_memory_snapshot.pickle'), 'wb') as f:
            pickle.dump(s, f, protocol=4)
    with open(os.path.join(folder, 'scenario.expect'), 'w') as f:
        json.dump(expected, f, indent=2)


def main():
    data, outdir = sys.argv[1], sys.argv[2]
    with open(os.path.join(data, 'magma27_memory_snapshot.pickle'), 'rb') as f:
        magma = f.read()
    with open(os.path.join(data, 'kk_memory_snapshot.pickle'), 'rb') as f:
        kk = f.read()

    for n in (2, 8, 64):
        ranks = copies(magma, n)
        make_examples.add_evaluation_burden(ranks[-1])
        write(outdir, f'burden_{n}', ranks, {'kind': 'burden_imbalance', 'rank': n - 1,
                                              'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                                              'excess_bytes': 1 << 30})
        ranks = copies(magma, n)
        site = scale_top_site(ranks[-1], 3.0)
        write(outdir, f'input_{n}', ranks, {'kind': 'input_imbalance', 'rank': n - 1,
                                             'finding_kind': 'larger_on_rank', 'site': site})
    write(outdir, 'balanced_8', copies(magma, 8), {'kind': 'balanced'})
    ranks = copies(magma, 4)
    last = ranks[-1]['device_traces'][0][-1]
    ranks[-1]['device_traces'][0].append({'action': 'oom', 'device_free': 20 * MiB, 'size': 2048 * MiB,
                                          'stream': 0, 'time_us': last['time_us'] + 10,
                                          'compile_context': 'N/A', 'user_metadata': ''})
    write(outdir, 'oom_outside_4', ranks, {'kind': 'outside_allocator', 'rank': 3})

    field_scenarios(outdir, magma)

    ranks = copies(kk, 4)
    eval_frames = [{'name': 'gather_predictions', 'filename': '/workspace/metrics.py', 'line': 88},
                   {'name': 'evaluate', 'filename': '/workspace/train.py', 'line': 301},
                   {'name': '<module>', 'filename': '/workspace/train.py', 'line': 412}]
    add_segments(ranks[-1], 1, 4096 * MiB, eval_frames)
    write(outdir, 'snapshot_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3, 'point': 'snapshot',
                                               'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                                               'excess_bytes': 4096 * MiB})
    ranks = copies(kk, 4)
    add_segments(ranks[-1], 8, 1024 * MiB, [])
    write(outdir, 'snapshot_more_4', ranks, {'kind': 'input_imbalance', 'rank': 3, 'point': 'snapshot',
                                             'finding_kind': 'more_on_rank', 'site': '',
                                             'excess_bytes': 8192 * MiB})


def field_scenarios(outdir, magma):
    home = ('/home/user/proj/', '/home/user/proj/.venv/lib/python3.10/site-packages/')
    container = ('/workspace/proj/', '/opt/venv/lib/python3.10/site-packages/')
    ranks = copies(magma, 4)
    site = scale_top_site(ranks[-1], 3.0)
    for r, (code, packages) in enumerate([home, home, container, container]):
        relocate(ranks[r], code, packages)
    write(outdir, 'relocated_input_4', ranks, {'kind': 'input_imbalance', 'rank': 3, 'finding_kind': 'larger_on_rank',
                                               'site': site, 'finding_kinds': ['larger_on_rank']})

    def address(rank):
        # As CPython names a built-in method: with the address of its type object, different in every process.
        return lambda f: (f'<built-in method einsum of type object at 0x7f{rank:02x}3c9a1e40>'
                          if f['name'] == 'einsum' and f['filename'].endswith('functional.py') else f['name'])
    ranks = copies(magma, 4)
    for r, code in enumerate(['/home/alice/proj/', '/home/alice/proj/', '/srv/bob/work/proj/', '/srv/bob/work/proj/']):
        relocate(ranks[r], code, code + 'venv/lib/python3.11/site-packages/', rename=address(r))
    write(outdir, 'relocated_balanced_4', ranks, {'kind': 'balanced'})

    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    for r in (1, 3):
        relocate(ranks[r], *home)
    write(outdir, 'windows_linux_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3,
                                                    'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                                                    'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})

    ranks = copies(magma, 4)
    for r in (1, 3):
        relocate(ranks[r], WINDOWS_CODE.lower(), WINDOWS_PACKAGES.lower(), sep='\\')
    write(outdir, 'drive_case_balanced_4', ranks, {'kind': 'balanced'})

    # stacks="all" on a CPython built with debug info, under torch.compile: every stack starts with CPython's own C
    # frames (with paths and lines) and an Inductor-generated frame; the label must still lead with the user's code.
    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    native = [{'name': 'partial_vectorcall', 'filename': '/usr/src/python3.11/Modules/_functoolsmodule.c', 'line': 259},
              {'name': 'slot_tp_call', 'filename': 'Objects/typeobject.c', 'line': 7494},
              {'name': 'call', 'filename': '/tmp/torchinductor_user/cx/cxqz7k2mhbq3vwl4.py', 'line': 412}]
    for s in ranks:
        seen = set()
        for e in s['device_traces'][0]:
            frames = e.get('frames')
            if frames and id(frames) not in seen:
                seen.add(id(frames))
                frames[:0] = [dict(f) for f in native]
    write(outdir, 'native_frames_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3,
                                                    'finding_kind': 'only_on_rank', 'excess_bytes': 1 << 30,
                                                    'label': 'metrics.py:88 gather_predictions',
                                                    'finding_kinds': ['only_on_rank']})

    # Two ranks evaluate (site counts 4/4/0/0): a burden, but not "only on this rank" for either of them.
    ranks = copies(magma, 4)
    for r in (0, 1):
        make_examples.add_evaluation_burden(ranks[r])
    write(outdir, 'shared_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 0, 'finding_kind': 'more_on_rank',
                                             'site': 'gather_predictions', 'excess_bytes': 1 << 30,
                                             'finding_kinds': ['more_on_rank'], 'ranks_with_site': 2})

    ranks = copies(magma, 4)
    model = WINDOWS_CODE + 'cs336-basics\\cs336_basics\\model.py'
    relocate(ranks[-1], WINDOWS_CODE, WINDOWS_PACKAGES, sep='\\',
             files={model: WINDOWS_CODE + 'vendored\\cs336_basics\\model.py'})
    # The same bytes at other sites: balanced, and every finding says that rank 3 allocates where no one else does.
    write(outdir, 'two_trees_4', ranks, {'kind': 'balanced', 'findings_rank': 3, 'finding_kinds': ['only_on_rank']})


if __name__ == '__main__':
    main()
