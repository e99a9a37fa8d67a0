#!/usr/bin/env python3
# Adds models to resources/catalog/models.json from their config.json files.
#
# For every model listed in MODELS below, the research notes (extra.json and
# configs/ of RESEARCH_DIR) give a Hugging Face config.json (or a faithful
# transcription of one) and the facts a config does not hold: display name,
# family, license, release quarter, Ollama tag.  This tool
#
#   1. writes the config as tests/data/hf/<org>--<name>.json, with
#      _name_or_path set to the model's id, the few values the notes had to
#      supply (FIXES, each with its reason) filled in, and "_source" saying
#      where the values were read;
#   2. runs the built `headroom-cli inspect FILE --json` on it, so that the
#      shape and the parameter counts are the importer's own (exact, never
#      typed by hand);
#   3. merges the notes' facts and writes the catalog entry, whose source is
#      the model's official Hugging Face config.
#
# Entries already in the catalog are kept; those whose source pointed at a
# third-party fork or re-upload get the official config URL instead.
# tools/import-reference.py writes the seed's 38 entries; run this after it.
#
# A developer tool: the build, the app and the tests never run it; they read
# the committed JSON.  tests/test-hf-config.c checks that every catalog
# entry is what the importer makes of its fixture.
#
# Usage: tools/import-models.py RESEARCH_DIR [HEADROOM_CLI]
import json, os, subprocess, sys

research = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, '..')
cli = sys.argv[2] if len(sys.argv) > 2 else os.environ.get(
    'HEADROOM_CLI', os.path.join(root, '_build', 'src', 'cli', 'headroom-cli'))
catalog_path = os.path.join(root, 'resources', 'catalog', 'models.json')
fixtures = os.path.join(root, 'tests', 'data', 'hf')

# The new models, in catalog order.  Left out (see the notes' importer
# gaps): Llama 4 (interleaved MoE with a shared expert, chunked attention),
# Gemma 3n (per-layer embeddings, AltUp, shared KV), Qwen3-Next (linear
# attention), Phi-3.5-MoE (phimoe), Granite 4.0
# (Mamba-2 hybrid), Falcon-H1 (parallel Mamba-2), ERNIE 4.5, EXAONE 4.0,
# Command A; Magistral, Devstral, Hermes 3 and Seed-OSS have no config in
# the notes.
MODELS = [
    'Qwen/Qwen3-0.6B', 'Qwen/Qwen3-1.7B', 'Qwen/Qwen3-4B', 'Qwen/Qwen3-4B-Instruct-2507',
    'Qwen/Qwen3-30B-A3B-Instruct-2507', 'Qwen/Qwen3-235B-A22B-Instruct-2507',
    'Qwen/Qwen3-Coder-30B-A3B-Instruct', 'Qwen/Qwen3-Coder-480B-A35B-Instruct',
    'Qwen/Qwen2.5-1.5B-Instruct', 'Qwen/Qwen2.5-3B-Instruct',
    'Qwen/Qwen2.5-Coder-1.5B-Instruct', 'Qwen/Qwen2.5-Coder-7B-Instruct',
    'Qwen/Qwen2.5-Coder-14B-Instruct', 'Qwen/Qwen2.5-Coder-32B-Instruct', 'Qwen/QwQ-32B',
    'mistralai/Mistral-7B-Instruct-v0.3', 'mistralai/Ministral-8B-Instruct-2410',
    'mistralai/Mistral-Small-Instruct-2409', 'mistralai/Mistral-Small-3.1-24B-Instruct-2503',
    'mistralai/Mistral-Small-3.2-24B-Instruct-2506', 'mistralai/Codestral-22B-v0.1',
    'mistralai/Mistral-Large-Instruct-2411', 'mistralai/Mixtral-8x22B-Instruct-v0.1',
    'deepseek-ai/DeepSeek-V3.1', 'deepseek-ai/DeepSeek-R1-0528',
    'deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B',
    'deepseek-ai/DeepSeek-R1-Distill-Qwen-14B', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B',
    'deepseek-ai/DeepSeek-R1-Distill-Llama-8B', 'deepseek-ai/DeepSeek-R1-Distill-Llama-70B',
    'deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct', 'moonshotai/Kimi-K2-Instruct',
    'zai-org/GLM-4.5', 'zai-org/GLM-4.5-Air', 'zai-org/GLM-4.6',
    'google/gemma-3-270m', 'google/gemma-3-1b-it', 'google/gemma-2-2b-it',
    'microsoft/Phi-3.5-mini-instruct', 'microsoft/Phi-4-mini-instruct',
    'microsoft/Phi-4-mini-reasoning', 'microsoft/Phi-4-reasoning',
    'HuggingFaceTB/SmolLM2-1.7B-Instruct', 'HuggingFaceTB/SmolLM3-3B',
    'ibm-granite/granite-3.3-2b-instruct', 'ibm-granite/granite-3.3-8b-instruct',
    'CohereForAI/c4ai-command-r7b-12-2024', 'CohereForAI/c4ai-command-r-plus',
    'allenai/OLMo-2-1124-7B-Instruct', 'allenai/OLMo-2-1124-13B-Instruct',
    'allenai/OLMo-2-0325-32B-Instruct', 'tiiuae/Falcon3-10B-Instruct',
    'internlm/internlm3-8b-instruct', '01-ai/Yi-1.5-6B-Chat', '01-ai/Yi-1.5-9B-Chat',
    'LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct', 'LGAI-EXAONE/EXAONE-Deep-32B',
    'XiaomiMiMo/MiMo-7B-Base',
]

# Values a config copy lacks, each with where it comes from.
FIXES = {
    'HuggingFaceTB/SmolLM3-3B': (
        {'max_position_embeddings': 65536},
        'max_position_embeddings: the card\'s 64K context (the transcription has none)'),
    'LGAI-EXAONE/EXAONE-3.5-7.8B-Instruct': (
        {'vocab_size': 102400},
        'vocab_size: the stored copy ends before it; EXAONE 3.5\'s tokenizer, as in '
        'EXAONE-Deep-32B\'s config'),
    'deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct': (
        {'max_position_embeddings': 163840, 'tie_word_embeddings': False},
        'max_position_embeddings and untied head: as DeepSeek-V2-Lite, whose 16B shape it '
        'shares (128K context)'),
    'google/gemma-3-270m': (
        {'max_position_embeddings': 32768},
        'max_position_embeddings: the card\'s 32K context for the 270M model'),
    'zai-org/GLM-4.6': (
        {'max_position_embeddings': 202752},
        'max_position_embeddings: 202,752 (198K) as in copies of the GLM-4.6 config; the '
        'README rounds it to 200K'),
    'Qwen/Qwen2.5-Coder-1.5B-Instruct': (
        {'tie_word_embeddings': True},
        'tie_word_embeddings: the card gives 1.54B parameters, 1.31B without embeddings, '
        'which only a tied head adds up to'),
}

# Display names and families that follow the catalog's existing ones.
RENAMES = {
    'mistralai/Mistral-Small-3.1-24B-Instruct-2503': ('Mistral Small 3.1 24B Instruct (2503)',
                                                      'Mistral Small'),
    'mistralai/Mistral-Small-3.2-24B-Instruct-2506': ('Mistral Small 3.2 24B Instruct (2506)',
                                                      'Mistral Small'),
    'mistralai/Mistral-Small-Instruct-2409': ('Mistral Small 22B Instruct (2409)',
                                              'Mistral Small'),
}

# DeepSeek's own inference configs (github deepseek-ai/DeepSeek-V3
# inference/configs) name the Hugging Face keys differently.
DEEPSEEK_KEYS = {
    'dim': 'hidden_size', 'inter_dim': 'intermediate_size',
    'moe_inter_dim': 'moe_intermediate_size', 'n_layers': 'num_hidden_layers',
    'n_dense_layers': 'first_k_dense_replace', 'n_heads': 'num_attention_heads',
    'n_routed_experts': 'n_routed_experts', 'n_shared_experts': 'n_shared_experts',
    'n_activated_experts': 'num_experts_per_tok', 'q_lora_rank': 'q_lora_rank',
    'kv_lora_rank': 'kv_lora_rank', 'qk_nope_head_dim': 'qk_nope_head_dim',
    'qk_rope_head_dim': 'qk_rope_head_dim', 'v_head_dim': 'v_head_dim',
    'vocab_size': 'vocab_size',
}


def official(model_id):
    return 'https://huggingface.co/%s/blob/main/config.json' % model_id


def from_deepseek_inference(c):
    hf = {'architectures': ['DeepseekV3ForCausalLM'], 'model_type': 'deepseek_v3'}
    for k, v in c.items():
        if k in DEEPSEEK_KEYS:
            hf[DEEPSEEK_KEYS[k]] = v
    # Not in the inference format: R1's Hugging Face config has these.
    hf['max_position_embeddings'] = 163840
    hf['tie_word_embeddings'] = False
    return hf


def strip_truncated(node):
    if isinstance(node, dict):
        return {k: strip_truncated(v) for k, v in node.items() if k != '_truncated'}
    return node


def fixture_name(model_id):
    return model_id.replace('/', '--') + '.json'


def write_fixture(x, sources):
    path = os.path.join(research, x['config_file'])
    config = strip_truncated(json.load(open(path)))
    notes = []
    if 'model_type' not in config and 'dim' in config:
        config = from_deepseek_inference(config)
        notes.append('converted from DeepSeek\'s inference config (dim, n_layers… keys); '
                     'max_position_embeddings as in DeepSeek-R1\'s config')
    fix = FIXES.get(x['id'])
    if fix is not None:
        config.update(fix[0])
        notes.append(fix[1])
    src = sources.get(os.path.basename(x['config_file']), {})
    out = {'_name_or_path': x['id']}
    out['_source'] = '%s (%s)%s' % (src.get('source') or x['source'], x['source_quality'],
                                    ''.join('; ' + n for n in notes))
    for k, v in config.items():
        if k not in ('_name_or_path', '_note'):
            out[k] = v
    dest = os.path.join(fixtures, fixture_name(x['id']))
    with open(dest, 'w') as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write('\n')
    return dest


def inspect(path):
    run = subprocess.run([cli, 'inspect', path, '--json'], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit('%s: %s' % (path, run.stderr.strip()))
    return json.loads(run.stdout)


# Catalog members in the order of models.json.
ORDER = ['id', 'name', 'family', 'architecture', 'license', 'release', 'ollama_tag', 'layers',
         'hidden', 'heads', 'kv_heads', 'intermediate', 'vocab', 'max_context',
         'tied_embeddings', 'attention', 'params', 'active_params', 'head_dim', 'head_dim_v',
         'kv_lora_rank', 'qk_rope_head_dim', 'qk_nope_head_dim', 'q_lora_rank',
         'attention_bias', 'qk_norm', 'sliding_window', 'swa_period', 'experts', 'experts_active',
         'expert_intermediate', 'shared_experts', 'dense_layers', 'mlp', 'source']


def entry(x, imported):
    name, family = RENAMES.get(x['id'], (x['name'], x['family']))
    e = dict(imported)
    e.update({'id': x['id'], 'name': name, 'family': family, 'license': x['license'],
              'release': x['release'], 'ollama_tag': x.get('ollama_tag'),
              'source': official(x['id'])})
    e['params'] = int(e['params'])
    e['active_params'] = int(e['active_params'])
    if e['attention'] != 'mla' and e.get('head_dim_v') == e['head_dim']:
        del e['head_dim_v']
    for flag in ('attention_bias', 'qk_norm'):
        if not e.get(flag):
            e.pop(flag, None)
    unknown = set(e) - set(ORDER)
    assert not unknown, (x['id'], unknown)
    return {k: e[k] for k in ORDER if k in e}


def dump(path, rows):
    with open(path, 'w') as f:
        f.write('{\n  "models": [\n')
        f.write(',\n'.join('    ' + json.dumps(r, ensure_ascii=False) for r in rows))
        f.write('\n  ]\n}\n')


extra = {x['id']: x for x in json.load(open(os.path.join(research, 'extra.json')))}
sources = json.load(open(os.path.join(research, 'configs', 'SOURCES.json')))
models = json.load(open(catalog_path))['models']

# The seed's entries: an official source where the notes named a fork, and
# the Ollama tags the library has since moved (ollama-tags.json notes).
OLLAMA_MOVED = {
    # deepseek-r1:671b now carries R1-0528's digest; R1 itself is reached
    # by an explicit quantization tag.
    'deepseek-ai/DeepSeek-R1': 'deepseek-r1:671b-q4_K_M',
}
for m in models:
    if not m['source'].startswith('https://huggingface.co/%s/' % m['id']):
        m['source'] = official(m['id'])
    m['ollama_tag'] = OLLAMA_MOVED.get(m['id'], m['ollama_tag'])

by_id = {m['id']: i for i, m in enumerate(models)}
for model_id in MODELS:
    x = extra[model_id]
    e = entry(x, inspect(write_fixture(x, sources)))
    if model_id in by_id:
        models[by_id[model_id]] = e
    else:
        by_id[model_id] = len(models)
        models.append(e)

dump(catalog_path, models)
print(len(models), 'models')
