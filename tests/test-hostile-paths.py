#!/usr/bin/env python3
# test-hostile-paths.py CLI — headroom-cli on paths that are not model
# files: FIFOs, devices, directories, unreadable files, symlink loops,
# files that change size while read, nesting and sizes past the limits.
# Each must exit 1 with one line naming the path, print nothing on
# stdout, and take less than a second and a bounded amount of memory
# (before: a FIFO hung forever, /dev/zero grew to 2 GB, nesting crashed).
# The user's catalog directory holding the same is a warning per file,
# and the command still works.  Output is TAP.
import json
import os
import stat
import struct
import subprocess
import sys
import tempfile
import threading

CLI = sys.argv[1]
# The CPU time (user + system) the CLI may spend refusing a hostile file:
# CPU time, not the wall clock, so that a machine busy with other work
# does not fail the test (a CLI blocked for good is killed after 10 s and
# fails on its exit status).
SECONDS = 1.0
# How long the thread that grows a file may take to start, even on a
# saturated machine: past it the test fails, it never runs without it.
GROWER_START_SECONDS = 60
EXTRA_MEMORY_KB = 64 * 1024   # above what `devices` needs in this build
BUILTIN_DEVICES = 0           # set in main()

n = 0
failed = 0


def report(ok, what, detail=''):
    global n, failed
    n += 1
    if ok:
        print(f'ok {n} - {what}')
    else:
        failed += 1
        print(f'not ok {n} - {what}: {detail}')


def skip(what, why):
    global n
    n += 1
    print(f'ok {n} - {what} # SKIP {why}')


def run_timed(args, env):
    """run(), and the CPU seconds again as a sixth value (the local-models
    cases read them there)."""
    result = run(args, env)
    return result + (result[3],)


def run(args, env):
    """Runs the CLI; returns (status, stdout, stderr, CPU seconds, max RSS in KiB)."""
    proc = subprocess.Popen([CLI] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env)
    timer = threading.Timer(10, proc.kill)
    timer.start()
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, out, err, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def check_refused(what, args, path, env, baseline):
    status, out, err, seconds, rss = run(args, env)
    lines = err.decode('utf-8', 'replace').splitlines()
    problems = []
    if status != 1:
        problems.append(f'exit status {status}')
    if len(lines) != 1:
        problems.append(f'{len(lines)} lines on stderr')
    elif os.path.basename(path) not in lines[0]:
        problems.append('the message does not name the file')
    if out:
        problems.append('output on stdout')
    if seconds >= SECONDS:
        problems.append(f'{seconds:.2f} s')
    if rss > baseline + EXTRA_MEMORY_KB:
        problems.append(f'{rss // 1024} MiB of memory')
    report(not problems, f'{what}: exit 1, one line, {seconds:.2f} s, {rss // 1024} MiB',
           '; '.join(problems) + f' ({err!r})')


DEVICE = ('{"id":"bench-%d","name":"Bench %d","vendor":"NVIDIA","family":"nvidia-geforce",'
          '"kind":"discrete","memory_gib":12,"bandwidth_gbps":360}')
CATALOG_LIMIT = 1024 * 1024   # CATALOG_MAX_FILE_BYTES in hr-catalog.c


def devices_and_ladder(size):
    """Devices over half of size bytes, a tier ladder naming the last over the other half."""
    devices = []
    length = 0
    while length < size // 2:
        devices.append(DEVICE % (len(devices), len(devices)))
        length += len(devices[-1]) + 1
    last = '"bench-%d"' % (len(devices) - 1)
    ladder = [last] * ((size - length - 40) // (len(last) + 1))
    return len(devices), ('{"hardware":[' + ','.join(devices) + '],"tier_ladder":['
                          + ','.join(ladder) + ']}')


def check_catalog_file(tmp, what, name, contents, baseline, warnings, listed=None,
                       says=None):
    """A user data directory holding one catalog file: `devices` answers
    within SECONDS and EXTRA_MEMORY_KB, with exactly `warnings` lines on
    stderr (naming the file and saying `says`), `listed` more devices than
    the built-in catalog, and nothing but displayable text on stdout."""
    home = os.path.join(tmp, 'data-' + name)
    os.makedirs(os.path.join(home, 'headroom'))
    with open(os.path.join(home, 'headroom', name), 'wb') as f:
        f.write(contents)
    env = dict(os.environ, XDG_DATA_HOME=home, G_DEBUG='fatal-criticals')
    status, out, err, seconds, rss = run(['devices'], env)
    lines = err.decode('utf-8', 'replace').splitlines()
    problems = []
    if status != 0:
        problems.append(f'exit status {status}')
    if len(lines) != warnings:
        problems.append(f'{len(lines)} lines on stderr, not {warnings}')
    elif any(name not in line or (says and says not in line) for line in lines):
        problems.append(f'a warning does not name {name} or say “{says}”')
    if listed is not None and len(out.splitlines()) != BUILTIN_DEVICES + listed:
        problems.append(f'{len(out.splitlines())} devices listed')
    try:
        text = out.decode('utf-8')
        if any(ord(c) < 0x20 and c != '\n' or 0x7f <= ord(c) <= 0x9f for c in text):
            problems.append('a control character on stdout')
    except UnicodeDecodeError:
        problems.append('stdout is not UTF-8')
    if seconds >= SECONDS:
        problems.append(f'{seconds:.2f} s')
    if rss > baseline + EXTRA_MEMORY_KB:
        problems.append(f'{rss // 1024} MiB of memory')
    report(not problems, f'devices with {what}: {len(lines)} warnings, {seconds:.2f} s, '
           f'{rss // 1024} MiB', '; '.join(problems) + f' ({err[:300]!r})')


class Grower(threading.Thread):
    """Appends to a file until stopped: a download still running."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self.running = True
        self.growing = threading.Event()

    def run(self):
        with open(self.path, 'ab', buffering=0) as f:
            f.write(b'{"model_type": "llama", "pad": [')
            f.write(b'1, ' * 4096)
            self.growing.set()
            while self.running and f.tell() < 256 * 1024 * 1024:
                f.write(b'1, ' * 4096)


def gguf_with_huge_string(path):
    # GGUF v3, no tensors, one key whose string claims 400 MiB, in a
    # sparse 1 GiB file: legal on its face.
    key = b'general.name'
    header = b'GGUF' + struct.pack('<IQQ', 3, 0, 1)
    header += struct.pack('<Q', len(key)) + key + struct.pack('<I', 8)
    header += struct.pack('<Q', 400 * 1024 * 1024)
    with open(path, 'wb') as f:
        f.write(header)
        f.truncate(1 << 30)


def local_models_tree(tmp, name, kind, data, header_length=None):
    """A fake model cache (Hugging Face and Ollama layouts) holding one
    hostile JSON file; returns the environment that points the scan at it."""
    home = os.path.join(tmp, 'local-' + name)
    snapshot = os.path.join(home, 'hub', 'models--org--m', 'snapshots', 'abc')
    manifests = os.path.join(home, 'ollama', 'manifests', 'registry.ollama.ai', 'library', 'm')
    os.makedirs(snapshot)
    os.makedirs(manifests)
    os.makedirs(os.path.join(home, 'hub', 'models--org--m', 'refs'))
    with open(os.path.join(home, 'hub', 'models--org--m', 'refs', 'main'), 'w') as f:
        f.write('abc')
    with open(os.path.join(snapshot, 'config.json'), 'w') as f:
        f.write('{"model_type": "llama"}')
    path = {'manifest': os.path.join(manifests, 'latest'),
            'config': os.path.join(snapshot, 'config.json'),
            'index': os.path.join(snapshot, 'model.safetensors.index.json'),
            'header': os.path.join(snapshot, 'model.safetensors')}[kind]
    with open(path, 'wb') as f:
        if kind == 'header':
            length = header_length if header_length is not None else len(data)
            f.write(struct.pack('<Q', length))
            f.write(data)
            f.truncate(8 + max(length, len(data)) + 4096)   # sparse tensor data
        else:
            f.write(data)
    env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, 'cache'),
               XDG_DATA_HOME=os.path.join(home, 'data'),
               HF_HUB_CACHE=os.path.join(home, 'hub'),
               OLLAMA_MODELS=os.path.join(home, 'ollama'),
               LLAMA_CACHE=os.path.join(home, 'llama.cpp'))
    env.pop('HF_HOME', None)
    return env, path


def check_local_models(tmp, baseline):
    """`local-models` over a cache holding one hostile JSON file: exit 0,
    a note naming the file and the limit it hit, in under a second of CPU
    (the scan reads the config.json, then the import reads it again) and
    bounded memory (before: SIGSEGV on deep JSON; 25 s and 1.6 GB for a
    16 MiB config.json of small objects, 71 s and 6 GB for a 64 MiB
    safetensors header, 1.6 GB for a 16 MiB index)."""
    mib = 1024 * 1024
    # The data is made when written, and dropped before the CLI runs:
    # the child's peak RSS counts this process's pages until it execs.
    cases = [
        ('an Ollama manifest of 1 MiB of [', 'manifest', lambda: b'[' * mib, None,
         'the size limit for an Ollama manifest'),
        ('an Ollama manifest of 200 KiB of [', 'manifest', lambda: b'[' * (200 * 1024), None,
         'the depth limit for an Ollama manifest'),
        ('a config.json of 16 MiB of [', 'config', lambda: b'[' * (16 * mib), None,
         'the depth limit for a config.json'),
        ('a config.json of 1.2 MB of {"a":', 'config', lambda: b'{"a":' * 240000, None,
         'the depth limit for a config.json'),
        ('a safetensors header of nested arrays', 'header', lambda: b'{"a":' + b'[' * mib, None,
         'the depth limit for a safetensors header'),
        ('a config.json of 16 MiB of small objects', 'config',
         lambda: b'{"a": [' + b'{},' * ((16 * mib - 16) // 3) + b'{}]}', None,
         'the node limit for a config.json'),
        ('a safetensors header of 64 MiB', 'header', lambda: b'{"a": [{}]}', 64 * mib,
         'the size limit for a safetensors header'),
        ('a safetensors index of 16 MiB of small objects', 'index',
         lambda: (b'{"metadata": {"total_size": 1}, "weight_map": ['
                  + b'{},' * (16 * mib // 3 - 40) + b'{}]}'),
         None, 'the node limit for a safetensors index'),
    ]
    for i, (what, kind, make, header_length, limit) in enumerate(cases):
        env, path = local_models_tree(tmp, str(i), kind, make(), header_length)
        status, out, err, _, rss, seconds = run_timed(['local-models'], env)
        notes = [line for line in out.decode('utf-8', 'replace').splitlines()
                 if line.startswith('Note: ')]
        problems = []
        if status != 0:
            problems.append(f'exit status {status}')
        if not any(os.path.basename(path) in line and limit in line for line in notes):
            problems.append(f'no note names the file and "{limit}"')
        if seconds >= SECONDS:
            problems.append(f'{seconds:.2f} s')
        if rss > baseline + EXTRA_MEMORY_KB:
            problems.append(f'{rss // 1024} MiB of memory')
        report(not problems,
               f'local-models: {what}: noted, {seconds:.2f} s of CPU, {rss // 1024} MiB',
               '; '.join(problems) + f' ({out[-300:]!r} {err[-300:]!r})')
        if 'small objects' in what and kind == 'config':
            for args in (['inspect', path],
                         ['estimate', '--model', path, '--precision', 'q4_k_m']):
                check_refused(f'{args[0]}: {what}', args, path, env, baseline)
        subprocess.run(['rm', '-rf', os.path.join(tmp, 'local-' + str(i))])


def main():
    tmp = tempfile.mkdtemp(prefix='headroom-hostile-')
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, 'empty-data'))
    _, _, _, _, baseline = run(['devices'], env)

    def p(name):
        return os.path.join(tmp, name)

    os.mkfifo(p('fifo.json'))
    os.mkfifo(p('fifo.gguf'))
    os.mkdir(p('dir.json'))
    os.mkdir(p('dir.gguf'))
    os.symlink('loop.json', p('loop.json'))
    os.symlink('loop.gguf', p('loop.gguf'))
    os.symlink('nowhere.json', p('dangling.json'))
    os.symlink('/dev/zero', p('zero.gguf'))
    with open(p('deep.json'), 'w') as f:
        f.write('{"model_type": ' + '[' * 100000)
    with open(p('huge.json'), 'wb') as f:
        f.truncate(17 * 1024 * 1024)
    gguf_with_huge_string(p('huge-string.gguf'))
    with open(p('secret.json'), 'w') as f:
        f.write('{}')
    os.chmod(p('secret.json'), 0)

    cases = [
        ('a FIFO as config.json', 'fifo.json'),
        ('a FIFO as GGUF', 'fifo.gguf'),
        ('/dev/zero', '/dev/zero'),
        ('a link to /dev/zero as GGUF', 'zero.gguf'),
        ('a directory as config.json', 'dir.json'),
        ('a directory as GGUF', 'dir.gguf'),
        ('a symlink loop as config.json', 'loop.json'),
        ('a symlink loop as GGUF', 'loop.gguf'),
        ('a dangling symlink', 'dangling.json'),
        ('100,000 levels of nesting', 'deep.json'),
        ('a 17 MiB config.json', 'huge.json'),
        ('a 400 MiB string in a sparse GGUF', 'huge-string.gguf'),
        ('an unreadable file', 'secret.json'),
    ]
    for what, name in cases:
        path = name if name.startswith('/') else p(name)
        for args in (['inspect', path],
                     ['estimate', '--model', path, '--precision', 'q4_k_m']):
            label = f'{args[0]}: {what}'
            if name == 'secret.json' and os.geteuid() == 0:
                skip(label, 'root reads files whatever their mode')
                continue
            check_refused(label, args, path, env, baseline)

    check_local_models(tmp, baseline)

    # A file that grows while it is read.
    grower = Grower(p('growing.json'))
    grower.start()
    if not grower.growing.wait(timeout=GROWER_START_SECONDS):
        sys.exit(f'timed out after {GROWER_START_SECONDS} s waiting for growing.json to grow')
    for args in (['inspect', p('growing.json')],
                 ['estimate', '--model', p('growing.json'), '--precision', 'q4_k_m']):
        check_refused(f'{args[0]}: a file growing while it is read', args,
                      p('growing.json'), env, baseline)
    grower.running = False
    grower.join()

    # The same things in the user's catalog directory: a warning each,
    # and the command still answers.
    data = os.path.join(tmp, 'data', 'headroom')
    os.makedirs(data)
    os.mkfifo(os.path.join(data, 'fifo.json'))
    os.mkdir(os.path.join(data, 'dir.json'))
    os.symlink('loop.json', os.path.join(data, 'loop.json'))
    os.symlink('/dev/zero', os.path.join(data, 'zero.json'))
    with open(os.path.join(data, 'imported-models.json'), 'w') as f:
        f.write('{"models": [')
    with open(os.path.join(data, 'deep.json'), 'w') as f:
        f.write('[' * 100000)
    env_data = dict(os.environ, XDG_DATA_HOME=os.path.join(tmp, 'data'))
    status, out, err, seconds, rss = run(['models', '--json'], env_data)
    lines = err.decode('utf-8', 'replace').splitlines()
    names = ['fifo.json', 'dir.json', 'loop.json', 'zero.json', 'imported-models.json',
             'deep.json']
    ok = (status == 0 and b'"THUDM/GLM-4-9B-0414"' in out and len(lines) == len(names)
          and all(line.startswith('headroom-cli: warning: ') for line in lines)
          and all(any(name in line for line in lines) for name in names)
          and seconds < SECONDS)
    report(ok, f'a hostile catalog directory: {len(lines)} warnings, the catalog answers, '
           f'{seconds:.2f} s', f'status {status}, stderr {err!r}')

    # Large and hostile catalog files in the user data folder (issue 28,
    # items 4, 11 and 13).  A 16 MiB file took `devices` minutes and the
    # window 2.4 GB; a file of 21,000 rejected entries printed 21,000 lines.
    global BUILTIN_DEVICES
    BUILTIN_DEVICES = len(run(['devices'], env)[1].splitlines())
    # Within the 16 MiB the limit was, beyond the 1 MiB it is.
    check_catalog_file(tmp, 'a 16 MiB catalog file', 'huge.json',
                       b'{"models":[{}' + b',{}' * ((16 * 1024 * 1024 - 16) // 3) + b']}',
                       baseline, 1, listed=0, says='limit')
    # Half the limit: quadratic, this took 4 s (1 MiB, 16 s; 16 MiB, hours).
    n_devices, text = devices_and_ladder(CATALOG_LIMIT // 2)
    check_catalog_file(tmp, f'{n_devices} devices and a tier ladder as long (512 KiB)',
                       'ladder.json', text.encode(), baseline, 0, listed=n_devices)
    check_catalog_file(tmp, '21,000 rejected entries (62 KiB)', 'bad.json',
                       b'{"models":[{}' + b',{}' * 20999 + b']}', baseline, 1, listed=0,
                       says='21000 entries rejected; the first: models[0]')
    names = ['\x1b[2J\x1b[31mred', 'C1 \u009b31m', 'bidi \u202e', 'line\u2028sep',
             'nul\u0000\x1b[2J', 'bell\x07']
    entries = [json.loads(DEVICE % (i, i)) | {'name': name} for i, name in enumerate(names)]
    check_catalog_file(tmp, 'control characters in device names', 'names.json',
                       json.dumps({'hardware': entries}).encode(), baseline, 1)

    os.chmod(p('secret.json'), stat.S_IRUSR | stat.S_IWUSR)
    subprocess.run(['rm', '-rf', tmp])
    print(f'1..{n}')
    return 1 if failed else 0


sys.exit(main())
