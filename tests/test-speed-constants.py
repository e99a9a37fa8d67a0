#!/usr/bin/env python3
"""The C speed constants are constants.json's: src/core/estimate/hr-speed-fitted.inc must be exactly
what tests/calibration/speed/constants_c.py renders from tests/calibration/speed/constants.json,
and hr-speed.h must take its fitted constants from that file (no hand-kept copy).  TAP output."""
import json
import os
import re
import sys

root = sys.argv[1]
speed = os.path.join(root, 'tests', 'calibration', 'speed')
sys.path.insert(0, speed)
import constants_c  # noqa: E402

constants = json.load(open(os.path.join(speed, 'constants.json')))
inc = open(os.path.join(root, 'src', 'core', 'estimate', 'hr-speed-fitted.inc')).read()
header = open(os.path.join(root, 'src', 'core', 'estimate', 'hr-speed.h')).read()

print('1..3')
ok = inc == constants_c.render(constants)
print('%s 1 - hr-speed-fitted.inc is the rendering of constants.json' % ('ok' if ok else 'not ok'))
if not ok:
    print('# rerun tests/calibration/speed/fit_speed.py (it writes both)')
names = [n for _, n, _ in constants_c.FITTED_C] + ['HR_SPEED_TFLOPS_PER_WATT']
dup = [n for n in names if re.search(r'#define\s+%s\b' % n, header)]
print('%s 2 - hr-speed.h defines none of them by hand%s' % ('not ok' if dup else 'ok', (': ' + ', '.join(dup)) if dup else ''))
inc_ok = '#include "hr-speed-fitted.inc"' in header
print('%s 3 - hr-speed.h includes hr-speed-fitted.inc' % ('ok' if inc_ok else 'not ok'))
sys.exit(0 if ok and not dup and inc_ok else 1)
