#!/usr/bin/env python3
# Regenerates resources/catalog/{models,hardware}.json from the reference
# tables the project was seeded with (docs/reference/models.json and
# gpus.json).  This is a developer tool: the build, the app and the tests
# never run it; they read the committed JSON.
# Usage: tools/import-reference.py docs/reference
import json, re, sys, os

ref = sys.argv[1]
out = os.path.join(os.path.dirname(__file__), '..', 'resources', 'catalog')

# ---------------------------------------------------------------- models
ATTN = {'GQA': 'gqa', 'MHA': 'mha', 'MQA': 'mqa', 'MLA': 'mla'}
# The seed page (docs/SEED-SPEC.md) gives GLM-4-9B-0414 the Ollama tag glm4:9b.
SEED_OLLAMA = {'THUDM/GLM-4-9B-0414': 'glm4:9b'}

def first(x, *keys, default=None):
    for k in keys:
        if x.get(k) is not None:
            return x[k]
    return default

models = []
for x in json.load(open(os.path.join(ref, 'models.json')))['models']:
    layers = x['num_hidden_layers']
    attn = ATTN[x['attention_kind']]
    m = {
        'id': x['id'],
        'name': x['display_name'],
        'family': x['family'],
        'architecture': x['model_type'],
        'license': x['license'],
        'release': x['release'],
        'ollama_tag': SEED_OLLAMA.get(x['id'], x.get('ollama_tag')),
        'layers': layers,
        'hidden': x['hidden_size'],
        'heads': x['num_attention_heads'],
        'kv_heads': x['num_key_value_heads'],
        'intermediate': x['intermediate_size'],
        'vocab': x['vocab_size'],
        'max_context': x['max_position_embeddings'],
        'tied_embeddings': bool(x['tie_word_embeddings']),
        'attention': attn,
        'params': x['computed_params'],
        'active_params': x.get('computed_active_params', x['computed_params']),
    }
    if attn == 'mla':
        m['head_dim'] = x['qk_nope_head_dim'] + x['qk_rope_head_dim']
        m['head_dim_v'] = x['v_head_dim']
        m['kv_lora_rank'] = x['kv_lora_rank']
        m['qk_rope_head_dim'] = x['qk_rope_head_dim']
        m['qk_nope_head_dim'] = x['qk_nope_head_dim']
        if x.get('q_lora_rank'):
            m['q_lora_rank'] = x['q_lora_rank']
    else:
        m['head_dim'] = x['head_dim']
    # gpt-oss projections carry biases although its config has no
    # attention_bias key (they are counted in computed_params).
    if x.get('attention_bias') or x['model_type'] == 'gpt_oss':
        m['attention_bias'] = True
    sw = x.get('sliding_window')
    if sw and x.get('use_sliding_window', True):
        m['sliding_window'] = sw
        # Period of the local/global pattern: the last layer of each period
        # is global.  0 = every layer uses the window.
        if x.get('sliding_window_pattern'):
            m['swa_period'] = x['sliding_window_pattern']
        elif x.get('local_layers'):
            m['swa_period'] = layers // x['global_layers']
        else:
            m['swa_period'] = 0
    experts = first(x, 'n_routed_experts', 'num_experts', 'num_local_experts')
    if experts:
        m['experts'] = experts
        m['experts_active'] = x['num_experts_per_tok']
        m['expert_intermediate'] = x['moe_intermediate_size']
        if x.get('n_shared_experts'):
            m['shared_experts'] = x['n_shared_experts']
        if x.get('first_k_dense_replace'):
            m['dense_layers'] = x['first_k_dense_replace']
    if x['model_type'] == 'falcon':
        m['mlp'] = 'plain'            # non-gated 4H MLP
    src = x.get('source') or []
    m['source'] = src[0] if src else ''
    models.append(m)

# ---------------------------------------------------------------- devices
def family(vendor, name):
    if vendor == 'Apple':
        return 'apple-silicon'
    if vendor == 'AMD':
        return 'amd-instinct' if 'Instinct' in name else 'amd-radeon'
    if vendor == 'Intel':
        return 'intel-arc'
    if name.startswith('GeForce'):
        return 'nvidia-geforce'
    if name.startswith('RTX'):
        return 'nvidia-workstation'
    return 'nvidia-datacenter'

# Explicit ids where docs/CLI.md fixes them or a name needs a shorter form.
SHORT = {
    'A100 40GB (SXM/PCIe)': ('a100-40gb', 'A100 40GB'),
    'A100 80GB PCIe': ('a100-pcie-80gb', 'A100 PCIe 80GB'),
    'A100 80GB SXM': ('a100-sxm-80gb', 'A100 SXM 80GB'),
    'H100 PCIe': ('h100-pcie-80gb', 'H100 PCIe 80GB'),
    'H100 SXM': ('h100-sxm-80gb', 'H100 SXM 80GB'),
    'H200 (SXM)': ('h200-sxm-141gb', 'H200 SXM 141GB'),
    'V100 (SXM2 / PCIe)': ('v100', 'V100'),
    'GH200 Grace Hopper Superchip': ('gh200', 'GH200'),
    'RTX 6000 Ada Generation': ('rtx-6000-ada', 'RTX 6000 Ada'),
    'Apple M2 Ultra (Mac Studio/Mac Pro)': ('apple-m2-ultra', 'Apple M2 Ultra'),
    'Apple M3 Max (14C CPU / 30C GPU)': ('apple-m3-max-30c', 'Apple M3 Max 30-core GPU'),
    'Apple M3 Max (16C CPU / 40C GPU)': ('apple-m3-max', 'Apple M3 Max'),
    'Apple M3 Ultra (Mac Studio 2025)': ('apple-m3-ultra', 'Apple M3 Ultra'),
    'Apple M4 Max (14C CPU / 32C GPU)': ('apple-m4-max-32c', 'Apple M4 Max 32-core GPU'),
    'Apple M4 Max (16C CPU / 40C GPU)': ('apple-m4-max', 'Apple M4 Max'),
}

def slug(s):
    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')

# PCI ids (for recognising a detected GPU) are not in the reference
# tables: they were added to hardware.json by hand from pci.ids, and are
# kept across a regeneration.
try:
    with open(os.path.join(out, 'hardware.json')) as f:
        PCI_IDS = {d['id']: d['pci_ids'] for d in json.load(f)['hardware'] if d.get('pci_ids')}
except (OSError, ValueError, KeyError):
    PCI_IDS = {}

devices = []
for g in json.load(open(os.path.join(ref, 'gpus.json')))['gpus']:
    name = g['name']
    mems = g['memory_gb'] if isinstance(g['memory_gb'], list) else [g['memory_gb']]
    bws = g['memory_bandwidth_gbps']
    bws = bws if isinstance(bws, list) else [bws] * len(mems)
    base_id, base_name = SHORT.get(name, (None, None))
    if base_name is None:
        base_name = name.replace('GeForce ', '')
        base_id = slug(base_name)
    for mem, bw in zip(mems, bws):
        has_mem = re.search(r'\d+GB', base_name) is not None
        dname = base_name if has_mem else f'{base_name} {mem}GB'
        did = base_id if has_mem else f'{base_id}-{mem}gb'
        src = g.get('source') or []
        devices.append({
            'id': did,
            'name': dname,
            'vendor': g['vendor'],
            'family': family(g['vendor'], name),
            'kind': 'unified' if g.get('unified_memory') else 'discrete',
            'memory_gib': mem,
            'bandwidth_gbps': bw,
            'fp16_tflops': g.get('fp16_dense_tflops'),
            'memory_type': g.get('memory_type') or '',
            'source': src[0] if src else '',
        })
        if did in PCI_IDS:
            devices[-1]['pci_ids'] = PCI_IDS[did]

ids = [d['id'] for d in devices]
assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]

def dump(path, key, rows, extra=None):
    with open(path, 'w') as f:
        f.write('{\n')
        for k, v in (extra or {}).items():
            f.write('  "%s": %s,\n' % (k, json.dumps(v)))
        f.write('  "%s": [\n' % key)
        f.write(',\n'.join('    ' + json.dumps(r, ensure_ascii=False) for r in rows))
        f.write('\n  ]\n}\n')

# The recommended-tier ladder of the matrix (docs/SEED-SPEC.md: "RTX 3060 12GB,
# RTX 4060 Ti 16GB, RTX 3090 24GB, RTX 5090 32GB, then larger").
LADDER = ['rtx-3060-12gb', 'rtx-4060-ti-16gb', 'rtx-3090-24gb', 'rtx-5090-32gb',
          'rtx-6000-ada-48gb', 'a100-sxm-80gb', 'h200-sxm-141gb', 'b200-192gb']
assert all(t in ids for t in LADDER)

dump(os.path.join(out, 'models.json'), 'models', models)
dump(os.path.join(out, 'hardware.json'), 'hardware', devices, {'tier_ladder': LADDER})
print(len(models), 'models,', len(devices), 'devices')
