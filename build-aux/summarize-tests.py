#!/usr/bin/env python3
# Prints "N passed, N failed" from meson's test log, counting the TAP
# subtests of each test program (a program that crashes or exits non-zero
# without reporting counts as one failure).
import json, re, sys

passed = failed = skipped = 0
with open(sys.argv[1]) as log:
    for line in log:
        result = json.loads(line)
        out = result.get('stdout') or ''
        oks = len(re.findall(r'^ok \d+', out, re.M))
        skips = len(re.findall(r'^ok \d+ .*# SKIP', out, re.M))
        bad = len(re.findall(r'^not ok \d+', out, re.M))
        if result['result'] not in ('OK', 'EXPECTEDFAIL', 'SKIP') and bad == 0:
            bad = 1
        passed += oks - skips
        skipped += skips
        failed += bad
print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
