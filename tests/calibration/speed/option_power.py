#!/usr/bin/python3
"""Option P (adopted by the product with eps = 1.0; this compares the choices): usable tensor peak limited by board power,
F_use = 1 / (1/F_peak + 1/(eps * TDP)), eps fixed a priori (not fitted), eta_mm refitted on calibration.
Reports calibration, validation and the single-GPU validation split, for the lead's decision."""
import collections, sys
import numpy as np
import fit_speed as fs

calib = fs.load_rows('calibration_rows.csv')
val = fs.load_rows('validation_xiongjiedai.csv') + fs.load_rows('validation_llama2_era.csv')
C0, _ = fs.fit_all(calib)
out = ['# Option P: power-limited tensor peak (adopted with eps = 1.0 TFLOPS/W)', '',
       '| eps (TFLOPS/W) | eta_mm_cuda refit | calib prefill median / worst | validation prefill (all) median | single GPU GDDR | single GPU HBM | A100 PCIe | H100 PCIe |',
       '|---|---|---|---|---|---|---|---|']
for eps in (None, 0.8, 1.0, 1.2, 1.5):
    base = dict(C0, _power_mode='harmonic', eps_power=(eps or 0) * 1e12)
    C, _ = fs.fit(calib, 'pp', dict(fs.PREFILL_START), base)
    ec = [abs(fs.predict(r, C) / r['measured_tps'] - 1) for r in calib if r['test'] == 'pp']
    ev = [(r, fs.predict(r, C) / r['measured_tps'] - 1) for r in val if r['test'] == 'pp']
    g = [abs(x) for r, x in ev if r['n_gpus'] == 1 and not r['figs'][0]['hbm']]
    h = [abs(x) for r, x in ev if r['n_gpus'] == 1 and r['figs'][0]['hbm']]
    d = collections.defaultdict(list)
    for r, x in ev:
        if r['n_gpus'] == 1:
            d[r['device_id']].append(x)
    out.append('| %s | %.3f | %.1f / %.1f %% | %.1f %% | %.1f %% | %.1f %% | %+.0f %% | %+.0f %% |' % (
        'off' if eps is None else eps, C['eta_mm_cuda'], 100 * np.median(ec), 100 * max(ec),
        100 * np.median([abs(x) for _, x in ev]), 100 * np.median(g), 100 * np.median(h),
        100 * np.median(d['a100-pcie-80gb']), 100 * np.median(d['h100-pcie-80gb'])))
open('results/option_power.md', 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
