#!/usr/bin/env python3
# Writes tests/data/engine-options/*.json: the options each engine really
# accepts, read from its source at a named version (llama.cpp common/arg.cpp,
# vLLM vllm/engine/arg_utils.py, Ollama docs/modelfile.mdx + api/types.go +
# envconfig/config.go), with a value format for the ones Headroom writes.
# test-commands checks every generated command against them.  A developer
# tool; the tests read the committed JSON.
# SGLang: docs/advanced_features/server_arguments.md (python -m
# sglang.launch_server).  Ray: the `ray start` options the vLLM cluster
# commands use, as python/ray/scripts/scripts.py defines them.
# Usage: tools/import-engine-options.py LLAMA_SERVER.json VLLM_SERVE.json OLLAMA.json \
#            SGLANG.json
import json, os, sys

out_dir = os.path.join(os.path.dirname(__file__), '..', 'tests', 'data', 'engine-options')
INT = r'^[0-9]+$'

# Value formats (regular expressions) of the options Headroom writes.
LLAMA_FORMATS = {
    '--model': r'^.+$', '--ctx-size': INT, '--parallel': r'^[1-9][0-9]*$',
    '--n-gpu-layers': r'^([0-9]+|auto|all)$', '--split-mode': r'^(none|layer|row|tensor)$',
    '--tensor-split': r'^[0-9.]+([,/][0-9.]+)*$', '--n-cpu-moe': INT,
    '--flash-attn': r'^(on|off|auto)$',
    '--cache-type-k': r'^(f32|f16|bf16|q8_0|q4_0|q4_1|iq4_nl|q5_0|q5_1)$',
    '--cache-type-v': r'^(f32|f16|bf16|q8_0|q4_0|q4_1|iq4_nl|q5_0|q5_1)$',
    '--ubatch-size': r'^[1-9][0-9]*$', '--host': r'^[0-9a-z.:]+$', '--port': INT,
}
VLLM_FORMATS = {
    '--tensor-parallel-size': r'^[1-9][0-9]*$', '--pipeline-parallel-size': r'^[1-9][0-9]*$',
    '--data-parallel-size': r'^[1-9][0-9]*$', '--max-model-len': INT,
    '--max-num-seqs': r'^[1-9][0-9]*$', '--gpu-memory-utilization': r'^(0\.[0-9]+|1(\.0+)?)$',
    '--max-num-batched-tokens': INT, '--port': INT,
    '--distributed-executor-backend': r'^(ray|mp|uni|external_launcher)$',
    '--data-parallel-size-local': r'^[1-9][0-9]*$', '--data-parallel-backend': r'^(mp|ray)$',
}
SGLANG_FORMATS = {
    '--model-path': r'^.+$', '--tp-size': r'^[1-9][0-9]*$', '--pp-size': r'^[1-9][0-9]*$',
    '--dp-size': r'^[1-9][0-9]*$', '--context-length': r'^[1-9][0-9]*$',
    '--mem-fraction-static': r'^0\.[0-9]+$', '--chunked-prefill-size': r'^([1-9][0-9]*|-1)$',
    '--port': INT, '--nnodes': r'^[1-9][0-9]*$', '--node-rank': INT,
    # HOST:PORT, the host possibly a placeholder the user replaces
    '--dist-init-addr': r'^([A-Za-z0-9.-]+|<head-address>):[0-9]+$',
}

def choices_regex(choices):
    return '^(' + '|'.join(str(c).replace('.', r'\.') for c in choices) + ')$'

llama = json.load(open(sys.argv[1]))
options = []
for o in llama['options']:
    entry = {'names': o['names']}
    for n in o['names']:
        if n in LLAMA_FORMATS:
            entry['format'] = LLAMA_FORMATS[n]
    options.append(entry)
json.dump({'engine': 'llama-server', 'version': llama['build'], 'commit': llama['commit'],
           'source': 'ggml-org/llama.cpp common/arg.cpp (options of llama-server)',
           'options': options},
          open(os.path.join(out_dir, 'llama-server.json'), 'w'), indent=1)

vllm = json.load(open(sys.argv[2]))
options = []
for o in vllm['options']:
    entry = {'names': [n for n in o['names'] if n.startswith('-')]}
    if not entry['names']:
        continue
    if o.get('choices'):
        entry['format'] = choices_regex(o['choices'])
    for n in entry['names']:
        if n in VLLM_FORMATS:
            entry['format'] = VLLM_FORMATS[n]
    if o.get('value') in ('store_true', 'flag'):
        entry['flag'] = True
    options.append(entry)
json.dump({'engine': 'vllm serve', 'version': vllm['version'], 'commit': vllm['commit'],
           'source': 'vllm-project/vllm vllm/engine/arg_utils.py, vllm/entrypoints/openai/cli_args.py',
           'environment': ['VLLM_ALLOW_LONG_MAX_MODEL_LEN', 'VLLM_HOST_IP', 'NCCL_SOCKET_IFNAME',
                           'GLOO_SOCKET_IFNAME', 'VLLM_RAY_DP_PACK_STRATEGY'],
           'env_formats': {'VLLM_ALLOW_LONG_MAX_MODEL_LEN': '^1$',
                           'VLLM_RAY_DP_PACK_STRATEGY': '^span$'},
           'options': options},
          open(os.path.join(out_dir, 'vllm-serve.json'), 'w'), indent=1)

ollama = json.load(open(sys.argv[3]))
params = sorted({p['name'] for p in ollama['modelfile']['accepted_parameters']})
env = sorted(e['name'] for e in ollama['env'] if e['name'].startswith(('OLLAMA_', 'LLAMA_ARG_')))
json.dump({'engine': 'ollama', 'version': ollama['version'], 'commit': ollama['commit'],
           'source': 'ollama/ollama docs/modelfile.mdx, api/types.go (api.Options, api.Runner), '
                     'envconfig/config.go, types/model/name.go',
           'modelfile_instructions': ollama['modelfile']['instructions'],
           'modelfile_parameters': params,
           'environment': env,
           'env_formats': {'OLLAMA_FLASH_ATTENTION': '^(0|1|true|false)$',
                           'OLLAMA_KV_CACHE_TYPE': '^(f16|q8_0|q4_0)$',
                           'OLLAMA_NUM_PARALLEL': '^[1-9][0-9]*$',
                           'OLLAMA_CONTEXT_LENGTH': '^[0-9]+$'},
           'commands': ['create', 'run', 'serve', 'pull', 'show', 'list', 'ps', 'stop', 'rm', 'cp', 'push'],
           'model_name': '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}$'},
          open(os.path.join(out_dir, 'ollama.json'), 'w'), indent=1)
sglang = json.load(open(sys.argv[4]))
options = []
for o in sglang['options']:
    entry = {'names': o['names']}
    if o.get('choices'):
        entry['format'] = choices_regex(o['choices'])
    for n in entry['names']:
        if n in SGLANG_FORMATS:
            entry['format'] = SGLANG_FORMATS[n]
    if o.get('value') == 'flag':
        entry['flag'] = True
    options.append(entry)
json.dump({'engine': 'python3 -m sglang.launch_server',
           'version': 'SGLang 0.5+; options of main at ' + sglang['commit'][:8] +
                      ' (server_arguments.md; no release tag determinable)',
           'commit': sglang['commit'],
           'source': 'sgl-project/sglang docs/advanced_features/server_arguments.md',
           'launcher': ['python3', '-m', 'sglang.launch_server'],
           'environment': ['SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN', 'NCCL_SOCKET_IFNAME',
                           'GLOO_SOCKET_IFNAME'],
           'env_formats': {'SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN': '^1$'},
           'options': options},
          open(os.path.join(out_dir, 'sglang.json'), 'w'), indent=1)

# `ray start`: the options the cluster commands use (click options of
# python/ray/scripts/scripts.py; vLLM's examples/online_serving/run_cluster.sh
# runs `ray start --head --port=6379` and `ray start --address=HEAD:6379`).
json.dump({'engine': 'ray start', 'version': 'Ray 2.x',
           'source': 'ray-project/ray python/ray/scripts/scripts.py (ray start); '
                     'vllm-project/vllm examples/online_serving/run_cluster.sh',
           'options': [
               {'names': ['--head'], 'flag': True},
               {'names': ['--address'], 'format': r'^([A-Za-z0-9.-]+|<head-address>):[0-9]+$'},
               {'names': ['--port'], 'format': INT},
               {'names': ['--node-ip-address'], 'format': r'^[A-Za-z0-9.:-]+$'},
               {'names': ['--num-gpus'], 'format': INT},
               {'names': ['--block'], 'flag': True},
           ]},
          open(os.path.join(out_dir, 'ray-start.json'), 'w'), indent=1)
print('written to', out_dir)
