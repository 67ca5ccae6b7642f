# SPDX-License-Identifier: MIT
"""resources/python/rankscope_capture.py against a stand-in torch: naming, rank detection, the report format, the
OOM hook, and report lines that `rankscope steps` reads back (RANKSCOPE_BINARY names the binary)."""

import contextlib
import importlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "resources", "python"))


class FakeTensor:
    def __init__(self, *shape):
        self.shape = shape


class FakeOutOfMemoryError(RuntimeError):
    pass


def make_torch(rank=None, allocated=0, peak=0):
    """A torch module with just what the helper touches, recording the calls."""
    torch = types.ModuleType("torch")
    calls = {"record": [], "dumps": [], "observers": []}

    def dump_snapshot(path):
        calls["dumps"].append(path)
        with open(path, "wb") as f:
            f.write(b"\x80\x02}q\x00.")

    memory = types.SimpleNamespace(
        _record_memory_history=lambda **kw: calls["record"].append(kw),
        _dump_snapshot=dump_snapshot,
    )
    torch.cuda = types.SimpleNamespace(
        memory=memory,
        memory_allocated=lambda: allocated,
        max_memory_allocated=lambda: peak,
        OutOfMemoryError=FakeOutOfMemoryError,
    )
    torch.distributed = types.SimpleNamespace(
        is_available=lambda: True,
        is_initialized=lambda: rank is not None,
        get_rank=lambda: rank,
    )
    torch._C = types.SimpleNamespace(_cuda_attach_out_of_memory_observer=lambda cb: calls["observers"].append(cb))
    torch.calls = calls
    return torch


class CaptureTest(unittest.TestCase):
    def load(self, **kw):
        torch = make_torch(**kw)
        sys.modules["torch"] = torch
        import rankscope_capture

        helper = importlib.reload(rankscope_capture)
        return helper, torch

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.env = dict(os.environ)
        for name in ("RANK", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK"):
            os.environ.pop(name, None)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        sys.modules.pop("torch", None)
        self.dir.cleanup()

    def test_rank_detection(self):
        helper, _ = self.load(rank=5)
        self.assertEqual(helper.rank(), 5)  # torch.distributed wins
        helper, _ = self.load(rank=None)
        self.assertEqual(helper.rank(), 0)
        os.environ["SLURM_PROCID"] = "7"
        self.assertEqual(helper.rank(), 7)
        os.environ["RANK"] = "3"
        self.assertEqual(helper.rank(), 3)  # RANK (torchrun) before SLURM_PROCID

    def test_enable_and_dump_naming(self):
        helper, torch = self.load(rank=2)
        helper.enable(max_entries=5000, out_dir=self.dir.name)
        self.assertEqual(torch.calls["record"], [{"max_entries": 5000}])
        self.assertEqual(len(torch.calls["observers"]), 1)
        path = helper.dump("eval")
        self.assertEqual(path, os.path.join(self.dir.name, "rank2_eval.pickle"))
        self.assertTrue(os.path.exists(path))
        helper.enable(out_dir=self.dir.name)  # twice: still one observer
        self.assertEqual(len(torch.calls["observers"]), 1)

    def test_oom_hook_dumps_on_the_failing_rank(self):
        helper, torch = self.load(rank=3)
        helper.enable(out_dir=self.dir.name)
        observer = torch.calls["observers"][0]
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            observer(0, 2 << 30, 70 << 30, 1 << 20)
        self.assertEqual(torch.calls["dumps"], [os.path.join(self.dir.name, "rank3_oom.pickle")])
        self.assertIn("rank=3 out of memory", err.getvalue())

    def test_guard_dumps_and_reraises_without_observer(self):
        helper, torch = self.load(rank=1)
        del torch._C._cuda_attach_out_of_memory_observer
        helper.enable(out_dir=self.dir.name)
        with self.assertRaises(FakeOutOfMemoryError):
            with helper.guard():
                raise FakeOutOfMemoryError("CUDA out of memory")
        self.assertEqual(torch.calls["dumps"], [os.path.join(self.dir.name, "rank1_oom.pickle")])

    def test_report_format(self):
        helper, _ = self.load(rank=3, allocated=10240 * 10**6, peak=70144.5 * 10**6)
        out = io.StringIO()
        line = helper.step_report(120, {"input_ids": FakeTensor(8, 2048), "labels": FakeTensor(8)}, "train", file=out)
        self.assertEqual(line, "[train] rank=3 step=120 shape=(8, 2048) cur=10240.0MB peak=70144.5MB")
        self.assertEqual(out.getvalue(), line + "\n")
        self.assertEqual(helper.shape_of([FakeTensor(4, 16, 3)]), (4, 16, 3))
        self.assertEqual(helper.shape_of(FakeTensor(8)), (8,))
        self.assertIsNone(helper.shape_of("text"))
        self.assertEqual(helper.format_report(1, (8,), 0, 0, "eval", 0), "[eval] rank=0 step=1 shape=(8,) cur=0.0MB peak=0.0MB")

    def test_round_trip_through_rankscope_steps(self):
        binary = os.environ.get("RANKSCOPE_BINARY")
        if not binary:
            self.skipTest("RANKSCOPE_BINARY not set")
        helper, _ = self.load(rank=0)
        # Four ranks; from step 20 rank 2 gets sequences twice as long and its peak climbs.
        lines = []
        for step in range(0, 50, 10):
            for r in range(4):
                long = r == 2 and step >= 20
                seq = 4096 if long else 2048
                peak = (30 + (22 if long else 0)) * 10**9 + r * 10**6
                lines.append(helper.format_report(step, (8, seq), 10 * 10**9, peak, "train", r))
        log = os.path.join(self.dir.name, "train.log")
        with open(log, "w") as f:
            f.write("\n".join(lines) + "\n")
        result = json.loads(subprocess.run([binary, "steps", "--json", log], check=True, capture_output=True).stdout)
        self.assertEqual([r["rank"] for r in result["ranks"]], [0, 1, 2, 3])
        self.assertEqual([r["reports"] for r in result["ranks"]], [5, 5, 5, 5])
        self.assertEqual(result["ranks"][2]["max_peak_bytes"], 52 * 10**9 + 2 * 10**6)
        self.assertEqual(
            {k: result["divergence"][k] for k in ("rank", "step", "tag", "suspect")},
            {"rank": 2, "step": 20, "tag": "train", "suspect": "input_imbalance"},
        )


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
