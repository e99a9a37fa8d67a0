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

out = []
for mid in ids:
    entry = {'id': mid}
    t = tags.get(mid) or {}
    if t.get('tags'):
        entry['ollama'] = {k: v for k, v in sorted(t['tags'].items())}
        entry['ollama_source'] = t.get('source') or ''
    if t.get('note'):
        entry['ollama_note'] = t['note']
    r = repos.get(mid) or {}
    checkpoints = {p: {'repo': v['repo'], 'source': v.get('source', '')}
                   for p, v in sorted(r.items()) if isinstance(v, dict) and v.get('repo')}
    if checkpoints:
        entry['checkpoints'] = checkpoints
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
