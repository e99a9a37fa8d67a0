#!/usr/bin/env python3
# Regenerates resources/catalog/distributions.json: where each catalog
# model can be fetched in a given precision — the Ollama library tag of
# that quantization, and the Hugging Face repository of an AWQ / GPTQ /
# FP8 checkpoint — each with its source.  A developer tool: the build,
# the app and the tests read the committed JSON.
# Usage: tools/import-distributions.py OLLAMA_TAGS.json QUANTIZED_REPOS.json
import json, os, sys

tags_path, repos_path = sys.argv[1], sys.argv[2]
here = os.path.dirname(__file__)
catalog = os.path.join(here, '..', 'resources', 'catalog')
ids = [m['id'] for m in json.load(open(os.path.join(catalog, 'models.json')))['models']]
tags = json.load(open(tags_path))
repos = json.load(open(repos_path))



def block_fp8(v):
    """FP8 checkpoints with 128 x 128 block scales: the ones the notes call
    block-scaled (DeepSeek's and Kimi's own releases), and Qwen's official
    -FP8 repositories, whose cards say "fine-grained fp8 quantization with
    block size of 128" (weight_block_size [128, 128] in their configs)."""
    if 'block' in (v.get('format') or '').lower():
        return True
    return (v.get('publisher') == 'official' and v['repo'].startswith('Qwen/') and
            v['repo'].endswith('-FP8'))


# A tag whose name carries a variant ("thinking", "instruct", a "2507"
# update) holds that variant: it belongs to the catalog id that names it,
# never to the base checkpoint (Qwen3-30B-A3B is not
# qwen3:30b-a3b-thinking-2507).  test-commands checks the same rule.
VARIANTS = ('thinking', 'instruct', 'chat', '2507')


def same_checkpoint(mid, tag):
    name = tag.split(':', 1)[-1].lower()
    words = name.replace('_', '-').split('-')
    low = mid.lower()
    for v in VARIANTS:
        if v in words and v not in low and not (v in ('instruct', 'chat') and
                                                 (low.endswith('-it') or '-it-' in low)):
            return False
    return True


out = []
for mid in ids:
    entry = {'id': mid}
    t = tags.get(mid) or {}
    r = repos.get(mid) or {}
    ollama = {p: tag for p, tag in (t.get('tags') or {}).items() if same_checkpoint(mid, tag)}
    # gpt-oss ships only its native MXFP4 weights, under the bare tag.
    if t.get('base') and any('MXFP4' in (o.get('format') or '')
                             for o in r.get('other', [])):
        ollama.setdefault('mxfp4', t['base'])
    if t.get('tags') and not ollama:
        entry['ollama_note'] = ('no Ollama library tag of this checkpoint in the scraped library '
                                'snapshot: its tags of this size name other variants')
    if ollama:
        entry['ollama'] = {k: v for k, v in sorted(ollama.items())}
        entry['ollama_source'] = t.get('source') or ''
    if t.get('note') and 'ollama_note' not in entry:
        entry['ollama_note'] = t['note']
    checkpoints = {p: {'repo': v['repo'], 'source': v.get('source', '')}
                   for p, v in sorted(r.items()) if isinstance(v, dict) and v.get('repo')}
    fp8 = r.get('fp8')
    if isinstance(fp8, dict) and fp8.get('repo') and block_fp8(fp8):
        checkpoints['fp8-block'] = {'repo': fp8['repo'], 'source': fp8.get('source', '')}
    # gpt-oss's own repository is its MXFP4 checkpoint (quant_method mxfp4).
    if any('MXFP4' in (o.get('format') or '') for o in r.get('other', [])):
        checkpoints.setdefault('mxfp4', {'repo': mid, 'source': 'https://huggingface.co/%s/blob/main/config.json (quantization_config: quant_method mxfp4; the MoE weights are MXFP4, the rest BF16)' % mid})
    for o in r.get('other', []):
        if o.get('format') == 'NVFP4' and o.get('repo'):
            checkpoints.setdefault('nvfp4', {'repo': o['repo'], 'source': o.get('source', '')})
    if checkpoints:
        entry['checkpoints'] = {k: v for k, v in sorted(checkpoints.items())}
    if len(entry) > 1:
        out.append(entry)

with open(os.path.join(catalog, 'distributions.json'), 'w') as f:
    f.write('{\n  "_comment": "Ollama library tags per precision (ollama.com/library/<model>/tags, as '
            'scraped on 2026-08-21) and Hugging Face repositories of quantized checkpoints, each '
            'with its source. tools/import-distributions.py writes this file.",\n')
    f.write('  "models": [\n')
    f.write(',\n'.join('    ' + json.dumps(e, ensure_ascii=False) for e in out))
    f.write('\n  ]\n}\n')
print(len(out), 'models with a distribution')
