#!/usr/bin/env python3
# import-speed-cases.py — llama-bench rows into tests/accuracy/cases.json
#
# Reads the rows the speed model was fitted on (tests/calibration/speed/
# calibration_rows.csv: every row of docs/reference/measured-speed.md and
# the decode rows of docs/reference/measured.md) and the held-out rows of
# the same benchmark it never saw (validation_xiongjiedai.csv), and writes
# one accuracy case per row, through the llama.cpp profile as issue 12
# states it:
#   tg N  → --context N/2 (the average depth of N generated tokens),
#           field decode_tokens_per_s;
#   pp N  → --context N --prompt-tokens N, field prefill_tokens_per_s.
# Each row is shown, not bounded alone; each group's median error is
# bounded ("group_bounds" in cases.json; run-accuracy.py checks it).
#
# Usage: tools/import-speed-cases.py   (rewrites the Speed groups in place)
import csv, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SPEED = os.path.join(ROOT, 'tests', 'calibration', 'speed')
CASES = os.path.join(ROOT, 'tests', 'accuracy', 'cases.json')

MODELS = {'llama3-8b': 'meta-llama/Llama-3.1-8B-Instruct',
          'llama3-70b': 'meta-llama/Llama-3.1-70B-Instruct'}
PRECISIONS = {'Q4_K_M': 'q4_k_m', 'F16': 'fp16', 'Q8_0': 'q8_0', 'Q4_0': 'q4_0'}

# Issue 12's targets: the fit rows, and rows of the same kind it never saw.
GROUPS = {
    ('calibration', 'tg'): ('Speed: decode, rows the model was fitted on (llama-bench tg N)', 7),
    ('calibration', 'pp'): ('Speed: prompt, rows the model was fitted on (llama-bench pp N)', 12),
    ('held-out', 'tg'): ('Speed: decode, held-out rows (same benchmark, other devices and GPU counts)', 8),
    ('held-out', 'pp'): ('Speed: prompt, rows that chose the power prior (calibration rows since issue 31; same benchmark, other devices and GPU counts)', 15),
}


def cases_from(path, kind, hardware):
    out = []
    for r in csv.DictReader(open(path)):
        if r['model'] not in MODELS or r['quant'] not in PRECISIONS:
            continue
        if r['device_id'] not in hardware:
            continue
        n, gpus = int(r['n']), int(r['n_gpus'])
        args = ['--model', MODELS[r['model']], '--precision', PRECISIONS[r['quant']],
                '--engine', 'llamacpp', '--hardware', r['device_id'],
                # the builds measured (2024) ran without flash attention
                # (llama-bench's -fa 0 then), which -fa auto now turns on
                '--flash-attn', 'off']
        if gpus > 1:
            args += ['--gpus', str(gpus)]
        if r['test'] == 'tg':
            args += ['--context', str(n // 2)]
            field = 'decode_tokens_per_s'
        else:
            args += ['--context', str(n), '--prompt-tokens', str(n)]
            field = 'prefill_tokens_per_s'
        group = GROUPS[(kind, r['test'])][0]
        label = '%s%s %s %s %s %d' % (hardware[r['device_id']], ' ×%d' % gpus if gpus > 1 else '',
                                      r['model'].replace('llama3-', 'Llama 3 ').upper().replace('LLAMA', 'Llama'),
                                      r['quant'], r['test'], n)
        out.append({'group': group, 'label': label, 'args': args, 'field': field,
                    'measured': float(r['measured_tps']), 'unit': 'tok/s',
                    'bound_percent': None, 'source': r['source']})
    return out


def main():
    hardware = {h['id']: h['name'] for h in
                json.load(open(os.path.join(ROOT, 'resources', 'catalog', 'hardware.json')))['hardware']}
    data = json.load(open(CASES))
    kept = [c for c in data['cases'] if not c['group'].startswith('Speed: ')]
    speed = (cases_from(os.path.join(SPEED, 'calibration_rows.csv'), 'calibration', hardware) +
             cases_from(os.path.join(SPEED, 'validation_xiongjiedai.csv'), 'held-out', hardware))
    order = [g for g, _ in GROUPS.values()]
    speed.sort(key=lambda c: order.index(c['group']))
    data['cases'] = kept + speed
    data['group_bounds'] = {g: {'median_percent': m} for g, m in GROUPS.values()}
    with open(CASES, 'w') as f:
        f.write(json.dumps(data, indent=1, ensure_ascii=False))
    print('%d speed cases' % len(speed))


main()
