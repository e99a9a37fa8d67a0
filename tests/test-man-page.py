#!/usr/bin/env python3
# test-man-page.py MAN_PAGE CLI — headroom-cli.1, written by the build
# from the CLI's own tables, names every command and, in each command's
# section, every option that command's --help lists.  Output is TAP.
import os
import re
import subprocess
import sys

man, cli = sys.argv[1], sys.argv[2]
n = 0
failed = 0


def report(ok, what):
    global n, failed
    n += 1
    print(('ok %d - %s' if ok else 'not ok %d - %s') % (n, what))
    if not ok:
        failed += 1


report(os.path.isfile(man), 'the man page was built')
text = open(man, encoding='ascii').read() if os.path.isfile(man) else ''
report(text.startswith('.TH HEADROOM\\-CLI 1'), 'it is a section 1 page')

# The commands, as the CLI names them when it does not know one.
err = subprocess.run([cli, 'no-such-command'], capture_output=True, text=True).stderr
commands = re.search(r'\((.*)\)', err).group(1).split(', ')
report(len(commands) >= 10, 'the CLI names its commands (%d)' % len(commands))

sections = dict(re.findall(r'^\.SS (\S+)[^\n]*\n(.*?)(?=^\.S[SH] )', text, re.M | re.S))
for command in commands:
    name = command.replace('-', '\\-')
    report(name in sections, 'the man page has a section for %s' % command)
    help_text = subprocess.run([cli, command, '--help'], capture_output=True,
                               text=True).stdout
    options = [o for o in re.findall(r'^\s+(--[a-z-]+)', help_text, re.M) if o != '--help']
    missing = [o for o in options
               if '\\fB' + o.replace('-', '\\-') + '\\fR' not in sections.get(name, '')]
    report(options and not missing,
           '%s: its %d options are in its section%s'
           % (command, len(options), ' (missing %s)' % ' '.join(missing) if missing else ''))

print('1..%d' % n)
sys.exit(1 if failed else 0)
