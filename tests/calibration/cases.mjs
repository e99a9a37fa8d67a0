// SPDX-License-Identifier: GPL-3.0-or-later
//
// cases.mjs — the calibration grid: model shapes and context settings.
//
// Shapes are real models' (Llama-3-8B, Qwen2.5-7B, Llama-3-70B, Gemma-2-2B,
// Gemma-3-4B) with fewer layers where only per-layer structure matters:
// llama.cpp's compute graph reuses one layer's memory for the next, so the
// compute buffer does not grow with n_layer (the "layers" cases check that),
// while the KV cache is exactly linear in it.

export const shapes = {
    // Llama-3-8B: GQA 32/8, head 128, vocab 128256
    l8: {arch: "llama", vocab: 128256, embd: 4096, ff: 14336, layers: 2, heads: 32, kv_heads: 8, head_dim: 128},
    l8x32: {arch: "llama", vocab: 128256, embd: 4096, ff: 14336, layers: 32, heads: 32, kv_heads: 8, head_dim: 128},
    // Qwen2.5-7B shape (as a llama graph): GQA 28/4, vocab 152064
    q7: {arch: "llama", vocab: 152064, embd: 3584, ff: 18944, layers: 2, heads: 28, kv_heads: 4, head_dim: 128},
    // Llama-3-70B: GQA 64/8, width 8192
    l70: {arch: "llama", vocab: 128256, embd: 8192, ff: 28672, layers: 2, heads: 64, kv_heads: 8, head_dim: 128},
    // small model, varied vocabulary
    s32k: {arch: "llama", vocab: 32000, embd: 1024, ff: 2816, layers: 2, heads: 16, kv_heads: 4, head_dim: 64},
    s3k: {arch: "llama", vocab: 3000, embd: 1024, ff: 2816, layers: 2, heads: 16, kv_heads: 4, head_dim: 64},
    s256k: {arch: "llama", vocab: 256000, embd: 1024, ff: 2816, layers: 2, heads: 16, kv_heads: 4, head_dim: 64},
    // MHA (Llama-2-7B-like heads), 4 layers
    mha: {arch: "llama", vocab: 32000, embd: 2048, ff: 5504, layers: 4, heads: 16, kv_heads: 16, head_dim: 128},
    // head size 256, few heads
    hd256: {arch: "llama", vocab: 32000, embd: 2048, ff: 8192, layers: 2, heads: 8, kv_heads: 4, head_dim: 256},
    // many heads, small head size (head 64), MQA-ish
    h64: {arch: "llama", vocab: 49152, embd: 4096, ff: 11008, layers: 2, heads: 64, kv_heads: 2, head_dim: 64},
    // Qwen3-4B: query width (32 x 128) larger than the hidden size (2560)
    qw3: {arch: "llama", vocab: 151936, embd: 2560, ff: 9728, layers: 2, heads: 32, kv_heads: 8, head_dim: 128},
    // tiny vocabularies, so that the attention and FFN phases of the
    // compute graph show instead of the logits
    t8: {arch: "llama", vocab: 3000, embd: 4096, ff: 14336, layers: 2, heads: 32, kv_heads: 8, head_dim: 128},
    tq: {arch: "llama", vocab: 3000, embd: 2560, ff: 9728, layers: 2, heads: 32, kv_heads: 8, head_dim: 128},
    tff: {arch: "llama", vocab: 3000, embd: 1024, ff: 8192, layers: 2, heads: 16, kv_heads: 4, head_dim: 64},
    t70: {arch: "llama", vocab: 3000, embd: 8192, ff: 28672, layers: 2, heads: 64, kv_heads: 8, head_dim: 128},
    tmq: {arch: "llama", vocab: 3000, embd: 2048, ff: 5632, layers: 2, heads: 16, kv_heads: 1, head_dim: 128},
    tg3: {arch: "gemma3", vocab: 3000, embd: 2560, ff: 10240, layers: 6, heads: 8, kv_heads: 4, head_dim: 256, swa: 1024, swa_pattern: 6},
    tg2: {arch: "gemma2", vocab: 3000, embd: 2304, ff: 9216, layers: 4, heads: 8, kv_heads: 4, head_dim: 256, swa: 4096, swa_pattern: 2},
    // Gemma-2-2B: window 4096 on every other layer, soft-capping
    g2: {arch: "gemma2", vocab: 256000, embd: 2304, ff: 9216, layers: 4, heads: 8, kv_heads: 4, head_dim: 256, swa: 4096, swa_pattern: 2},
    // Gemma-3-4B: window 1024, 5 local : 1 global
    g3: {arch: "gemma3", vocab: 262144, embd: 2560, ff: 10240, layers: 6, heads: 8, kv_heads: 4, head_dim: 256, swa: 1024, swa_pattern: 6},
    // Gemma-3 with a small window and 12 layers (two global)
    g3w: {arch: "gemma3", vocab: 32000, embd: 1024, ff: 4096, layers: 12, heads: 4, kv_heads: 1, head_dim: 256, swa: 512, swa_pattern: 6}
};

function ctx(contextSize, batchSize, flashAttention, extra = {}) {
    return {contextSize, batchSize, flashAttention, ...extra};
}

const fas = [false, true];
export const cases = [];

function add(shape, options) {
    const o = options;
    const kv = o.experimentalKvCacheKeyType
        ? `-k${o.experimentalKvCacheKeyType}-v${o.experimentalKvCacheValueType ?? "F16"}`
        : "";
    const seq = o.sequences ? `-s${o.sequences}` : "";
    cases.push({
        id: `${shape}-c${o.contextSize}-u${o.batchSize}-fa${o.flashAttention ? 1 : 0}${kv}${seq}`,
        shape,
        options: o
    });
}

// context sweep, both attention paths
for (const fa of fas)
    for (const c of [512, 1000, 2048, 4096, 8192, 16384, 32768])
        add("l8", ctx(c, 512, fa));
// micro-batch sweep
for (const fa of fas)
    for (const u of [128, 256, 1024, 2048])
        add("l8", ctx(8192, u, fa));
add("l8", ctx(16384, 2048, false));
add("l8", ctx(32768, 1024, true));
// KV types (a quantized V cache needs flash attention)
for (const [k, v] of [["Q8_0", "Q8_0"], ["Q4_0", "Q4_0"], ["Q8_0", "F16"], ["F16", "Q8_0"], ["Q4_0", "Q8_0"]])
    add("l8", ctx(8192, 512, true, {experimentalKvCacheKeyType: k, experimentalKvCacheValueType: v}));
add("l8", ctx(8192, 512, false, {experimentalKvCacheKeyType: "Q8_0", experimentalKvCacheValueType: "F16"}));
add("l8", ctx(32768, 512, true, {experimentalKvCacheKeyType: "Q4_0", experimentalKvCacheValueType: "Q4_0"}));
// parallel sequences (llama.cpp: n_ctx = per-sequence context x sequences)
for (const fa of fas)
    for (const s of [2, 4])
        add("l8", ctx(4096, 512, fa, {sequences: s}));
// all 32 layers: KV linear in layers, compute unchanged
for (const fa of fas)
    for (const c of [4096, 32768])
        add("l8x32", ctx(c, 512, fa));

// other shapes: a smaller grid
for (const shape of ["q7", "l70", "s32k", "s3k", "s256k", "mha", "hd256", "h64"])
    for (const fa of fas) {
        add(shape, ctx(2048, 512, fa));
        add(shape, ctx(16384, 512, fa));
        add(shape, ctx(8192, 2048, fa));
        add(shape, ctx(8192, 128, fa));
    }

// the shapes that separate the terms of the compute buffer
for (const shape of ["qw3", "t8", "tq", "tff", "t70", "tmq", "tg3", "tg2"])
    for (const fa of fas) {
        for (const c of [1024, 8192, 32768])
            add(shape, ctx(c, 512, fa));
        add(shape, ctx(8192, 2048, fa));
    }
for (const shape of ["t8", "tg3"]) {
    add(shape, ctx(8192, 512, true, {experimentalKvCacheKeyType: "Q8_0", experimentalKvCacheValueType: "Q8_0"}));
    add(shape, ctx(8192, 512, false, {sequences: 4}));
}

// sliding window models
for (const shape of ["g2", "g3", "g3w"])
    for (const fa of fas) {
        for (const c of [2048, 8192, 32768])
            add(shape, ctx(c, 512, fa));
        add(shape, ctx(16384, 2048, fa));
        add(shape, ctx(8192, 512, fa, {sequences: 2}));
    }
add("g3", ctx(16384, 512, true, {experimentalKvCacheKeyType: "Q8_0", experimentalKvCacheValueType: "Q8_0"}));
add("g3", ctx(16384, 512, false, {swaFullCache: true}));

// padding: a context that is not a multiple of 256, split over 3 sequences;
// a micro-batch larger than the context (llama.cpp reserves min(n_ctx, n_ubatch))
add("l8", ctx(3000, 512, false, {sequences: 3}));
add("l8", ctx(3000, 512, true, {sequences: 3}));
add("s32k", ctx(256, 1024, false));
add("s32k", ctx(256, 1024, true));
