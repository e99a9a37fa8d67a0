#!/usr/bin/python3
"""Fit and check the Headroom llama.cpp speed model (README.md in this folder).

  /usr/bin/python3 fit_speed.py            # fit, print summary, write every generated file

Fits ONLY on the calibration set (split_rows(): calibration_rows.csv plus every validation row that
informed a choice).  Held-out rows are predicted with the calibration constants and reported
separately; they never enter a fit nor a choice.  Writes results/*.md, constants.json,
src/core/estimate/hr-speed-fitted.inc, src/core/estimate/hr-speed-groups.inc, the generated
figures section of README.md and the speed part of tests/accuracy/RESULTS.md.
"""
import csv
import json
import re
import math
import os
import sys
from collections import defaultdict

import numpy as np
from scipy.optimize import least_squares

import constants_c
import speedmodel as sm

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'results')

# ----------------------------------------------------------------------------------------------
# constants: fixed (derived or inherited) and fitted (with start values)
# ----------------------------------------------------------------------------------------------
FIXED = dict(
    t_hop=0.3e-3,      # s per GPU boundary per token (product's constant, fitted earlier on these rows)
    link_bw=25e9,      # B/s PCIe 4.0 x16 effective, activation copy between GPUs in prefill
    beta_cuda=24.0,    # B per attention-score element, non-FA CUDA (cuBLAS F16 out, ->F32, softmax r/w, ->F16, read)
    beta_metal=16.0,   # B per attention-score element, non-FA Metal (F32 out, softmax r/w, read)
    beta_rocm=24.0,    # ROCm runs the CUDA code compiled by HIP (ggml-cuda): CUDA's count
    beta_vulkan=24.0,  # Vulkan: no count of its own (a prior: CUDA's)
    ram_eff=0.7,       # fraction of RAM bandwidth for CPU-held layers (product constant; not fitted here)
    op_offload_min=32,  # tokens from which llama.cpp copies CPU-held weights to the GPU (ggml-cuda.cu)
    mmap_share=0.5,    # mmap'd weights cross PCIe at this share of the pinned rate (HR_SPEED_MMAP_COPY_SHARE)
    # Option P: the usable tensor peak is the harmonic mean of the datasheet peak and eps TFLOPS per
    # watt of board power.  eps is CHOSEN by leave-one-device-out CV on the calibration rows among
    # EPS_CANDIDATES (choose_eps); this value is replaced by the choice.
    _power_mode='harmonic',
    eps_power=1.0e12,
)
# Start values; a constant no row of a fit informs keeps its start value (a prior, see informed()).
# Issue 31: ROCm and Vulkan have their own set (c_layer, eta_att, eta_mm; eta_w is CUDA's, speedmodel.eta_w)
# plus three flash-attention constants (eta_fa: the FA decode kernel's share of the bandwidth reading the
# cache; eta_fa_mm: its share of the matrix peak on the attention FLOPs; eta_fa_pp: the FA prompt kernels'
# share of the matrix peak).
# Start values: CUDA's issue-12 values (the prior they had when they shared CUDA's set); eta_att now counts
# the cache once per KV head (README §2), so its starts are the old ones over the 4 query heads per KV head
# of the Llama-3 calibration models.
DECODE_START = dict(eta_w_cuda=0.9, eta_w_metal=0.8, c_layer_cuda=1e-4, c_layer_metal=1.5e-4,
                    eta_att_cuda=0.4, eta_att_metal=0.12, hbm_cap=3000e9, alu_ops_kq_metal=30.0,
                    c_layer_rocm=9.2e-5, eta_att_rocm=0.4, eta_fa_rocm=0.93, eta_fa_mm_rocm=0.6,
                    c_layer_vulkan=9.2e-5, eta_att_vulkan=0.4, eta_fa_vulkan=0.93, eta_fa_mm_vulkan=0.6)
PREFILL_START = dict(eta_mm_cuda=0.5, eta_mm_metal=0.6, phi_kq_metal=0.8, rho_pipe=0.8, eta_moe=0.5, moe_m_half=32.0,
                     eta_mm_rocm=0.6, eta_mm_vulkan=0.6, eta_fa_pp_rocm=0.6, eta_fa_pp_vulkan=0.6)
UNITS = dict(eta_w_cuda='fraction of BW', eta_w_metal='fraction of BW', c_layer_cuda='s / layer / token',
             c_layer_metal='s / layer / token', eta_att_cuda='fraction of BW', eta_att_metal='fraction of BW',
             hbm_cap='B/s', alu_ops_kq_metal='FP32 ops / weight', eta_mm_cuda='fraction of FP16-acc tensor peak',
             eta_mm_metal='fraction of GPU FP32(=FP16) peak', phi_kq_metal='factor', rho_pipe='fraction',
             eta_moe="grouped expert GEMMs (mul_mat_id) vs the backend's dense GEMM share eta_mm",
             moe_m_half='tokens per expert at which the grouped GEMMs reach half of eta_moe',
             c_layer_rocm='s / layer / token', eta_att_rocm='fraction of BW',
             eta_fa_rocm='fraction of BW (FA decode reading the cache)', eta_mm_rocm='fraction of the matrix peak',
             eta_fa_mm_rocm='fraction of the matrix peak (FA decode FLOPs)',
             eta_fa_pp_rocm='fraction of the matrix peak (FA prompt attention FLOPs)',
             c_layer_vulkan='s / layer / token', eta_att_vulkan='fraction of BW',
             eta_fa_vulkan='fraction of BW (FA decode reading the cache)', eta_mm_vulkan='fraction of the matrix peak',
             eta_fa_mm_vulkan='fraction of the matrix peak (FA decode FLOPs)',
             eta_fa_pp_vulkan='fraction of the matrix peak (FA prompt attention FLOPs)')

# ----------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------
DEVS = sm.load_devices()
SHAPES = sm.load_shapes()
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))

# llama-bench "model size" (GiB) of the files behind each row
FILE_GIB = {
    ('llama3-8b', 'Q4_K_M'): 4.58, ('llama3-8b', 'F16'): 14.96,
    ('llama3-70b', 'Q4_K_M'): 39.59, ('llama3-70b', 'F16'): 131.42,
    ('llama2-7b', 'F16'): 12.55, ('llama2-7b', 'Q8_0'): 6.67, ('llama2-7b', 'Q4_0'): 3.56,
    ('llama3-8b', 'Q4_0'): 4.66e9 / 2 ** 30,
    ('llama2-7b', 'Q4_K_M'): 3.80, ('llama2-7b', 'Q5_K_M'): 4.45, ('llama2-7b', 'Q6_K'): 5.15,
    ('llama3.2-3b', 'Q4_K_M'): 1.87,
    ('gpt-oss-20b', 'MXFP4'): 11.27,          # llama-bench "11.27 GiB" (llama.cpp PR #16991)
    # Unsloth Qwen3-30B-A3B-UD-Q4_K_XL.gguf: llama-bench "qwen3moe 30B.A3B Q4_K - Medium | 16.49 GiB"
    # (https://blog.tosukui.xyz/posts/gmktec-ryzen-ai-rocm-hip-setup, same file as lhl/strix-halo-testing)
    ('qwen3-30b-a3b', 'UD-Q4_K_XL'): 16.49,
}

# Sources, for leave-one-source-out CV: (pattern in the row's source, source id)
SOURCE_PATTERNS = [
    (r'XiongjieDai', 'XiongjieDai/GPU-Benchmarks-on-LLM-Inference'),
    (r'(?:PR #|pull/)(\d+)', 'llama.cpp PR #%s'),
    (r'discussion #4167', 'llama.cpp discussion #4167'),
    (r'dmatora', 'dmatora/LLM-inference-speed-benchmarks'),
    (r'normiebench', 'brand-o/normiebench'),
    (r'ai-benchmarks/issues/(\d+)', 'geerlingguy/ai-benchmarks #%s'),
    (r'lhl/strix-halo-testing', 'lhl/strix-halo-testing'),
    (r'1337hero/', '1337hero/rx7900xtx-llama-bench-vulcan'),
    (r'1ghvwsj', 'r/LocalLLaMA 1ghvwsj (randomfoo2, Nov 2024)'),
    (r'vulkanforge', 'maeddesg/vulkanforge wiki'),
]


def source_of(r):
    for pat, name in SOURCE_PATTERNS:
        m = re.search(pat, r['source'])
        if m:
            return name % m.group(1) if '%s' in name else name
    return r['source']


def load_rows(path):
    rows = []
    for r in csv.DictReader(open(path)):
        r['n'] = int(r['n'])
        r['n_gpus'] = int(r['n_gpus'])
        r['measured_tps'] = float(r['measured_tps'])
        fig = sm.device_figures(DEVS[r['device_id']])
        if r.get('backend'):
            fig = dict(fig, backend=r['backend'])      # e.g. an NVIDIA card run on Vulkan
        r['figs'] = [fig] * r['n_gpus']
        r['backend'] = fig['backend']
        r['shape'] = SHAPES[r['model']]
        r['w'] = sm.weights(r['shape'], r['quant'], FILE_GIB[(r['model'], r['quant'])] * sm.GIB)
        r['path'] = r.get('path') or 'cublas'
        r['fa'] = (r.get('fa') or '0') == '1'
        r['ubatch'] = int(r.get('ubatch') or 512)
        r['depth0'] = int(r.get('depth0') or 0)
        r['file'] = os.path.basename(path)
        r['src'] = source_of(r)
        rows.append(r)
    return rows


# The split, decided by SOURCE before any fit of this revision (issue 31) and written down here:
#  * calibration_rows.csv: the issue-12 calibration set.
#  * every pp row of validation_xiongjiedai.csv and validation_llama2_era.csv: issue 12's option_power.py scored
#    the power prior eps on them, so they informed a choice -> calibration.
#  * validation_current.csv rows of llama.cpp PR #7676 and dmatora #12: they chose the MMQ form of
#    README §7 -> calibration.
#  * held out (never fitted, never used for a choice): the tg rows of validation_xiongjiedai.csv
#    and validation_llama2_era.csv, the other validation_current.csv rows (PR #26284 ROCm,
#    normiebench Apple 2026) and heldout_2025.csv (new 2025-26 rows: ROCm Strix Halo, Vulkan,
#    Apple M1 Ultra, depth 32K, ROCm ubatch 1024).
CHOICE_SOURCES = ('llama.cpp PR #7676', 'dmatora/LLM-inference-speed-benchmarks')
MOE_CALIBRATION_SOURCES = ('llama.cpp PR #16991', 'llama.cpp PR #15631')


# Issue 31 item 2 (per-backend constants, this revision), decided by source BEFORE any fit with the new
# sets and written here:
#  * scoreboards_2025.csv, calibration: lhl/strix-halo-testing (Strix Halo under ROCm and Vulkan, FA off
#    and on, prompt and decode sweeps to 8K, dense and MoE: the only source with both backends, both FA
#    settings and depth on one machine) and 1337hero/rx7900xtx-llama-bench-vulcan (a discrete RDNA3 card
#    and a two-GPU split under Vulkan, build 7361).
#  * scoreboards_2025.csv, held out: the r/LocalLLaMA table by randomfoo2 and its comments (builds
#    b3999-b4011: 7900 XTX and W7900 under ROCm, 3090/4090 with FA, Apple M2/M3 Pro/M3 Max, Arc A770
#    under Vulkan and SYCL) and the maeddesg/vulkanforge wiki (RX 9070 XT under Vulkan, build 9174).
#  * the ROCm rows of validation_current.csv and heldout_2025.csv (llama.cpp PR #26284, geerlingguy
#    #21) showed ROCm decode 17-35 % too fast and a Strix Halo prompt +529 % with CUDA's constants: they
#    motivated giving ROCm its own constants, so they informed a choice and are calibration rows now.
SCOREBOARD_CALIBRATION_SOURCES = ('lhl/strix-halo-testing', '1337hero/rx7900xtx-llama-bench-vulcan')
ROCM_MOTIVATION_SOURCES = ('llama.cpp PR #26284', 'geerlingguy/ai-benchmarks #21')


def split_rows():
    calib, held = [], []
    for r in load_rows(os.path.join(HERE, 'calibration_rows.csv')):
        r['why'] = 'issue-12 calibration set'
        calib.append(r)
    for f in ('validation_xiongjiedai.csv', 'validation_llama2_era.csv'):
        for r in load_rows(os.path.join(HERE, f)):
            if r['test'] == 'pp':
                r['why'] = 'scored the power prior in issue 12 (option P)'
                calib.append(r)
            else:
                r['why'] = 'held out'
                held.append(r)
    for r in load_rows(os.path.join(HERE, 'validation_current.csv')):
        if r['src'] in CHOICE_SOURCES:
            r['why'] = 'chose the MMQ form (README §7)'
            calib.append(r)
        elif r['src'] in ROCM_MOTIVATION_SOURCES:
            r['why'] = 'motivated the ROCm constants (issue 31)'
            calib.append(r)
        else:
            r['why'] = 'held out'
            held.append(r)
    for r in load_rows(os.path.join(HERE, 'heldout_2025.csv')):
        if r['src'] in ROCM_MOTIVATION_SOURCES:
            r['why'] = 'motivated the ROCm constants (issue 31)'
            calib.append(r)
        else:
            r['why'] = 'held out'
            held.append(r)
    for r in load_rows(os.path.join(HERE, 'scoreboards_2025.csv')):
        if r['src'] in SCOREBOARD_CALIBRATION_SOURCES:
            r['why'] = 'scoreboard calibration source (issue 31)'
            calib.append(r)
        else:
            r['why'] = 'held out'
            held.append(r)
    # moe_2025.csv (issue 31 item 1, split decided by source before fitting eta_moe): llama.cpp
    # PR #16991 (RTX PRO 6000) was calibration and PR #15631 (RTX 4090) held out.  A first form (one
    # eta_moe, fitted on PR #16991's pp128 alone) missed PR #15631's rows by -62..-69 %; those rows then
    # chose the tokens-per-expert form (README §13), so they informed a choice: both sources are
    # calibration now, and no MoE prompt row is held out.
    for r in load_rows(os.path.join(HERE, 'moe_2025.csv')):
        if r['src'] in MOE_CALIBRATION_SOURCES:
            r['why'] = 'MoE prompt: fits eta_moe'
            calib.append(r)
        else:
            r['why'] = 'held out'
            held.append(r)
    return calib, held


def predict(r, C):
    if r['test'] == 'tg':
        return 1.0 / sm.decode_token_time(r['figs'], r['shape'], r['w'], r['quant'],
                                          r['depth0'] + (r['n'] - 1) / 2.0, C, fa=r['fa'])
    return sm.pp_rate(r['figs'], r['shape'], r['w'], r['quant'], r['n'], C, fa=r['fa'], path=r['path'],
                      n_ubatch=r['ubatch'], n_batch=max(2048, r['ubatch']), p_start=r['depth0'])


# ----------------------------------------------------------------------------------------------
# fitting: least squares on log(predicted / measured), constants in log space (all positive)
# ----------------------------------------------------------------------------------------------

SET_MIN_ROWS = 4   # a backend's constants are fitted from this many of its rows of a test, else kept at their priors


def informed(name, sel):
    """Does any row of `sel` inform constant `name`?  A constant no row informs stays at its start
    value (a prior) -- e.g. the Metal constants in a fold without Apple rows, or ROCm's FA decode
    share in a fold without a ROCm FA decode row."""
    def of(s):
        return [r for r in sel if sm.ckey(r['figs'][0]) == s]
    for s in ('metal', 'rocm', 'vulkan', 'cuda'):
        if name.endswith('_' + s):
            rows = of(s)
            if len(rows) < SET_MIN_ROWS:
                return False
            if name.startswith('eta_att_'):
                # the cache term needs decode rows at two depths at least
                return len(set(mean_depth(r) for r in rows if not r['fa'] and r['test'] == 'tg')) >= 2
            if name.startswith('eta_fa_pp_'):
                return any(r['fa'] and r['test'] == 'pp' and r['depth0'] + r['n'] >= 1024 for r in rows)
            fa_tg = [r for r in rows if r['fa'] and r['test'] == 'tg' and r['depth0'] + r['n'] >= 1024]
            if name.startswith('eta_fa_mm_'):
                # the bytes and the FLOPs of FA decode separate only across models of different
                # query heads per KV head (MHA vs GQA)
                return len(set(r['shape']['nh'] // r['shape']['nkv'] for r in fa_tg)) >= 2
            if name.startswith('eta_fa_'):
                return bool(fa_tg)
            return bool(rows)
    if name == 'hbm_cap':
        return any(r['figs'][0]['hbm'] for r in sel if sm.ckey(r['figs'][0]) != 'metal')
    if name in ('eta_moe', 'moe_m_half'):
        return any(r['shape'].get('moe') for r in sel)
    if name == 'rho_pipe':
        return any(r['n_gpus'] > 1 and r['n'] > r['ubatch'] for r in sel)
    return bool(sel)


def fit(rows, test, start, base):
    # prompt constants a decode fit does not fit (FA decode's default FLOP share is eta_mm, README §7)
    # sit at their start values or the values base carries
    C = dict(PREFILL_START)
    C.update(base)
    C.update(start)
    sel = [r for r in rows if r['test'] == test]
    names = [k for k in start if informed(k, sel)]
    if len(sel) <= len(names):
        return C, {k: float('nan') for k in start}

    def res(x):
        for k, v in zip(names, x):
            C[k] = math.exp(min(max(v, -50.0), 50.0))
        return [math.log(predict(r, C) / r['measured_tps']) for r in sel]

    sol = least_squares(res, np.log([start[k] for k in names]), method='lm', xtol=1e-10, ftol=1e-10)
    for k, v in zip(names, sol.x):
        C[k] = math.exp(v)
    J = sol.jac
    dof = max(1, len(sel) - len(names))
    s2 = float(np.sum(sol.fun ** 2)) / dof
    try:
        cov = np.linalg.inv(J.T @ J) * s2
        sig = {k: float(math.sqrt(max(cov[i, i], 0))) for i, k in enumerate(names)}
    except np.linalg.LinAlgError:
        sig = {k: float('nan') for k in names}
    return C, sig


def fit_all(rows, base=FIXED):
    C, sig_d = fit(rows, 'tg', DECODE_START, base)
    C, sig_p = fit(rows, 'pp', PREFILL_START, C)
    sig_d.update(sig_p)
    return C, sig_d


# The constants before issue 31 (main at 4265a56: constants.json of issue 12 with eps 1.0 TFLOPS/W),
# evaluated on today's sets for the before/after figures.  Not fitted here.
BEFORE = dict(FIXED, eps_power=1.0e12, eta_w_cuda=0.9349371976165932, eta_w_metal=0.8202509673216417,
              c_layer_cuda=9.258997270056566e-05, c_layer_metal=0.00012948975267783897,
              eta_att_cuda=1.6313204902282727, eta_att_metal=0.4721352005693313, hbm_cap=3434140532253.6875,
              alu_ops_kq_metal=30.119122518955656, eta_mm_cuda=0.7535329460169902,
              eta_mm_metal=0.6774092355045036, phi_kq_metal=0.7736850807036961, rho_pipe=0.6750653992611585,
              eta_moe=1.0, moe_m_half=0.0, _moe_dense=True)   # before issue 31: a MoE prompt as a dense model of its active size

# The constants of main at 53ac69d (this revision's start: ROCm and Vulkan shared CUDA's set; eta_moe was a
# share of the matrix peak, here re-expressed as a share of eta_mm_cuda so today's formula gives the same
# CUDA figures).  Evaluated on today's sets for the per-group before/after figures.  Not fitted here.
MAIN_53AC69D = dict(FIXED, eps_power=1.5e12, eta_w_cuda=0.934664, eta_w_metal=0.820251, c_layer_cuda=9.16687e-05,
                    c_layer_metal=0.00012949, eta_att_cuda=1.5974, eta_att_metal=0.472135, hbm_cap=3.41075e+12,
                    alu_ops_kq_metal=30.1191, eta_mm_cuda=0.60761, eta_mm_metal=0.684262, phi_kq_metal=0.758581,
                    rho_pipe=0.938262, eta_moe=0.323826 / 0.60761, moe_m_half=46.8264)


def shared_with_cuda(C):
    """A constant set where ROCm and Vulkan use CUDA's constants (as before this revision)."""
    C = dict(C)
    for s in ('rocm', 'vulkan'):
        for k in ('c_layer', 'eta_att', 'eta_mm'):
            C['%s_%s' % (k, s)] = C[k + '_cuda']
        for k in ('eta_fa_', 'eta_fa_mm_', 'eta_fa_pp_'):
            C.pop(k + s, None)
    return C


BEFORE = shared_with_cuda(BEFORE)
MAIN_53AC69D = shared_with_cuda(MAIN_53AC69D)

EPS_CANDIDATES = (0.0, 0.8, 1.0, 1.2, 1.5)     # TFLOPS per watt; 0 = no power limit


def choose_eps(calib):
    """The power prior, chosen by leave-one-device-out CV on the calibration pp rows only: the
    candidate with the lowest median |error| on the left-out devices."""
    scores = {}
    devs = sorted(set(r['device_id'] for r in calib))
    folds = {}
    for d in devs:
        train = [r for r in calib if r['device_id'] != d]
        Cd, _ = fit(train, 'tg', DECODE_START, FIXED)
        folds[d] = (train, Cd)
    for eps in EPS_CANDIDATES:
        errs = []
        for d in devs:
            train, Cd = folds[d]
            C, _ = fit(train, 'pp', PREFILL_START, dict(Cd, eps_power=eps * 1e12))
            errs += [abs(predict(r, C) / r['measured_tps'] - 1) for r in calib
                     if r['device_id'] == d and r['test'] == 'pp']
        scores[eps] = 100 * float(np.median(errs))
    best = min(scores, key=scores.get)
    return best, scores


# ----------------------------------------------------------------------------------------------
# cross-validation: leave one device out, leave one source out
# ----------------------------------------------------------------------------------------------

def cross_validate(calib, base, key):
    """Refit every constant without the rows of one group (device or source), predict them.
    Returns [(row, prediction)] and the constants each fold used."""
    out, consts = [], {}
    for g in sorted(set(key(r) for r in calib)):
        train = [r for r in calib if key(r) != g]
        C, _ = fit_all(train, base)
        consts[g] = C
        out += [(r, predict(r, C)) for r in calib if key(r) == g]
    return out, consts


# ----------------------------------------------------------------------------------------------
# groups: backend x dense/MoE x placement x depth bucket
# ----------------------------------------------------------------------------------------------
DEPTH_BUCKETS = ((0, 8192, '< 8K'), (8192, 32768, '8K-32K'), (32768, float('inf'), '>= 32K'))
GROUP_MIN_ROWS = 5          # fewer CV rows than this: no range (the product says so)
RANGE_QUANTILES = (0.1, 0.9)  # measured/predicted ratio: 10th and 90th percentile of the CV residuals
BACKEND_C = {'cuda': 'HR_BACKEND_CUDA', 'metal': 'HR_BACKEND_METAL', 'rocm': 'HR_BACKEND_ROCM',
             'sycl': 'HR_BACKEND_SYCL', 'vulkan': 'HR_BACKEND_VULKAN', 'cpu': 'HR_BACKEND_CPU'}


def mean_depth(r):
    return r['depth0'] + ((r['n'] - 1) / 2.0 if r['test'] == 'tg' else r['n'] / 2.0)


def bucket_of(depth):
    for i, (lo, hi, _) in enumerate(DEPTH_BUCKETS):
        if lo <= depth < hi:
            return i
    return len(DEPTH_BUCKETS) - 1


def group_of(r):
    # every measured row so far has all layers and experts on the GPU(s).  Flash attention is a
    # dimension of its own (issue 31): its kernels have their own constants, and the product runs it by
    # default, so a range measured without it must not stand for a figure with it.
    return (r['backend'], bool(r['shape'].get('moe')), False, r['fa'], bucket_of(mean_depth(r)))


def group_name(g):
    be, moe, cpu, fa, b = g
    return '%s, %s, %s, %s, depth %s' % (be, 'MoE' if moe else 'dense', 'CPU-held' if cpu else 'all on GPU',
                                         'FA' if fa else 'no FA', DEPTH_BUCKETS[b][2])


def group_ranges(cv):
    """Per group and test: (low factor, high factor, rows) from the CV residuals."""
    by = defaultdict(lambda: defaultdict(list))
    for r, p in cv:
        by[group_of(r)][r['test']].append(r['measured_tps'] / p)
    out = {}
    for g, t in by.items():
        out[g] = {k: (float(np.quantile(v, RANGE_QUANTILES[0])), float(np.quantile(v, RANGE_QUANTILES[1])), len(v))
                  for k, v in t.items()}
    return out


def render_groups_inc(ranges):
    lines = ['/* hr-speed-groups.inc — GENERATED by tests/calibration/speed/fit_speed.py; do not edit.',
             ' * Per speed group (backend x dense/MoE x placement x depth bucket): the measured/predicted',
             ' * ratio of the calibration rows under leave-one-device-out CV, %dth and %dth percentile,' %
             (100 * RANGE_QUANTILES[0], 100 * RANGE_QUANTILES[1]),
             ' * and how many rows back it (groups with fewer than %d rows are absent: no range).' % GROUP_MIN_ROWS,
             ' * { backend, moe, cpu_held, flash_attn, depth bucket, name, decode low, high, rows, prompt low, high, rows } */',
             '']
    for g in sorted(ranges):
        t = ranges[g]
        tg = t.get('tg', (0, 0, 0))
        pp = t.get('pp', (0, 0, 0))
        if tg[2] < GROUP_MIN_ROWS:
            tg = (0, 0, 0)
        if pp[2] < GROUP_MIN_ROWS:
            pp = (0, 0, 0)
        if not tg[2] and not pp[2]:
            continue
        lines.append('{ %s, %s, %s, %s, %d, "%s", %.4f, %.4f, %d, %.4f, %.4f, %d },' % (
            BACKEND_C[g[0]], 'TRUE' if g[1] else 'FALSE', 'TRUE' if g[2] else 'FALSE', 'TRUE' if g[3] else 'FALSE',
            g[4], group_name(g),
            tg[0], tg[1], tg[2], pp[0], pp[1], pp[2]))
    return '\n'.join(lines) + '\n'


# ----------------------------------------------------------------------------------------------
# reporting
# ----------------------------------------------------------------------------------------------

def label(r):
    g = '' if r['n_gpus'] == 1 else ' x%d' % r['n_gpus']
    extra = ''
    if r['backend'] not in ('cuda', 'metal') or (r['backend'] == 'cuda' and DEVS[r['device_id']]['family'].startswith('amd')):
        extra += ' [%s]' % r['backend']
    if r['path'] != 'cublas':
        extra += ' [%s]' % r['path']
    if r['fa']:
        extra += ' [FA]'
    if r['ubatch'] != 512:
        extra += ' [ub %d]' % r['ubatch']
    if r['depth0']:
        extra += ' @d%d' % r['depth0']
    return '%s%s, %s %s, %s%d%s' % (DEVS[r['device_id']]['name'], g, r['model'], r['quant'], r['test'],
                                       r['n'], extra)


def stats(errs):
    if not errs:
        return '-'
    a = [abs(x) for x in errs]
    return '%.1f %% / %.1f %% (%d)' % (100 * np.median(a), 100 * max(a), len(a))


def summary_pair(pairs):
    """{test: (median %, worst %, rows)}"""
    out = {}
    for t in ('tg', 'pp'):
        e = [abs(p / r['measured_tps'] - 1) for r, p in pairs if r['test'] == t]
        if e:
            out[t] = (100 * float(np.median(e)), 100 * float(max(e)), len(e))
    return out


def row_table(pairs, with_src=True):
    lines = ['| case | measured t/s | predicted t/s | error | source |' if with_src else
             '| case | measured t/s | predicted t/s | error |',
             '|---|---|---|---|---|' if with_src else '|---|---|---|---|']
    for r, p in pairs:
        err = p / r['measured_tps'] - 1
        if with_src:
            lines.append('| %s | %.2f | %.2f | %+.1f %% | %s |' % (label(r), r['measured_tps'], p, 100 * err, r['source']))
        else:
            lines.append('| %s | %.2f | %.2f | %+.1f %% |' % (label(r), r['measured_tps'], p, 100 * err))
    return lines


def breakdown(pairs, key, title):
    by = defaultdict(lambda: defaultdict(list))
    for r, p in pairs:
        by[key(r)][r['test']].append(p / r['measured_tps'] - 1)
    lines = ['| %s | decode median / worst (rows) | prompt median / worst (rows) |' % title, '|---|---|---|']
    for k in sorted(by):
        lines.append('| %s | %s | %s |' % (k, stats(by[k]['tg']), stats(by[k]['pp'])))
    return lines


def group_before_after(held_pairs, main_held, lodo, loso, main_cal):
    def med(pairs, g, t):
        e = [abs(p / r['measured_tps'] - 1) for r, p in pairs if group_of(r) == g and r['test'] == t]
        return ('%.1f %% (%d)' % (100 * np.median(e), len(e))) if e else '-'
    groups = sorted(set(group_of(r) for r, _ in held_pairs + lodo))
    lines = ['| group | test | held out | held out, main | LODO | LOSO | calibration rows, main |',
             '|---|---|---|---|---|---|---|']
    for g in groups:
        for t in ('tg', 'pp'):
            cells = [med(p, g, t) for p in (held_pairs, main_held, lodo, loso, main_cal)]
            if any(c != '-' for c in cells):
                lines.append('| %s | %s | %s |' % (group_name(g), 'decode' if t == 'tg' else 'prompt', ' | '.join(cells)))
    return lines


def render_test_reference(C):
    """tests/test-speed-reference.inc: this reference's figures for test-speed's hand-built input
    (Llama 3 8B's shape with 32 layers of 128.4 MB and 6.98e9 matrix weights, a 420 MB head, Q4_K_M; the
    catalog's Strix Halo): decode at depth 4096 and a 2048-token prompt, ROCm and Vulkan, FA off and on.
    The C port must give the same numbers (test-speed /speed/backend-reference)."""
    # the constants as C has them (hr-speed-fitted.inc carries 6 significant digits)
    C = {k: (float('%.6g' % v) if isinstance(v, float) else v) for k, v in C.items()}
    shape = dict(SHAPES['llama3-8b'], p_layers=6.98e9)
    w = dict(layers=128.4e6 * 32, out=420.0e6, embd=0.0, file=0.0, expert_share=0.0)
    lines = ['/* test-speed-reference.inc — GENERATED by tests/calibration/speed/fit_speed.py',
             ' * (render_test_reference); do not edit.  { backend, flash attention, decode t/s at',
             ' * depth 4096, prompt t/s for 2048 tokens } of speedmodel.py on test-speed\'s input. */', '']
    for be in ('rocm', 'vulkan'):
        fig = dict(sm.device_figures(DEVS['ryzen-ai-max-395-128gb']), backend=be)
        for fa in (False, True):
            dec = 1.0 / sm.decode_token_time([fig], shape, w, 'Q4_K_M', 4096, C, fa=fa)
            pp = sm.pp_rate([fig], shape, w, 'Q4_K_M', 2048, C, fa=fa, path='mmq')
            lines.append('{ %s, %s, %.10g, %.10g },' % (BACKEND_C[be], 'TRUE' if fa else 'FALSE', dec, pp))
    return '\n'.join(lines) + '\n'


def replace_block(path, begin, end, text):
    s = open(path).read() if os.path.exists(path) else ''
    block = begin + '\n' + text.rstrip('\n') + '\n' + end
    if begin in s and end in s:
        s = s[:s.index(begin)] + block + s[s.index(end) + len(end):]
    else:
        s = s.rstrip('\n') + '\n\n' + block + '\n'
    open(path, 'w').write(s)


def fmt(s):
    return ' | '.join('%s %.1f %% / %.1f %% (%d rows)' % ('decode' if t == 'tg' else 'prompt', *v) for t, v in s.items())


def main():
    os.makedirs(OUT, exist_ok=True)
    calib, held = split_rows()

    eps, eps_scores = choose_eps(calib)
    base = dict(FIXED, eps_power=eps * 1e12)
    C, sig = fit_all(calib, base)

    cal_pairs = [(r, predict(r, C)) for r in calib]
    held_pairs = [(r, predict(r, C)) for r in held]
    lodo, lodo_consts = cross_validate(calib, base, lambda r: r['device_id'])
    loso, loso_consts = cross_validate(calib, base, lambda r: r['src'])

    # ---------------- per-row tables ----------------
    open(os.path.join(OUT, 'calibration.md'), 'w').write('\n'.join(
        ['# Calibration rows: fitted model vs measured', '',
         'Generated by fit_speed.py. Constants fitted on exactly these rows. Error = predicted / measured - 1.', '',
         '| why calibration | rows |', '|---|---|'] +
        ['| %s | %d |' % (w, sum(1 for r in calib if r['why'] == w)) for w in sorted(set(r['why'] for r in calib))] +
        [''] + row_table(cal_pairs)) + '\n')
    cv_lines = ['# Cross-validation on the calibration rows', '',
                'Generated by fit_speed.py. Every constant is refitted without the left-out group, which is then '
                'predicted. A constant that no remaining row informs stays at its start value (a prior): '
                'see `informed()`.', '', '## Leave one device out', ''] + row_table(lodo, False)
    cv_lines += ['', '## Leave one source out', ''] + row_table(loso, False)
    cv_lines += ['', '## Refitted constants per left-out source', '',
                 '| left out | ' + ' | '.join(list(DECODE_START) + list(PREFILL_START)) + ' |',
                 '|---|' + '---|' * (len(DECODE_START) + len(PREFILL_START))]
    for g, Cg in loso_consts.items():
        cv_lines.append('| %s | ' % g + ' | '.join('%.4g' % Cg[k] for k in list(DECODE_START) + list(PREFILL_START)) + ' |')
    open(os.path.join(OUT, 'cross_validation.md'), 'w').write('\n'.join(cv_lines) + '\n')
    open(os.path.join(OUT, 'validation.md'), 'w').write('\n'.join(
        ['# Held-out rows (never fitted, never used for a choice)', '',
         'Generated by fit_speed.py; predicted with the calibration constants.', ''] + row_table(held_pairs)) + '\n')

    # ---------------- constants and the C files ----------------
    fitted = {k: C[k] for k in list(DECODE_START) + list(PREFILL_START)}
    fixed = dict(base)
    consts = dict(fitted=fitted, fixed=fixed, log_sigma=sig, units=UNITS,
                  eps_cv_prompt_median_percent={str(k): v for k, v in eps_scores.items()},
                  calibration=summary_pair(cal_pairs), lodo_cv=summary_pair(lodo), loso_cv=summary_pair(loso),
                  held_out=summary_pair(held_pairs))
    json.dump(consts, open(os.path.join(HERE, 'constants.json'), 'w'), indent=1)
    open(os.path.join(ROOT, 'src', 'core', 'estimate', 'hr-speed-fitted.inc'), 'w').write(constants_c.render(consts))
    ranges = group_ranges(lodo)
    open(os.path.join(ROOT, 'src', 'core', 'estimate', 'hr-speed-groups.inc'), 'w').write(render_groups_inc(ranges))
    open(os.path.join(ROOT, 'tests', 'test-speed-reference.inc'), 'w').write(render_test_reference(dict(base, **fitted)))

    # ---------------- generated figures: README and RESULTS ----------------
    fig = ['_Generated by `fit_speed.py` (do not edit by hand)._', '',
           '**Split (decided by source before fitting; see `split_rows()`).** Calibration: %d rows '
           '(%d decode, %d prompt). Held out: %d rows (%d decode, %d prompt), never fitted and never used '
           'for a choice.' % (len(calib), sum(r['test'] == 'tg' for r in calib), sum(r['test'] == 'pp' for r in calib),
                              len(held), sum(r['test'] == 'tg' for r in held), sum(r['test'] == 'pp' for r in held)), '',
           '| calibration rows because | rows |', '|---|---|']
    fig += ['| %s | %d |' % (w, sum(1 for r in calib if r['why'] == w)) for w in sorted(set(r['why'] for r in calib))]
    fig += ['', '**Power prior ε, chosen by leave-one-device-out CV on the calibration prompt rows** '
            '(median |error| of the left-out devices):', '', '| ε (TFLOPS/W) | LODO prompt median |', '|---|---|']
    fig += ['| %s%s | %.1f %% |' % ('off' if k == 0 else k, ' (chosen)' if k == eps else '', v) for k, v in eps_scores.items()]
    fig += ['', '**Fitted constants** (1-σ of the log-constant in brackets; C: `src/core/estimate/hr-speed-fitted.inc`, '
            'checked against `constants.json` by test-speed-constants):', '', '| name | value | unit | σ log |', '|---|---|---|---|']
    fig += ['| `%s` | %.4g | %s | %.3f |' % (k, v, UNITS[k], sig.get(k, float('nan'))) for k, v in fitted.items()]
    fig += ['', '**Errors** (median / worst |error|, rows):', '',
            '| set | decode | prompt |', '|---|---|---|']
    before_cal = [(r, predict(r, BEFORE)) for r in calib]
    before_held = [(r, predict(r, BEFORE)) for r in held]
    main_cal = [(r, predict(r, MAIN_53AC69D)) for r in calib]
    main_held = [(r, predict(r, MAIN_53AC69D)) for r in held]
    for name, pairs in (('calibration (fit)', cal_pairs), ('leave-one-device-out CV', lodo),
                        ('leave-one-source-out CV', loso), ('held out', held_pairs),
                        ('before (issue-12 constants): calibration set', before_cal),
                        ('before (issue-12 constants): held out', before_held),
                        ('before (main 53ac69d: ROCm, Vulkan on CUDA constants): calibration set', main_cal),
                        ('before (main 53ac69d): held out', main_held)):
        s = summary_pair(pairs)
        f = lambda t: ('%.1f %% / %.1f %% (%d)' % s[t]) if t in s else '-'
        fig.append('| %s | %s | %s |' % (name, f('tg'), f('pp')))
    fig += ['', '**Leave-one-source-out, per left-out source:**', ''] + breakdown(loso, lambda r: r['src'], 'left-out source')
    fig += ['', '**Held out, per source:**', ''] + breakdown(held_pairs, lambda r: r['src'], 'source')
    fig += ['', '**Held out, per group** (backend × dense/MoE × placement × flash attention × depth):', ''] + \
        breakdown(held_pairs, lambda r: group_name(group_of(r)), 'group')
    fig += ['', '**Per group, before and after** (median |error|, decode / prompt, rows): held out and the '
            'calibration rows under LODO and LOSO CV with this revision\'s constants; "main" = the constants of '
            'main 53ac69d (ROCm and Vulkan on CUDA\'s set) on the same rows (in-sample for its own calibration '
            'rows, out of sample for the rows new here).', '']
    fig += group_before_after(held_pairs, main_held, lodo, loso, main_cal)
    fig += ['', '**Speed ranges per group** (`src/core/estimate/hr-speed-groups.inc`): measured / predicted under '
            'leave-one-device-out CV, %dth–%dth percentile; groups with fewer than %d rows give no range.' %
            (100 * RANGE_QUANTILES[0], 100 * RANGE_QUANTILES[1], GROUP_MIN_ROWS), '',
            '| group | decode low–high (rows) | prompt low–high (rows) |', '|---|---|---|']
    for g in sorted(ranges):
        t = ranges[g]
        f = lambda k: ('×%.2f–×%.2f (%d)' % t[k]) if k in t and t[k][2] >= GROUP_MIN_ROWS else \
            ('no range (%d rows)' % t[k][2] if k in t else 'no rows')
        fig.append('| %s | %s | %s |' % (group_name(g), f('tg'), f('pp')))
    fig.append('')
    fig.append('Groups not listed (SYCL, CPU; CPU-held layers or experts; depth ≥ 8K; CUDA and Metal with flash '
               'attention, but for CUDA MoE prompts) have fewer than %d calibration rows: the product shows no range '
               'for them and says so.  SYCL has no calibration row at all and runs on CUDA\'s constants '
               '(`CONSTANT_SET`).' % GROUP_MIN_ROWS)
    replace_block(os.path.join(HERE, 'README.md'), '<!-- BEGIN GENERATED FIGURES -->', '<!-- END GENERATED FIGURES -->',
                  '\n'.join(fig))
    res = ['## Speed (llama.cpp model: calibration, cross-validation, held out)', '',
           '_Generated by `tests/calibration/speed/fit_speed.py`; the per-row tables are in '
           '`tests/calibration/speed/results/`._', '', '| set | decode | prompt |', '|---|---|---|']
    res += [l for l in fig if l.startswith('| calibration (fit)') or l.startswith('| leave-one-') or
            l.startswith('| held out |') or l.startswith('| before')]
    res += ['', 'Held out, per group:', ''] + breakdown(held_pairs, lambda r: group_name(group_of(r)), 'group')
    res += ['', 'Held out, per group, before (issue-12 constants):', ''] + \
        breakdown(before_held, lambda r: group_name(group_of(r)), 'group')
    res += ['', 'Per group, before (main 53ac69d) and after:', ''] + \
        group_before_after(held_pairs, main_held, lodo, loso, main_cal)
    replace_block(os.path.join(ROOT, 'tests', 'accuracy', 'RESULTS.md'), '<!-- BEGIN SPEED (fit_speed.py) -->',
                  '<!-- END SPEED (fit_speed.py) -->', '\n'.join(res))

    print('eps chosen: %s TFLOPS/W  (LODO prompt medians %s)' % (eps, eps_scores))
    for k, v in fitted.items():
        print('  %-18s = %-12.5g [%4.2f]  %s' % (k, v, sig.get(k, float('nan')), UNITS[k]))
    for name, pairs in (('calibration', cal_pairs), ('LODO CV', lodo), ('LOSO CV', loso), ('held out', held_pairs)):
        print('%-12s %s' % (name, fmt(summary_pair(pairs))))


if __name__ == '__main__':
    main()
