#!/usr/bin/python3
"""Fit and check the Headroom llama.cpp speed model (README.md in this folder).

  /usr/bin/python3 fit_speed.py            # fit, print summary, write results/*.md and constants.json

Fits ONLY on calibration_rows.csv (= docs/reference/measured-speed.md + measured.md section e).
Validation rows (validation_*.csv) are predicted with the calibration constants and reported
separately; they never enter a fit.
"""
import csv
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np
from scipy.optimize import least_squares

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
    ram_eff=0.7,       # fraction of RAM bandwidth for CPU-held layers (product constant; not fitted here)
    # Option P, adopted by the product (src/core/estimate/hr-speed.h): the usable tensor peak is the
    # harmonic mean of the datasheet peak and 1 TFLOPS per watt of board power (a prior, not fitted)
    _power_mode='harmonic',
    eps_power=1.0e12,
)
DECODE_START = dict(eta_w_cuda=0.9, eta_w_metal=0.8, c_layer_cuda=1e-4, c_layer_metal=1.5e-4,
                    eta_att_cuda=1.0, eta_att_metal=0.5, hbm_cap=3000e9, alu_ops_kq_metal=30.0)
PREFILL_START = dict(eta_mm_cuda=0.5, eta_mm_metal=0.6, phi_kq_metal=0.8, rho_pipe=0.8)
UNITS = dict(eta_w_cuda='fraction of BW', eta_w_metal='fraction of BW', c_layer_cuda='s / layer / token',
             c_layer_metal='s / layer / token', eta_att_cuda='fraction of BW', eta_att_metal='fraction of BW',
             hbm_cap='B/s', alu_ops_kq_metal='FP32 ops / weight', eta_mm_cuda='fraction of FP16-acc tensor peak',
             eta_mm_metal='fraction of GPU FP32(=FP16) peak', phi_kq_metal='factor', rho_pipe='fraction')

# ----------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------
DEVS = sm.load_devices()
SHAPES = sm.load_shapes()

# llama-bench "model size" (GiB) of the files behind each row
FILE_GIB = {
    ('llama3-8b', 'Q4_K_M'): 4.58, ('llama3-8b', 'F16'): 14.96,
    ('llama3-70b', 'Q4_K_M'): 39.59, ('llama3-70b', 'F16'): 131.42,
    ('llama2-7b', 'F16'): 12.55, ('llama2-7b', 'Q8_0'): 6.67, ('llama2-7b', 'Q4_0'): 3.56,
    ('llama3-8b', 'Q4_0'): 4.66e9 / 2 ** 30,
    ('llama2-7b', 'Q4_K_M'): 3.80, ('llama2-7b', 'Q5_K_M'): 4.45, ('llama2-7b', 'Q6_K'): 5.15,
}


def load_rows(path):
    rows = []
    for r in csv.DictReader(open(path)):
        r['n'] = int(r['n'])
        r['n_gpus'] = int(r['n_gpus'])
        r['measured_tps'] = float(r['measured_tps'])
        r['figs'] = [sm.device_figures(DEVS[r['device_id']])] * r['n_gpus']
        r['shape'] = SHAPES[r['model']]
        r['w'] = sm.weights(r['shape'], r['quant'], FILE_GIB[(r['model'], r['quant'])] * sm.GIB)
        r['path'] = r.get('path') or 'cublas'
        r['fa'] = (r.get('fa') or '0') == '1'
        r['ubatch'] = int(r.get('ubatch') or 512)
        r['depth0'] = int(r.get('depth0') or 0)
        rows.append(r)
    return rows


def predict(r, C):
    if r['test'] == 'tg':
        return 1.0 / sm.decode_token_time(r['figs'], r['shape'], r['w'], r['quant'],
                                          r['depth0'] + (r['n'] - 1) / 2.0, C, fa=r['fa'])
    return sm.pp_rate(r['figs'], r['shape'], r['w'], r['quant'], r['n'], C, fa=r['fa'], path=r['path'],
                      n_ubatch=r['ubatch'], n_batch=max(2048, r['ubatch']), p_start=r['depth0'])


# ----------------------------------------------------------------------------------------------
# fitting: least squares on log(predicted / measured), constants in log space (all positive)
# ----------------------------------------------------------------------------------------------

def fit(rows, test, start, base):
    C = dict(base)
    C.update(start)
    names = list(start)
    sel = [r for r in rows if r['test'] == test]

    def res(x):
        for k, v in zip(names, x):
            C[k] = math.exp(v)
        return [math.log(predict(r, C) / r['measured_tps']) for r in sel]

    sol = least_squares(res, np.log([start[k] for k in names]), method='lm', xtol=1e-12, ftol=1e-12)
    for k, v in zip(names, sol.x):
        C[k] = math.exp(v)
    # 1-sigma of log-constants from the Jacobian (rough; residual scale)
    J = sol.jac
    dof = max(1, len(sel) - len(names))
    s2 = float(np.sum(sol.fun ** 2)) / dof
    try:
        cov = np.linalg.inv(J.T @ J) * s2
        sig = {k: float(math.sqrt(max(cov[i, i], 0))) for i, k in enumerate(names)}
    except np.linalg.LinAlgError:
        sig = {k: float('nan') for k in names}
    return C, sig


def fit_all(rows):
    C, sig_d = fit(rows, 'tg', DECODE_START, FIXED)
    C, sig_p = fit(rows, 'pp', PREFILL_START, C)
    sig_d.update(sig_p)
    return C, sig_d


# ----------------------------------------------------------------------------------------------
# reporting
# ----------------------------------------------------------------------------------------------

def label(r):
    g = '' if r['n_gpus'] == 1 else ' x%d' % r['n_gpus']
    extra = ''
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


def table(rows, C, title, errs_out=None):
    lines = ['### ' + title, '', '| case | measured t/s | predicted t/s | error | source |', '|---|---|---|---|---|']
    e = defaultdict(list)
    for r in rows:
        p = predict(r, C)
        err = p / r['measured_tps'] - 1
        e[r['test']].append(abs(err))
        lines.append('| %s | %.2f | %.2f | %+.1f %% | %s |' % (label(r), r['measured_tps'], p, 100 * err,
                                                             r['source']))
        if errs_out is not None:
            errs_out.append((r, p, err))
    lines.append('')
    for t in ('tg', 'pp'):
        if e[t]:
            lines.append('%s: %d rows, median |error| %.1f %%, worst %.1f %%, within 10 %%: %d' %
                         ('decode' if t == 'tg' else 'prefill', len(e[t]), 100 * np.median(e[t]),
                          100 * max(e[t]), sum(x <= 0.10 for x in e[t])))
    lines.append('')
    return lines, e


def summary(e):
    out = {}
    for t in ('tg', 'pp'):
        if e.get(t):
            out[t] = (100 * float(np.median(e[t])), 100 * float(max(e[t])), len(e[t]))
    return out


def lodo(rows):
    """Leave one device out: refit every constant without any row of that device (its single- and
    multi-GPU rows), predict that device."""
    groups = sorted(set(r['device_id'] for r in rows))
    out_rows = []
    consts = {}
    for g in groups:
        train = [r for r in rows if r['device_id'] != g]
        has_tg = any(r['test'] == 'tg' for r in train)
        C, _ = fit_all(train)
        consts[g] = C
        for r in rows:
            if r['device_id'] == g:
                out_rows.append(r | {'_C': C})
    return out_rows, consts


def main():
    os.makedirs(OUT, exist_ok=True)
    calib = load_rows(os.path.join(HERE, 'calibration_rows.csv'))
    C, sig = fit_all(calib)

    # ---------------- calibration ----------------
    lines = ['# Calibration rows: fitted model vs measured', '',
             'Constants fitted on exactly these rows (decode constants on the tg rows, prefill constants '
             'on the pp rows). Error = predicted / measured - 1.', '']
    t_lines, e_cal = table(calib, C, 'Calibration rows (fit)')
    lines += t_lines
    open(os.path.join(OUT, 'calibration.md'), 'w').write('\n'.join(lines) + '\n')

    # ---------------- leave one device out ----------------
    cv_rows, cv_consts = lodo(calib)
    lines = ['# Leave-one-device-out cross-validation', '',
             'Each device (with its multi-GPU rows) is removed, every constant is refitted on the rest, and '
             'the removed device is predicted. This estimates the error on an unseen device.', '',
             '| case | measured t/s | predicted t/s (refit without this device) | error |', '|---|---|---|---|']
    e_cv = defaultdict(list)
    per_dev = defaultdict(lambda: defaultdict(list))
    for r in cv_rows:
        p = predict(r, r['_C'])
        err = p / r['measured_tps'] - 1
        e_cv[r['test']].append(abs(err))
        per_dev[r['device_id']][r['test']].append(abs(err))
        lines.append('| %s | %.2f | %.2f | %+.1f %% |' % (label(r), r['measured_tps'], p, 100 * err))
    lines += ['', '| left-out device | decode median / worst | prefill median / worst |', '|---|---|---|']
    for d, v in per_dev.items():
        f = lambda x: ('%.1f / %.1f %%' % (100 * np.median(x), 100 * max(x))) if x else '-'
        lines.append('| %s | %s | %s |' % (DEVS[d]['name'], f(v['tg']), f(v['pp'])))
    lines += ['']
    for t in ('tg', 'pp'):
        lines.append('%s: %d rows, median |error| %.1f %%, worst %.1f %%' % (
            'decode' if t == 'tg' else 'prefill', len(e_cv[t]), 100 * np.median(e_cv[t]), 100 * max(e_cv[t])))
    lines += ['', '## Refitted constants per left-out device', '',
              '| left out | ' + ' | '.join(list(DECODE_START) + list(PREFILL_START)) + ' |',
              '|---|' + '---|' * (len(DECODE_START) + len(PREFILL_START))]
    for d, Cd in cv_consts.items():
        lines.append('| %s | ' % DEVS[d]['name'] + ' | '.join('%.4g' % Cd[k] for k in list(DECODE_START) + list(PREFILL_START)) + ' |')
    open(os.path.join(OUT, 'cross_validation.md'), 'w').write('\n'.join(lines) + '\n')

    # ---------------- validation (never fitted) ----------------
    val_summary = {}
    lines = ['# Validation on public measurements that were NOT fitted', '',
             'Predicted with the calibration constants. Grouped by source; see README.md §9 for what each group tests.', '']
    for fname, title in [
            ('validation_xiongjiedai.csv', 'Same benchmark, other devices and GPU counts (XiongjieDai LLaMA 3 notebooks, May 2024; hold-out devices excluded)'),
            ('validation_llama2_era.csv', 'LLaMA-1/2 7B rows from llama.cpp PRs and discussion #4167 (Aug 2023 - Jan 2024 builds)'),
            ('validation_current.csv', 'Later llama.cpp builds (MMQ int8, FA, newer Metal kernels): era drift, path switch')]:
        path = os.path.join(HERE, fname)
        if not os.path.exists(path):
            continue
        vr = load_rows(path)
        t_lines, e = table(vr, C, title)
        lines += t_lines
        val_summary[fname] = summary(e)
        # breakdown for the big XiongjieDai set
        if fname == 'validation_xiongjiedai.csv':
            sub = defaultdict(lambda: defaultdict(list))
            for r in vr:
                key = ('single GPU, %s' % ('HBM' if r['figs'][0]['hbm'] else 'GDDR') if r['n_gpus'] == 1
                       else '%d GPUs' % r['n_gpus'])
                sub[key][r['test']].append(abs(predict(r, C) / r['measured_tps'] - 1))
            lines += ['| subset | decode median / worst | prefill median / worst |', '|---|---|---|']
            for k, v in sub.items():
                f = lambda x: ('%.1f / %.1f %% (%d)' % (100 * np.median(x), 100 * max(x), len(x))) if x else '-'
                lines.append('| %s | %s | %s |' % (k, f(v['tg']), f(v['pp'])))
            lines.append('')
    open(os.path.join(OUT, 'validation.md'), 'w').write('\n'.join(lines) + '\n')

    # ---------------- constants ----------------
    fitted = {k: C[k] for k in list(DECODE_START) + list(PREFILL_START)}
    json.dump(dict(fitted=fitted, fixed=FIXED, log_sigma=sig, units=UNITS,
                   calibration=summary(e_cal), lodo_cv=summary(e_cv), validation=val_summary),
              open(os.path.join(HERE, 'constants.json'), 'w'), indent=1)

    print('fitted constants (1-sigma of the log-constant in brackets):')
    for k, v in fitted.items():
        print('  %-18s = %-12.5g [%4.2f]  %s' % (k, v, sig.get(k, float('nan')), UNITS[k]))
    for name, e in (('calibration', e_cal), ('leave-one-device-out CV', e_cv)):
        s = summary(e)
        print('%-26s decode median %.1f %% worst %.1f %% (%d rows) | prefill median %.1f %% worst %.1f %% (%d rows)' %
              ((name,) + s['tg'] + s['pp']))
    for f, s in val_summary.items():
        print('validation %-26s' % f, ' | '.join('%s median %.1f %% worst %.1f %% (%d)' % ((t,) + v) for t, v in s.items()))
    print('tables: results/calibration.md, results/cross_validation.md, results/validation.md; constants.json')


if __name__ == '__main__':
    main()
