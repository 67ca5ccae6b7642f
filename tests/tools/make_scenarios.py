#!/usr/bin/env python3
"""Build multi-rank test scenarios by editing copies of real snapshots (standard library only).

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
  compiled_input_4      torch.compile'd model: the innermost model frame of every stack is an Inductor-generated one
                        (a hashed file in /tmp/torchinductor_alice/ on ranks 0-1, another hash in
                        /tmp/torchinductor_bob/ on ranks 2-3) carrying the model source it came from
                        (fx_original_trace, as augment_with_fx_traces=True writes it); the last rank's busiest site 3x
  compiled_balanced_4   the control: the same, nothing else
  relocated_one_burden_4  only rank 2 runs from a container; the last rank gathers evaluation outputs
  native_frames_balanced_4  the control for native_frames_burden_4: C frames on every rank, nothing else
  counts_2_1_0_0_4      rank 0 gathers evaluation outputs in four pieces, rank 1 in two, ranks 2-3 never
                        (allocation counts 4/2/0/0 at that site): more_on_rank on ranks 0 and 1, never only_on_rank
  local_ranks_4         two nodes' files named by local rank (node0/local_rank_0_…, node1/local_rank_1_…): ranks in
                        the files' order, with a note each; the last file's rank gathers evaluation outputs
  phase_balanced_4      the control for phase_burden_4: every rank keeps the same buffer from half-way, so every
                        peak moves into the backward pass alike
  shared_burden_4       ranks 0 and 1 both gather evaluation outputs: more_on_rank on each, with two ranks at the site
  two_trees_4           the last rank's model code (cs336_basics/model.py) sits in another folder of the same tree:
                        another file, so its sites are only on that rank, while its total stays balanced
  framework_burden_4    the training code installed as a framework (site-packages/torchtitan/…, run as
                        python -m torchtitan.train): a virtualenv, Windows, dist-packages in a container, conda; rank 2
                        gathers evaluation outputs. With --my-code no frame is the user's, so torchtitan's count
  framework_balanced_4  the control: the same installs, nothing else

Devices, as PyTorch numbers them per process:
  multi_gpu_burden_4    each rank drives three GPUs (cuda:0-2, copies of magma27); the last rank gathers evaluation
                        outputs on cuda:2 only
  multi_gpu_balanced_4  the control: three GPUs per rank, nothing else
  gpu0_load_4           no CUDA_VISIBLE_DEVICES: rank r trains on cuda:r; ranks 1-3 each torch.load a 1.5 GiB
                        checkpoint without map_location, onto cuda:0, and rank 0 runs out of memory there
  oom_foreign_suspect_4 rank r on cuda:r; rank 1 also loads a 96 MiB checkpoint onto cuda:0 (below the threshold) and
                        rank 0 runs out of memory: outside_allocator, with rank 1's allocation named as a suspect
  shared_numbering_balanced_4 / shared_numbering_oom_4
                        the controls: rank r on cuda:r and nothing on another rank's GPU; the second one's rank 0 runs
                        out of memory with nothing of the others on its GPU (outside the allocator, not stray)
  phase_burden_4        the last rank also allocates a 1 GiB buffer half-way through the backward pass and keeps it:
                        its own peak moves from the end of the forward pass into the backward pass, so at their own
                        peaks the ranks are in different phases; aligned, the buffer is the only difference
  fragmentation_oom_4 / fragmentation_expandable_oom_4
                        the last rank runs out of memory asking for 512 MiB after the allocator released its entirely
                        free segments: 982 MiB is still free between live blocks, in no block larger than 231 MiB;
                        the second one ran with expandable_segments:True (a different remedy). oom_outside_4 is the
                        control: a 2 GiB request, more than all the free space between blocks
  settings_one_node_4   ranks 0-2 ran with PYTORCH_ALLOC_CONF=expandable_segments:True, rank 3 without it and ran
                        out of memory by fragmentation: its allocator settings are named; settings_versions_balanced_4
                        is the control (ranks 2-3 from an older PyTorch: one key fewer, the old variable name)
  steps_burden_3        torchtitan's layout, memory_snapshot/iteration_<N>/rank<R>_memory_snapshot.pickle, steps 10
                        and 20 of three ranks; at step 20 (the latest) rank 2 gathers evaluation outputs
  steps_balanced_latest_3  the control: rank 1 gathered at step 10, the latest step (20) is balanced
  fsdp_steps_input_2    FSDP's snapshot_<step>_<local_rank>.pickle, steps 1 and 2; rank 1's busiest site 3x larger
                        at step 2
  pp2_dp4_burden_8      pipeline parallelism, pp=2 x dp=4: stage 0 (ranks 0-3) runs the embedding and holds the
                        activations of more micro-batches in flight (its layers' allocations 1.5x), stage 1 (ranks 4-7)
                        runs the output layer and the loss; rank 6 also gathers evaluation outputs. Compared with
                        --layout pp=2,dp=4, and without it (the layout is guessed from the stages' sites)
  pp2_relocated_burden_8  the same, stage 0 run from a home checkout on Linux and stage 1 from a container
  pp2_dp4_balanced_8    the control: the same stages, no evaluation burden: balanced, no finding
  pp2_uneven_stages_8   the same stages; stage 0 also holds 2 GiB more parameters (an embedding allocated at model
                        construction, before the trace): model_parallel_imbalance on pp=0
  tp2_uneven_shard_4    dp=2 x tp=2: the tp=1 shards (ranks 1, 3) hold 1.5 GiB of parameters where tp=0 holds 1 GiB
                        (an output layer whose vocabulary does not split evenly): model_parallel_imbalance on tp=1
  tp2_balanced_4        the control: even shards
  growth_steps_4        iteration_10/20/30 of four ranks; rank 1 appends its loss tensor to a list every step without
                        .item() (256 MiB kept per step: one allocated in the step's trace, the earlier ones held from
                        before it): growth on rank 1, a growth finding at the list's site
  growth_all_steps_4    every rank keeps its losses alike: balanced across ranks, growth on all of them
  growth_balanced_steps_4  the control: three steps, every rank holding the same 256 MiB buffer at each
  profiler_host_balanced_4 / profiler_host_burden_4
                        profiler-derived files (trace entries carry `category`, the last device list is host memory
                        and the longest); rank 1 holds 4 GiB more host memory, which is never compared as a GPU's; in
                        the second, the last rank also gathers evaluation outputs on the GPU

Out of memory with no outlier (magma27 truncated where an allocation failed, as an OOM observer dumps it):
  capacity_activations_4  every rank runs out of memory alike mid-forward, asking 2 GiB for the MLP's silu:
                        over_capacity; capacity_activations_balanced_4 is the control (the same cut, no OOM)
  capacity_short_wide_4 / capacity_stranded_4 / capacity_stranded_expandable_4
                        the margin (capacity_activations_balanced_4 is their control): every rank asks 8 GiB with
                        20 MiB free (short of bytes by far); asks 2 GiB 200 MiB short of the free memory while 359 MiB
                        lay unused between live blocks (expandable segments offered first, alone closing the gap); the
                        same run with expandable_segments:True (not offered)
  capacity_loss_4       every rank alike in log_softmax asking for float32 logits; ranks 2-3 from a container, C
                        frames in every stack: over_capacity with a chunked loss; capacity_loss_balanced_4 the control
  outside_one_of_4 / outside_two_of_4
                        ranks 2 (and 3) fail asking 96 MiB at silu while the others went on past that allocation:
                        outside_allocator with replicas that fit
  capacity_one_unreached_4  rank 2 fails the same way, the others dumped before that allocation: nothing shows they
                        would fit, so over_capacity, naming them as ranks that never reached it
  capacity_total_little_4 / outside_total_much_4
                        every rank alike, the GPU's total given: 1 GiB neither reserved nor free (over_capacity) or
                        10 GiB (outside_allocator with the device total)
  pp2_capacity_stage0_8  pipeline stage 0 (ranks 0-3) runs out of memory alike, stage 1 fits: over_capacity on the
                        stage, stage 1 no evidence of memory outside
  capacity_loss_16 / capacity_loss_64
                        capacity_loss_4 on 16 and 64 ranks (ranks 2 and up from a container): every answer says the
                        ranks alike once; capacity_loss_balanced_16 / capacity_loss_balanced_64 the controls
  capacity_loss_outlier_64  the same, rank 41 asking for twice the logits (a longer sequence): the group of 63 and
                        its exception
  capacity_loss_two_groups_16  the same on 16 ranks, ranks 8-15 asking for 1.5x the logits (another vocabulary
                        shard): two groups alike

Across the aligned trace (AdamW's first step appended: every rank peaks alike in the optimizer step):
  midstep_input_4       rank 2's forward tensors 1.5x larger (longer sequences): equal peaks, input_imbalance
                        mid-step
  midstep_burden_4      rank 3 holds 1 GiB of evaluation outputs mid-step and frees it before the peak
  midstep_balanced_4    the control: the same step on every rank, balanced at the highest peak
  phase_shift_4         rank 2's trace starts 300 events earlier (its ring buffer holds more data loading): picked
                        points compare the same moments (event N+300 of rank 2 is the others' N); balanced
  two_groups_8 / two_groups_alternating_8
                        ranks 0-3 (or the even ranks) hold their forward tensors 1.25x larger at the same sites:
                        a group, not rank 0, and the layout that fits (pp=2,dp=4 / dp=4,tp=2)
  growth_near_threshold_4  steps 10 and 20; rank 1 keeps 250 MiB more at step 20, a growth under the threshold that
                        still sets it apart: the verdict is growth, as its finding

What newer PyTorch writes (each with a control that must find nothing):
  ranges_balanced_4 / ranges_burden_4
                        external_annotations of a profiled run: ProfilerStep#0-2 around the steps and, inside them,
                        NCCL collectives and record_function regions at times that differ per rank; the second one's
                        last rank also gathers evaluation outputs. Only ProfilerStep#N are steps
  host_memory_balanced_4 / host_memory_burden_4
                        record_host=True: every rank's pinned host memory (host_segments, host_traces; rank 1 writes
                        its host trace as a list per device); rank 3 pins 6 GiB where the others pin 512 MiB, which is
                        never compared with a GPU; in the second, rank 3 also gathers evaluation outputs on its GPU
  pool_ids_balanced_4 / pool_ids_burden_4
                        every trace entry carries its `pool_id` (PyTorch 2.12); every rank runs a CUDA graph whose
                        512 MiB private pool (1, 5) was released before the snapshot, so no final segment names it;
                        in the second, the last rank gathers evaluation outputs into a private pool (1, 9)
"""
import argparse
import bisect
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
    return [make_examples.shift(pickle.loads(base_bytes), r) for r in range(ranks)]


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
    scale_allocations(snapshot, lambda e: e.get('frames') is frames, factor)
    return frames[0]['name']


def scale_allocations(snapshot, which, factor):
    """Every allocation whose alloc entry `which` accepts becomes `factor` times larger, its frees with it. The allocator
    reserves the extra bytes as it would: a segment mapped just before the allocation and released after its free (one
    never freed is still reserved, entirely free, in the final segments), so no moment holds more than is reserved."""
    trace = snapshot['device_traces'][0]
    base = max(seg['address'] + seg['total_size'] for seg in snapshot['segments']) + (1 << 40)
    scaled, out, extra_segments = {}, [], 0

    def segment(action, e, size, address):
        return {'action': action, 'addr': address, 'size': size, 'stream': e.get('stream', 0),
                'time_us': e['time_us'], 'compile_context': 'N/A', 'user_metadata': ''}
    for e in trace:
        if e['action'] == 'alloc' and which(e):
            size = int(e['size'] * factor)
            extra = (max(0, size - e['size']) + (2 * MiB - 1)) // (2 * MiB) * (2 * MiB)
            address = base + extra_segments * (1 << 34)
            extra_segments += 1
            if extra:
                out.append(segment('segment_alloc', e, extra, address))
            e['size'] = size
            scaled[e['addr']] = (size, extra, address)
            out.append(e)
            continue
        out.append(e)
        if e['action'] in ('free_requested', 'free_completed') and e['addr'] in scaled:
            size, extra, address = scaled[e['addr']]
            e['size'] = size
            if e['action'] == 'free_completed':
                del scaled[e['addr']]
                if extra:
                    out.append(segment('segment_free', e, extra, address))
    trace[:] = out
    for size, extra, address in scaled.values():
        if extra:
            snapshot['segments'].append({
                'device': 0, 'address': address, 'total_size': extra, 'allocated_size': 0, 'active_size': 0,
                'requested_size': 0, 'stream': 0, 'segment_type': 'large', 'segment_pool_id': (0, 0),
                'is_expandable': False, 'frames': [],
                'blocks': [{'address': address, 'size': extra, 'requested_size': 0, 'state': 'inactive',
                            'frames': []}]})


def prepend_frames(snapshot, frames):
    """Every stack of the trace starts with `frames` (innermost first), as stacks="all" records C frames; each frame
    list once, however many entries share it."""
    seen = set()
    for e in snapshot['device_traces'][0]:
        stack = e.get('frames')
        if stack and id(stack) not in seen:
            seen.add(id(stack))
            stack[:0] = [dict(f) for f in frames]


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
    # The module's text is the help: what each scenario holds and the verdict it must give.
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('data', metavar='DATA_DIR', help="the project's tests/data: the real snapshots to edit")
    parser.add_argument('outdir', metavar='OUTDIR', help='where to write one folder per scenario')
    args = parser.parse_args()
    data, outdir = args.data, args.outdir
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
    add_oom(ranks[-1])
    write(outdir, 'oom_outside_4', ranks, {'kind': 'over_capacity', 'rank': 3, 'oom_ranks': [3],
                                           'unreached_ranks': [0, 1, 2]})

    field_scenarios(outdir, magma)
    device_scenarios(outdir, magma)
    step_scenarios(outdir, magma)
    layout_scenarios(outdir, magma)
    growth_scenarios(outdir, magma)
    capacity_scenarios(outdir, magma)
    moment_scenarios(outdir, magma)
    newer_pytorch_scenarios(outdir, magma)
    framework_scenarios(outdir, magma)

    ranks = copies(magma, 4)
    keep_buffer(ranks[-1], 1500, 1024 * MiB)
    write(outdir, 'phase_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank',
                                            'site': 'allocate_cache', 'excess_bytes': 1024 * MiB,
                                            'finding_kinds': ['only_on_rank']})
    ranks = copies(magma, 4)
    for s in ranks:
        keep_buffer(s, 1500, 1024 * MiB)
    write(outdir, 'phase_balanced_4', ranks, {'kind': 'balanced'})

    for name, expandable in (('fragmentation_oom_4', False), ('fragmentation_expandable_oom_4', True)):
        ranks = copies(magma, 4)
        for s in ranks:  # the job's environment, on every rank
            set_alloc_conf(s, 'expandable_segments:True' if expandable else '')
        run_out_of_memory(ranks[-1], 512 * MiB)  # less than is free between blocks at the end of the trace
        write(outdir, name, ranks, {'kind': 'fragmentation', 'rank': 3, 'expandable_segments': expandable})

    # The job set PYTORCH_ALLOC_CONF=expandable_segments:True (the variable's new name), but the node of rank 3 was
    # started without it, and rank 3 alone ran out of memory by fragmentation.
    ranks = copies(magma, 4)
    for s in ranks[:3]:
        set_alloc_conf(s, 'expandable_segments:True', 'PYTORCH_ALLOC_CONF')
    run_out_of_memory(ranks[3], 512 * MiB)
    write(outdir, 'settings_one_node_4', ranks,
          {'kind': 'fragmentation', 'rank': 3, 'expandable_segments': False,
           'settings_differ': [{'rank': 3, 'setting': 'expandable_segments'}]})
    # The control: ranks 2-3 ran an older PyTorch (no graph_capture_record_stream_reuse, the old variable name), the
    # same settings otherwise.
    ranks = copies(magma, 4)
    for s in ranks[2:]:
        settings = s['allocator_settings']
        settings.pop('graph_capture_record_stream_reuse', None)
        settings['PYTORCH_ALLOC_CONF'] = settings.pop('PYTORCH_CUDA_ALLOC_CONF')
    write(outdir, 'settings_versions_balanced_4', ranks, {'kind': 'balanced'})

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

    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    relocate(ranks[2], *container)
    write(outdir, 'relocated_one_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3,
                                                    'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                                                    'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})

    ranks = copies(magma, 4)
    for r in (0, 1):
        make_examples.add_evaluation_burden(ranks[r])
    # Rank 1 gathers half as much: two of its four pieces are never allocated.
    trace = ranks[1]['device_traces'][0]
    pieces = sorted({e['addr'] for e in trace if e['action'] == 'alloc' and e.get('frames')
                     and e['frames'][0]['name'] == 'gather_predictions'})
    trace[:] = [e for e in trace if not (e['action'] in ('alloc', 'free_requested', 'free_completed')
                                         and e.get('addr') in pieces[2:])]
    write(outdir, 'counts_2_1_0_0_4', ranks, {'kind': 'burden_imbalance', 'rank': 0, 'finding_kind': 'more_on_rank',
                                              'site': 'gather_predictions', 'excess_bytes': 1 << 30,
                                              'finding_kinds': ['more_on_rank'], 'ranks_with_site': 2})

    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    write_files(outdir, 'local_ranks_4', {f'node{r // 2}/local_rank_{r % 2}_memory_snapshot.pickle': s
                                          for r, s in enumerate(ranks)},
                {'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                 'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank'], 'notes': 4})

    # stacks="all" on a CPython built with debug info, under torch.compile: every stack starts with CPython's own C
    # frames (with paths and lines) and an Inductor-generated frame; the label must still lead with the user's code.
    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    native = [{'name': 'partial_vectorcall', 'filename': '/usr/src/python3.11/Modules/_functoolsmodule.c', 'line': 259},
              {'name': 'slot_tp_call', 'filename': 'Objects/typeobject.c', 'line': 7494},
              {'name': 'call', 'filename': '/tmp/torchinductor_user/cx/cxqz7k2mhbq3vwl4.py', 'line': 412}]

    def with_native(rank_snapshots):
        for s in rank_snapshots:
            prepend_frames(s, native)
        return rank_snapshots
    write(outdir, 'native_frames_burden_4', with_native(ranks), {'kind': 'burden_imbalance', 'rank': 3,
                                                                 'finding_kind': 'only_on_rank',
                                                                 'excess_bytes': 1 << 30,
                                                                 'label': 'metrics.py:88 gather_predictions',
                                                                 'finding_kinds': ['only_on_rank']})
    write(outdir, 'native_frames_balanced_4', with_native(copies(magma, 4)), {'kind': 'balanced'})

    def compiled(rank_snapshots):
        for r, s in enumerate(rank_snapshots):
            folder, name = (('alice', 'cxqz7k2mhbq3vwl4'), ('alice', 'cxqz7k2mhbq3vwl4'), ('bob', 'c4fwa3nlyr7gzq2d'),
                            ('bob', 'c4fwa3nlyr7gzq2d'))[r]
            seen = set()
            for e in s['device_traces'][0]:
                frames = e.get('frames')
                if not frames or id(frames) in seen:
                    continue
                seen.add(id(frames))
                inner = next((i for i, f in enumerate(frames) if f['filename'].endswith('model.py')), None)
                if inner is None:
                    continue
                f = frames[inner]
                # The FX node's stack_trace: the model code inside the compiled region, outermost first.
                trace = f'  File "{f["filename"]}", line {f["line"]}, in {f["name"]}\n    x = self.layer(x)\n'
                # The frames inside the compiled graph are gone; the generated code's frame stands for them.
                frames[:inner + 1] = [{'name': 'call', 'filename': f'/tmp/torchinductor_{folder}/{name[:2]}/{name}.py',
                             'line': 412, 'fx_node_op': 'call_function', 'fx_node_name': 'mm_default',
                             'fx_node_target': 'aten.mm.default', 'fx_original_trace': trace}]
        return rank_snapshots
    ranks = copies(magma, 4)
    scale_top_site(ranks[-1], 3.0)
    # The site is the model line the compiled code came from, not the hashed file or the caller.
    write(outdir, 'compiled_input_4', compiled(ranks), {'kind': 'input_imbalance', 'rank': 3,
                                                        'finding_kind': 'larger_on_rank', 'site': 'forward',
                                                        'label': 'model.py:39 forward',
                                                        'finding_kinds': ['larger_on_rank']})
    write(outdir, 'compiled_balanced_4', compiled(copies(magma, 4)), {'kind': 'balanced'})

    # Two ranks evaluate (site counts 4/4/0/0): a burden, but not "only on this rank" for either of them.
    ranks = copies(magma, 4)
    for r in (0, 1):
        make_examples.add_evaluation_burden(ranks[r])
    write(outdir, 'shared_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': -1, 'group_ranks': [0, 1],
                                             'other_ranks': [2, 3], 'suggested_layout_text': '',
                                             'finding_rank': 0, 'finding_kind': 'more_on_rank',
                                             'site': 'gather_predictions', 'excess_bytes': 1 << 30,
                                             'finding_kinds': ['more_on_rank'], 'ranks_with_site': 2})

    ranks = copies(magma, 4)
    model = WINDOWS_CODE + 'cs336-basics\\cs336_basics\\model.py'
    relocate(ranks[-1], WINDOWS_CODE, WINDOWS_PACKAGES, sep='\\',
             files={model: WINDOWS_CODE + 'vendored\\cs336_basics\\model.py'})
    # The same bytes at other sites: balanced, and every finding says that rank 3 allocates where no one else does.
    write(outdir, 'two_trees_4', ranks, {'kind': 'balanced', 'findings_rank': 3, 'finding_kinds': ['only_on_rank']})


def on_devices(parts):
    """One process's snapshot from single-device ones: part d becomes cuda:d (None: nothing on that device)."""
    merged = {'segments': [], 'device_traces': [], 'allocator_settings': {}}
    for d, part in enumerate(parts):
        if part is None:
            merged['device_traces'].append([])
            continue
        make_examples.shift_addresses(part, d << 40)
        for seg in part['segments']:
            seg['device'] = d
        merged['segments'] += part['segments']
        merged['device_traces'].append(part['device_traces'][0])
        merged['allocator_settings'] = part.get('allocator_settings', {})
    return merged


def checkpoint_load(snapshot, device_part, size):
    """torch.load without map_location: the checkpoint's tensors land on cuda:0, where they were saved from, and stay
    (the model keeps them). Frames in the file's own style: its script and its torch."""
    trace = snapshot['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': '_load', 'filename': WINDOWS_PACKAGES + 'torch\\serialization.py', 'line': 2078},
              {'name': 'load', 'filename': WINDOWS_PACKAGES + 'torch\\serialization.py', 'line': 1521},
              {'name': 'load_checkpoint', 'filename': outer['filename'], 'line': 41},
              outer]
    t0 = trace[0].get('time_us', 0) - 1000
    base = (1 << 44) + (snapshot['device_traces'][0][0]['addr'] & ~((1 << 36) - 1))
    pieces = 3
    piece = size // pieces
    device_part['device_traces'][0] = [
        {'action': 'segment_alloc', 'addr': base, 'size': size, 'stream': 0, 'time_us': t0, 'frames': frames,
         'compile_context': 'N/A', 'user_metadata': ''}] + [
        {'action': 'alloc', 'addr': base + i * piece, 'size': piece, 'stream': 0, 'time_us': t0 + i + 1,
         'frames': frames, 'compile_context': 'N/A', 'user_metadata': ''} for i in range(pieces)]
    device_part['segments'] = [{
        'device': 0, 'address': base, 'total_size': size, 'allocated_size': size, 'active_size': size,
        'requested_size': size, 'stream': 0, 'segment_type': 'large', 'segment_pool_id': (0, 0),
        'is_expandable': False, 'frames': frames,
        'blocks': [{'address': base + i * piece, 'size': piece, 'requested_size': piece, 'state': 'active_allocated',
                    'frames': frames} for i in range(pieces)]}]


def add_oom(snapshot, request=2048 * MiB, frames=None, device_free=20 * MiB):
    """An `oom` entry as PyTorch records it, after the trace's last event: the request (asked for at `frames`, the
    failed allocation's stack), with the device full (`device_free`, what cudaMemGetInfo then says)."""
    trace = snapshot['device_traces'][0]
    entry = {'action': 'oom', 'device_free': device_free, 'size': request, 'stream': 0,
             'time_us': trace[-1]['time_us'] + 10, 'compile_context': 'N/A', 'user_metadata': ''}
    if frames is not None:
        entry['frames'] = frames
    trace.append(entry)


def truncate_at(snapshot, cut):
    """The snapshot as an OOM observer's _dump_snapshot writes it right after event `cut`: the trace ends there and
    the final segments hold what was live then (allocated in the trace, from before it, or pending a free)."""
    trace = snapshot['device_traces'][0]
    live, pending, seen = {}, set(), set()
    for e in trace[:cut + 1]:
        address = e.get('addr')
        if e['action'] == 'alloc':
            live[address] = (e['size'], e.get('frames', []))
            seen.add(address)
        elif e['action'] == 'free_requested':
            pending.add(address)
        elif e['action'] == 'free_completed':
            seen.add(address)
            live.pop(address, None)
            pending.discard(address)
    # Freed later without an alloc in the trace: allocated before it, so live at the cut.
    for e in trace[cut + 1:]:
        address = e.get('addr')
        if e['action'] in ('free_requested', 'free_completed') and address not in seen:
            live[address] = (e['size'], e.get('frames', []))
        if e['action'] in ('alloc', 'free_requested', 'free_completed'):
            seen.add(address)
    # Live at the end and never in the trace: from before it, and never freed.
    for seg in snapshot['segments']:
        for block in seg['blocks']:
            if block['state'] != 'inactive' and block['address'] not in seen:
                live[block['address']] = (block.get('requested_size', block['size']), block.get('frames', []))
    del trace[cut + 1:]
    # Sorted once, each segment's share found by bisection: sorting every segment's out of all of them was a third of
    # making the scenarios.
    by_address = sorted((a, size, frames) for a, (size, frames) in live.items())
    addresses = [a for a, _, _ in by_address]
    for seg in snapshot['segments']:
        start, end = seg['address'], seg['address'] + seg['total_size']
        inside = by_address[bisect.bisect_left(addresses, start):bisect.bisect_left(addresses, end)]
        blocks, cursor = [], start
        for i, (address, size, frames) in enumerate(inside):
            if address > cursor:
                blocks.append({'address': cursor, 'size': address - cursor, 'requested_size': 0, 'state': 'inactive',
                               'frames': []})
            limit = inside[i + 1][0] if i + 1 < len(inside) else end
            block = min(max(512, (size + 511) // 512 * 512), limit - address)
            blocks.append({'address': address, 'size': block, 'requested_size': size,
                           'state': 'active_pending_free' if address in pending else 'active_allocated',
                           'frames': frames})
            cursor = address + block
        if cursor < end:
            blocks.append({'address': cursor, 'size': end - cursor, 'requested_size': 0, 'state': 'inactive',
                           'frames': []})
        seg['blocks'] = blocks
        seg['allocated_size'] = sum(b['size'] for b in blocks if b['state'] == 'active_allocated')
        seg['active_size'] = sum(b['size'] for b in blocks if b['state'] != 'inactive')
        seg['requested_size'] = sum(b['requested_size'] for b in blocks if b['state'] != 'inactive')
    return snapshot


def run_out_of_memory(snapshot, request, frames=None, short=None):
    """Runs out of memory as the caching allocator does: it releases every entirely free segment (segment_free
    events, gone from the final segments), retries, and reports an OOM for `request` with the device full but for
    what it released (and 20 MiB). A real record always has less free than the request (else the retry would have
    succeeded), so where the release alone would cover it, something else on the device took the difference. With
    `short`, the device had exactly that much less free than the request."""
    trace = snapshot['device_traces'][0]
    t = trace[-1]['time_us']  # the allocator releases at the moment of the failed request
    kept = []
    released = 0
    for seg in snapshot['segments']:
        if any(b['state'] != 'inactive' for b in seg['blocks']):
            kept.append(seg)
        else:
            released += seg['total_size']
            trace.append({'action': 'segment_free', 'addr': seg['address'], 'size': seg['total_size'], 'stream': 0,
                          'time_us': t, 'compile_context': 'N/A', 'user_metadata': ''})
    snapshot['segments'] = kept
    add_oom(snapshot, request, frames,
            request - short if short is not None else min(20 * MiB + released, request - 20 * MiB))


def profiler_derived(snapshot, extra_host):
    """As _profile_to_snapshot writes a profile: entries carry a category, and one more device list holds host memory
    (here the GPU trace replayed twice at host addresses, so it is the longest; `extra_host` bytes stay live)."""
    gpu = snapshot['device_traces'][0]
    host = []
    for round_ in range(2):
        for e in gpu:
            h = dict(e)
            h['addr'] = e['addr'] + (round_ + 1) * (1 << 46)
            host.append(h)
    for i in range(extra_host // (512 * MiB)):
        host.append({'action': 'alloc', 'addr': (3 << 46) + i * 512 * MiB, 'size': 512 * MiB, 'stream': 0,
                     'time_us': gpu[-1].get('time_us', 0) + i, 'frames': gpu[-1].get('frames', [])})
    for e in gpu + host:
        e['category'] = 'activation' if e['action'] == 'alloc' else 'unknown'
    snapshot['device_traces'].append(host)
    return snapshot


def device_scenarios(outdir, magma):
    def gpus(rank, burden=False):
        parts = [make_examples.shift(pickle.loads(magma), rank) for _ in range(3)]
        if burden:
            make_examples.add_evaluation_burden(parts[2])
        return on_devices(parts)
    ranks = [gpus(r, burden=(r == 3)) for r in range(4)]
    write(outdir, 'multi_gpu_burden_4', ranks, {'kind': 'burden_imbalance', 'rank': 3, 'device': 2,
                                                'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
                                                'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})
    write(outdir, 'multi_gpu_balanced_4', [gpus(r) for r in range(4)], {'kind': 'balanced'})

    def shared(rank, load=0, oom=False):
        """Rank r on cuda:r; `load` bytes of a checkpoint on cuda:0, `oom`: it runs out of memory there."""
        own = make_examples.shift(pickle.loads(magma), rank)
        if oom:
            add_oom(own)
        parts = [None] * rank + [own]
        if load:
            parts[0] = {'segments': [], 'device_traces': [[]]}
            checkpoint_load(own, parts[0], load)
        return on_devices(parts)
    ranks = [shared(r, load=1536 * MiB if r > 0 else 0, oom=(r == 0)) for r in range(4)]
    write(outdir, 'gpu0_load_4', ranks, {'kind': 'stray_device', 'rank': 0, 'device': 0, 'culprit_ranks': [1, 2, 3],
                                         'finding_rank': 1, 'finding_kind': 'foreign_device', 'site': '_load',
                                         'label': 'benchmarking_script.py:41 load_checkpoint',
                                         'excess_bytes': 1536 * MiB, 'finding_kinds': ['foreign_device']})
    write(outdir, 'shared_numbering_balanced_4', [shared(r) for r in range(4)], {'kind': 'balanced'})

    write(outdir, 'oom_foreign_suspect_4', [shared(r, load=96 * MiB if r == 1 else 0, oom=(r == 0)) for r in range(4)],
          {'kind': 'over_capacity', 'rank': 0, 'device': 0, 'suspect_ranks': [1], 'unreached_ranks': [1, 2, 3]})
    write(outdir, 'shared_numbering_oom_4', [shared(r, oom=(r == 0)) for r in range(4)],
          {'kind': 'over_capacity', 'rank': 0, 'device': 0, 'unreached_ranks': [1, 2, 3]})

    ranks = copies(magma, 4)
    write(outdir, 'profiler_host_balanced_4',
          [profiler_derived(s, 4096 * MiB if r == 1 else 0) for r, s in enumerate(ranks)], {'kind': 'balanced'})
    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[-1])
    write(outdir, 'profiler_host_burden_4',
          [profiler_derived(s, 4096 * MiB if r == 1 else 0) for r, s in enumerate(ranks)],
          {'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
           'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})


def keep_buffer(snapshot, at, size):
    """A buffer the rank allocates after event `at` of its trace and keeps to the end (in the final segments too)."""
    trace = snapshot['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': 'allocate_cache', 'filename': outer['filename'].rsplit('\\', 1)[0] + '\\cache.py', 'line': 57},
              {'name': 'backward_hook', 'filename': outer['filename'], 'line': 188}, outer]
    add_segments(snapshot, 1, size, frames)
    address = snapshot['segments'][-1]['address']
    t = trace[at].get('time_us', 0)
    trace[at + 1:at + 1] = [
        {'action': 'segment_alloc', 'addr': address, 'size': size, 'stream': 0, 'time_us': t, 'frames': frames,
         'compile_context': 'N/A', 'user_metadata': ''},
        {'action': 'alloc', 'addr': address, 'size': size, 'stream': 0, 'time_us': t, 'frames': frames,
         'compile_context': 'N/A', 'user_metadata': ''}]


def set_alloc_conf(snapshot, conf, variable='PYTORCH_CUDA_ALLOC_CONF'):
    """The allocator settings as PyTorch records them for `conf` (expandable_segments only): the variable's text under
    the name it was given by, and the parsed field."""
    settings = snapshot['allocator_settings']
    settings.pop('PYTORCH_CUDA_ALLOC_CONF', None)
    settings[variable] = conf
    settings['expandable_segments'] = 'expandable_segments:True' in conf


def capacity_scenarios(outdir, magma):
    """Every rank out of memory alike, or some: each rank dumped by an OOM observer where its allocation failed."""
    # Mid-forward, before the MLP's silu asks for its output (activations fill the GPU), or in the loss, where
    # log_softmax asks for the float32 logits (a vocabulary 4x the file's).
    activations = (1370, 1371, 2048 * MiB)
    loss = (1401, 1402, 4 * 327680000)

    def job(at, oom_ranks, n=4, prepare=None, others_go_on=False, short=None):
        """Every rank dumped where the OOM ranks failed, or (`others_go_on`) the others dumped at the end of the step,
        past the allocation that failed on the OOM ranks; `short`: what the request lacked of the device's free
        memory."""
        cut, failing, request = at
        ranks = copies(magma, n)
        for r, s in enumerate(ranks):
            frames = s['device_traces'][0][failing]['frames']
            if r in oom_ranks or not others_go_on:
                truncate_at(s, cut)
            if r in oom_ranks:
                run_out_of_memory(s, request, frames, short)
            if prepare:
                prepare(r, s)
        return ranks

    every = [0, 1, 2, 3]
    capacity = {'kind': 'over_capacity', 'rank': -1, 'oom_ranks': every}
    write(outdir, 'capacity_activations_4', job(activations, every),
          dict(capacity, remedies=['activation_checkpointing'], request_site='silu'))
    write(outdir, 'capacity_activations_balanced_4', job(activations, []), {'kind': 'balanced'})

    # How close each came (capacity_activations_balanced_4 is their control): short of bytes by far (an 8 GiB request,
    # 20 MiB free); 200 MiB short while 359 MiB lay unused between live blocks (expandable segments come first); the
    # same with expandable segments already on (not offered again).
    wide = (1370, 1371, 8192 * MiB)
    write(outdir, 'capacity_short_wide_4', job(wide, every, short=8172 * MiB),
          dict(capacity, remedies=['activation_checkpointing'], margin='short_of_bytes', short_bytes=8172 * MiB,
               closes=[True]))
    write(outdir, 'capacity_stranded_4', job(activations, every, short=200 * MiB),
          dict(capacity, remedies=['expandable_segments', 'activation_checkpointing'], margin='not_in_one_piece',
               short_bytes=200 * MiB, closes=[True, True]))

    def expandable(r, s):
        set_alloc_conf(s, 'expandable_segments:True')
    write(outdir, 'capacity_stranded_expandable_4', job(activations, every, prepare=expandable, short=200 * MiB),
          dict(capacity, remedies=['activation_checkpointing'], margin='not_in_one_piece', short_bytes=200 * MiB,
               closes=[True]))

    # As real jobs run it: ranks 2-3 from a container, C frames (stacks="all") on every rank.
    native = [{'name': 'c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc',
               'filename': '/pytorch/c10/cuda/CUDACachingAllocator.cpp', 'line': 1118},
              {'name': 'THPFunction_apply', 'filename': '/pytorch/torch/csrc/autograd/python_function.cpp',
               'line': 1063}]

    def field(r, s):
        if r >= 2:
            relocate(s, '/workspace/proj/', '/opt/venv/lib/python3.10/site-packages/')
        prepend_frames(s, native)
    write(outdir, 'capacity_loss_4', job(loss, every, prepare=field),
          dict(capacity, remedies=['activation_checkpointing', 'chunked_loss'], request_site='log_softmax'))
    write(outdir, 'capacity_loss_balanced_4', job(loss, [], prepare=field), {'kind': 'balanced'})

    # Only some ranks ran out of memory, holding what the others hold, asking for what the others allocated and went
    # on from: memory outside the allocator. When the others were dumped at the same moment, before that allocation,
    # nothing shows they would have fit: over capacity, and said so.
    same_request = (1370, 1371, 100663296)
    write(outdir, 'outside_one_of_4', job(same_request, [2], others_go_on=True),
          {'kind': 'outside_allocator', 'rank': 2, 'oom_ranks': [2], 'evidence': 'replicas_fit',
           'fitting_ranks': [0, 1, 3], 'request_site': 'silu'})
    write(outdir, 'outside_two_of_4', job(same_request, [2, 3], others_go_on=True),
          {'kind': 'outside_allocator', 'rank': -1, 'oom_ranks': [2, 3], 'evidence': 'replicas_fit',
           'fitting_ranks': [0, 1]})
    write(outdir, 'capacity_one_unreached_4', job(same_request, [2]),
          {'kind': 'over_capacity', 'rank': 2, 'oom_ranks': [2], 'unreached_ranks': [0, 1, 3], 'request_site': 'silu'})

    # The device's total given: what is neither reserved nor free is within what a CUDA context and NCCL take, or far
    # beyond it.
    ranks = job(activations, every)
    oom = ranks[0]['device_traces'][0][-1]
    seen = sum(seg['total_size'] for seg in ranks[0]['segments']) + oom['device_free']
    write(outdir, 'capacity_total_little_4', ranks,
          dict(capacity, remedies=['activation_checkpointing'], device_memory=seen + 1024 * MiB))
    write(outdir, 'outside_total_much_4', job(activations, every),
          {'kind': 'outside_allocator', 'rank': -1, 'oom_ranks': every, 'evidence': 'device_total',
           'device_memory': seen + 10240 * MiB})

    # Many ranks alike: an answer grows with what differs, not with the ranks (the controls: the same cut, no OOM).
    def asking(factor, which):
        def prepare(r, s):
            field(r, s)
            if which(r):  # the failed request, the trace's last entry
                s['device_traces'][0][-1]['size'] = int(s['device_traces'][0][-1]['size'] * factor)
        return prepare
    for n in (16, 64):
        every_n = list(range(n))
        write(outdir, f'capacity_loss_{n}', job(loss, every_n, n=n, prepare=field),
              dict(capacity, oom_ranks=every_n, remedies=['activation_checkpointing', 'chunked_loss'],
                   request_site='log_softmax', alike_groups=[every_n]))
        write(outdir, f'capacity_loss_balanced_{n}', job(loss, [], n=n, prepare=field), {'kind': 'balanced'})
    every_64 = list(range(64))
    write(outdir, 'capacity_loss_outlier_64', job(loss, every_64, n=64, prepare=asking(2, lambda r: r == 41)),
          dict(capacity, oom_ranks=every_64, request_site='log_softmax',
               alike_groups=[[r for r in every_64 if r != 41], [41]],
               oom_groups=[[41], [r for r in every_64 if r != 41]]))
    every_16 = list(range(16))
    write(outdir, 'capacity_loss_two_groups_16', job(loss, every_16, n=16, prepare=asking(1.5, lambda r: r >= 8)),
          dict(capacity, oom_ranks=every_16, request_site='log_softmax',
               alike_groups=[list(range(8)), list(range(8, 16))], oom_groups=[list(range(8, 16)), list(range(8))]))

    # Pipeline stages: stage 0 (ranks 0-3) runs out of memory alike mid-forward (its layers keep more micro-batches in
    # flight), and every rank is dumped then, stage 1 still fitting. Stage 1 runs other code, so it tells nothing
    # about what else holds stage 0's GPUs.
    cut, failing, request = activations
    ranks = copies(magma, 8)
    for r, s in enumerate(ranks):
        frames = s['device_traces'][0][failing]['frames']
        truncate_at(s, cut)
        pipeline_stage(s, r // 4, in_flight=1)
        if r < 4:
            run_out_of_memory(s, request, frames)
    write(outdir, 'pp2_capacity_stage0_8', ranks,
          {'kind': 'over_capacity', 'rank': -1, 'oom_ranks': [0, 1, 2, 3], 'layout': 'pp=2,dp=4',
           'findings_ranks': []})


def add_optimizer_state(snapshot, size, pieces=8):
    """AdamW's first step: it creates its state (exp_avg, exp_avg_sq) after the backward pass and keeps it, so the
    step's peak is there, the same on every rank (in the final segments too)."""
    trace = snapshot['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': '_init_group', 'filename': WINDOWS_PACKAGES + 'torch\\optim\\adamw.py', 'line': 175},
              {'name': 'step', 'filename': WINDOWS_PACKAGES + 'torch\\optim\\adamw.py', 'line': 231},
              {'name': '<module>', 'filename': outer['filename'], 'line': 75}]
    piece = size // pieces
    add_segments(snapshot, pieces, piece, frames)
    t = trace[-1].get('time_us', 0)
    for seg in snapshot['segments'][-pieces:]:
        for action in ('segment_alloc', 'alloc'):
            t += 1
            trace.append({'action': action, 'addr': seg['address'], 'size': piece, 'stream': 0, 'time_us': t,
                          'frames': frames, 'compile_context': 'N/A', 'user_metadata': ''})


def in_forward(entry):
    """An allocation of the model's forward pass (a model.py frame, not the loss)."""
    return model_line(entry) != 0


def add_burst(snapshot, start, end, size, pieces=4):
    """Evaluation outputs gathered onto this rank after event `start` and freed after event `end`: extra work that is
    gone again before the step's peak. The allocator keeps the segment, entirely free at the end."""
    trace = snapshot['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': 'gather_predictions', 'filename': outer['filename'].rsplit('\\', 1)[0] + '\\metrics.py',
               'line': 88},
              {'name': 'evaluate', 'filename': outer['filename'], 'line': 301}, outer]
    add_segments(snapshot, 1, size, frames)
    seg = snapshot['segments'][-1]
    seg['blocks'][0].update({'state': 'inactive', 'frames': []})
    seg['allocated_size'] = seg['active_size'] = seg['requested_size'] = 0
    piece = size // pieces
    ts, te = trace[start].get('time_us', 0), trace[end].get('time_us', 0)
    entry = {'stream': 0, 'frames': frames, 'compile_context': 'N/A', 'user_metadata': ''}
    freed = [dict(entry, action=a, addr=seg['address'] + i * piece, size=piece, time_us=te)
             for i in range(pieces) for a in ('free_requested', 'free_completed')]
    trace[end + 1:end + 1] = freed
    trace[start + 1:start + 1] = [dict(entry, action='segment_alloc', addr=seg['address'], size=size, time_us=ts)] + [
        dict(entry, action='alloc', addr=seg['address'] + i * piece, size=piece, time_us=ts) for i in range(pieces)]


def moment_scenarios(outdir, magma):
    """Ranks alike at their peaks that differ mid-step, points picked on traces that start at different events,
    groups of identical ranks, and a growth just under the threshold."""
    def first_step(scale_rank=None, factor=1.5, burst_rank=None):
        ranks = copies(magma, 4)
        for r, s in enumerate(ranks):
            if r == scale_rank:  # longer sequences: the forward pass's tensors larger at the same sites
                scale_allocations(s, in_forward, factor)
            if r == burst_rank:
                add_burst(s, 700, 900, 1024 * MiB)
            add_optimizer_state(s, 24 * 1024 * MiB)
        return ranks
    write(outdir, 'midstep_input_4', first_step(scale_rank=2),
          {'kind': 'input_imbalance', 'rank': 2, 'moment': 'mid_step', 'finding_kind': 'larger_on_rank',
           'finding_kinds': ['larger_on_rank', 'more_on_rank'], 'findings_spread': True})
    write(outdir, 'midstep_burden_4', first_step(burst_rank=3),
          {'kind': 'burden_imbalance', 'rank': 3, 'moment': 'mid_step', 'finding_kind': 'only_on_rank',
           'site': 'gather_predictions', 'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})
    write(outdir, 'midstep_balanced_4', first_step(), {'kind': 'balanced', 'moment': 'highest_peak'})

    # Rank 2's trace starts 300 events earlier (its ring buffer holds more of the batches loaded before the step):
    # its event i + 300 is the others' i.
    ranks = copies(magma, 4)
    trace = ranks[2]['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': '__next__', 'filename': WINDOWS_PACKAGES + 'torch\\utils\\data\\dataloader.py', 'line': 631},
              outer]
    base = max(seg['address'] + seg['total_size'] for seg in ranks[2]['segments']) + (1 << 32)
    t = trace[0]['time_us'] - 1000
    warmup = []
    for i in range(100):
        for action in ('alloc', 'free_requested', 'free_completed'):
            warmup.append({'action': action, 'addr': base + i * MiB, 'size': MiB, 'stream': 0, 'time_us': t + i,
                           'frames': frames, 'compile_context': 'N/A', 'user_metadata': ''})
    trace[:0] = warmup
    write(outdir, 'phase_shift_4', ranks, {'kind': 'balanced', 'shift_rank': 2, 'shift': 300})

    # Two groups of identical ranks at the same sites: pipeline stages (the first keeps more micro-batches in flight)
    # or two kinds of batch; contiguous, then alternating.
    for name, bigger, layout in (('two_groups_8', lambda r: r < 4, 'pp=2,dp=4'),
                                 ('two_groups_alternating_8', lambda r: r % 2 == 0, 'dp=4,tp=2')):
        ranks = copies(magma, 8)
        for r, s in enumerate(ranks):
            if bigger(r):
                scale_allocations(s, in_forward, 1.25)
        group = [r for r in range(8) if bigger(r)]
        write(outdir, name, ranks, {'kind': 'input_imbalance', 'rank': -1, 'group_ranks': group,
                                    'other_ranks': [r for r in range(8) if not bigger(r)],
                                    'suggested_layout_text': layout, 'finding_kinds': ['larger_on_rank']})


def framework_scenarios(outdir, magma):
    """The training code installed as a framework, as torchtitan runs (`python -m torchtitan.train` from
    site-packages): no frame is under the user's folders, so `--my-code` counts the framework's frames as the user's.
    Each rank from another install: a virtualenv, Windows, two containers (dist-packages, conda)."""
    installs = [('/home/user/.venv/lib/python3.11/site-packages/', '/'),
                ('C:\\Users\\user\\miniconda3\\Lib\\site-packages\\', '\\'),
                ('/usr/local/lib/python3.10/dist-packages/', '/'),
                ('/opt/conda/lib/python3.11/site-packages/', '/')]

    def installed(ranks):
        for s, (packages, sep) in zip(ranks, installs):
            relocate(s, packages + 'torchtitan' + sep, packages, sep=sep)
        return ranks
    ranks = copies(magma, 4)
    make_examples.add_evaluation_burden(ranks[2])
    write(outdir, 'framework_burden_4', installed(ranks),
          {'kind': 'burden_imbalance', 'rank': 2, 'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
           'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank'], 'my_code': True,
           'my_code_counted': ['torchtitan']})
    write(outdir, 'framework_balanced_4', installed(copies(magma, 4)),
          {'kind': 'balanced', 'my_code': True, 'my_code_counted': ['torchtitan']})


def write_files(outdir, name, files, expected):
    """Like write(), with each rank's file at its own relative path."""
    folder = os.path.join(outdir, name)
    for relative, s in files.items():
        path = os.path.join(folder, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            pickle.dump(s, f, protocol=4)
    with open(os.path.join(folder, 'scenario.expect'), 'w') as f:
        json.dump(expected, f, indent=2)


def step_scenarios(outdir, magma):
    def titan(burdened):
        files = {}
        for step in (10, 20):
            ranks = copies(magma, 3)
            if step in burdened:
                make_examples.add_evaluation_burden(ranks[burdened[step]])
            for r, s in enumerate(ranks):
                files[f'memory_snapshot/iteration_{step}/rank{r}_memory_snapshot.pickle'] = s
        return files
    write_files(outdir, 'steps_burden_3', titan({20: 2}),
                {'kind': 'burden_imbalance', 'rank': 2, 'step': 20, 'finding_kind': 'only_on_rank',
                 'site': 'gather_predictions', 'excess_bytes': 1 << 30, 'finding_kinds': ['only_on_rank']})
    write_files(outdir, 'steps_balanced_latest_3', titan({10: 1}), {'kind': 'balanced', 'step': 20})
    files = {}
    site = None
    for step in (1, 2):
        ranks = copies(magma, 2)
        if step == 2:
            site = scale_top_site(ranks[1], 3.0)
        for r, s in enumerate(ranks):
            files[f'snapshot_{step}_{r}.pickle'] = s
    write_files(outdir, 'fsdp_steps_input_2', files, {'kind': 'input_imbalance', 'rank': 1, 'step': 2,
                                                      'finding_kind': 'larger_on_rank', 'site': site,
                                                      'finding_kinds': ['larger_on_rank']})


def drop_allocations(snapshot, keep):
    """Removes every allocation whose alloc entry `keep(entry)` rejects, with its frees; a block it leaves live at the
    end becomes inactive in the final segments (the segments stay, as the allocator keeps them)."""
    trace = snapshot['device_traces'][0]
    dropping, out = set(), []
    for e in trace:
        if e['action'] == 'alloc' and not keep(e):
            dropping.add(e['addr'])
            continue
        if e['action'] in ('free_requested', 'free_completed') and e['addr'] in dropping:
            if e['action'] == 'free_completed':
                dropping.discard(e['addr'])
            continue
        out.append(e)
    trace[:] = out
    for seg in snapshot['segments']:
        for block in seg['blocks']:
            if block.get('address') in dropping and block['state'] != 'inactive':
                seg['allocated_size'] -= block['size']
                seg['active_size'] -= block['size']
                block['state'] = 'inactive'
                block['frames'] = []


def model_line(entry):
    """The line of the outermost model.py frame of an allocation: which part of TransformerLM.forward it is in
    (245 the embedding, 253 the layers, 255 the final norm, 257 the output layer); 0 outside the model."""
    lines = [f['line'] for f in entry.get('frames', []) if f['filename'].endswith('model.py')]
    return lines[-1] if lines else 0


def pipeline_stage(snapshot, stage, in_flight=1.5):
    """As one of two pipeline stages of the same model: stage 0 runs the embedding and the first half of the layers,
    stage 1 the second half, the final norm, the output layer and the loss (which runs outside the model)."""
    def keep(e):
        line = model_line(e)
        if stage == 0:
            return line not in (255, 257) and (line != 0 or not e.get('frames'))
        return line != 245
    drop_allocations(snapshot, keep)
    if stage == 0 and in_flight != 1:
        # 1F1B: the first stage keeps the activations of more micro-batches in flight.
        scale_allocations(snapshot, lambda e: model_line(e) == 253, in_flight)
    return snapshot


def add_parameters(snapshot, size, module):
    """Parameters allocated at model construction, before recording began: a live block with its stack."""
    outer = next(e['frames'][-1] for e in snapshot['device_traces'][0] if e.get('frames'))
    code = outer['filename'].rsplit('\\', 1)[0]
    frames = [{'name': '__init__', 'filename': WINDOWS_PACKAGES + f'torch\\nn\\modules\\{module}.py', 'line': 106},
              {'name': '__init__', 'filename': code + '\\cs336-basics\\cs336_basics\\model.py', 'line': 212},
              {'name': '<module>', 'filename': outer['filename'], 'line': 58}]
    add_segments(snapshot, 1, size, frames)


def layout_scenarios(outdir, magma):
    def stages(burden=None):
        ranks = copies(magma, 8)
        for r, s in enumerate(ranks):
            pipeline_stage(s, r // 4)
        if burden is not None:
            make_examples.add_evaluation_burden(ranks[burden])
        return ranks
    write(outdir, 'pp2_dp4_burden_8', stages(burden=6),
          {'kind': 'burden_imbalance', 'rank': 6, 'layout': 'pp=2,dp=4', 'suggested_layout': 'pp=2,dp=4',
           'finding_kind': 'only_on_rank', 'site': 'gather_predictions', 'excess_bytes': 1 << 30,
           'finding_kinds': ['only_on_rank'], 'findings_ranks': [6]})
    # The same job as it runs in the field: stage 0 from a home checkout on Linux, stage 1 from a container.
    ranks = stages(burden=6)
    for r, s in enumerate(ranks):
        relocate(s, *(('/home/user/proj/', '/home/user/proj/.venv/lib/python3.10/site-packages/') if r < 4
                      else ('/workspace/proj/', '/opt/venv/lib/python3.10/site-packages/')))
    write(outdir, 'pp2_relocated_burden_8', ranks,
          {'kind': 'burden_imbalance', 'rank': 6, 'layout': 'pp=2,dp=4', 'suggested_layout': 'pp=2,dp=4',
           'finding_kind': 'only_on_rank', 'site': 'gather_predictions', 'excess_bytes': 1 << 30,
           'finding_kinds': ['only_on_rank'], 'findings_ranks': [6]})
    write(outdir, 'pp2_dp4_balanced_8', stages(),
          {'kind': 'balanced', 'layout': 'pp=2,dp=4', 'suggested_layout': 'pp=2,dp=4'})
    ranks = stages()
    for s in ranks[:4]:
        add_parameters(s, 2048 * MiB, 'sparse')
    write(outdir, 'pp2_uneven_stages_8', ranks,
          {'kind': 'model_parallel_imbalance', 'rank': 0, 'group': 'pp=0', 'group_ranks': [0, 1, 2, 3],
           'layout': 'pp=2,dp=4', 'suggested_layout': 'pp=2,dp=4', 'top_site': '__init__'})

    def shards(uneven):
        ranks = copies(magma, 4)
        for r, s in enumerate(ranks):
            add_parameters(s, (1536 if uneven and r % 2 else 1024) * MiB, 'linear')
        return ranks
    write(outdir, 'tp2_uneven_shard_4', shards(True),
          {'kind': 'model_parallel_imbalance', 'rank': 1, 'group': 'tp=1', 'group_ranks': [1, 3],
           'layout': 'dp=2,tp=2', 'suggested_layout': 'dp=2,tp=2', 'top_site': '__init__'})
    write(outdir, 'tp2_balanced_4', shards(False), {'kind': 'balanced', 'layout': 'dp=2,tp=2'})


def keep_losses(snapshot, count, size=256 * MiB):
    """`count` loss tensors kept in a list across steps: the newest allocated early in this step's trace, the others
    held from before it (live blocks with their stack and no alloc in the trace)."""
    trace = snapshot['device_traces'][0]
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': 'train_step', 'filename': outer['filename'].rsplit('\\', 1)[0] + '\\train.py', 'line': 77},
              outer]
    if count > 1:
        add_segments(snapshot, count - 1, size, frames)
    add_segments(snapshot, 1, size, frames)
    address = snapshot['segments'][-1]['address']
    t = trace[100].get('time_us', 0)
    trace[101:101] = [
        {'action': 'segment_alloc', 'addr': address, 'size': size, 'stream': 0, 'time_us': t, 'frames': frames,
         'compile_context': 'N/A', 'user_metadata': ''},
        {'action': 'alloc', 'addr': address, 'size': size, 'stream': 0, 'time_us': t, 'frames': frames,
         'compile_context': 'N/A', 'user_metadata': ''}]


def growth_scenarios(outdir, magma):
    def steps(kept):
        files = {}
        for i, step in enumerate((10, 20, 30)):
            ranks = copies(magma, 4)
            for r, s in enumerate(ranks):
                count = kept(r, i)
                if count:
                    keep_losses(s, count)
            for r, s in enumerate(ranks):
                files[f'memory_snapshot/iteration_{step}/rank{r}_memory_snapshot.pickle'] = s
        return files
    write_files(outdir, 'growth_steps_4', steps(lambda r, i: i + 1 if r == 1 else 0),
                {'kind': 'growth', 'rank': 1, 'step': 30, 'growth_ranks': [1], 'finding_kind': 'only_on_rank',
                 'site': 'train_step', 'excess_bytes': 768 * MiB, 'finding_kinds': ['growth', 'only_on_rank']})
    write_files(outdir, 'growth_all_steps_4', steps(lambda r, i: i + 1),
                {'kind': 'growth', 'rank': 0, 'step': 30, 'growth_ranks': [0, 1, 2, 3], 'finding_kind': 'growth',
                 'site': 'train_step', 'excess_bytes': 256 * MiB, 'finding_kinds': ['growth']})
    write_files(outdir, 'growth_balanced_steps_4', steps(lambda r, i: 1), {'kind': 'balanced', 'step': 30})

    # Two steps, rank 1 keeping 250 MiB more at the second: it stands out (3.8 % over the others) by what grows, though
    # its growth over the steps (1.9 %) is under the threshold. The verdict says growth, as its finding does.
    files = {}
    for i, step in enumerate((10, 20)):
        ranks = copies(magma, 4)
        keep_losses(ranks[1], i + 1, 250 * MiB)
        for r, s in enumerate(ranks):
            files[f'memory_snapshot/iteration_{step}/rank{r}_memory_snapshot.pickle'] = s
    write_files(outdir, 'growth_near_threshold_4', files,
                {'kind': 'growth', 'rank': 1, 'step': 20, 'steps': [10, 20], 'growth_ranks': [1],
                 'finding_kind': 'only_on_rank', 'site': 'train_step', 'finding_kinds': ['growth', 'only_on_rank']})




def add_ranges(snapshot, rank, steps=3):
    """external_annotations as a profiled run records them: ProfilerStep#N around each step and, inside, NCCL
    collectives and a record_function region, at offsets that differ per rank (collectives wait on the slowest)."""
    trace = snapshot['device_traces'][0]
    t0, t1 = trace[0]['time_us'], trace[-1]['time_us']
    span = (t1 - t0) // steps
    marks = []

    def scope(name, start, end):
        marks.append({'stage': 'START', 'name': name, 'device': 0, 'time_us': start})
        marks.append({'stage': 'END', 'name': name, 'device': 0, 'time_us': end})

    for k in range(steps):
        begin = t0 + k * span
        scope(f'ProfilerStep#{k}', begin, begin + span - 1)
        scope('## forward ##', begin + span // 10, begin + span // 2)
        for c in range(4):
            at = begin + span // 2 + (c * span) // 10 + (rank * span) // 200
            scope('nccl:_all_gather_base' if c % 2 else 'nccl:all_reduce', at, at + span // 40)
    snapshot['external_annotations'] = sorted(marks, key=lambda m: m['time_us'])


def add_host_memory(snapshot, held, per_device=False, pieces=4):
    """Pinned host memory as `_record_memory_history(record_host=True)` records it: `host_segments` (the host caching
    allocator's segments, each one block) and `host_traces`. `held` bytes stay pinned in `pieces` buffers; as much
    again is pinned at once for a while and freed, its segments kept cached, so the host's peak is twice `held`."""
    trace = snapshot['device_traces'][0]
    t0, t1 = trace[0]['time_us'], trace[-1]['time_us']
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': 'pin_memory', 'filename': 'torch/utils/data/_utils/pin_memory.py', 'line': 73}, outer]
    piece = held // pieces
    base = 0x7f3000000000
    segments, entries = [], []

    def entry(action, addr, t):
        return {'action': action, 'addr': addr, 'size': piece, 'stream': 0, 'time_us': t, 'frames': frames}

    for i in range(2 * pieces):
        addr = base + i * piece
        kept = i < pieces
        segments.append({'device': -1, 'address': addr, 'total_size': piece, 'allocated_size': piece if kept else 0,
                         'active_size': piece if kept else 0, 'requested_size': piece if kept else 0, 'stream': 0,
                         'segment_type': 'large', 'segment_pool_id': (0, 0), 'is_expandable': False,
                         'frames': frames,
                         'blocks': [{'address': addr, 'size': piece, 'requested_size': piece,
                                     'state': 'active_allocated' if kept else 'inactive', 'frames': frames}]})
        entries.append(entry('segment_alloc', addr, t0 + i))
        entries.append(entry('alloc', addr, t0 + i))
    for i in range(pieces, 2 * pieces):
        entries.append(entry('free_requested', base + i * piece, t1 - 10 + i))
        entries.append(entry('free_completed', base + i * piece, t1 - 10 + i))
    snapshot['host_segments'] = segments
    snapshot['host_traces'] = [entries] if per_device else entries


def add_pool_ids(snapshot, private=None, graph_pool=(1, 5), graph_bytes=512 * MiB):
    """`pool_id` on every trace entry, as PyTorch 2.12 writes it: (0, 0) for the default pool. A CUDA graph's private
    pool `graph_pool` holds `graph_bytes` half-way through the trace and is released before the snapshot, so only the
    entries name it; `private` (entry → pool or None) moves other allocations into pools of their own."""
    trace = snapshot['device_traces'][0]
    base = max(seg['address'] + seg['total_size'] for seg in snapshot['segments']) + (2 << 40)
    at = len(trace) // 2
    t = trace[at]['time_us']
    outer = next(e['frames'][-1] for e in trace if e.get('frames'))
    frames = [{'name': 'replay', 'filename': 'torch/cuda/graphs.py', 'line': 88}, outer]

    def entry(action, size):
        return {'action': action, 'addr': base, 'size': size, 'stream': 0, 'time_us': t,
                'compile_context': 'N/A', 'user_metadata': '', 'frames': frames, 'pool_id': graph_pool}

    graph = [entry('segment_alloc', graph_bytes), entry('alloc', graph_bytes), entry('free_requested', graph_bytes),
             entry('free_completed', graph_bytes), entry('segment_free', graph_bytes)]
    for e in trace:
        pool = private(e) if private else None
        e['pool_id'] = tuple(pool) if pool else (0, 0)
    trace[at:at] = graph


def newer_pytorch_scenarios(outdir, magma):
    def gathering(e):
        return any(f['name'] == 'gather_predictions' for f in e.get('frames') or [])

    for burden in (False, True):
        ranks = copies(magma, 4)
        for r, s in enumerate(ranks):
            add_ranges(s, r)
        if burden:
            make_examples.add_evaluation_burden(ranks[-1])
        write(outdir, 'ranges_burden_4' if burden else 'ranges_balanced_4', ranks,
              {'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank', 'site': 'gather_predictions',
               'profiler_steps': 3} if burden else {'kind': 'balanced', 'profiler_steps': 3})

        ranks = copies(magma, 4)
        for r, s in enumerate(ranks):
            add_host_memory(s, (6 << 30) if r == 3 else 512 * MiB, per_device=r == 1)
        if burden:
            make_examples.add_evaluation_burden(ranks[-1])
        host = {'host_allocated': [512 * MiB, 512 * MiB, 512 * MiB, 6 << 30],
                'host_peak': [1 << 30, 1 << 30, 1 << 30, 12 << 30]}
        write(outdir, 'host_memory_burden_4' if burden else 'host_memory_balanced_4', ranks,
              dict({'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank',
                    'site': 'gather_predictions'} if burden else {'kind': 'balanced'}, **host))

        ranks = copies(magma, 4)
        if burden:
            make_examples.add_evaluation_burden(ranks[-1])
        for r, s in enumerate(ranks):
            add_pool_ids(s, (lambda e: (1, 9) if gathering(e) else None) if burden and r == 3 else None)
        pools = {'entry_pools': {'replay': [1, 5]}}
        if burden:
            pools['entry_pools']['gather_predictions'] = [1, 9]
            pools['finding_pools'] = [[1, 9]]
        write(outdir, 'pool_ids_burden_4' if burden else 'pool_ids_balanced_4', ranks,
              dict({'kind': 'burden_imbalance', 'rank': 3, 'finding_kind': 'only_on_rank',
                    'site': 'gather_predictions'} if burden else {'kind': 'balanced'}, **pools))


if __name__ == '__main__':
    main()
