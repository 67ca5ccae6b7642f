# SPDX-License-Identifier: MIT
"""RankScope capture helper: step reports, memory snapshots and an out-of-memory hook on every rank.

Copy this one file next to your training script (it needs only the standard library and torch):

    import rankscope_capture as rc

    rc.enable()                                    # on every rank, before training
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        ...
        if step % 10 == 0:
            rc.step_report(step, batch, "train")   # one line per rank, flushed
    rc.dump("train")                               # rank{r}_train.pickle
    evaluate(...)
    rc.step_report(step, batch, "eval")

Every report line reads

    [train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB

(MB = 10**6 bytes; cur is torch.cuda.memory_allocated(), peak torch.cuda.max_memory_allocated()). Collect the
output of all ranks in one log, or one log per rank, and run `rankscope steps LOG...` or open the logs in RankScope:
it names the rank and the step where one rank's memory departs from the others, and whether its input was larger
there (input imbalance) or not (burden imbalance). Then dump snapshots one step before that point and open them.

If a rank runs out of memory, enable()'s hook writes rank{r}_oom.pickle on that rank before the error propagates.
"""

import contextlib
import os
import sys

__all__ = ["enable", "step_report", "format_report", "dump", "rank", "shape_of", "guard"]

_state = {"out_dir": ".", "hooked": False, "dumping": False}


def _torch():
    import torch  # imported late, so the module can be read (and tested) without a GPU

    return torch


def rank():
    """This process's rank: torch.distributed when it is initialised, else the launcher's environment."""
    torch = _torch()
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    for name in ("RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"):
        value = os.environ.get(name)
        if value is not None and value.strip().isdigit():
            return int(value)
    return 0


def enable(max_entries=100000, out_dir=".", oom_hook=True):
    """Start recording allocation history (with stacks) on this rank; dumps go to out_dir."""
    torch = _torch()
    _state["out_dir"] = out_dir
    torch.cuda.memory._record_memory_history(max_entries=max_entries)
    if oom_hook and not _state["hooked"]:
        attach = getattr(torch._C, "_cuda_attach_out_of_memory_observer", None)
        if attach is not None:
            attach(_on_out_of_memory)
            _state["hooked"] = True


def dump(tag):
    """Write this rank's snapshot as rank{r}_{tag}.pickle and return its path."""
    torch = _torch()
    path = os.path.join(_state["out_dir"], "rank{}_{}.pickle".format(rank(), tag))
    torch.cuda.memory._dump_snapshot(path)
    return path


def _on_out_of_memory(device, alloc, device_alloc, device_free):
    # Called by the caching allocator when it gives up, before OutOfMemoryError is raised: the history still holds
    # everything that led here.
    if _state["dumping"]:
        return
    _state["dumping"] = True
    try:
        path = dump("oom")
        print(
            "[rankscope] rank={} out of memory on cuda:{} asking for {} bytes ({} free): snapshot {}".format(
                rank(), device, alloc, device_free, path
            ),
            file=sys.stderr,
            flush=True,
        )
    finally:
        _state["dumping"] = False


@contextlib.contextmanager
def guard(tag="oom"):
    """For PyTorch versions without the allocator's OOM observer: dump on OutOfMemoryError, then re-raise it."""
    torch = _torch()
    try:
        yield
    except torch.cuda.OutOfMemoryError:
        if not _state["hooked"]:
            dump(tag)
        raise


def shape_of(batch):
    """The shape of a batch: a tensor's, or the first tensor's in a dict (input_ids first), list or tuple."""
    if hasattr(batch, "shape"):
        return tuple(int(d) for d in batch.shape)
    if isinstance(batch, dict):
        for key in ("input_ids", "inputs", "input", "x"):
            if key in batch and hasattr(batch[key], "shape"):
                return shape_of(batch[key])
        values = list(batch.values())
    elif isinstance(batch, (list, tuple)):
        values = list(batch)
    else:
        return None
    for value in values:
        found = shape_of(value)
        if found is not None:
            return found
    return None


def format_report(step, shape, current_bytes, peak_bytes, tag="train", rank_=None):
    """One report line; rankscope steps and the app read it back."""
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")" if shape else "()"
    return "[{}] rank={} step={} shape={} cur={:.1f}MB peak={:.1f}MB".format(
        tag, rank() if rank_ is None else rank_, step, shape_text, current_bytes / 1e6, peak_bytes / 1e6
    )


def step_report(step, batch, tag="train", file=None):
    """Print this rank's report for a step: input shape, current and peak allocated memory."""
    torch = _torch()
    line = format_report(
        step, shape_of(batch), torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated(), tag
    )
    print(line, file=file if file is not None else sys.stdout, flush=True)
    return line
