#!/usr/bin/env python3
# test-hub.py CLI — a model on a hub-like server on the loopback
# (tests/data/hub/README.md), never the internet: the estimate from the
# hub equals the estimate from the same file by path, a remote GGUF costs
# only its header (ranges logged by the server), --offline is served from
# the cache, a corrupted cache file is kept aside, a gated repository
# needs HF_TOKEN.  Output is TAP.
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

CLI = sys.argv[1]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "hub")
GGUF_SIZE = 50 * 1000 * 1000          # the remote file: 50 MB, sparse
TOKEN = "test-token"

tmp = tempfile.mkdtemp(prefix="headroom-hub-")
root = os.path.join(tmp, "hub")
shutil.copytree(DATA, root)
gguf = os.path.join(root, "example", "tiny-GGUF", "tiny-llama-Q4_K_M.gguf")
with open(gguf, "r+b") as f:
    f.truncate(GGUF_SIZE)

# A header past the first 1 MiB range: the same file with a 2.5 MB array of
# strings inserted among its metadata (a whole number of 32-byte alignment
# units, so that the tensors' offsets keep their meaning).
big = os.path.join(root, "example", "tiny-GGUF", "big-header-Q4_K_M.gguf")
with open(os.path.join(DATA, "example", "tiny-GGUF", "tiny-llama-Q4_K_M.gguf"), "rb") as f:
    head = f.read()
key = b"test.padding"
entry = struct.pack("<Q", len(key)) + key + struct.pack("<IIQ", 9, 8, 2500)
entry += b"".join(struct.pack("<Q", 1000) + b"x" * 1000 for _ in range(2499))
last = 1000 + (-(len(entry) + 8 + 1000)) % 32
entry += struct.pack("<Q", last) + b"x" * last
assert len(entry) % 32 == 0
n_kv = struct.unpack_from("<Q", head, 16)[0]
with open(big, "wb") as f:
    f.write(head[:16] + struct.pack("<Q", n_kv + 1) + entry + head[24:])
    f.truncate(GGUF_SIZE)
BIG_HEADER = len(head) + len(entry)

log = []          # (path, first byte, last byte) of each request served
lock = threading.Lock()


class Hub(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        m = re.fullmatch(r"/api/models/([^/]+/[^/]+)/tree/([^/?]+)(\?recursive=true)?", self.path)
        if m:
            repo = os.path.join(root, m.group(1))
            if not os.path.isdir(repo):
                return self.reply(404)
            tree = []
            for top, dirs, names in os.walk(repo):
                rel = os.path.relpath(top, repo)
                for n in sorted(dirs if not m.group(3) else []):
                    tree.append({"type": "directory", "path": n})
                for n in sorted(names):
                    if not n.startswith("."):
                        p = n if rel == "." else rel + "/" + n
                        tree.append({"type": "file", "path": p,
                                     "size": os.path.getsize(os.path.join(top, n))})
                if not m.group(3):
                    break
            return self.reply(200, json.dumps(tree).encode(), [("Content-Type", "application/json")])
        m = re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", self.path)
        if not m or m.group(2) != "main":
            return self.reply(404)
        repo = os.path.join(root, m.group(1))
        if os.path.exists(os.path.join(repo, ".gated")) and \
                self.headers.get("Authorization") != "Bearer " + TOKEN:
            return self.reply(401)
        path = os.path.join(repo, m.group(3))
        if not os.path.isfile(path):
            return self.reply(404)
        size = os.path.getsize(path)
        first, last, status = 0, size - 1, 200
        r = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if r:
            first = int(r.group(1))
            last = min(int(r.group(2)) if r.group(2) else size - 1, size - 1)
            status = 206
        with lock:
            log.append((m.group(3), first, last))
        with open(path, "rb") as f:
            f.seek(first)
            body = f.read(last - first + 1)
        headers = [("Accept-Ranges", "bytes")]
        if status == 206:
            headers.append(("Content-Range", "bytes %d-%d/%d" % (first, last, size)))
        self.reply(status, body, headers)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
threading.Thread(target=server.serve_forever, daemon=True).start()

env = dict(os.environ)
env["HF_ENDPOINT"] = "http://127.0.0.1:%d/" % server.server_address[1]
env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
env.pop("HF_TOKEN", None)
cache = os.path.join(tmp, "cache", "headroom", "hub")

n = 0
failed = 0


def ok(cond, name, detail=""):
    global n, failed
    n += 1
    if not cond:
        failed += 1
        print("not ok %d - %s" % (n, name))
        for line in str(detail).splitlines():
            print("#   " + line)
    else:
        print("ok %d - %s" % (n, name))


def run(*args, extra=None):
    e = dict(env)
    e.update(extra or {})
    p = subprocess.run([CLI] + list(args), env=e, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def estimate(model, *more, extra=None):
    rc, out, err = run("estimate", "--model", model, "--hardware", "rtx-3090-24gb",
                       "--context", "8192", "--json", *more, extra=extra)
    return rc, (json.loads(out) if rc == 0 else None), err


def without_origin(doc):
    return {k: v for k, v in doc.items() if k not in ("model", "source")}


# 1. Without --online a hub id is not looked up.
rc, _, err = run("estimate", "--model", "Qwen/Qwen2.5-0.5B-Instruct-Nope", "--hardware", "rtx-3090-24gb")
ok(rc == 2 and "add --online" in err and err.count("\n") == 1 and not log,
   "a hub id not in the catalog needs --online (exit 2, no request)", (rc, err, log))

# 2. A config.json from the hub gives the estimate of the same file by path.
config = os.path.join(DATA, "Qwen", "Qwen2.5-0.5B-Instruct", "config.json")
rc, hub, err = estimate("hf:Qwen/Qwen2.5-0.5B-Instruct", "--online", "--precision", "bf16")
rc2, local, err2 = estimate(config, "--precision", "bf16")
ok(rc == 0 and rc2 == 0 and without_origin(hub) == without_origin(local),
   "config.json from the hub = the same file by path", (rc, err, rc2, err2))
ok(rc == 0 and hub["source"] == {"kind": "hub", "repo": "Qwen/Qwen2.5-0.5B-Instruct", "revision": "main"}
   and local["source"]["kind"] == "file",
   "source: hub with repo and revision; file for a path", (hub or {}).get("source"))

# 3. A remote GGUF costs only its header.
del log[:]
ref = "hf:example/tiny-GGUF:tiny-llama-Q4_K_M.gguf"
rc, hub, err = estimate(ref, "--online")
rc2, local, err2 = estimate(gguf)
served = sum(last - first + 1 for name, first, last in log if name.endswith(".gguf"))
ok(rc == 0 and rc2 == 0 and without_origin(hub) == without_origin(local),
   "a GGUF header from the hub = the same 50 MB file by path", (rc, err, rc2, err2))
ok(0 < served <= 1024 * 1024 and all(first == 0 for _, first, _ in log),
   "the remote GGUF cost %d bytes of %d (ranges from byte 0)" % (served, GGUF_SIZE), log)

del log[:]
rc, hub, err = estimate("hf:example/tiny-GGUF:big-header-Q4_K_M.gguf", "--online")
rc2, local, err2 = estimate(big)
served = sum(last - first + 1 for name, first, last in log)
ok(rc == 0 and rc2 == 0 and without_origin(hub) == without_origin(local) and len(log) == 3 and
   served == 7 * 1024 * 1024,
   "a %d-byte header: ranges of 1, 2 and 4 MiB, %d bytes of %d" % (BIG_HEADER, served, GGUF_SIZE),
   (rc, err, rc2, err2, log))
rc, local, err2 = estimate(gguf)

# 4. --offline: from the cache, no request.
del log[:]
rc, off, err = estimate(ref, "--offline")
ok(rc == 0 and without_origin(off) == without_origin(local) and not log,
   "--offline is served from the cache", (rc, err, log))
rc, _, err = estimate("hf:example/tiny-GGUF:other.gguf", "--offline")
ok(rc == 2 and "not in the cache" in err and not log,
   "--offline without a cached copy: exit 2, no request", (rc, err, log))

# 5. A corrupted cache file is kept aside and fetched again.
header = os.path.join(cache, "example", "tiny-GGUF", "main", "tiny-llama-Q4_K_M.gguf.header")
with open(header, "r+b") as f:
    f.seek(8)
    f.write(b"XXXX")
rc, again, err = estimate(ref, "--online")
aside = [n for n in os.listdir(os.path.dirname(header)) if n != os.path.basename(header)]
ok(rc == 0 and without_origin(again) == without_origin(local) and aside and log,
   "a corrupted cache file is kept aside and fetched again", (rc, err, aside))
config_cache = os.path.join(cache, "Qwen", "Qwen2.5-0.5B-Instruct", "main", "config.json")
with open(config_cache, "w") as f:
    f.write("{ not json")
rc, _, err = estimate("hf:Qwen/Qwen2.5-0.5B-Instruct", "--offline", "--precision", "bf16")
ok(rc == 2 and "not in the cache" in err and len(os.listdir(os.path.dirname(config_cache))) == 1,
   "--offline with a corrupted cache: set aside, one clear line", (rc, err))

# 6. A gated repository.
rc, _, err = estimate("example/gated", "--online")
ok(rc == 1 and "HF_TOKEN" in err and err.count("\n") == 1, "gated without HF_TOKEN: one line", (rc, err))
rc, _, err = estimate("example/gated", "--online", "--precision", "bf16", extra={"HF_TOKEN": TOKEN})
ok(rc == 0, "gated with HF_TOKEN", (rc, err))

# 7. A repository of GGUF files without a file named lists them.
rc, _, err = estimate("https://huggingface.co/example/tiny-GGUF", "--online")
ok(rc == 2 and "tiny-llama-Q4_K_M.gguf" in err, "a GGUF repository without a file: its files listed", (rc, err))

# 8. --online and --offline together, and a bad reference.
rc, _, err = estimate("hf:example/tiny-GGUF:x.gguf", "--online", "--offline")
ok(rc == 2 and "together" in err, "--online --offline: exit 2", (rc, err))

# 9. hub-files: the repository's quantizations with their real sizes.
for name, size in (("Qwen2.5-7B-Instruct-IQ4_XS.gguf", 4_250_000_000),
                   ("Q8_0/Qwen2.5-7B-Instruct-Q8_0-00001-of-00002.gguf", 4_000_000_000),
                   ("Q8_0/Qwen2.5-7B-Instruct-Q8_0-00002-of-00002.gguf", 4_100_000_000)):
    path = os.path.join(root, "example", "tiny-GGUF", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(size)
rc, _, err = run("hub-files", "example/tiny-GGUF", "--json")
ok(rc == 2 and "--online" in err, "hub-files without --online and no cache: exit 2", (rc, err))
del log[:]
rc, out, err = run("hub-files", "example/tiny-GGUF", "--online", "--json")
doc = json.loads(out) if rc == 0 else {}
quants = {q["quantization"]: (q["bytes"], q["files"]) for q in doc.get("quantizations", [])}
ok(rc == 0 and quants == {"Q4_K_M": (2 * GGUF_SIZE, 2), "IQ4_XS": (4_250_000_000, 1),
                         "Q8_0": (8_100_000_000, 2)} and not log,
   "hub-files: quantizations with real sizes, shards summed, nothing downloaded", (rc, err, quants, log))
rc, out2, err = run("hub-files", "example/tiny-GGUF", "--offline", "--json")
ok(rc == 0 and json.loads(out2) == doc, "hub-files --offline from the cache", (rc, err))

server.shutdown()
shutil.rmtree(tmp)
print("1..%d" % n)
sys.exit(1 if failed else 0)
