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


out = []
for mid in ids:
    entry = {'id': mid}
    t = tags.get(mid) or {}
    r = repos.get(mid) or {}
    ollama = dict(t.get('tags') or {})
    # gpt-oss ships only its native MXFP4 weights, under the bare tag.
    if t.get('base') and any('MXFP4' in (o.get('format') or '')
                             for o in r.get('other', [])):
        ollama.setdefault('mxfp4', t['base'])
    if ollama:
        entry['ollama'] = {k: v for k, v in sorted(ollama.items())}
        entry['ollama_source'] = t.get('source') or ''
    if t.get('note'):
        entry['ollama_note'] = t['note']
    checkpoints = {p: {'repo': v['repo'], 'source': v.get('source', '')}
                   for p, v in sorted(r.items()) if isinstance(v, dict) and v.get('repo')}
    fp8 = r.get('fp8')
    if isinstance(fp8, dict) and fp8.get('repo') and block_fp8(fp8):
        checkpoints['fp8-block'] = {'repo': fp8['repo'], 'source': fp8.get('source', '')}
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
