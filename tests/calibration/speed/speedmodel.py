"""Headroom speed model for llama.cpp: decode at depth and prompt processing (prefill).

Reference implementation of README.md (this folder).  Pure functions of (device figures, model shape, file sizes,
constants C).  SI units throughout: bytes, seconds, FLOP, bytes/s, FLOP/s.
"""
import json

GIB = 1024 ** 3
GB = 1e9

import os
_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')
DEVICES_JSON = os.path.join(_ROOT, 'resources', 'catalog', 'hardware.json')
MODELS_JSON = os.path.join(_ROOT, 'resources', 'catalog', 'models.json')

# --------------------------------------------------------------------------------------------
# device figures
# --------------------------------------------------------------------------------------------

def backend_of(dev):
    fam = dev['family']
    if fam.startswith('nvidia'):
        return 'cuda'
    if fam == 'apple-silicon':
        return 'metal'
    if fam.startswith('amd'):
        return 'rocm'
    if fam == 'intel-arc':
        return 'sycl'
    return 'vulkan'


def load_devices(path=DEVICES_JSON):
    return {x['id']: x for x in json.load(open(path))['hardware']}


def device_figures(dev):
    """The device figures the model needs: bandwidth, FP16 matrix peak as llama.cpp drives it,
    INT8 peak (only for the MMQ path), memory type (HBM or not), backend."""
    be = backend_of(dev)
    # llama.cpp's cuBLAS GEMMs request CUBLAS_COMPUTE_16F (FP16 accumulate): a GeForce card runs at
    # its FP16-accumulate rate.  Apple: the GPU's FP32 (= FP16) vector rate.
    # the catalog's fp16_tflops is already the FP16-accumulate rate on GeForce
    f16 = (dev.get('fp16_tflops') or dev.get('fp16_tensor_tflops_fp16acc')
           or dev.get('fp16_tensor_tflops') or dev.get('gpu_fp32_tflops') or 0.0)
    i8 = dev.get('int8_tops') or dev.get('int8_tensor_tops') or 0.0
    return dict(id=dev['id'], name=dev['name'], backend=be, tdp=(dev.get('tdp_w') or 0.0),
                bw=dev['bandwidth_gbps'] * GB, f16=f16 * 1e12, i8=i8 * 1e12,
                hbm=str(dev.get('memory_type', '')).upper().startswith('HBM'))


# Which constant set each llama.cpp backend uses.  CUDA and Metal have their issue-12 sets; ROCm and
# Vulkan have their own since issue 31 (calibration rows: lhl/strix-halo-testing, 1337hero's RX 7900 XTX
# Vulkan run, llama.cpp PR #26284; split_rows() in fit_speed.py).  SYCL has no calibration row and KEEPS ITS
# PARENT'S constants, CUDA's (the product says so: no range for it).  The C port is the same table
# (src/core/estimate/hr-speed.c, constant_set()).
CONSTANT_SET = {'cuda': 'cuda', 'rocm': 'rocm', 'vulkan': 'vulkan', 'sycl': 'cuda', 'metal': 'metal'}


def ckey(fig):
    return CONSTANT_SET.get(fig['backend'], 'cuda')


# --------------------------------------------------------------------------------------------
# model shapes and file sizes
# --------------------------------------------------------------------------------------------

QUANT_FAMILY = {'F16': 'f16', 'BF16': 'f16', 'F32': 'f16',
                'Q8_0': 'legacy', 'Q4_0': 'legacy', 'Q4_1': 'legacy', 'Q5_0': 'legacy', 'Q5_1': 'legacy'}


def quant_family(q):
    q = q.upper()
    if q in QUANT_FAMILY:
        return QUANT_FAMILY[q]
    if q.startswith('IQ') or q.startswith('TQ'):
        return 'iq'
    return 'kquant'   # Q2_K..Q6_K and their _S/_M/_L recipes


# llama.cpp recipe: token_embd stays at the file type's default type, output.weight goes to Q6_K
# (F16/BF16/Q8_0 files keep their own type).  Bits per weight:
EMBD_BPW = {'F16': 16.0, 'BF16': 16.0, 'Q8_0': 8.5, 'Q4_0': 4.5, 'Q4_1': 5.0, 'Q5_0': 5.5, 'Q5_1': 6.0,
            'Q2_K': 2.625, 'Q3_K_S': 3.4375, 'Q3_K_M': 3.4375, 'Q4_K_S': 4.5, 'Q4_K_M': 4.5,
            'Q5_K_S': 5.5, 'Q5_K_M': 5.5, 'Q6_K': 6.5625}
OUT_BPW = {'F16': 16.0, 'BF16': 16.0, 'Q8_0': 8.5}   # everything else: Q6_K = 6.5625


# MXFP4 (gpt-oss experts): 32 4-bit values and one 8-bit scale per block = 17 bytes / 32 weights
# (ggml-common.h, block_mxfp4)
EXPERT_BPW = {'MXFP4': 4.25}


def shape_from_config(m):
    L, H, nh, nkv = m['layers'], m['hidden'], m['heads'], m['kv_heads']
    dh = m.get('head_dim') or H // nh
    I, V = m['intermediate'], m['vocab']
    attn = H * nh * dh + 2 * H * nkv * dh + nh * dh * H
    E, k = m.get('experts') or 0, m.get('experts_active') or 0
    if E and k < E:
        # MoE: attention + router + k of E routed experts (3 matrices of H x expert_intermediate) active
        Ie = m['expert_intermediate']
        exp_total = L * E * 3 * H * Ie
        per_layer = attn + H * E + k * 3 * H * Ie + (m.get('shared_experts') or 0) * 3 * H * Ie
        moe = dict(E=E, k=k, exp_params=exp_total)
    else:
        per_layer = attn + 3 * H * I
        moe = None
    return dict(L=L, H=H, nh=nh, nkv=nkv, dh=dh, I=I, V=V, params=m['params'], moe=moe,
                p_layers=per_layer * L,                       # matmul weights of the repeating layers
                p_embd=V * H, tied=bool(m.get('tied_embeddings')),
                active=m.get('active_params') or m['params'],
                kv_per_token=2 * L * nkv * dh * 2)            # F16 K+V bytes per token, all layers


MODEL_IDS = {'gpt-oss-20b': 'openai/gpt-oss-20b',
             'llama3-8b': 'meta-llama/Llama-3.1-8B-Instruct',
             'llama3-70b': 'meta-llama/Llama-3.1-70B-Instruct',
             'llama3.2-3b': 'meta-llama/Llama-3.2-3B-Instruct',
             'qwen3-30b-a3b': 'Qwen/Qwen3-30B-A3B'}

# LLaMA-1/2 7B (validation rows only; not in the catalog).  config: 32 x 4096, MHA, FFN 11008, vocab 32000
LLAMA2_7B = dict(layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128, intermediate=11008,
                 vocab=32000, params=6738415616, tied_embeddings=False)


def load_shapes(path=MODELS_JSON):
    by_id = {m['id']: m for m in json.load(open(path))['models']}
    out = {k: shape_from_config(by_id[mid]) for k, mid in MODEL_IDS.items()}
    out['llama2-7b'] = shape_from_config(LLAMA2_7B)
    return out


def weights(shape, quant, file_bytes):
    """(bytes of repeating layers, output head, token embedding).  The token embedding is only
    indexed (one row per token), never streamed.  MoE: 'expert_share' = the routed experts' share
    of the layers' bytes (the C side has it from the GGUF's tensor table)."""
    o = shape['p_embd'] * OUT_BPW.get(quant.upper(), 6.5625) / 8
    if shape['tied']:
        # tied: the one embedding matrix (quantized by the output rule) is also the output head, and the
        # output matmul streams it every token
        w = dict(layers=file_bytes - o, out=o, embd=0.0, file=file_bytes)
    else:
        e = shape['p_embd'] * EMBD_BPW.get(quant.upper(), 4.5) / 8
        w = dict(layers=file_bytes - e - o, out=o, embd=e, file=file_bytes)
    w['expert_share'] = 0.0
    if shape.get('moe'):
        bpw = EXPERT_BPW.get(quant.upper(), 8.0 * w['layers'] / shape['p_layers'])
        w['expert_share'] = min(1.0, shape['moe']['exp_params'] * bpw / 8 / w['layers'])
    return w


def routed_layer_params(shape):
    """A layer's active routed-expert weights (0: dense), from total and active parameters: the
    routed experts are (total - active) / (1 - k/E) of the total, k/E of them active.  Same formula
    as C (hr-speed.c routed_layer_params)."""
    m = shape.get('moe')
    if not m:
        return 0.0
    rho = m['k'] / m['E']
    return (shape['params'] - shape['active']) / (1 - rho) * rho / shape['L']


# --------------------------------------------------------------------------------------------
# decode
# --------------------------------------------------------------------------------------------

def eta_w(C, k):
    """Share of the bandwidth the batch-1 kernels stream weights at.  ROCm and Vulkan have no constant of
    their own: their rows cannot tell a bandwidth share from a per-layer cost (a free fit put ROCm's above
    1), so they take CUDA's, a prior, and their per-layer cost c_layer is fitted."""
    return C['eta_w_' + k] if 'eta_w_' + k in C else C['eta_w_cuda']


def eta_fa(C, k):
    """Share of the bandwidth flash attention's decode kernel reads the cache at.  Fitted for ROCm and
    Vulkan (their FA rows at depth); CUDA and Metal have no FA decode row at depth in the calibration and
    keep the derived value of README §7: the weights' streaming share eta_w."""
    return C['eta_fa_' + k] if 'eta_fa_' + k in C else eta_w(C, k)


def eta_fa_mm(C, k):
    """Share of the matrix peak flash attention's decode kernel reaches on the attention FLOPs, or None.
    Fitted for ROCm and Vulkan (their FA decode rows at depth, MHA and GQA); CUDA and Metal have no FA
    decode row at depth in the calibration and keep README §7's derived form, the cache bytes alone."""
    return C.get('eta_fa_mm_' + k)


def eta_fa_pp(C, k):
    """Share of the matrix peak flash attention's prompt kernels reach on the attention FLOPs (a kernel
    of its own: on Vulkan the prompt FA uses cooperative matrices, the decode one does not).  Fitted for
    ROCm and Vulkan on their FA prompt rows at depth; CUDA and Metal keep eta_mm (README §7)."""
    return C['eta_fa_pp_' + k] if 'eta_fa_pp_' + k in C else C['eta_mm_' + k]


def decode_bw(fig, C):
    """Bandwidth the batch-1 kernels can use.  HBM parts: harmonic cap B_cap (latency x concurrency
    limit of llama.cpp's mat-vec kernels; fitted on A100/H100 PCIe)."""
    bw = fig['bw']
    if fig['hbm'] and fig['backend'] != 'metal':
        bw = 1.0 / (1.0 / bw + 1.0 / C['hbm_cap'])
    return bw


def weight_stream_time(fig, shape, wbytes, nweights, quant, C):
    """Time to stream `wbytes` of weights (nweights weights) through the batch-1 mat-vec kernels."""
    k = ckey(fig)
    t = wbytes / (eta_w(C, k) * decode_bw(fig, C))
    if k == 'metal':
        fam = quant_family(quant)
        ops = {'f16': 2.0, 'legacy': 0.5 * C['alu_ops_kq_metal']}.get(fam, C['alu_ops_kq_metal'])
        t = max(t, nweights * ops / fig['f16'])       # roofline: memory vs ALU unpacking
    return t


def attention_decode_time(fig, shape, depth, C, n_layers=None, fa=False):
    """Reading the cache for one token at `depth` (README §2, issue 31).  Both paths read K and V once per
    KV head (GQA-aware): on the 2025 ROCm and Vulkan rows a GQA model (Qwen3-30B-A3B, 4 KV heads for 32
    query heads) pays about 1/6 of what an MHA model with the same query heads (Llama 2 7B) pays per cached
    token, where reading per query head would make them equal.  Without FA the reads run at eta_att of
    the bandwidth.  With FA, reading runs at eta_fa of the bandwidth, plus the kernel's FLOPs (Q.K and
    P.V, 4 d_h per query head) at eta_fa_mm of the matrix peak: FA's decode cost per cached token is
    neither the bytes alone (MHA and GQA differ by 2x, not 8x) nor the FLOPs alone."""
    L = shape['L'] if n_layers is None else n_layers
    k = ckey(fig)
    kv = 2 * shape['nkv'] * shape['dh'] * 2            # F16 K and V of one layer, one cached token
    if fa:
        flops = eta_fa_mm(C, k)
        return depth * L * (kv / (eta_fa(C, k) * decode_bw(fig, C)) +
                            (4 * shape['nh'] * shape['dh'] / (flops * gemm_peak(fig, C)) if flops else 0.0))
    return depth * L * kv / (C['eta_att_' + k] * decode_bw(fig, C))


def decode_token_time(figs, shape, w, quant, depth, C, layer_split=None, fa=False):
    """Seconds for one token with `depth` tokens already cached.  figs: list of GPUs (layer split,
    sequential for one token); layer_split: layers per GPU (default: even; output head on the last)."""
    n = len(figs)
    if layer_split is None:
        base = shape['L'] // n
        layer_split = [base + (1 if i < shape['L'] - base * n else 0) for i in range(n)]
    t = 0.0
    # MoE: a token streams the layers' shared part and k of the E routed experts (README §6)
    moe = shape.get('moe')
    active = (1 - w['expert_share'] + w['expert_share'] * moe['k'] / moe['E']) if moe else 1.0
    per_layer_bytes = w['layers'] * active / shape['L']
    per_layer_w = shape['p_layers'] / shape['L']
    out_w = shape['p_embd']                       # output head (the embedding matrix itself if tied)
    for g, (fig, Lg) in enumerate(zip(figs, layer_split)):
        k = ckey(fig)
        wb = Lg * per_layer_bytes + (w['out'] if g == n - 1 else 0.0)
        nw = Lg * per_layer_w + (out_w if g == n - 1 else 0)
        t += weight_stream_time(fig, shape, wb, nw, quant, C)
        t += Lg * C['c_layer_' + k]
        t += attention_decode_time(fig, shape, depth, C, Lg, fa)
    t += (n - 1) * C['t_hop']
    return t


def tg_rate(figs, shape, w, quant, n_gen, C, fa=False):
    """llama-bench tg N: N tokens from an empty cache; per-token time is linear in depth, so the
    average equals the time at the mean depth (N-1)/2."""
    return 1.0 / decode_token_time(figs, shape, w, quant, (n_gen - 1) / 2.0, C, fa=fa)


def generation_seconds(figs, shape, w, quant, prompt, gen, C, fa=False):
    """Sum of per-token times for tokens at depths prompt .. prompt+gen-1 (exact, linear in depth)."""
    if gen <= 0:
        return 0.0
    return gen * decode_token_time(figs, shape, w, quant, prompt + (gen - 1) / 2.0, C, fa=fa)


# --------------------------------------------------------------------------------------------
# prompt processing
# --------------------------------------------------------------------------------------------

def gemm_peak(fig, C):
    """Usable matrix peak: the datasheet peak, limited by board power (sustained tensor work draws more
    than the board limit at boost clock): harmonic combination with eps_power x TDP."""
    F = fig['f16']
    mode = C.get('_power_mode', 'harmonic')
    if fig['tdp'] and C.get('eps_power') and mode != 'off':
        cap = C['eps_power'] * fig['tdp']
        F = min(F, cap / C['eta_mm_' + ckey(fig)]) if mode == 'min' else 1.0 / (1.0 / F + 1.0 / cap)
    return F


def ubatch_time(fig, shape, w, quant, p0, n, C, layer_frac=1.0, fa=False, path='cublas'):
    """One micro-batch of n prompt tokens at positions p0..p0+n-1 on one GPU holding layer_frac of
    the layers.  path: 'cublas' = llama.cpp <= b3200 (May 2024) quantized GEMM = dequantize to F16 +
    cuBLAS; 'mmq' = current llama.cpp (int8 MMQ, modelled at the FP16-accumulate rate, no dequant pass)."""
    k = ckey(fig)
    fam = quant_family(quant)
    L = shape['L'] * layer_frac
    P = shape['p_layers'] * layer_frac
    Wq = w['layers'] * layer_frac
    eta = C['eta_mm_' + k]
    if k == 'metal' and fam != 'f16':
        eta *= C['phi_kq_metal'] if fam in ('kquant', 'iq') else 0.5 * (1 + C['phi_kq_metal'])
    # MoE (README §13): the routed experts are split off the dense products.  Per micro-batch each
    # MoE layer reads the experts any of its n tokens routes to, E(1-(1-k/E)^n) of E, once, and the
    # grouped expert products (llama.cpp's mul_mat_id: MMQ per expert, no F16 expansion) run at
    # their own share of the backend's GEMM share, eta_moe x m/(m + m_half) for m = n k / (E touched) tokens
    # per touched expert (a tile of an expert's GEMM is only as full as the tokens routed to it).
    t_exp = 0.0
    if shape.get('moe') and not C.get('_moe_dense'):
        routed, sb = min(P, routed_layer_params(shape) * L), w['expert_share']
        rho = shape['moe']['k'] / shape['moe']['E']
        touched = 1.0 - (1.0 - rho) ** n
        m = n * rho / touched           # tokens each touched expert multiplies, on average
        t_exp = max(2.0 * routed * n * (1 + C['moe_m_half'] / m) /
                    (C['eta_moe'] * C['eta_mm_' + k] * gemm_peak(fig, C)),
                    touched * sb * Wq / (eta_w(C, k) * fig['bw']))
        P, Wq = P - routed, (1 - sb) * Wq
    # linear layers: compute roofline vs reading the weights once per micro-batch
    t_flop = 2.0 * P * n / (eta * gemm_peak(fig, C))
    read = (2.0 * P if (k == 'cuda' and path == 'cublas') or fam == 'f16' else Wq)
    t_read = read / (eta_w(C, k) * fig['bw'])
    t_mm = max(t_flop, t_read)
    # May-2024 CUDA: each quantized matrix is first expanded to F16 in a scratch buffer
    t_deq = (Wq + 2.0 * P) / fig['bw'] if (k == 'cuda' and fam != 'f16' and path == 'cublas') else 0.0
    # attention over the whole cached window (non-FA computes the full n x (p0+n) score block)
    units = L * shape['nh'] * n * (p0 + n)
    t_att = units * 4 * shape['dh'] / ((eta_fa_pp(C, k) if fa else C['eta_mm_' + k]) * gemm_peak(fig, C))
    if not fa:
        t_att += units * C['beta_' + k] / fig['bw']
    return t_mm + t_deq + t_att + t_exp


def prefill_seconds(figs, shape, w, quant, N, C, n_batch=2048, n_ubatch=512, fa=False, path='cublas',
                    p_start=0):
    """Seconds to process an N-token prompt (after p_start cached tokens): llama_decode calls of
    n_batch tokens, each split in micro-batches of n_ubatch; with several GPUs (layer split) the
    micro-batches of one call are pipelined (up to 4 in flight) with overlap efficiency rho_pipe."""
    S = len(figs)
    total, pos = 0.0, 0
    while pos < N:
        chunk = min(n_batch, N - pos)
        ubs, q = [], 0
        while q < chunk:
            nu = min(n_ubatch, chunk - q)
            ubs.append((p_start + pos + q, nu))
            q += nu
        if S == 1:
            total += sum(ubatch_time(figs[0], shape, w, quant, p, nu, C, 1.0, fa, path) for p, nu in ubs)
        else:
            stage = [[ubatch_time(figs[g], shape, w, quant, p, nu, C, 1.0 / S, fa, path)
                      + ((C['t_hop'] + nu * shape['H'] * 4 / C['link_bw']) if g < S - 1 else 0.0)
                      for g in range(S)] for p, nu in ubs]
            serial = sum(sum(s) for s in stage)
            fin = [0.0] * S                     # pipeline: stage g takes ubatch u after g-1 did
            for s in stage:
                prev = 0.0
                for g in range(S):
                    fin[g] = max(prev, fin[g]) + s[g]
                    prev = fin[g]
            total += C['rho_pipe'] * fin[-1] + (1 - C['rho_pipe']) * serial
        pos += chunk
    return total


def pp_rate(figs, shape, w, quant, N, C, **kw):
    return N / prefill_seconds(figs, shape, w, quant, N, C, **kw)


def ttft_seconds(figs, shape, w, quant, P, C, **kw):
    """Time to first token: the prompt, then one decode step at depth P."""
    fa = kw.get('fa', False)
    return prefill_seconds(figs, shape, w, quant, P, C, **kw) + decode_token_time(figs, shape, w, quant, P, C, fa=fa)


# --------------------------------------------------------------------------------------------
# partial offload (documented in README.md §6; no calibration rows -- not fitted)
# --------------------------------------------------------------------------------------------

def decode_partial_offload(fig, shape, w, quant, depth, C, gpu_layers, ram_bw, fa=False):
    """CPU-held layers are read from RAM at RAM_EFF x RAM bandwidth for batch-1 decode."""
    cpu_layers = shape['L'] - gpu_layers
    per_layer = w['layers'] / shape['L']
    t_cpu = cpu_layers * (per_layer + depth * shape['kv_per_token'] / shape['L']) / (C['ram_eff'] * ram_bw)
    gpu_w = dict(w, layers=per_layer * gpu_layers)
    gshape = dict(shape, L=gpu_layers, p_layers=shape['p_layers'] * gpu_layers / shape['L'])
    t_gpu = decode_token_time([fig], gshape, gpu_w, quant, depth, C, fa=fa) if gpu_layers else 0.0
    return t_gpu + t_cpu + (C['t_hop'] if 0 < gpu_layers < shape['L'] else 0.0)


def ubatch_partial_offload(fig, shape, w, quant, p0, n, C, gpu_layers, pcie_bw, ram_bw, fa=False, path='mmq'):
    """Prompt micro-batch with CPU-held layers.  n >= 32 (op-offload threshold): every CPU-held matrix
    is copied to GPU0 over PCIe and multiplied there; the copy and the GPU work do not overlap.
    n < 32: the CPU computes its layers (bandwidth-bound)."""
    cpu_frac = 1.0 - gpu_layers / shape['L']
    t_gpu_all = ubatch_time(fig, shape, w, quant, p0, n, C, 1.0, fa, path)
    if n >= 32:
        return t_gpu_all + cpu_frac * w['layers'] / pcie_bw
    t_gpu = ubatch_time(fig, shape, w, quant, p0, n, C, 1.0 - cpu_frac, fa, path)
    return t_gpu + cpu_frac * w['layers'] / (C['ram_eff'] * ram_bw)


# --------------------------------------------------------------------------------------------
# routed experts in system RAM (--n-cpu-moe N / -ot exps=CPU; README §13; derived, no fitted rows)
# --------------------------------------------------------------------------------------------

def cpu_expert_parts(shape, w, n_cpu_moe):
    """(bytes of the routed experts the CPU holds, their active matrix weights per token)."""
    f = n_cpu_moe / shape['L']
    return f * w['expert_share'] * w['layers'], n_cpu_moe * routed_layer_params(shape)


def decode_cpu_experts_time(shape, w, n_cpu_moe, C, ram_bw, cpu_flops):
    """Added to a token: the CPU computes the active experts of its layers, reading their bytes from
    RAM or multiplying, whichever is slower, and each such layer hands its activations to the CPU and
    back: two more splits of llama.cpp's graph (ggml-backend.c, ggml_backend_sched_split_graph),
    each costing a GPU boundary t_hop."""
    if n_cpu_moe <= 0 or not shape.get('moe'):
        return 0.0
    rho = shape['moe']['k'] / shape['moe']['E']
    b, p = cpu_expert_parts(shape, w, n_cpu_moe)
    return max(rho * b / (C['ram_eff'] * ram_bw), 2.0 * p / cpu_flops) + 2.0 * n_cpu_moe * C['t_hop']


def ubatch_cpu_experts_time(fig, shape, w, quant, p0, n, C, n_cpu_moe, pcie_bw, ram_bw, cpu_flops,
                            fa=False, path='mmq'):
    """A prompt micro-batch with the experts of n_cpu_moe layers in RAM.  n >= 32 (llama.cpp's
    op-offload threshold, ggml-cuda.cu ggml_backend_cuda_device_offload_op): the CPU-held expert
    weights are copied to the GPU (mmap'd: at mmap_share of the pinned link) and multiplied there, so
    the GPU does the whole model's products.  n < 32: the CPU computes its experts."""
    b, p = cpu_expert_parts(shape, w, n_cpu_moe)
    if n >= C['op_offload_min']:
        return ubatch_time(fig, shape, w, quant, p0, n, C, 1.0, fa, path) + b / (C['mmap_share'] * pcie_bw)
    rho = shape['moe']['k'] / shape['moe']['E']
    touched = 1.0 - (1.0 - rho) ** n
    # the GPU's part: its bytes and weights without the CPU's experts (the expert share of what is
    # left is taken as the model's, as C does: a rare path, the last micro-batch of a prompt)
    gpu_w = dict(w, layers=w['layers'] - b)
    gpu_shape = dict(shape, p_layers=shape['p_layers'] - p)
    t_cpu = max(touched * b / (C['ram_eff'] * ram_bw), 2.0 * p * n / cpu_flops)
    return ubatch_time(fig, gpu_shape, gpu_w, quant, p0, n, C, 1.0, fa, path) + t_cpu
