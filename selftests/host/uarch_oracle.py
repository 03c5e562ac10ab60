#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""uarch_oracle.py - check every hardware number in memdiag's uarch table
against sources nobody on the project wrote: perf's pmu-events (mapfile
and JSON event files) and the kernel's Intel uncore driver, all from
Debian's linux-source-6.12. Prints TAP."""

import json
import os
import re
import subprocess
import sys

from oracle import PmuEvents, codes, define, intel_model
from tap import Results

top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
ksrc, dump = sys.argv[1], sys.argv[2]
pmu = PmuEvents(ksrc)
perf_dir, perf_events = pmu.directory, pmu.events
intel = os.path.join(ksrc, 'arch/x86/events/intel')
snbep = open(os.path.join(intel, 'uncore_snbep.c')).read()
disc_h = open(os.path.join(intel, 'uncore_discovery.h')).read()
uncore_c = open(os.path.join(intel, 'uncore.c')).read()
disc_c = open(os.path.join(intel, 'uncore_discovery.c')).read()
fam_h = open(os.path.join(ksrc, 'arch/x86/include/asm/intel-family.h')).read()
# the IMC code as one text: the box programming (imc.c), where the boxes
# are found (imc_find.c) and what the two share (imc.h)
imc_c = ''.join(open(os.path.join(top, 'module', f)).read()
                for f in ('imc.c', 'imc_find.c', 'imc.h'))

tap = Results()
check = tap.check


# The kernel's init function, id table and IMC constant for each generation.
GEN = {
    'haswellx': ('hswep_uncore_pci_init', 'hswep_uncore_pci_ids', 'HSWEP_PCI_UNCORE_IMC'),
    'broadwellx': ('bdx_uncore_pci_init', 'bdx_uncore_pci_ids', 'BDX_PCI_UNCORE_IMC'),
    'skylakex': ('skx_uncore_pci_init', 'skx_uncore_pci_ids', 'SKX_PCI_UNCORE_IMC'),
    'cascadelakex': ('skx_uncore_pci_init', 'skx_uncore_pci_ids', 'SKX_PCI_UNCORE_IMC'),
    'icelakex': ('icx_uncore_pci_init', None, None),
    'sapphirerapids': ('spr_uncore_pci_init', None, None),
    'emeraldrapids': ('spr_uncore_pci_init', None, None),
    'graniterapids': ('gnr_uncore_pci_init', None, None),
    'sierraforest': ('gnr_uncore_pci_init', None, None),
}


def func_body(name):
    m = re.search(r'\n[^\n]*\b%s\([^)]*\)\s*\{(.*?)\n\}' % name, snbep, re.S)
    return m.group(1) if m else ''


def table_body(name):
    m = re.search(r'%s\[\]\s*=\s*\{(.*?)\n\};' % name, snbep, re.S)
    return m.group(1) if m else ''


def block(pattern, text):
    """The body of the C initialiser whose opening matches @pattern."""
    m = re.search(pattern + r'\s*=\s*\{(.*?)\n\};', text, re.S)
    return m.group(1) if m else ''


def check_local_map(n, model, imc):
    """A row without the UBOX map: the kernel drives this model's uncore
    through discovery tables with no PCI bus-to-socket map, and its IMC
    type (the discovery type's slot) names the row's events."""
    fams = [m.group(1) for m in re.finditer(
        r'#define\s+(INTEL_\w+)\s+IFM\(6,\s*0x([0-9A-Fa-f]+)\)', fam_h)
        if int(m.group(2), 16) == model]
    init = None
    for f in fams:
        m = re.search(r'X86_MATCH_VFM\(%s,\s*&(\w+)\)' % f, uncore_c)
        init = init or (m and m.group(1))
    body = block(r'intel_uncore_init_fun\s+%s\s+__initconst' % init, uncore_c) if init else ''
    pci = re.search(r'\.pci_init\s*=\s*(\w+)', body)
    mmio = re.search(r'\.mmio_init\s*=\s*(\w+)', body)
    check(init and re.search(r'\.use_discovery\s*=\s*true', body) and pci and 'pci2phy' not in func_body(pci.group(1)),
          '%s: uncore.c drives model 0x%x (%s) by discovery tables (%s), no UBOX bus map'
          % (n, model, ','.join(fams), init))
    arr = mmio and re.search(r'UNCORE_ACCESS_MMIO,[^;]*?,\s*(\w+)\);', func_body(mmio.group(1)), re.S)
    slots = [x.strip() for x in block(r'\*%s\[\w+\]' % arr.group(1), snbep).split(',')] if arr else []
    t = slots[imc['discovery_type']] if imc['discovery_type'] < len(slots) else ''
    check(t.startswith('&') and t.endswith('_imc'),
          '%s: discovery type %d is the IMC in %s' % (n, imc['discovery_type'], arr and arr.group(1)),
          'slot holds %r' % t)
    descs = block(r'%s\[\]' % (block(r'intel_uncore_type\s+%s' % t[1:], snbep).split(
        'event_descs')[-1].split('=')[-1].split(',')[0].strip() or 'none'), snbep) if t else ''
    for e_ in imc['events']:
        m = re.match(r'UNC_M_CAS_COUNT_SCH(\d)\.(RD|WR)$', e_['perf'])
        name = m and 'cas_count_%s_sch%s' % ({'RD': 'read', 'WR': 'write'}[m.group(2)], m.group(1))
        k = name and re.search(r'DESC\(%s,\s*"event=(0x[0-9a-f]+),umask=(0x[0-9a-f]+)"' % name, descs)
        check(k and int(k.group(1), 16) == e_['event'] and int(k.group(2), 16) == e_['umask'],
              '%s: %s is the kernel\'s %s in %s' % (n, e_['perf'], name, t[1:]),
              str(k and k.group(0)))


# Offcore values a row takes from a newer event list than 6.12's JSON: the
# event, umask, counters and request bits (MSRValue bits 0-15) of the first
# event, the response bits (16 and up) of the second, both in that JSON.
# Intel's perfmon GNR 1.20 lists OCR.READS_TO_CORE.LOCAL_DRAM with the
# value this composes; the rule itself is checked on SPR/EMR below.
COMPOSED = {
    ('graniterapids', 'OCR.READS_TO_CORE.LOCAL_DRAM'):
        ('OCR.READS_TO_CORE.DRAM', 'OCR.DEMAND_RFO.LOCAL_DRAM'),
}
REQ = 0xffff


def composed(d, name):
    """The JSON entry for @name in directory @d, composed where COMPOSED
    says so, or None."""
    ev = perf_events(d)
    if name in ev or (d, name) not in COMPOSED:
        return ev.get(name)
    a, b = (ev.get(x) for x in COMPOSED[(d, name)])
    if not a or not b:
        return None
    e = dict(a)
    e['MSRValue'] = hex(int(a['MSRValue'], 16) & REQ |
                        int(b['MSRValue'], 16) & ~REQ)
    return e


def counter_mask(e):
    return sum(1 << int(x) for x in str(e.get('Counter', '')).split(',')
               if x.strip().isdigit())


REASON_LEN = 192    # MEMDIAG_REASON_LEN: get-info's reason buffer


def check_core(r):
    """Core events: encoding, counter restriction, offcore value; a row
    without an event names why, and the JSON must agree that it is absent."""
    n, d, core = r['name'], r['pmu_events'], r['core']
    for role, c in core.items():
        e = composed(d, c['perf'])
        if not e:
            check(False, '%s: %s is in %s JSON' % (n, c['perf'], d))
            continue
        mask = counter_mask(e)
        check(codes(e['EventCode'])[0] == c['event'] and
              int(e['UMask'], 16) == c['umask'],
              '%s: %s is event 0x%02x umask 0x%02x' % (n, c['perf'], c['event'], c['umask']),
              'perf: %s/%s' % (e['EventCode'], e['UMask']))
        check(mask == c['counters'],
              '%s: %s may run on counters 0x%x' % (n, c['perf'], c['counters']),
              'perf Counter: %s' % e.get('Counter'))
        if role == 'offcore':
            check(int(e.get('MSRValue', '0'), 16) == c['offcore_rsp'],
                  '%s: %s request/response is 0x%x' % (n, c['perf'], c['offcore_rsp']),
                  'perf MSRValue: %s' % e.get('MSRValue'))
    ev = perf_events(d)
    if 'pending' in core:
        check('l1_miss' in core and ('lfb_hit' in core or 'l1_miss_any' in core),
              '%s: has the events of both latency metrics' % n)
    else:
        check(r['latency_reason'] and 'L1D_PEND_MISS.PENDING' not in ev,
              '%s: no L1D_PEND_MISS.PENDING in %s JSON, and the reason' % (n, d))
    if 'offcore' not in core:
        local = [x for x in ev if x.startswith('OCR.') and x.endswith('LOCAL_DRAM')
                 and not x.startswith(('OCR.DEMAND_', 'OCR.HWPF_', 'OCR.L1WB', 'OCR.L2WB'))]
        check(r['offcore_reason'] and not local,
              '%s: no OCR event for all reads from local DRAM in %s JSON, and the reason'
              % (n, d), 'found %s' % local)
    for k in ('imc_reason', 'latency_reason', 'offcore_reason'):
        check(len(r[k]) < REASON_LEN, '%s: %s fits get-info (%d bytes)' % (n, k, len(r[k])))
    # the counters the events need: one each, and no more than the PMU has
    have = max([counter_mask(e).bit_length() for e in ev.values()] or [0])
    check(r['gp_counters_min'] == len(core) <= have,
          '%s: needs %d general counters, one per event, of the %d perf lists'
          % (n, r['gp_counters_min'], have))


# the composition rule gives what SPR's and EMR's JSON list by name
for d in ('sapphirerapids', 'emeraldrapids'):
    saved = perf_events(d).pop('OCR.READS_TO_CORE.LOCAL_DRAM', None)
    COMPOSED[(d, 'OCR.READS_TO_CORE.LOCAL_DRAM')] = COMPOSED[
        ('graniterapids', 'OCR.READS_TO_CORE.LOCAL_DRAM')]
    mine = composed(d, 'OCR.READS_TO_CORE.LOCAL_DRAM')
    check(saved and mine and int(mine['MSRValue'], 16) == int(saved['MSRValue'], 16),
          '%s: composing OCR.READS_TO_CORE.LOCAL_DRAM gives its JSON value' % d,
          '%s vs %s' % (mine and mine['MSRValue'], saved and saved['MSRValue']))
    del COMPOSED[(d, 'OCR.READS_TO_CORE.LOCAL_DRAM')]
    perf_events(d)['OCR.READS_TO_CORE.LOCAL_DRAM'] = saved



rows = [json.loads(l) for l in subprocess.run(
    [dump], check=True, capture_output=True, text=True).stdout.splitlines()]
names = [r['name'] for r in rows]

# Clearwater Forest is in intel-family.h, but perf has no event list for it:
# no row until one can be checked (README says so)
fm = intel_model(fam_h, 'ATOM_DARKMONT_X')
cwf = fm[1] if fm and fm[0] == 6 else None
check(cwf and not any(perf_dir('GenuineIntel', 6, cwf, st) for st in range(16)) and
      not any(r['model'] == cwf and r['family'] == 6 for r in rows),
      'Clearwater Forest (INTEL_ATOM_DARKMONT_X 0x%x): no perf JSON, so no row' % (cwf or 0))
for want in ['Haswell-EP', 'Broadwell-EP', 'Skylake-SP', 'Cascade Lake-SP',
             'Ice Lake-SP', 'Sapphire Rapids', 'Emerald Rapids',
             'Granite Rapids', 'Granite Rapids-D', 'Sierra Forest']:
    check(want in names, 'uarch table names %s' % want)

# AMD rows: selftests/host/amd_oracle.py
for r in [r for r in rows if r['vendor'] == 'GenuineIntel']:
    n, d, imc = r['name'], r['pmu_events'], r['imc']
    s0, s1 = r['stepping']
    got = {perf_dir(r['vendor'], r['family'], r['model'], s)
           for s in range(s0, s1 + 1)}
    check(got == {d}, '%s: perf mapfile maps %s-%d-%X steppings %d-%d to %s'
          % (n, r['vendor'], r['family'], r['model'], s0, s1, d),
          'perf says %s' % sorted(map(str, got)))

    check_core(r)
    if imc is None:
        check(r['imc_reason'], '%s: no IMC description, and the reason' % n)
        continue

    # IMC events: encoding from perf's JSON, meaning from the name, bytes
    # from the kernel's scale (6.103515625e-5 MiB = 64 bytes per count)
    ev = perf_events(d)
    box = imc['box']
    for e_ in imc['events']:
        e = ev.get(e_['perf'])
        check(e and e.get('Unit', '').lower() == 'imc' and
              codes(e['EventCode'])[0] == e_['event'] and
              int(e['UMask'], 16) == e_['umask'] and e_['extra'] == 0,
              '%s: %s is IMC event 0x%02x umask 0x%02x' % (n, e_['perf'], e_['event'], e_['umask']),
              'perf: %s' % str(e and (e.get('Unit'), e['EventCode'], e['UMask'])))
        want = {'RD': 'read', 'WR': 'write'}.get(e_['perf'].rsplit('.', 1)[-1])
        check(want == e_['meaning'], '%s: %s counts %ss' % (n, e_['perf'], e_['meaning']),
              'the name says %s' % want)
        check(e_['bytes'] == 64 and re.search(r'cas_count_\w+\.scale,\s*"6\.103515625e-5"', snbep),
              '%s: %s moves 64 bytes a count, as the kernel scales CAS' % (n, e_['perf']))
    meanings = [e_['meaning'] for e_ in imc['events']]
    check('read' in meanings and 'write' in meanings and
          len(set(e_['perf'] for e_ in imc['events'])) == len(meanings) and
          len(meanings) <= box['n_ctrs'],
          '%s: reads and writes, each event once, in at most %d counters' % (n, box['n_ctrs']))

    # UBOX: device id, registers and scan direction as the kernel maps buses
    init, ids, imc_const = GEN[d]
    if imc['socket_map'] == 'local':
        check_local_map(n, r['model'], imc)
    else:
        m = re.search(r'snbep_pci2phy_map_init\((0x[0-9a-f]+),\s*(\w+),\s*(\w+),\s*(true|false)\)',
                      func_body(init))
        check(m and int(m.group(1), 16) == imc['ubox_device'] and
              define(snbep, m.group(2)) == imc['ubox_nodeid'] and
              define(snbep, m.group(3)) == imc['ubox_gidnidmap'] and
              (m.group(4) == 'true') == imc['ubox_reverse'],
              '%s: UBOX 8086:%04x node id 0x%x, GIDNIDMAP 0x%x, reverse %s as in %s'
              % (n, imc['ubox_device'], imc['ubox_nodeid'], imc['ubox_gidnidmap'],
                 imc['ubox_reverse'], init), str(m and m.group(0)))

    if box['access'] == 'pci':
        body = table_body(ids)
        for i, (dev, slot, fn) in enumerate(imc['chans']):
            m = re.search(r'PCI_DEVICE\(PCI_VENDOR_ID_INTEL,\s*0x%04x\),\s*'
                          r'\.driver_data\s*=\s*(UNCORE_PCI_DEV_(?:FULL_)?DATA\(([^)]*)\))'
                          r'(?:.|\n)*?\}' % dev, body, re.I)
            ok = False
            for mm in re.finditer(r'PCI_DEVICE\(PCI_VENDOR_ID_INTEL,\s*0x%04x\),\s*'
                                  r'\.driver_data\s*=\s*UNCORE_PCI_DEV_(FULL_)?DATA\(([^)]*)\)'
                                  % dev, body, re.I):
                a = [x.strip() for x in mm.group(2).split(',')]
                if mm.group(1):
                    ok |= (int(a[0], 0) == slot and int(a[1], 0) == fn and
                           a[2] == imc_const and int(a[3], 0) == i)
                else:
                    ok |= a[0] == imc_const and int(a[1], 0) == i
            check(ok, '%s: channel %d is 8086:%04x at %02x.%d, IMC box %d in %s'
                  % (n, i, dev, slot, fn, i, ids))
        for k, v in [('box_ctl', 'SNBEP_PCI_PMON_BOX_CTL'), ('ctl0', 'SNBEP_PCI_PMON_CTL0'),
                     ('ctr0', 'SNBEP_PCI_PMON_CTR0'), ('ctl_en', 'SNBEP_PMON_CTL_EN'),
                     ('box_frz', 'SNBEP_PMON_BOX_CTL_FRZ')]:
            check(box[k] == define(snbep, v), '%s: %s equals %s' % (n, k, v),
                  '%s vs %s' % (box[k], define(snbep, v)))
    elif box['access'] == 'mmio':
        for k, v in [('mc_device', 'SNR_MC_DEVICE_ID'), ('mc_base_reg', 'SNR_IMC_MMIO_BASE_OFFSET'),
                     ('mc_off_reg', 'SNR_IMC_MMIO_MEM0_OFFSET'),
                     ('chan_base', 'SNR_IMC_MMIO_PMON_BOX_CTL'),
                     ('chan_stride', 'SNR_IMC_MMIO_OFFSET'), ('box_size', 'SNR_IMC_MMIO_SIZE'),
                     ('ctl0', 'SNR_IMC_MMIO_PMON_CTL0'), ('ctr0', 'SNR_IMC_MMIO_PMON_CTR0'),
                     ('ctl_en', 'SNBEP_PMON_CTL_EN'), ('box_frz', 'SNBEP_PMON_BOX_CTL_FRZ')]:
            got = (box if k in box else imc)[k]
            check(got == define(snbep, v), '%s: %s equals %s' % (n, k, v),
                  '%s vs %s' % (got, define(snbep, v)))
        check(imc['chans_per_mc'] <= define(snbep, 'ICX_NUMBER_IMC_CHN'),
              '%s: at most ICX_NUMBER_IMC_CHN channel slots per MC' % n)
        for k, v in [('SNR_IMC_MMIO_BASE_MASK', 0x1FFFFFFF), ('SNR_IMC_MMIO_MEM0_MASK', 0x7FF),
                     ('ICX_IMC_MEM_STRIDE', 4)]:
            check(define(snbep, k) == v, '%s: imc.c assumes %s = 0x%x' % (n, k, v))
    else:
        check(imc['discovery_type'] == define(snbep, 'UNCORE_SPR_IMC'),
              '%s: IMC discovery type equals UNCORE_SPR_IMC' % n)
        check(box['box_frz'] == define(disc_h, 'GENERIC_PMON_BOX_CTL_FRZ') and box['ctl_en'] == 0,
              '%s: generic box freeze bit, no counter enable bit' % n)
        check(box['box_size'] == define(disc_c, 'UNCORE_GENERIC_MMIO_SIZE'),
              '%s: maps 0x%x bytes a box, UNCORE_GENERIC_MMIO_SIZE' % (n, box['box_size']))

# The discovery constants imc.c uses.
for ours, theirs in [('DVSEC_CAP_ID', 'UNCORE_EXT_CAP_ID_DISCOVERY'),
                     ('DVSEC_ID_REG', 'UNCORE_DISCOVERY_DVSEC_OFFSET'),
                     ('DVSEC_ID_PMON', 'UNCORE_DISCOVERY_DVSEC_ID_PMON'),
                     ('DVSEC_BIR_REG', 'UNCORE_DISCOVERY_DVSEC2_OFFSET'),
                     ('DISCOVERY_BAR0', 'UNCORE_DISCOVERY_BIR_BASE')]:
    a, b = define(imc_c, ours), define(disc_h, theirs)
    check(a is not None and a == b, 'imc.c %s equals uncore_discovery.h %s' % (ours, theirs),
          '%s vs %s' % (a, b))


def genmask(text, name):
    """The value of '#define NAME GENMASK(h, l)' (or GENMASK_ULL) in @text."""
    m = re.search(r'#define\s+%s\s+GENMASK(?:_ULL)?\((\d+),\s*(\d+)\)' % name, text)
    if not m:
        return None
    h, l = int(m.group(1)), int(m.group(2))
    return ((1 << (h - l + 1)) - 1) << l


def bitfields(text, struct):
    """{field: mask} of the first qword of uncore_discovery.h's @struct,
    from its 'u64 a : 8, b : 8, ...' bitfield list."""
    m = re.search(r'struct %s \{.*?u64\s+table1;\s*struct \{\s*u64(.*?);' % struct,
                  text, re.S)
    fields, lo = {}, 0
    for name, width in re.findall(r'(\w+)\s*:\s*(\d+)', m.group(1) if m else ''):
        fields[name] = ((1 << int(width)) - 1) << lo
        lo += int(width)
    return fields


# The discovery table's fields imc_find.c reads, against the kernel's
# bitfields, and the masks of the DVSEC and of Ice Lake-SP's MMIO base.
glob_f = bitfields(disc_h, 'uncore_global_discovery')
unit_f = bitfields(disc_h, 'uncore_unit_discovery')
for ours, theirs in [('DISC_GLOBAL_STRIDE', glob_f.get('stride')),
                     ('DISC_GLOBAL_MAX_UNITS', glob_f.get('max_units')),
                     ('DISC_UNIT_CTL_OFFSET', unit_f.get('ctl_offset')),
                     ('DISC_UNIT_CTR_BITS', unit_f.get('bit_width')),
                     ('DISC_UNIT_CTR_OFFSET', unit_f.get('ctr_offset')),
                     ('DISC_UNIT_ACCESS', unit_f.get('access_type')),
                     ('DVSEC_ID_MASK', define(disc_h, 'UNCORE_DISCOVERY_DVSEC_ID_MASK')),
                     ('DVSEC_BIR_MASK', define(disc_h, 'UNCORE_DISCOVERY_DVSEC2_BIR_MASK')),
                     ('ICX_MMIO_BASE', define(snbep, 'SNR_IMC_MMIO_BASE_MASK')),
                     ('ICX_MMIO_MEM', define(snbep, 'SNR_IMC_MMIO_MEM0_MASK'))]:
    a = genmask(imc_c, ours)
    check(a is not None and a == theirs, 'imc_find.c %s is the kernel\'s field' % ours,
          '%s vs %s' % (a and hex(a), theirs and hex(theirs)))
box_type = re.search(r'u64\s+table3;\s*struct \{\s*u64\s+box_type\s*:\s*(\d+)',
                     disc_h)
check(box_type is not None and
      genmask(imc_c, 'DISC_UNIT_BOX_TYPE') == (1 << int(box_type.group(1))) - 1,
      "imc_find.c DISC_UNIT_BOX_TYPE is the kernel's box_type")
access = re.search(r'enum uncore_access_type \{\s*UNCORE_ACCESS_MSR\s*=\s*0,\s*UNCORE_ACCESS_MMIO,',
                   disc_h)
check(access is not None and define(imc_c, 'DISC_ACCESS_MMIO') == 1,
      'imc_find.c DISC_ACCESS_MMIO is UNCORE_ACCESS_MMIO (1)')
for ours, mask in [('ICX_MMIO_BASE_SHIFT', 'SNR_IMC_MMIO_BASE_MASK'),
                   ('ICX_MMIO_MEM_SHIFT', 'SNR_IMC_MMIO_MEM0_MASK')]:
    m = re.search(r'%s\)?\s*<<\s*(\d+)' % mask, snbep)
    check(m is not None and define(imc_c, ours) == int(m.group(1)),
          'imc_find.c %s is the shift of uncore_snbep.c %s' % (ours, mask))

tap.finish()
