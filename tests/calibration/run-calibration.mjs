// SPDX-License-Identifier: GPL-3.0-or-later
//
// run-calibration.mjs — runs every case of cases.mjs through probe.mjs and
// writes results/llamacpp-cpu.csv (one row per case, bytes as llama.cpp
// logged them).  See README.md.
//
// usage: node run-calibration.mjs [FILTER]   (FILTER: substring of case ids)

import {execFileSync, spawnSync} from "node:child_process";
import {existsSync, mkdirSync, writeFileSync} from "node:fs";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {cases, shapes} from "./cases.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const makeGguf = process.env.MAKE_GGUF ?? path.join(here, "make-gguf");
const modelsDir = process.env.CAL_MODELS_DIR ?? path.join(here, "models");
const resultsDir = path.join(here, "results");
const filter = process.argv[2] ?? "";

mkdirSync(modelsDir, {recursive: true});
mkdirSync(resultsDir, {recursive: true});

function modelFile(name) {
    const file = path.join(modelsDir, `${name}.gguf`);
    if (!existsSync(file)) {
        const args = Object.entries(shapes[name]).map(([k, v]) => `${k}=${v}`);
        execFileSync(makeGguf, [file, ...args], {stdio: "inherit"});
    }
    return file;
}

const columns = [
    "id", "arch", "vocab", "embd", "ff", "layers", "heads", "kv_heads", "head_dim", "swa", "swa_pattern",
    "req_ctx", "req_batch", "req_fa", "req_type_k", "req_type_v", "req_seqs", "req_swa_full",
    "n_ctx", "n_ctx_seq", "n_batch", "n_ubatch", "n_seq_max", "flash_attn", "type_k", "type_v",
    "kv_cells", "kv_layers", "kv_bytes", "compute_bytes", "output_bytes", "model_bytes", "error"
];
const rows = [];

for (const c of cases) {
    if (!c.id.includes(filter))
        continue;

    const s = shapes[c.shape];
    const o = c.options;
    const probe = spawnSync(process.execPath, [path.join(here, "probe.mjs"), modelFile(c.shape), JSON.stringify(o)], {
        cwd: here, encoding: "utf8", maxBuffer: 1 << 28
    });
    let r;
    try {
        r = JSON.parse(probe.stdout.trim().split("\n").pop());
    } catch {
        r = {error: `probe failed: ${probe.stderr.slice(-300)}`, kv_caches: []};
    }

    const caches = r.kv_caches ?? [];
    const row = {
        id: c.id, arch: s.arch, vocab: s.vocab, embd: s.embd, ff: s.ff, layers: s.layers, heads: s.heads,
        kv_heads: s.kv_heads, head_dim: s.head_dim, swa: s.swa ?? 0, swa_pattern: s.swa_pattern ?? 0,
        req_ctx: o.contextSize, req_batch: o.batchSize, req_fa: o.flashAttention ? 1 : 0,
        req_type_k: o.experimentalKvCacheKeyType ?? "F16", req_type_v: o.experimentalKvCacheValueType ?? "F16",
        req_seqs: o.sequences ?? 1, req_swa_full: o.swaFullCache ? 1 : 0,
        n_ctx: r.n_ctx, n_ctx_seq: r.n_ctx_seq, n_batch: r.n_batch, n_ubatch: r.n_ubatch, n_seq_max: r.n_seq_max,
        flash_attn: r.flash_attn,
        type_k: caches[0]?.type_k ?? "", type_v: caches[0]?.type_v ?? "",
        // with a sliding window there are two caches: "global+local"
        kv_cells: caches.map((k) => k.cells).join("+"),
        kv_layers: caches.map((k) => k.layers).join("+"),
        kv_bytes: Math.round(r.kv_bytes ?? 0),
        compute_bytes: Math.round(r.compute_bytes ?? 0),
        output_bytes: Math.round(r.output_bytes ?? 0),
        model_bytes: Math.round(r.model_bytes ?? 0),
        error: r.error ?? ""
    };
    rows.push(row);
    console.log(columns.slice(18).map((k) => `${k}=${row[k]}`).join(" "), c.id);
}

const csv = [columns.join(",")]
    .concat(rows.map((row) => columns.map((k) => {
        const v = String(row[k] ?? "");
        return /[",\n]/.test(v) ? `"${v.replaceAll("\"", "\"\"")}"` : v;
    }).join(",")))
    .join("\n") + "\n";
const out = path.join(resultsDir, filter ? `llamacpp-cpu-${filter}.csv` : "llamacpp-cpu.csv");
writeFileSync(out, csv);
console.log(`wrote ${rows.length} rows to ${out}`);
