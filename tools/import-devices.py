#!/usr/bin/env python3
# Regenerates resources/catalog/hardware.json from the device research
# (devices.json: vendor figures with their sources), keeping the ids, the
# order and the tier ladder of the current file and adding new devices
# after them.  A developer tool: the build, the app and the tests read the
# committed JSON.  Usage: tools/import-devices.py DEVICES.json
import json, os, re, sys

here = os.path.dirname(__file__)
path = os.path.join(here, '..', 'resources', 'catalog', 'hardware.json')
current = json.load(open(path))
research = {d['id']: d for d in json.load(open(sys.argv[1]))['devices']}

# Effective host-to-device copy rate of a PCIe link, pinned memory, per x16
# (research notes devices/system-memory.md §4: 3.0 ~12 GB/s, 4.0 ~20-25,
# 5.0 ~35-53 measured); x8 halves it.
PCIE_X16 = {'3.0': 12.5, '4.0': 25.0, '5.0': 50.0, '6.0': 100.0}

def pcie_gbps(text):
    m = re.match(r'\s*([3-6]\.0) x(\d+)', text or '')
    if not m:
        return None
    return PCIE_X16[m.group(1)] * int(m.group(2)) / 16

def matrix_tflops(d):
    # llama.cpp's GEMMs ask cuBLAS for FP16 accumulation: GeForce cards run at
    # their FP16-accumulate rate; others at the dense FP16 tensor figure;
    # Apple at the GPU's FP16 (= FP32) vector rate.
    return (d.get('fp16_tensor_tflops_fp16acc') or d.get('fp16_tensor_tflops')
            or d.get('gpu_fp32_tflops'))

# The fabric GPUs of this kind talk over, best first: NVSwitch / NVLink,
# AMD Infinity Fabric, a two-card NVLink bridge, else PCIe (none on a SoC).
def fabric(d):
    links = d.get('interconnect') or []
    for prefix, name in (('nvswitch', 'nvswitch'), ('nvlink-5', 'nvlink'), ('nvlink-4', 'nvlink'),
                         ('nvlink-3', 'nvlink'), ('nvlink-2', 'nvlink'),
                         ('infinity-fabric-mi', 'infinity-fabric'),
                         ('nvlink-bridge', 'nvlink-bridge'), ('infinity-fabric-bridge', 'nvlink-bridge'),
                         ('pcie', 'pcie')):
        if any(l.startswith(prefix) for l in links):
            return name
    return 'none'

def entry(d, old=None):
    e = {
        'id': d['id'],
        'name': (old or d)['name'],
        'vendor': d['vendor'],
        'family': d['family'],
        'kind': d['kind'],
        'memory_gib': (old or d)['memory_gib'],
        # existing devices keep the reference figure they were seeded with
        'bandwidth_gbps': (old or d)['bandwidth_gbps'],
        'fp16_tflops': matrix_tflops(d),
        'int8_tops': d.get('int8_tensor_tops'),
        'memory_type': d.get('memory_type') or '',
        'tdp_w': d.get('tdp_w'),
        'pcie': d.get('pcie') or '',
        'pcie_gbps': pcie_gbps(d.get('pcie')),
        'interconnect': fabric(d),
        'pci_ids': d.get('pci_ids') or [],
        'source': '; '.join(d.get('source') or []),
        'source_quality': d.get('source_quality') or '',
    }
    return {k: v for k, v in e.items() if v is not None}

out, seen = [], set()
for old in current['hardware']:
    d = research.get(old['id'])
    out.append(entry(d, old) if d else old)
    seen.add(old['id'])
skipped = []
for did, d in research.items():
    if did in seen:
        continue
    if not matrix_tflops(d) or not d.get('bandwidth_gbps'):
        skipped.append(did)         # no published figures to compute with
        continue
    out.append(entry(d))

with open(path, 'w') as f:
    f.write('{\n  "tier_ladder": %s,\n  "hardware": [\n' % json.dumps(current['tier_ladder']))
    f.write(',\n'.join('    ' + json.dumps(e, ensure_ascii=False) for e in out))
    f.write('\n  ]\n}\n')
print(len(out), 'devices; left out for want of figures:', ', '.join(skipped))
