#!/usr/bin/env python3
"""Genuine per-rank snapshots of out-of-memory errors, made on one GPU (each "rank" its own process, one after the
other), for checking the verdict's margin on files PyTorch wrote itself rather than edited copies.

  gpu_oom_job.py OUTDIR            (needs PyTorch with CUDA; `outside` also needs CuPy)

OUTDIR/fraction/   four ranks alike, each capped by torch.cuda.set_per_process_memory_fraction below what a step
                   needs: every rank runs out of memory while the device still has most of its memory free (the
                   margin's `not_reached`)
OUTDIR/outside/    four ranks of the same step with the whole GPU; rank 2 first takes all but 6 GiB of the device
                   with CuPy (memory outside PyTorch's allocator) and runs out of memory where the others went on
                   (outside_allocator, replicas_fit)
"""
import os
import subprocess
import sys

GiB = 1 << 30


def rank_main(outdir, rank, mode):
    import torch
    torch.manual_seed(0)
    dev = torch.device('cuda:0')
    if mode == 'fraction':
        total = torch.cuda.get_device_properties(0).total_memory
        torch.cuda.set_per_process_memory_fraction(6 * GiB / total)
    blocker = None
    if mode == 'outside' and rank == 2:
        import cupy
        free, _ = cupy.cuda.runtime.memGetInfo()
        blocker = cupy.cuda.runtime.malloc(free - 6 * GiB)
    torch.cuda.memory._record_memory_history(max_entries=4000, stacks='python')
    d, layers, tokens = 2048, 6, 16384

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.up = torch.nn.Linear(d, 4 * d)
            self.down = torch.nn.Linear(4 * d, d)

        def forward(self, x):
            return x + self.down(torch.nn.functional.gelu(self.up(x)))

    model = torch.nn.Sequential(*[Block() for _ in range(layers)]).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    path = os.path.join(outdir, f'rank{rank}_memory_snapshot.pickle')
    try:
        for step in range(2):
            x = torch.randn(tokens, d, device=dev)
            loss = model(x).float().pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        print(f'{mode} rank {rank}: fit, peak {torch.cuda.max_memory_allocated() / GiB:.2f} GiB')
    except torch.OutOfMemoryError as e:
        print(f'{mode} rank {rank}: out of memory: {str(e).splitlines()[0]}')
    torch.cuda.memory._dump_snapshot(path)
    if blocker is not None:
        import cupy
        cupy.cuda.runtime.free(blocker)


def main():
    if len(sys.argv) == 4:
        return rank_main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
    out = sys.argv[1]
    for mode in ('fraction', 'outside'):
        folder = os.path.join(out, mode)
        os.makedirs(folder, exist_ok=True)
        for rank in range(4):
            subprocess.run([sys.executable, __file__, folder, str(rank), mode], check=True)


if __name__ == '__main__':
    main()
