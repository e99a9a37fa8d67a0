#!/usr/bin/env python3
# test-cli-logs.py CLI — headroom-cli check-log and calibrate on the
# published logs of tests/data/logs (SOURCES.md): what each log measured
# against the estimate for the same settings, what a log does not say is
# asked for (exit 2, the option named), bad files (exit 1, one line), and
# the calibration file: written, applied, turned off, corrupted and kept
# aside.  Runs in its own XDG_DATA_HOME.  Output is TAP.
import glob
import json
import os
import subprocess
import sys
import tempfile

cli = sys.argv[1]
logs = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'logs')
tmp = tempfile.mkdtemp()
env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, 'data'), HOME=os.path.join(tmp, 'home'))
calibration = os.path.join(tmp, 'data', 'headroom', 'calibration', 'calibration.json')
n = 0
failed = 0


def report(ok, what):
    global n, failed
    n += 1
    print(('ok %d - %s' if ok else 'not ok %d - %s') % (n, what))
    if not ok:
        failed += 1


def run(*args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True, env=env)


def log(name):
    return os.path.join(logs, name)


def check_json(what, args, test):
    r = run(*args, '--json')
    try:
        data = json.loads(r.stdout)
        ok = r.returncode == 0 and r.stderr == '' and test(data)
    except Exception as e:  # noqa: BLE001 - any failure is the test's
        ok = False
        what += ' (%s: %s)' % (type(e).__name__, e)
    report(ok, what + ('' if ok else ' [%d] %s' % (r.returncode, r.stderr.strip())))
    return data if ok else None


def check_fails(what, status, fragment, args):
    r = run(*args)
    lines = r.stderr.splitlines()
    ok = (r.returncode == status and r.stdout == '' and len(lines) == 1 and
          fragment in lines[0] and (status != 2 or lines[0].startswith('headroom-cli: ')))
    report(ok, what + ('' if ok else ' [%d] %r' % (r.returncode, r.stderr)))


def within(data, key, bound):
    return data['error'][key] is not None and abs(data['error'][key]) <= bound


# --- check-log: each engine, what it measured, against the estimate ---------

# vLLM 0.19: everything but the device is in the log.  The figures are
# the log's ("GPU KV cache size: 476,016 tokens"), the errors the
# estimator's measured accuracy (tests/accuracy/RESULTS.md: vLLM KV
# capacity within 1.3 %).
check_json('check-log vLLM 0.19: Llama 3.1 8B on an H100',
           ['check-log', log('vllm-0.19-llama31-8b-h100.log'), '--hardware', 'h100-sxm-80gb'],
           lambda d: d['engine'] == 'vllm' and d['build'] == '0.19.0'
           and d['model'] == 'meta-llama/Llama-3.1-8B-Instruct' and d['context'] == 16384
           and d['precision'] == 'bf16' and d['batch'] == 1024
           and d['measured']['kv_capacity_tokens'] == 476016
           and d['measured']['weights_bytes'] == round(14.99 * 2**30)
           and within(d, 'kv_capacity_tokens', 0.02) and within(d, 'weights_bytes', 0.01)
           and within(d, 'max_concurrency', 0.02))
check_json('check-log vLLM 0.19: Qwen2.5 7B on an H100',
           ['check-log', log('vllm-0.19-qwen25-7b-h100.log'), '--hardware', 'h100-sxm-80gb'],
           lambda d: d['measured']['kv_capacity_tokens'] == 1096000
           and within(d, 'kv_capacity_tokens', 0.02) and within(d, 'weights_bytes', 0.01))
# vLLM 0.6 (V0, no version line): its lines choose the 0.6 memory model and
# a step of max_model_len tokens (docs/reference/measured.md (c) 1)
check_json('check-log vLLM 0.6: 1,952 blocks of 16 tokens on an RTX 3090',
           ['check-log', log('vllm-0.6-llama31-8b-rtx3090.log'), '--hardware', 'rtx-3090-24gb',
            '--model', 'meta-llama/Llama-3.1-8B-Instruct', '--precision', 'bf16'],
           lambda d: d['measured']['kv_capacity_tokens'] == 1952 * 16 and d['context'] == 20000
           and within(d, 'kv_capacity_tokens', 0.03) and within(d, 'kv_bytes', 0.03))
check_json('check-log vLLM 0.7 V1: weights of a 70B FP8 checkpoint',
           ['check-log', log('vllm-0.7-v1-llama31-70b-w8a8.log'), '--hardware', 'h100-sxm-80gb',
            '--model', 'meta-llama/Llama-3.1-70B-Instruct', '--precision', 'fp8'],
           lambda d: d['measured']['weights_bytes'] == round(67.7229 * 2**30)
           and d['context'] == 2048 and within(d, 'weights_bytes', 0.01))

# llama.cpp: buffers per device; the KV cache is exact arithmetic
# (32 layers × 8 heads × 128 × 2 × 2 B × 8192 = 1 GiB)
check_json('check-log llama.cpp 2024: KV cache and weights per device',
           ['check-log', log('llamacpp-2024-llama3-8b-cuda.log'), '--hardware', 'rtx-3090-24gb',
            '--model', 'meta-llama/Llama-3.1-8B-Instruct', '--precision', 'q4_0'],
           lambda d: d['engine'] == 'llamacpp' and d['context'] == 8192
           and d['measured']['kv_bytes'] == 2**30 and d['error']['kv_bytes'] == 0
           and d['measured']['weights_bytes'] == round(4155.99 * 2**20) + round(281.81 * 2**20)
           and within(d, 'weights_bytes', 0.02)
           and [x['name'] for x in d['devices']] == ['CPU', 'CUDA0'])
# Ollama 0.3: its own plan (memory.required.kv="640.0 MiB" = 80 layers ×
# 8 × 128 × 2 × 2 B × 2048)
check_json('check-log Ollama 0.3: the plan of a 70B on a 24 GB ROCm GPU',
           ['check-log', log('ollama-0.3-rocm-llama3-70b.log'),
            '--hardware', 'radeon-rx-7900-xtx-24gb', '--model', 'meta-llama/Llama-3.1-70B-Instruct',
            '--precision', 'q4_0'],
           lambda d: d['engine'] == 'ollama' and d['measured_source'] == 'ollama-plan'
           and d['measured']['kv_bytes'] == 640 * 2**20 and d['error']['kv_bytes'] == 0
           and d['context'] == 2048)
check_json('check-log Ollama 0.5: 4 parallel sequences of 2,048 tokens',
           ['check-log', log('ollama-0.5-cuda-qwen-parallel.log'), '--hardware', 'a100-sxm-80gb',
            '--model', 'Qwen/Qwen2.5-3B-Instruct', '--precision', 'q4_k_m'],
           lambda d: d['context'] == 2048 and d['batch'] == 4
           and d['measured']['kv_bytes'] == 896 * 2**20)
# SGLang: K + V per GPU
check_json('check-log SGLang: KV capacity and pool',
           ['check-log', log('sglang-0.4-gemma3-27b.log'), '--hardware', 'h200-sxm-141gb',
            '--model', 'google/gemma-3-4b-it', '--context', '8192'],
           lambda d: d['engine'] == 'sglang' and d['measured']['kv_capacity_tokens'] == 834615
           and d['measured']['weights_bytes'] == round(8.13 * 2**30)
           and d['error']['kv_capacity_tokens'] is not None)
# llama-bench: each row against the estimate at its settings
bench = check_json('check-log llama-bench JSON: a prompt row and a decode row',
                   ['check-log', log('llama-bench-readme-rtx4080.json'),
                    '--hardware', 'rtx-4080-16gb', '--model', 'Qwen/Qwen2.5-7B-Instruct'],
                   lambda d: d['build'] == '5163' and d['precision'] == 'q4_k_m'
                   and [r['test'] for r in d['runs']] == ['pp', 'tg']
                   and d['runs'][0]['measured_tokens_per_s'] == 7100.002165
                   and d['runs'][1]['measured_tokens_per_s'] == 118.881588
                   and all(r['estimated_tokens_per_s'] > 0 for r in d['runs'])
                   and d['measured']['decode_tokens_per_s'] == 118.881588
                   and d['calibrated_runs'] == 0)
check_json('check-log llama-bench markdown with depth rows',
           ['check-log', log('llama-bench-readme-depth.md'), '--hardware', 'rtx-4090-24gb',
            '--model', 'Qwen/Qwen2.5-7B-Instruct'],
           lambda d: [r['depth'] for r in d['runs']] == [0, 0, 512, 512]
           and d['runs'][3]['measured_tokens_per_s'] == 116.71
           and d['runs'][3]['estimated_tokens_per_s'] < d['runs'][1]['estimated_tokens_per_s'])
check_json('check-log llama.cpp timing lines: prompt and decode speed',
           ['check-log', log('llamacpp-2025-server-perf.log'), '--hardware', 'rtx-3060-12gb',
            '--model', 'Qwen/Qwen2.5-7B-Instruct', '--precision', 'q4_k_m'],
           lambda d: d['measured']['prefill_tokens_per_s'] == 55.73
           and d['measured']['decode_tokens_per_s'] == 11.94
           and d['estimate']['decode_tokens_per_s'] > 0)
r = run('check-log', log('vllm-0.19-llama31-8b-h100.log'), '--hardware', 'h100-sxm-80gb')
report(r.returncode == 0 and 'KV capacity' in r.stdout and '476,016' in r.stdout
       and 'error' in r.stdout, 'check-log prints a table of measured, estimated, error')

# --- what the log does not say is asked for ---------------------------------
check_fails('no device: --hardware asked for', 2, 'give --hardware H',
            ['check-log', log('vllm-0.19-llama31-8b-h100.log')])
check_fails('no catalog model: --model asked for', 2, 'give --model M',
            ['check-log', log('llamacpp-2024-llama3-8b-cuda.log'), '--hardware', 'rtx-3090-24gb'])
check_fails('no precision: --precision asked for', 2, 'give --precision P',
            ['check-log', log('llamacpp-2024-llama3-8b-cuda.log'), '--hardware', 'rtx-3090-24gb',
             '--model', 'meta-llama/Llama-3.1-8B-Instruct'])
check_fails('no context: --context asked for', 2, 'give --context N',
            ['check-log', log('sglang-qwen3-235b-fp8-tp4.log'), '--hardware', 'h100-sxm-80gb',
             '--model', 'Qwen/Qwen3-235B-A22B', '--precision', 'fp8'])
check_fails('check-log without a file', 2, 'check-log needs exactly one FILE', ['check-log'])
check_fails('check-log with two files', 2, 'check-log needs exactly one FILE',
            ['check-log', log('sglang-2025-11-b200.log'), log('sglang-2025-11-b200.log')])
check_fails('check-log refuses a stray option', 2, 'Unknown option --users',
            ['check-log', log('sglang-2025-11-b200.log'), '--users', '4'])
check_fails('calibrate refuses a stray option', 2, 'Unknown option --context',
            ['calibrate', log('llama-bench-pr7199-cuda.md'), '--context', '8'])

# --- bad files: exit 1, one line naming the file -----------------------------
junk = os.path.join(tmp, 'junk.log')
with open(junk, 'w') as f:
    f.write('hello\nworld\n' * 1000)
binary = os.path.join(tmp, 'model.gguf')
with open(binary, 'wb') as f:
    f.write(b'GGUF\x03\x00\x00\x00' + bytes(4096))
check_fails('an unrecognised text', 1, 'junk.log: not a llama.cpp, Ollama, vLLM or SGLang log',
            ['check-log', junk, '--hardware', 'h100-sxm-80gb'])
check_fails('binary data', 1, 'model.gguf: binary data', ['check-log', binary])
check_fails('a missing file', 1, 'missing.log', ['check-log', os.path.join(tmp, 'missing.log')])
check_fails('a directory', 1, tmp, ['check-log', tmp])
check_fails('a log without figures', 1, 'without a figure Headroom can compare',
            ['check-log', log('ollama-0.3.6-windows-start.log')])
check_fails('calibrate from a log without speeds', 1, 'no speed measured',
            ['calibrate', log('vllm-0.19-llama31-8b-h100.log'), '--hardware', 'h100-sxm-80gb'])

# --- calibrate: stored, applied, turned off ---------------------------------
G = ['--model', 'Qwen/Qwen2.5-7B-Instruct', '--precision', 'q4_k_m', '--hardware',
     'rtx-4080-16gb']
r = run('calibrate', log('llama-bench-readme-rtx4080.json'), *G)
report(r.returncode == 0 and 'from 2 runs' in r.stdout and os.path.isfile(calibration),
       'calibrate stores the factors of 2 runs (%s)' % r.stderr.strip())
stored = json.load(open(calibration)) if os.path.isfile(calibration) else {'entries': []}
entry = stored['entries'][0] if stored['entries'] else {}
report(entry.get('hardware') == 'rtx-4080-16gb' and entry.get('backend') == 'cuda'
       and entry.get('decode_runs') == 1 and entry.get('prefill_runs') == 1,
       'the file holds one entry for the device and backend')
# the factor is measured ÷ estimated: the calibrated estimate of the same
# row is the measured speed
if bench is not None and entry:
    est_tg = bench['runs'][1]['estimated_tokens_per_s']
    report(abs(entry['decode_factor'] - 118.881588 / est_tg) < 1e-9,
           'decode factor = 118.88 t/s measured ÷ %.2f estimated' % est_tg)
else:
    report(False, 'decode factor = measured ÷ estimated')
check_json('check-log applies the calibration: tg128 estimated = measured',
           ['check-log', log('llama-bench-readme-rtx4080.json'), *G],
           lambda d: d['calibrated_runs'] == 2
           and abs(d['runs'][1]['estimated_tokens_per_s'] - 118.881588) < 1e-6
           and abs(d['runs'][0]['estimated_tokens_per_s'] - 7100.002165) < 1e-3)
est = check_json('estimate applies the calibration',
                 ['estimate', *G, '--context', '128'],
                 lambda d: d['calibrated_runs'] == 2
                 and abs(d['decode_tokens_per_s'] - 118.881588) < 1e-6)
check_json('--no-calibration ignores it',
           ['estimate', *G, '--context', '128', '--no-calibration'],
           lambda d: d['calibrated_runs'] == 0 and est is not None
           and abs(d['decode_tokens_per_s'] * entry['decode_factor']
                   - est['decode_tokens_per_s']) < 1e-6)
check_json('hardware applies the calibration to its row',
           ['hardware', *G, '--context', '128', '--json'],
           lambda d: abs(d['rows'][0]['decode_tokens_per_s'] - 118.881588) < 1e-6)
check_json('hardware --no-calibration ignores it',
           ['hardware', *G, '--context', '128', '--json', '--no-calibration'],
           lambda d: est is not None and abs(d['rows'][0]['decode_tokens_per_s']
                                             * entry['decode_factor'] - 118.881588) < 1e-6)
check_json('another device is not calibrated',
           ['estimate', *G[:4], '--hardware', 'rtx-4090-24gb', '--context', '128'],
           lambda d: d['calibrated_runs'] == 0)
r = run('estimate', *G, '--context', '128')
report(r.returncode == 0 and 'calibrated on this computer from 2 runs' in r.stdout,
       'the text says "calibrated on this computer from 2 runs"')
r = run('calibrate')
report(r.returncode == 0 and calibration in r.stdout and 'rtx-4080-16gb (cuda)' in r.stdout,
       'calibrate without FILE prints the file (the export) and its entries')
# calibrating again replaces the entry: runs are not counted twice
run('calibrate', log('llama-bench-readme-rtx4080.json'), *G)
again = json.load(open(calibration))
report(len(again['entries']) == 1 and again['entries'][0]['decode_runs'] == 1,
       'calibrating again replaces the entry')

# --- a corrupted calibration file: kept aside, never fatal -------------------
with open(calibration, 'w') as f:
    f.write('{"version": 1, "entries": [ {"hardware": "x"')
r = run('estimate', *G, '--context', '128', '--json')
aside = glob.glob(calibration + '.broken-*')
lines = r.stderr.splitlines()
report(r.returncode == 0 and json.loads(r.stdout)['calibrated_runs'] == 0 and len(lines) == 1
       and 'could not be read' in lines[0] and 'kept as' in lines[0],
       'a corrupted file: one note, the estimate uncalibrated (%r)' % r.stderr)
report(len(aside) == 1 and open(aside[0]).read().startswith('{"version": 1, "entries"')
       and not os.path.exists(calibration), 'the corrupted file is kept aside, as it was')
with open(calibration, 'w') as f:
    json.dump({'version': 1, 'entries': [{'hardware': 'rtx-4080-16gb', 'backend': 'cuda',
                                          'decode_factor': 1e9, 'decode_runs': 1,
                                          'prefill_factor': 1, 'prefill_runs': 0}]}, f)
r = run('estimate', *G, '--context', '128', '--json')
report(r.returncode == 0 and json.loads(r.stdout)['calibrated_runs'] == 0
       and 'a factor outside' in r.stderr, 'an implausible factor is refused the same way')
r = run('calibrate', log('llama-bench-readme-rtx4080.json'), *G)
report(r.returncode == 0 and json.load(open(calibration))['entries'][0]['decode_runs'] == 1,
       'calibrate starts a new file after a bad one')

print('1..%d' % n)
sys.exit(1 if failed else 0)
