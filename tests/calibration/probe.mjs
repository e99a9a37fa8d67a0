// SPDX-License-Identifier: GPL-3.0-or-later
//
// probe.mjs — loads one GGUF on the CPU with node-llama-cpp's prebuilt
// llama.cpp, creates one context, and prints what llama.cpp logged about
// its buffers as one JSON object on stdout.
//
// usage: node probe.mjs MODEL.gguf '{"contextSize":4096,"batchSize":512,...}'
//
// Each case runs in its own process (run-calibration.mjs spawns us) so
// that log lines of two contexts never mix and memory is returned.

import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const [modelPath, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson ?? "{}");
let log = "";

const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.debug,
    logger: (_level, message) => {
        log += message;
    }
});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
let error = null;

try {
    const context = await model.createContext({
        ignoreMemorySafetyChecks: true,
        failedCreationRemedy: false,
        ...options
    });
    await context.dispose();
} catch (e) {
    error = String(e?.message ?? e);
}
await model.dispose();

// llama.cpp's messages arrive in pieces; match on the concatenation.
const MIB = 1024 * 1024;
const all = (re) => [...log.matchAll(re)];
const one = (re) => {
    const m = log.match(re);
    return m ? Number(m[1]) : null;
};
const mib = (re) => all(re).reduce((sum, m) => sum + Number(m[1]) * MIB, 0);

const result = {
    error,
    n_ctx: one(/llama_context: n_ctx\s+= (\d+)/),
    n_ctx_seq: one(/llama_context: n_ctx_seq\s+= (\d+)/),
    n_batch: one(/llama_context: n_batch\s+= (\d+)/),
    n_ubatch: one(/llama_context: n_ubatch\s+= (\d+)/),
    n_seq_max: one(/llama_context: n_seq_max\s+= (\d+)/),
    flash_attn: (log.match(/llama_context: flash_attn\s+= (enabled|disabled|auto)/) ?? [])[1] ?? null,
    model_bytes: mib(/model buffer size =\s+([\d.]+) MiB/g),
    output_bytes: mib(/output buffer size =\s+([\d.]+) MiB/g),
    kv_bytes: mib(/KV buffer size =\s+([\d.]+) MiB/g),
    // "size = X MiB ( N cells, L layers, ...)": one per cache (two with SWA)
    kv_caches: all(/llama_kv_cache: size =\s+([\d.]+) MiB \(\s*(\d+) cells,\s+(\d+) layers.*?K \((\w+)\).*?V \((\w+)\)/g)
        .map((m) => ({mib: Number(m[1]), cells: Number(m[2]), layers: Number(m[3]), type_k: m[4], type_v: m[5]})),
    // the constructor's line has 2 decimals, the destructor's 4: prefer it
    compute_bytes: (() => {
        const fine = all(/compute buffer size is\s+([\d.]+) MiB/g);
        if (fine.length > 0)
            return fine.reduce((s, m) => s + Number(m[1]) * MIB, 0);
        return mib(/compute buffer size =\s+([\d.]+) MiB/g);
    })()
};

if (process.env.PROBE_LOG)
    result.log = log;

process.stdout.write(JSON.stringify(result) + "\n");
