#!/usr/bin/env python3
# Prints the include graph of src/ by layer and checks it:
#   - a file includes headers of its own layer or of the layers below it
#     (core: base < readers < catalog < estimate < service; then the
#     programs on top: ui (the window), cli, helper), never above, and
#     no program includes another's (the CLI never sees GTK);
#   - the graph between modules (a .c/.h pair) has no cycle.
# Usage: tools/import-layers.py [SOURCE_ROOT] [--check]
# With --check it prints TAP and exits 1 on a violation (meson test).
import os
import re
import sys

LAYERS = ['base', 'readers', 'catalog', 'estimate', 'service', 'ui', 'cli', 'helper']
# the programs: one rank, none includes another's headers
RANK = {layer: min(i, 5) for i, layer in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(hr-[a-z0-9-]+)\.h"', re.M)

args = [a for a in sys.argv[1:] if not a.startswith('--')]
check = '--check' in sys.argv
root = args[0] if args else os.path.join(os.path.dirname(__file__), '..')
src = os.path.join(root, 'src')


def layer_of(dirpath):
    parts = os.path.relpath(dirpath, src).split(os.sep)
    if parts[0] == 'core' and len(parts) > 1:
        return parts[1]
    return parts[0]


module_layer = {}          # module name (file stem) -> layer
includes = {}              # module -> set of modules it includes
for dirpath, _, names in os.walk(src):
    rel = layer_of(dirpath)
    if rel not in LAYERS:
        continue
    for name in names:
        if not name.endswith(('.c', '.h')):
            continue
        # a private header belongs to its module (hr-window-private.h)
        module = name[:-2]
        if module.endswith('-private'):
            module = module[:-len('-private')]
        module_layer[module] = rel
        with open(os.path.join(dirpath, name), encoding='utf-8') as f:
            found = {m[:-len('-private')] if m.endswith('-private') else m
                 for m in INCLUDE.findall(f.read())}
        found.discard(module)
        includes.setdefault(module, set()).update(found)

problems = []
for module, deps in sorted(includes.items()):
    here = RANK[module_layer[module]]
    for dep in sorted(deps):
        if dep not in module_layer:
            continue            # config.h and the like
        there = RANK[module_layer[dep]]
        if there > here or (there == here == RANK['ui'] and
                            module_layer[dep] != module_layer[module]):
            problems.append('%s/%s includes %s/%s (a higher layer, or another program)'
                            % (module_layer[module], module, module_layer[dep], dep))

# Cycles between modules (depth-first search with colours).
colour = {}
stack = []


def visit(module):
    colour[module] = 'grey'
    stack.append(module)
    for dep in sorted(includes.get(module, ())):
        if dep not in module_layer:
            continue
        if colour.get(dep) == 'grey':
            cycle = stack[stack.index(dep):] + [dep]
            problems.append('cycle: ' + ' → '.join(cycle))
        elif dep not in colour:
            visit(dep)
    stack.pop()
    colour[module] = 'black'


for module in sorted(includes):
    if module not in colour:
        visit(module)

# Depth of each module: 0 for a module including nothing of the core.
depth = {}


def level(module, seen=()):
    if module in depth:
        return depth[module]
    if module in seen:
        return 0
    deps = [d for d in includes.get(module, ()) if d in module_layer]
    depth[module] = 1 + max((level(d, seen + (module,)) for d in deps), default=-1)
    return depth[module]


for module in includes:
    level(module)

if check:
    print('1..2')
    print('%s 1 - no file includes a higher layer' % ('not ok' if any('higher' in p for p in problems) else 'ok'))
    print('%s 2 - no include cycle' % ('not ok' if any(p.startswith('cycle') for p in problems) else 'ok'))
    for p in problems:
        print('# ' + p)
    sys.exit(1 if problems else 0)

for layer in LAYERS:
    members = sorted((m for m in module_layer if module_layer[m] == layer),
                     key=lambda m: (depth[m], m))
    print('%-9s %s' % (layer + '/', ', '.join('%s(%d)' % (m[3:], depth[m]) for m in members)))
print('deepest chain: %d levels' % (max(depth.values()) + 1))
for p in problems:
    print('problem: ' + p)
