#!/usr/bin/env python3
# run-bench-gguf.py BUILDDIR [RUNS] [HF_GGUF_DIR] — `headroom-cli inspect`
# of a 6.16 GB GLM-4-9B-0414 Q4_K_M file (sparse: written by bench-gguf
# --write) against @huggingface/gguf's gguf() reading the same local file,
# side by side (issue 28 item 12: inspect under 25 ms, ≥ 40× faster).
# Measure on a quiet machine: under load, the short CLI process suffers
# scheduling delays out of proportion and the ratio means little.
#
# HF_GGUF_DIR is a folder where `npm install @huggingface/gguf` was run
# (outside the repository; not needed by the build or the tests).  Without
# it only the CLI is timed.  The two run in turn (cli, node, cli, …) so a
# machine slowing down moves both alike.  Reported: the median wall time of
# whole processes, and for node also the median of gguf() alone, timed
# inside the process after one warm-up call.
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1] if len(sys.argv) > 1 else "_build"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
hf_dir = sys.argv[3] if len(sys.argv) > 3 else None

NODE_SCRIPT = r"""
const { gguf } = await import(process.argv[2]);
const path = process.argv[3];
const t0 = performance.now();
const r = await gguf(path, { allowLocalFile: true });
const t1 = performance.now();
await gguf(path, { allowLocalFile: true });
const t2 = performance.now();
console.log(JSON.stringify({ first: t1 - t0, warm: t2 - t1, tensors: r.tensorInfos.length }));
"""

tmp = tempfile.mkdtemp(prefix="bench-gguf-")
try:
    path = os.path.join(tmp, "THUDM_GLM-4-9B-0414-Q4_K_M.gguf")
    subprocess.run([os.path.join(build, "tests/bench/bench-gguf"), "--write", path], check=True)
    cli = os.path.join(build, "src/cli/headroom-cli")
    env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_CACHE_HOME=tmp)
    node_js = None
    if hf_dir:
        node_js = os.path.join(tmp, "hf.mjs")
        with open(node_js, "w") as f:
            f.write(NODE_SCRIPT)
        module = os.path.join(os.path.abspath(hf_dir), "node_modules/@huggingface/gguf/dist/index.mjs")

    cli_times, node_times, node_first, node_warm = [], [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([cli, "inspect", path], check=True, env=env, stdout=subprocess.DEVNULL)
        cli_times.append(time.perf_counter() - t)
        if node_js:
            t = time.perf_counter()
            out = subprocess.run(["node", node_js, module, path], check=True, env=env,
                                 capture_output=True, text=True).stdout
            node_times.append(time.perf_counter() - t)
            r = json.loads(out)
            node_first.append(r["first"] / 1e3)
            node_warm.append(r["warm"] / 1e3)

    def show(what, v):
        print("%-44s median %8.1f ms   min %8.1f ms   (n = %d)"
              % (what, statistics.median(v) * 1e3, min(v) * 1e3, len(v)))

    show("headroom-cli inspect (process)", cli_times)
    if node_js:
        show("node + @huggingface/gguf gguf() (process)", node_times)
        show("@huggingface/gguf gguf(), first call", node_first)
        show("@huggingface/gguf gguf(), second call", node_warm)
        print("ratio, processes: %.1f×; gguf() first call / inspect process: %.1f×"
              % (statistics.median(node_times) / statistics.median(cli_times),
                 statistics.median(node_first) / statistics.median(cli_times)))
finally:
    shutil.rmtree(tmp)
