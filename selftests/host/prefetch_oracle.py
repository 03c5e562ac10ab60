#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""prefetch_oracle.py - check memdiag's prefetcher table against Debian's
linux-source-6.12: every Intel model number against intel-family.h, the
register against msr-index.h, and the bits (and what each one switches)
of the rows the kernel documents against the SDM excerpts and disable
masks of resctrl's pseudo-locking (pseudo_lock.c). Prints TAP."""

import json
import re
import subprocess
import sys

from oracle import define, intel_model
from tap import Results

ksrc, dump = sys.argv[1], sys.argv[2]
family_h = open(ksrc + '/arch/x86/include/asm/intel-family.h').read()
msr_h = open(ksrc + '/arch/x86/include/asm/msr-index.h').read()
plock = open(ksrc + '/arch/x86/kernel/cpu/resctrl/pseudo_lock.c').read()
rows = [json.loads(l) for l in subprocess.check_output([dump]).decode().splitlines()]

tap = Results('prefetch: ')
check = tap.check

# What the SDM's descriptions (as the kernel quotes them) mean, in
# memdiag's names: the meaning of each name is what is under test here.
SDM_NAMES = {
    'L2 Hardware Prefetcher': 'l2-stream',
    'L2 Adjacent Cache Line Prefetcher': 'l2-adjacent',
    'DCU Hardware Prefetcher': 'l1-nextline',
    'DCU IP Prefetcher': 'l1-ip',
}

# 1. model numbers: the kernel's name for each must have that number
for r in rows:
    for model, kname in r['models'] or []:
        fm = intel_model(family_h, kname)
        check(fm == (r['family'], model),
              '%s: model 0x%x is INTEL_%s in intel-family.h' % (r['name'], model, kname),
              'intel-family.h: %s' % (fm and 'family %d model 0x%x' % fm))

# 2. the Intel register
misc = define(msr_h, 'MSR_MISC_FEATURE_CONTROL')
for r in rows:
    if r['vendor'] == 'GenuineIntel':
        check(misc is not None and misc == r['msr'],
              '%s: MSR 0x%x is MSR_MISC_FEATURE_CONTROL' % (r['name'], r['msr']))

# 3. no model in two rows; names and bits unique within a row
seen = {}
for r in rows:
    for model, _ in r['models'] or []:
        key = (r['vendor'], r['family'], model)
        check(key not in seen, '%s: model 0x%x in no other row' % (r['name'], model),
              seen.get(key, ''))
        seen[key] = r['name']
    names = [b[1] for b in r['bits']]
    bits = [b[0] for b in r['bits']]
    check(len(set(names)) == len(names) and len(set(bits)) == len(bits) and
          len(bits) <= 8, '%s: names and bits are unique' % r['name'])

# 4. resctrl's cases: the disable mask, and the SDM bit table above it
for case in re.finditer(r'((?:\s*case\s+INTEL_\w+:)+)(.*?)return\s+(0x[0-9A-Fa-f]+);',
                        plock, re.S):
    knames = re.findall(r'INTEL_(\w+)', case.group(1))
    mask = int(case.group(3), 16)
    doc = {}
    for bit, desc in re.findall(r'\*\s+(\d+)\s+(.+?)\s*\(R/W\)', case.group(2)):
        doc[int(bit)] = re.sub(r'\s+Disable$', '', desc.strip())
    for kname in knames:
        row = [r for r in rows if any(k == kname for _, k in r['models'] or [])]
        check(len(row) == 1, 'INTEL_%s (resctrl) is in the table' % kname)
        if len(row) != 1:
            continue
        r = row[0]
        have = sum(1 << b for b, _ in r['bits'])
        check(have == mask, '%s: INTEL_%s bits 0x%x == resctrl mask 0x%x'
              % (r['name'], kname, have, mask))
        for b, name in r['bits']:
            want = SDM_NAMES.get(doc.get(b, ''), None)
            check(want == name, '%s: bit %u is %s (SDM: %s)'
                  % (r['name'], b, name, doc.get(b, 'not documented')))

# 5. models left out because no source confirms their layout
# (Documentation/prefetch.rst): resctrl and LIKWID name none of Xeon 6
for kname in ('GRANITERAPIDS_X', 'GRANITERAPIDS_D', 'ATOM_CRESTMONT_X',
              'ATOM_DARKMONT_X'):
    fm = intel_model(family_h, kname)
    model = fm[1] if fm and fm[0] == 6 else None
    check(model and kname not in plock and
          not any(r['vendor'] == 'GenuineIntel' and r['family'] == 6 and
                  (not r['models'] or any(x == model for x, _ in r['models']))
                  for r in rows),
          'INTEL_%s (0x%x) is left out: no source gives its prefetcher bits'
          % (kname, model or 0))

tap.finish(more_than=60)
