#!/usr/bin/env python3
"""Build the memory gate's scenarios by editing copies of real snapshots (standard library only).

DATA_DIR is the project's tests/data (real files). Each scenario is a folder holding base/ (the baseline job) and new/
(the job gated against it), rank<r>_memory_snapshot.pickle in each, and gate.expect (JSON): whether the gate passes,
the rank-GPUs that fail ([rank, device]), and what must be named (a site's function, its kind, its category, whether
the growth is mid-step with the peaks alike). The new job's copies are shifted (addresses, clocks) unlike the
baseline's, as another run of the same job is. Every magma27 step here ends in AdamW's first step, whose optimizer
state makes every rank's peak (make_scenarios.py's midstep scenarios).

  gate_same_4            the same job twice: pass
  gate_noise_4           the same job with ordinary noise: each rank gathers 6 MiB of evaluation outputs at another
                         moment of its step, which it frees again: pass
  gate_midstep_all_4     every rank's forward tensors 1.5x larger (longer sequences): the peaks (the optimizer step)
                         stay alike, mid-step every rank holds more: fail on every rank, naming the forward pass's
                         activation sites and the moment
  gate_one_rank_4        the same on rank 2 only: fail on rank 2 alone
  gate_site_appears_4    every rank keeps a 1 GiB cache from half-way through its backward pass (allocate_cache, a
                         site the baseline never allocates at): fail, the site named as appeared
  gate_below_tolerance_4 every rank keeps a buffer of 1% of its peak from half-way (below the 2% tolerance): pass
  gate_fewer_base_2_4    a baseline of 2 ranks, a new job of 4 (ranks 2-3 weighed against baseline ranks 0-1): pass
  gate_fewer_base_grow_2_4  the same; rank 3's forward tensors 1.5x larger: fail on rank 3 alone
  gate_relocated_4       the baseline ran on Windows (magma27's D:\\ paths), the new job from a Linux container
                         (/workspace/proj, /opt/venv): pass
  gate_relocated_grow_4  the same; rank 1's forward tensors 1.5x larger: fail on rank 1 alone
  gate_multi_gpu_4       each rank drives three GPUs (cuda:0-2): the same job twice: pass
  gate_multi_gpu_grow_4  the same; rank 3 keeps a 1 GiB cache on cuda:2 only: fail on rank 3 cuda:2 alone

For `diff --present-on` (one job, its rank files in the folder, as make_scenarios.py writes them):
  present_three_of_4     ranks 0-2 gather 1 GiB of evaluation outputs, rank 3 does not: compared with rank 3
                         (--baseline 3), the site of each finding is on 3 of the 4 ranks (all but one)
"""
import argparse
import json
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_scenarios as ms  # noqa: E402  (the edits every scenario shares)

MiB = 1 << 20
# Where the new job's copies are shifted to: another run of the job, not the baseline's bytes again.
NEW_RUN = 16


def step(magma, rank, run=0, scale=None, burst=None, buffer=None):
    """Rank `rank` of run `run`: magma27's step ending in AdamW's first step. `scale`: its forward tensors that much
    larger; `burst`: (start, end, size) evaluation outputs gathered and freed; `buffer`: (at, size) kept to the end."""
    s = ms.make_examples.shift(pickle.loads(magma), rank + run)
    if scale:
        ms.scale_allocations(s, ms.in_forward, scale)
    if burst:
        ms.add_burst(s, *burst)
    if buffer:
        ms.keep_buffer(s, *buffer)
    ms.add_optimizer_state(s, 24 * 1024 * MiB)
    return s


def peak_bytes(snapshot):
    total = best = 0
    for e in snapshot['device_traces'][0]:
        if e['action'] == 'alloc':
            total += e['size']
        elif e['action'] == 'free_completed':
            total -= e['size']
        best = max(best, total)
    return best


def write(outdir, name, base, new, expected):
    for side, snapshots in (('base', base), ('new', new)):
        folder = os.path.join(outdir, name, side)
        os.makedirs(folder, exist_ok=True)
        for r, s in enumerate(snapshots):
            with open(os.path.join(folder, f'rank{r}_memory_snapshot.pickle'), 'wb') as f:
                pickle.dump(s, f, protocol=4)
    with open(os.path.join(outdir, name, 'gate.expect'), 'w') as f:
        json.dump(expected, f, indent=2)


def passes(**extra):
    return dict({'passed': True, 'regressed': []}, **extra)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('data', metavar='DATA_DIR', help="the project's tests/data: the real snapshots to edit")
    parser.add_argument('outdir', metavar='OUTDIR', help='where to write one folder per scenario')
    args = parser.parse_args()
    with open(os.path.join(args.data, 'magma27_memory_snapshot.pickle'), 'rb') as f:
        magma = f.read()
    out = args.outdir

    def job(n, run, edits=None):
        """n ranks of one run; edits maps a rank to step()'s keyword arguments."""
        return [step(magma, r, run, **(edits or {}).get(r, {})) for r in range(n)]

    base4 = job(4, 0)
    write(out, 'gate_same_4', base4, job(4, NEW_RUN), passes())
    # Noise: 6 MiB gathered and freed at a different moment on each rank.
    write(out, 'gate_noise_4', base4,
          job(4, NEW_RUN, {r: {'burst': (600 + 150 * r, 700 + 150 * r, 6 * MiB)} for r in range(4)}), passes())
    longer = {'scale': 1.5}
    write(out, 'gate_midstep_all_4', base4, job(4, NEW_RUN, {r: longer for r in range(4)}),
          {'passed': False, 'regressed': [[r, 0] for r in range(4)], 'kind': 'grew', 'category': 'activation',
           'in': 'model.py', 'mid_step': True, 'peak_regressed': False})
    write(out, 'gate_one_rank_4', base4, job(4, NEW_RUN, {2: longer}),
          {'passed': False, 'regressed': [[2, 0]], 'kind': 'grew', 'category': 'activation', 'in': 'model.py',
           'mid_step': True, 'peak_regressed': False})
    write(out, 'gate_site_appears_4', base4,
          job(4, NEW_RUN, {r: {'buffer': (1500, 1024 * MiB)} for r in range(4)}),
          {'passed': False, 'regressed': [[r, 0] for r in range(4)], 'kind': 'appeared', 'site': 'allocate_cache'})
    small = peak_bytes(base4[0]) // 100 // MiB * MiB
    write(out, 'gate_below_tolerance_4', base4,
          job(4, NEW_RUN, {r: {'buffer': (1500, small)} for r in range(4)}), passes(growth_bytes=small))

    base2 = job(2, 0)
    write(out, 'gate_fewer_base_2_4', base2, job(4, NEW_RUN), passes(paired_modulo=True))
    write(out, 'gate_fewer_base_grow_2_4', base2, job(4, NEW_RUN, {3: longer}),
          {'passed': False, 'regressed': [[3, 0]], 'kind': 'grew', 'category': 'activation', 'in': 'model.py',
           'paired_modulo': True})

    container = ('/workspace/proj/', '/opt/venv/lib/python3.10/site-packages/')
    write(out, 'gate_relocated_4', base4, [ms.relocate(s, *container) for s in job(4, NEW_RUN)], passes())
    write(out, 'gate_relocated_grow_4', base4, [ms.relocate(s, *container) for s in job(4, NEW_RUN, {1: longer})],
          {'passed': False, 'regressed': [[1, 0]], 'kind': 'grew', 'category': 'activation', 'in': 'model.py'})

    def gpus(rank, run, cache=False):
        parts = [step(magma, rank, run) for _ in range(3)]
        if cache:
            ms.keep_buffer(parts[2], 1500, 1024 * MiB)
        return ms.on_devices(parts)
    base_gpus = [gpus(r, 0) for r in range(4)]
    write(out, 'gate_multi_gpu_4', base_gpus, [gpus(r, NEW_RUN) for r in range(4)], passes())
    write(out, 'gate_multi_gpu_grow_4', base_gpus, [gpus(r, NEW_RUN, cache=(r == 3)) for r in range(4)],
          {'passed': False, 'regressed': [[3, 2]], 'kind': 'appeared', 'site': 'allocate_cache'})

    ranks = ms.copies(magma, 4)
    for s in ranks[:3]:
        ms.make_examples.add_evaluation_burden(s)
    ms.write(out, 'present_three_of_4', ranks, {'kind': 'burden_imbalance', 'baseline': 3, 'ranks_with_site': 3})


if __name__ == '__main__':
    main()
