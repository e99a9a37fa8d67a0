#!/usr/bin/env python3
# test-doc-citations.py SRCDIR — every document the code cites is in the tree.
#
# Scans the text files of src/, tests/ and tools/ for the documents they
# name: a `docs/…` path, or any `….md` file.  Each must exist:
#   - a `docs/…` path, from the top of the source tree;
#   - another path with a folder (tests/calibration/speed/README.md,
#     results/validation.md), from the top or from the citing file's folder;
#   - a bare file name (CLI.md, measured-speed.md), as a file of that name
#     somewhere in the tree (the data tables cite their sources that way).
# Web addresses are left out, and so are the files of other projects and
# the notes that were never committed, listed below with what they are:
# adding to that list is a decision a reviewer sees.  Output is TAP.
import os
import re
import sys

SCANNED = ('src', 'tests', 'tools')
TEXT = ('.c', '.h', '.py', '.sh', '.md', '.json', '.csv', '.mjs', '.inc', '.txt',
        '.build', '.ui', '.xml', '.in')
SKIPPED_DIRS = ('tests/fuzz/corpus-',)     # fuzz seeds: bytes, not citations

# Cited on purpose, not files of this repository.
ELSEWHERE = {
    # other projects' files, named with their project beside them
    'docs/gguf.md': "ggml's GGUF specification",
    'docs/serving/parallelism_scaling.md': "vLLM's documentation",
    'docs/serving/': "vLLM's documentation (a path wrapped at the line's end)",
    'data_parallel_deployment.md': "vLLM's documentation",
    'docs/advanced_features/server_arguments.md': "SGLang's documentation",
    'server_arguments.md': "SGLang's documentation",
    'docs/advanced_features/': "SGLang's documentation (a path wrapped at the line's end)",
    'docs/modelfile.mdx': "Ollama's documentation",
    'sglang/Model_Config.md': "citsjtu2020/LLM-Prof's notes",
    'docs/models/glm/glm45.md': "NVIDIA-NeMo/Megatron-Bridge's documentation",
    'README_WEIGHTS.md': "DeepSeek-V3's repository",
    'tools/fit-params/README.md': "llama.cpp's repository",
    'gpu.md': "nixiesearch's documentation",
    # research notes of earlier work that were never committed; each
    # citation also names the primary source (a log, a benchmark, code)
    'vllm.md': 'research notes, not in the repository',
    'sglang.md': 'research notes, not in the repository',
    'system-memory.md': 'research notes, not in the repository',
    'devices/system-memory.md': 'research notes, not in the repository',
    'offload-logs.md': 'research notes, not in the repository',
    'research/llamacpp/offload-logs.md': 'research notes, not in the repository',
}

URL = re.compile(r'\b(?:https?|file)://\S+')
# A path ending in .md, or any path under docs/; not part of a longer path
# (foo/docs/…) or of a word.
CITATION = re.compile(r'(?<![\w/.-])((?:[\w.-]+/)*[\w.-]*\w\.md|docs/[\w./-]*[\w/])(?![\w-])')


def tree_files(root):
    files = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames[:] = [d for d in dirnames
                       if not d.startswith('.') and not d.startswith('_build')]
        for name in names:
            files.append(os.path.relpath(os.path.join(dirpath, name), root))
    return files


def resolves(root, citing, cited, basenames):
    if cited in ELSEWHERE:
        return True
    path = cited.rstrip('/')
    if cited.startswith('docs/'):
        return os.path.exists(os.path.join(root, path))
    if '/' in path:
        return (os.path.exists(os.path.join(root, path)) or
                os.path.exists(os.path.join(root, os.path.dirname(citing), path)))
    return path in basenames


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    all_files = tree_files(root)
    basenames = {os.path.basename(f) for f in all_files}
    scanned = sorted(f for f in all_files
                     if f.split(os.sep)[0] in SCANNED and f.endswith(TEXT) and
                     not f.startswith(SKIPPED_DIRS) and
                     f != os.path.join('tests', 'test-doc-citations.py'))

    checks = []     # (citing file, cited path, line number, ok)
    for f in scanned:
        try:
            text = open(os.path.join(root, f), encoding='utf-8').read()
        except (UnicodeDecodeError, OSError):
            continue
        seen = set()
        for number, line in enumerate(text.split('\n'), 1):
            for cited in CITATION.findall(URL.sub(' ', line)):
                if cited in seen:
                    continue
                seen.add(cited)
                checks.append((f, cited, number,
                               resolves(root, f, cited, basenames)))

    failed = 0
    print('1..%d' % max(len(checks), 1))
    if not checks:
        print('not ok 1 - no citation found: is %s the source tree?' % root)
        return 1
    for i, (f, cited, number, ok) in enumerate(checks, 1):
        if ok:
            print('ok %d - %s cites %s' % (i, f, cited))
        else:
            failed += 1
            print('not ok %d - %s:%d cites %s, which is not in the tree'
                  % (i, f, number, cited))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
