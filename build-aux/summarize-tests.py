#!/usr/bin/env python3
# summarize-tests.py TESTLOG.json… — prints "N passed, N failed" over
# meson's test logs (one per build tree), counting the TAP subtests of
# each test program; a program without TAP output counts as one test,
# and one that crashes or exits non-zero without a failing subtest as
# one failure.  A log that is missing (its tree did not build) is one
# failure.
import json, re, sys

passed = failed = skipped = 0
for name in sys.argv[1:]:
    try:
        log = open(name)
    except OSError as e:
        print(f'{name}: {e.strerror}', file=sys.stderr)
        failed += 1
        continue
    with log:
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
