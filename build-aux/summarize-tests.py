#!/usr/bin/env python3
# Prints "N passed, N failed" from meson's test log, counting the TAP
# subtests of each test program; a program without TAP output counts as one
# test, and one that crashes or exits non-zero without a failing subtest as
# one failure.
import json, re, sys

passed = failed = skipped = 0
with open(sys.argv[1]) as log:
    for line in log:
        result = json.loads(line)
        out = result.get('stdout') or ''
        oks = len(re.findall(r'^ok \d+', out, re.M))
        skips = len(re.findall(r'^ok \d+ .*# SKIP', out, re.M))
        bad = len(re.findall(r'^not ok \d+', out, re.M))
        ok = result['result'] in ('OK', 'EXPECTEDFAIL', 'SKIP')
        if oks == 0 and bad == 0:
            # not a TAP test: the program itself is one test
            oks, bad = (1, 0) if ok else (0, 1)
        elif not ok and bad == 0:
            bad = 1
        passed += oks - skips
        skipped += skips
        failed += bad
print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
