#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""uarch_oracle.py - check memdiag's hardware numbers against sources
nobody on the project wrote: perf's pmu-events mapfile and the kernel's
uncore driver, both from Debian's linux-source-6.12. Prints TAP."""

import re
import subprocess
import sys
import os

top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
ksrc = sys.argv[1]
dump = sys.argv[2]

mapfile = os.path.join(ksrc, 'tools/perf/pmu-events/arch/x86/mapfile.csv')
snbep = open(os.path.join(ksrc, 'arch/x86/events/intel/uncore_snbep.c')).read()
disc_h = open(os.path.join(ksrc, 'arch/x86/events/intel/uncore_discovery.h')).read()
caps_c = open(os.path.join(top, 'module/caps.c')).read()

results = []


def check(ok, name, why=''):
    results.append((bool(ok), name, why))


def perf_dir(vendor, family, model, stepping):
    """The pmu-events directory perf picks for a CPU, as perf matches it:
    the mapfile key is a regex over 'Vendor-Family-Model-Stepping'."""
    cpuid = '%s-%d-%X-%X' % (vendor, family, model, stepping)
    for line in open(mapfile):
        key, _ver, fname, etype = line.strip().split(',')[:4]
        if etype != 'core' or key == 'Family-model':
            continue
        if re.match(key + '$', cpuid) or re.match(key + '$', cpuid.rsplit('-', 1)[0]):
            return fname
    return None


# The id table for a generation in uncore_snbep.c, and the IMC box-type
# constant its entries use.
PCI_TABLES = {
    'haswellx': ('hswep_uncore_pci_ids', 'HSWEP_PCI_UNCORE_IMC'),
    'broadwellx': ('bdx_uncore_pci_ids', 'BDX_PCI_UNCORE_IMC'),
    'skylakex': ('skx_uncore_pci_ids', 'SKX_PCI_UNCORE_IMC'),
    'cascadelakex': ('skx_uncore_pci_ids', 'SKX_PCI_UNCORE_IMC'),
}


def pci_table(name):
    m = re.search(r'%s\[\]\s*=\s*\{(.*?)\n\};' % name, snbep, re.S)
    return m.group(1) if m else ''


rows = subprocess.run([dump], check=True, capture_output=True,
                      text=True).stdout.splitlines()
check(len(rows) >= 7, 'uarch table has the seven required generations',
      '%d rows' % len(rows))
names = [r.split('|')[0] for r in rows]
for want in ['Haswell-EP', 'Broadwell-EP', 'Skylake-SP', 'Cascade Lake-SP',
             'Ice Lake-SP', 'Sapphire Rapids', 'Emerald Rapids']:
    check(want in names, 'uarch table names %s' % want)

for r in rows:
    (name, vendor, family, model, smin, smax, events, access, pcidev,
     _gp) = r.split('|')
    family, model, smin, smax = int(family), int(model), int(smin), int(smax)
    got = {perf_dir(vendor, family, model, s) for s in range(smin, smax + 1)}
    check(got == {events},
          '%s: perf mapfile maps %s-%d-%X steppings %d-%d to %s' %
          (name, vendor, family, model, smin, smax, events),
          'perf says %s' % sorted(map(str, got)))
    dev = int(pcidev, 16)
    if access == 'pci':
        table, imc = PCI_TABLES.get(events, ('?', '?'))
        body = pci_table(table)
        m = re.search(r'PCI_DEVICE\(PCI_VENDOR_ID_INTEL,\s*0x%04x\),\s*'
                      r'\.driver_data\s*=\s*UNCORE_PCI_DEV_(?:FULL_)?DATA\(([^)]*)\)'
                      % dev, body, re.I)
        check(m and imc in m.group(1) and m.group(1).strip().endswith('0'),
              '%s: 8086:%04x is the first IMC channel in %s' % (name, dev, table),
              m.group(1) if m else 'not in table')
    elif access == 'mmio':
        m = re.search(r'#define\s+SNR_MC_DEVICE_ID\s+(0x[0-9a-fA-F]+)', snbep)
        init = re.search(r'static void icx_uncore_imc_init_box\(.*?\n\}', snbep, re.S)
        check(m and int(m.group(1), 16) == dev and init and
              'SNR_MC_DEVICE_ID' in init.group(0),
              '%s: 8086:%04x is the device icx_uncore_imc_init_box maps' %
              (name, dev))
    else:
        check(dev == 0, '%s: discovery rows name no PCI device' % name)

# The discovery-table constants caps.c uses.
for ours, theirs in [('DISCOVERY_DVSEC_CAP', 'UNCORE_EXT_CAP_ID_DISCOVERY'),
                     ('DISCOVERY_DVSEC_ID_REG', 'UNCORE_DISCOVERY_DVSEC_OFFSET'),
                     ('DISCOVERY_DVSEC_PMON', 'UNCORE_DISCOVERY_DVSEC_ID_PMON')]:
    a = re.search(r'#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)' % ours, caps_c)
    b = re.search(r'#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)' % theirs, disc_h)
    check(a and b and int(a.group(1), 0) == int(b.group(1), 0),
          'caps.c %s equals uncore_discovery.h %s' % (ours, theirs),
          '%s vs %s' % (a and a.group(1), b and b.group(1)))

print('TAP version 13')
print('1..%d' % len(results))
for i, (ok, name, why) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok and why:
        print('#   ' + why)
sys.exit(0 if all(r[0] for r in results) else 1)
