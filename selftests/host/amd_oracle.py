#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""amd_oracle.py - check every AMD number in memdiag's uarch table (and the
core PMU descriptions both vendors use) against Debian's linux-source-6.12:
family/model ranges against the X86_FEATURE_ZEN* switch of
arch/x86/kernel/cpu/amd.c and perf's mapfile.csv, event encodings against
the amdzen4/amdzen5 JSON, MSR addresses against msr-index.h, the counter
count and width against perf_event.h and arch/x86/events/amd/core.c.
Prints TAP. Usage: amd_oracle.py LINUX_SRC AMD_SRC DUMP_UARCH, AMD_SRC
being what scripts/linux-src.sh --amd unpacks."""

import json
import os
import re
import subprocess
import sys

from oracle import PmuEvents, define
from tap import Results

ksrc, asrc, dump = sys.argv[1], sys.argv[2], sys.argv[3]
pmu = PmuEvents(ksrc)
pmu_dir, perf_events = pmu.dir, pmu.events
amd_c = open(os.path.join(asrc, 'arch/x86/kernel/cpu/amd.c')).read()
msr_h = open(os.path.join(ksrc, 'arch/x86/include/asm/msr-index.h')).read()
pe_h = open(os.path.join(asrc, 'arch/x86/include/asm/perf_event.h')).read()
amd_core = open(os.path.join(asrc, 'arch/x86/events/amd/core.c')).read()

tap = Results()
check = tap.check


def zen_ranges(family):
    """{feature: [(lo, hi)]} from amd.c's 'case 0xFAM:' model switch."""
    m = re.search(r'case 0x%x:\s*switch \(c->x86_model\) \{(.*?)\n\t\t\}' % family,
                  amd_c, re.S)
    out, pending = {}, []
    for line in (m.group(1) if m else '').splitlines():
        r = re.search(r'case (0x[0-9a-f]+)(?: \.\.\. (0x[0-9a-f]+))?:', line)
        if r:
            lo = int(r.group(1), 16)
            pending.append((lo, int(r.group(2), 16) if r.group(2) else lo))
        f = re.search(r'X86_FEATURE_(ZEN\d)', line)
        if f:
            out.setdefault(f.group(1), []).extend(pending)
            pending = []
    return out


rows = [json.loads(line) for line in subprocess.run(
    [dump], check=True, capture_output=True, text=True).stdout.splitlines()]
amd = [r for r in rows if r['vendor'] == 'AuthenticAMD']
feature = {'AMD Zen 4': 'ZEN4', 'AMD Zen 5': 'ZEN5'}

# every model range of X86_FEATURE_ZEN4/ZEN5 is a supported row, and back
for fam, feat in [(0x19, 'ZEN4'), (0x1a, 'ZEN5')]:
    want = sorted(zen_ranges(fam).get(feat, []))
    got = sorted((r['model'], r['model_max']) for r in amd
                 if r['family'] == fam and not r['unsupported'] and
                 r['name'] in feature)
    check(want and got == want,
          'family 0x%x: supported model ranges are amd.c X86_FEATURE_%s %s' % (fam, feat, want),
          'table: %s' % got)
# Zen 1 is named and refused with a reason; Zen 2 and 3 are supported
# (DRAM bandwidth through the Data Fabric, checked below)
for fam, feat, refused in [(0x17, 'ZEN1', True), (0x17, 'ZEN2', False),
                           (0x19, 'ZEN3', False)]:
    ranges = zen_ranges(fam).get(feat, [])
    have = [(r['model'], r['model_max']) for r in amd
            if r['family'] == fam and bool(r['unsupported']) == refused and
            r['name'] not in feature]
    covered = all(any(lo <= a and b <= hi for lo, hi in have) for a, b in ranges)
    check(ranges and covered,
          'family 0x%x: %s models are %s' % (fam, feat, 'refused with a reason'
                                              if refused else 'supported'),
          'amd.c %s, table %s' % (ranges, have))

for r in amd:
    if r['unsupported'] or r['name'] not in feature:
        continue
    n, d = r['name'], r['pmu_events']
    feat = feature.get(n)
    check(feat and (r['model'], r['model_max']) in zen_ranges(r['family']).get(feat, []),
          '%s: family 0x%x models 0x%02x-0x%02x is an amd.c X86_FEATURE_%s range'
          % (n, r['family'], r['model'], r['model_max'], feat))
    dirs = {pmu.directory(r['vendor'], r['family'], m)
            for m in range(r['model'], r['model_max'] + 1)}
    check(dirs == {d}, '%s: perf mapfile maps models 0x%02x-0x%02x to %s'
          % (n, r['model'], r['model_max'], d), 'perf: %s' % sorted(map(str, dirs)))
    ev = perf_events(d)
    ncore = define(pe_h, 'AMD64_NUM_COUNTERS_CORE')
    for group in ('core', 'core_fix'):
        for role, c in r[group].items():
            e = ev.get(c['perf'])
            if not e:
                check(False, '%s: %s is in %s JSON' % (n, c['perf'], d))
                continue
            check(int(e['EventCode'], 16) == c['event'] and
                  int(e.get('UMask', '0'), 16) == c['umask'],
                  '%s: %s (%s) is event 0x%02x umask 0x%02x'
                  % (n, c['perf'], role, c['event'], c['umask']),
                  'perf: %s/%s' % (e['EventCode'], e.get('UMask')))
            check(c['counters'] == (1 << ncore) - 1,
                  '%s: %s may run on all AMD64_NUM_COUNTERS_CORE (%d) counters'
                  % (n, c['perf'], ncore))
    check('mab_occ' in r['core'] and 'mab_alloc' in r['core'] and
          'cycles' in r['core_fix'],
          '%s: the MAB latency events and cycles are in the table' % n)
    # no perf pairing constraint (Large Increment per Cycle) on these events
    pair = [int(x, 16) for x in re.findall(r'case (0x[0-9a-f]+):\s*return true;',
                                           amd_core)]
    check(pair and not any(c['event'] in pair for g in ('core', 'core_fix')
                           for c in r[g].values()),
          '%s: no event is one perf must pair (amd_is_pair_event_code %s)'
          % (n, [hex(p) for p in pair]))

# the UMC box and events against msr-index.h, perf_event.h, amd/uncore.c and
# the JSON (bandwidth = CAS x 64 in recommended.json)
uncore = open(os.path.join(asrc, 'arch/x86/events/amd/uncore.c')).read()
m = re.search(r'#define AMD64_PERFMON_V2_ENABLE_UMC\s+BIT_ULL\((\d+)\)', pe_h)
umc_en = 1 << int(m.group(1)) if m else None
m = re.search(r'#define AMD64_PERFMON_V2_EVENTSEL_RDWRMASK_UMC\s+GENMASK_ULL\((\d+), (\d+)\)', pe_h)
rdwr_shift = int(m.group(2)) if m else None
for r in amd:
    if r['unsupported'] or r['name'] not in feature:
        continue
    n, d, imc = r['name'], r['pmu_events'], r['imc']
    check(imc is not None, '%s: DRAM counters are described (UMC)' % n)
    if not imc:
        continue
    box = imc['box']
    check(box['access'] == 'msr', '%s: UMC counters are MSRs' % n)
    for k, v in [('ctl0', 'MSR_F19H_UMC_PERF_CTL'), ('ctr0', 'MSR_F19H_UMC_PERF_CTR')]:
        check(box[k] == define(msr_h, v), '%s: UMC %s is %s' % (n, k, v),
              '%s vs %s' % (box[k], define(msr_h, v)))
    check(box['ctl_stride'] == 2 and box['ctr_stride'] == 2 and
          'pmu->msr_base + (2 * hwc->idx)' in uncore and
          'MSR_F19H_UMC_PERF_CTL + i * pmu->num_counters * 2' in uncore,
          '%s: UMC counter i at +2i, UMC k after k x counters x 2 (amd/uncore.c)' % n)
    check(box['ctl_en'] == umc_en, '%s: UMC enable is AMD64_PERFMON_V2_ENABLE_UMC' % n)
    check(box['ctr_bits'] == 64 - define(uncore, 'COUNTER_SHIFT'),
          '%s: UMC counters are 64 - COUNTER_SHIFT bits' % n)
    check(box['saturates'] and 'UMC counters saturate' in uncore,
          '%s: UMC counters saturate (amd_uncore_umc_read)' % n)
    ev = perf_events(d)
    rec = ' '.join(e.get('MetricExpr', '') for e in json.load(
        open(os.path.join(pmu_dir, d, 'recommended.json'))))
    for e in imc['events']:
        j = ev.get(e['perf'])
        check(j and int(j['EventCode'], 16) == e['event'] and
              int(j.get('RdWrMask', '0'), 16) == e['umask'] and j.get('Unit') == 'UMCPMC',
              '%s: %s is UMC event 0x%02x RdWrMask %d' % (n, e['perf'], e['event'], e['umask']),
              'perf: %s' % j)
        check(rdwr_shift == 8, '%s: RdWrMask starts at bit 8, where the umask goes' % n)
        check('%s * %d' % (e['perf'], e['bytes']) in rec,
              '%s: %s moves %d bytes (recommended.json)' % (n, e['perf'], e['bytes']))
    check(sorted(e['meaning'] for e in imc['events']) == ['read', 'write'] and
          [e['perf'].split('.')[-1] for e in imc['events']] == ['rd', 'wr'],
          '%s: .rd counts reads, .wr writes' % n)

# the L3 PMU (per CCX) and its sampled-latency events against msr-index.h,
# perf_event.h's AMD64_L3_* fields, amd/uncore.c and the JSON, whose
# l3_read_miss_latency is 10 x l3_xi_sampled_latency / its requests
m = re.search(r'#define ARCH_PERFMON_EVENTSEL_ENABLE\s+\(1ULL << (\d+)\)', pe_h)
ctl_en = 1 << int(m.group(1)) if m else None


def l3_field(name):
    """The value of perf_event.h's AMD64_L3_<name> (a BIT_ULL or a shifted mask)."""
    m = re.search(r'#define AMD64_L3_%s\s+BIT_ULL\((\d+)\)' % name, pe_h)
    if m:
        return 1 << int(m.group(1))
    m = re.search(r'#define AMD64_L3_%s\s+\\\n\s*\((0x[0-9A-F]+)ULL << (AMD64_L3_\w+)\)'
                  % name, pe_h)
    return int(m.group(1), 16) << define(pe_h, m.group(2)) if m else None


uncore_l3 = re.search(r'amd_uncore_l3_event_init.*?\n}\n', uncore, re.S)
uncore_l3 = uncore_l3.group(0) if uncore_l3 else ''
for r in amd:
    if r['unsupported'] or r['name'] not in feature:
        continue
    n, d, l3 = r['name'], r['pmu_events'], r.get('l3')
    check(l3 is not None, '%s: the L3 PMU is described' % n)
    if not l3:
        continue
    check(l3['ctl0'] == define(msr_h, 'MSR_F16H_L2I_PERF_CTL') and
          l3['ctr0'] == define(msr_h, 'MSR_F16H_L2I_PERF_CTR'),
          '%s: L3 control/counter 0 are MSR_F16H_L2I_PERF_CTL/CTR' % n)
    check(l3['stride'] == 2 and 'pmu->msr_base + (2 * hwc->idx)' in uncore and
          'pmu->msr_base = MSR_F16H_L2I_PERF_CTL' in uncore,
          '%s: L3 counter i at MSR_F16H_L2I_PERF_CTL + 2i (amd/uncore.c)' % n)
    check(l3['n_ctrs'] == define(uncore, 'NUM_COUNTERS_L3'),
          '%s: %d L3 counters (NUM_COUNTERS_L3)' % (n, l3['n_ctrs']))
    check(l3['ctr_bits'] == 64 - define(uncore, 'COUNTER_SHIFT'),
          '%s: L3 counters are 64 - COUNTER_SHIFT bits' % n)
    check(ctl_en is not None and l3['ctl_en'] == ctl_en and
          'ARCH_PERFMON_EVENTSEL_ENABLE' in uncore,
          '%s: L3 enable is ARCH_PERFMON_EVENTSEL_ENABLE (amd_uncore_start)' % n)
    # what amd_uncore_l3_event_init sets on family 0x19+ when no ThreadMask is given
    want = [l3_field(f) for f in ('F19H_THREAD_MASK', 'EN_ALL_SLICES', 'EN_ALL_CORES')]
    check(None not in want and all(l3['ctl_extra'] & w == w for w in want) and
          'AMD64_L3_F19H_THREAD_MASK | AMD64_L3_EN_ALL_SLICES' in uncore_l3,
          '%s: L3 controls set ThreadMask, EnAllSlices and EnAllCores (all cores count)' % n,
          'ctl_extra 0x%x, perf_event.h %s' % (l3['ctl_extra'], want))
    ev = perf_events(d)
    rec = {e.get('MetricName'): e.get('MetricExpr', '') for e in json.load(
        open(os.path.join(pmu_dir, d, 'recommended.json')))}
    for e in l3['events']:
        j = ev.get(e['perf'])
        check(j and int(j['EventCode'], 16) == e['event'] and
              int(j.get('UMask', '0'), 16) == e['umask'] and j.get('Unit') == 'L3PMC',
              '%s: %s is L3 event 0x%02x umask 0x%02x' % (n, e['perf'], e['event'], e['umask']),
              'perf: %s' % j)
        # the JSON's per-event fields, placed where perf_event.h puts them
        fields = [('ThreadMask', 'F19H_THREAD_MASK', 'THREAD_SHIFT'),
                  ('SliceId', 'SLICEID_MASK', 'SLICE_SHIFT')]
        for key, mask, shift in fields:
            v = int(j.get(key, '0'), 16) << define(pe_h, 'AMD64_L3_' + shift) if j else None
            check(j and l3['ctl_extra'] & l3_field(mask) == v,
                  '%s: %s %s=%s in the control' % (n, e['perf'], key, j and j.get(key)))
        for key, bit in [('EnAllCores', 'EN_ALL_CORES'), ('EnAllSlices', 'EN_ALL_SLICES')]:
            check(j and bool(l3['ctl_extra'] & l3_field(bit)) == (j.get(key) == '0x1'),
                  '%s: %s %s=%s in the control' % (n, e['perf'], key, j and j.get(key)))
        base = e['perf'].replace('_requests', '').split('.')[0]
        check(e['meaning'] == ('requests' if '_requests.' in e['perf'] else 'latency') and
              base == 'l3_xi_sampled_latency' and
              e['perf'].split('.')[-1] in ('dram_near', 'dram_far'),
              '%s: %s counts DRAM %s' % (n, e['perf'], e['meaning']))
        # scale: x10 on the latency, as l3_read_miss_latency* multiply it
        scale = 10 if e['meaning'] == 'latency' else 1
        check(e['scale'] == scale and
              '(l3_xi_sampled_latency.all * 10) / l3_xi_sampled_latency_requests.all'
              in rec.get('l3_read_miss_latency', ''),
              '%s: %s scaled by %d (recommended.json l3_read_miss_latency)'
              % (n, e['perf'], scale))
    check(sorted((e['meaning'], e['perf'].split('.')[-1]) for e in l3['events']) ==
          [('latency', 'dram_far'), ('latency', 'dram_near'),
           ('requests', 'dram_far'), ('requests', 'dram_near')],
          '%s: DRAM near and far, latency and requests, each once' % n)

# Zen 2 and Zen 3: the same L3 PMU registers, the slice and thread fields
# amd_uncore_l3_event_init writes when none is given (family <= 0x18:
# SliceMask and ThreadMask all ones; 0x19: as Zen 4), and the events of
# recommended.json's l3_read_miss_latency, (xi_sys_fill_latency * 16) /
# xi_ccx_sdp_req1[.all_l3_miss_req_typs], against the cache JSON
l3_f17 = re.search(r'if \(boot_cpu_data\.x86 <= 0x18\)\s*mask = \(\(config & AMD64_L3_SLICE_MASK\) \? : '
                   r'AMD64_L3_SLICE_MASK\) \|\s*\(\(config & AMD64_L3_THREAD_MASK\) \? : '
                   r'AMD64_L3_THREAD_MASK\);', uncore_l3)
l3_f19 = re.search(r'else if \(!\(config & AMD64_L3_F19H_THREAD_MASK\)\)\s*mask = '
                   r'AMD64_L3_F19H_THREAD_MASK \| AMD64_L3_EN_ALL_SLICES \|\s*AMD64_L3_EN_ALL_CORES;',
                   uncore_l3)
for r in amd:
    if r['unsupported'] or r['name'] not in ('AMD Zen 2', 'AMD Zen 3'):
        continue
    n, d, l3 = r['name'], r['pmu_events'], r.get('l3')
    where = '%s 0x%02x-0x%02x' % (n, r['model'], r['model_max'])
    check(l3 is not None, '%s: the L3 PMU is described' % where)
    if not l3:
        continue
    check(l3['ctl0'] == define(msr_h, 'MSR_F16H_L2I_PERF_CTL') and
          l3['ctr0'] == define(msr_h, 'MSR_F16H_L2I_PERF_CTR') and l3['stride'] == 2 and
          l3['n_ctrs'] == define(uncore, 'NUM_COUNTERS_L3') and
          l3['ctr_bits'] == 64 - define(uncore, 'COUNTER_SHIFT') and
          l3['ctl_en'] == ctl_en,
          '%s: L3 registers, counters, width and enable as on Zen 4' % where)
    if r['family'] <= 0x18:
        want = l3_field('SLICE_MASK') | l3_field('THREAD_MASK')
        src = l3_f17
    else:
        want = (l3_field('F19H_THREAD_MASK') | l3_field('EN_ALL_SLICES') |
                l3_field('EN_ALL_CORES'))
        src = l3_f19
    check(src and l3['ctl_extra'] == want,
          '%s: L3 controls carry 0x%x, what amd_uncore_l3_event_init writes for family 0x%x'
          % (where, want, r['family']), 'ctl_extra 0x%x' % l3['ctl_extra'])
    ev = perf_events(d)
    rec = {e.get('MetricName'): e.get('MetricExpr', '') for e in json.load(
        open(os.path.join(pmu_dir, d, 'recommended.json')))}
    m = re.fullmatch(r'\((\w+) \* (\d+)\) / ([\w.]+)', rec.get('l3_read_miss_latency', ''))
    check(m, '%s: recommended.json l3_read_miss_latency is (LAT * N) / REQ' % where,
          'perf: %s' % rec.get('l3_read_miss_latency'))
    if not m:
        continue
    want_ev = {(m.group(1), 'latency', int(m.group(2))), (m.group(3), 'requests', 1)}
    check({(e['perf'], e['meaning'], e['scale']) for e in l3['events']} == want_ev and
          len(l3['events']) == 2,
          '%s: the L3 events are l3_read_miss_latency\'s %s' % (where, sorted(want_ev)),
          'table: %s' % [(e['perf'], e['meaning'], e['scale']) for e in l3['events']])
    for e in l3['events']:
        j = ev.get(e['perf'])
        check(j and int(j['EventCode'], 16) == e['event'] and
              int(j.get('UMask', '0'), 16) == e['umask'] and j.get('Unit') == 'L3PMC',
              '%s: %s is L3 event 0x%02x umask 0x%02x' % (where, e['perf'], e['event'], e['umask']),
              'perf: %s' % j)

# Zen 1, 2 and 3: each row's models are exactly amd.c's X86_FEATURE_ZEN1/2/3
# ranges, each range mapped by perf's mapfile to the row's directory
for fam, feat, name in [(0x17, 'ZEN1', 'AMD Zen 1'), (0x17, 'ZEN2', 'AMD Zen 2'),
                        (0x19, 'ZEN3', 'AMD Zen 3')]:
    want = sorted(zen_ranges(fam).get(feat, []))
    got = [r for r in amd if r['family'] == fam and r['name'] == name]
    check(want and sorted((r['model'], r['model_max']) for r in got) == want,
          'family 0x%x: %s rows are amd.c X86_FEATURE_%s %s' % (fam, name, feat, want),
          'table: %s' % [(r['model'], r['model_max']) for r in got])
    for r in got:
        # perf's mapfile sends family 0x19 models 0x30-0x3f to amdzen4,
        # where amd.c calls them Zen 3: the row follows amd.c (and
        # amdzen3's events); any other disagreement fails
        other = [m for m in range(r['model'], r['model_max'] + 1)
                 if pmu.directory(r['vendor'], fam, m) != r['pmu_events']]
        known = list(range(0x30, 0x40)) if (fam, feat) == (0x19, 'ZEN3') else []
        check(other == [m for m in known if r['model'] <= m <= r['model_max']],
              '%s: perf mapfile maps models 0x%02x-0x%02x to %s%s'
              % (name, r['model'], r['model_max'], r['pmu_events'],
                 ' but 0x30-0x3f (amdzen4 in perf, Zen 3 in amd.c)'
                 if other else ''),
              'elsewhere: %s' % [hex(m) for m in other])


def format_bits(name):
    """The config bits, in order, of amd/uncore.c's format attribute @name
    ('"config:0-7,32-35"' -> [0..7, 32..35])."""
    m = re.search(r'DEFINE_UNCORE_FORMAT_ATTR\(%s,\s*\w+,\s*"config:([0-9,-]+)"\)'
                  % name, uncore)
    bits = []
    for part in (m.group(1) if m else '').split(','):
        lo, _, hi = part.partition('-')
        bits.extend(range(int(lo), int(hi or lo) + 1))
    return bits


def place(value, bits):
    """@value's bits, lowest first, at the config @bits."""
    return sum(1 << b for i, b in enumerate(bits) if value >> i & 1)


# the Data Fabric (Zen 2, Zen 3) against msr-index.h, amd/uncore.c (the DF
# context, its event14 and umask8 formats) and the data-fabric JSON
ev14, um8 = format_bits('event14'), format_bits('umask8')
uncore_df = re.search(r'int amd_uncore_df_ctx_init.*?\n}\n', uncore, re.S)
uncore_df = uncore_df.group(0) if uncore_df else ''
df_rows = [r for r in amd if r['imc'] and r['imc']['box']['access'] == 'df']
check(sorted({r['name'] for r in df_rows}) == ['AMD Zen 2', 'AMD Zen 3'],
      'the Zen 2 and Zen 3 rows, and only they, describe a Data Fabric')
for r in df_rows:
    n, d, imc = r['name'], r['pmu_events'], r['imc']
    box = imc['box']
    where = '%s 0x%02x-0x%02x' % (n, r['model'], r['model_max'])
    check(not r['unsupported'] and r.get('l3') and
          bool(r['core']) == (n == 'AMD Zen 3') and
          bool(r['latency_reason']) == (n == 'AMD Zen 2'),
          '%s: supported for DRAM bandwidth and L3 latency; core latency on Zen 3, a reason on Zen 2'
          % where)
    check(box['ctl0'] == define(msr_h, 'MSR_F15H_NB_PERF_CTL') and
          box['ctr0'] == define(msr_h, 'MSR_F15H_NB_PERF_CTR') and
          'pmu->msr_base = MSR_F15H_NB_PERF_CTL' in uncore_df,
          '%s: DF control/counter 0 are MSR_F15H_NB_PERF_CTL/CTR' % where)
    check(box['ctl_stride'] == 2 and box['ctr_stride'] == 2 and
          'pmu->msr_base + (2 * hwc->idx)' in uncore,
          '%s: DF counter i at +2i (amd/uncore.c)' % where)
    check(box['n_ctrs'] == define(uncore, 'NUM_COUNTERS_NB') and
          'info.split.num_pmcs = NUM_COUNTERS_NB' in uncore,
          '%s: %d DF counters (NUM_COUNTERS_NB without PerfMonV2)' % (where, box['n_ctrs']))
    check(box['ctr_bits'] == 64 - define(uncore, 'COUNTER_SHIFT') and not box['saturates'],
          '%s: DF counters are 64 - COUNTER_SHIFT bits and wrap' % where)
    check(ctl_en is not None and box['ctl_en'] == ctl_en,
          '%s: DF enable is ARCH_PERFMON_EVENTSEL_ENABLE' % where)
    check(ev14 == list(range(0, 8)) + list(range(32, 36)) + [59, 60] and
          um8 == list(range(8, 16)) and
          re.search(r'boot_cpu_data\.x86 >= 0x17\) \{\s*\*df_attr = &format_attr_event14\.attr;',
                    uncore_df),
          '%s: family 0x17+ without PerfMonV2 takes event14 (%s) and umask8'
          % (where, ev14))
    probe = imc.get('df_ctl_bits') or []
    check(len(probe) == 14 and all(c == place(v, ev14) for v, c in probe),
          '%s: memdiag_df_ctl() puts each of the 14 event bits where event14 does'
          % where, 'memdiag_df_ctl: %s' % [(v, hex(c)) for v, c in probe])
    ev = perf_events(d)
    rec = {e.get('MetricName'): e.get('MetricExpr', '') for e in json.load(
        open(os.path.join(pmu_dir, d, 'recommended.json')))}
    nps1 = sorted(x.strip() for x in rec.get('nps1_die_to_dram', '').split('+'))
    check(sorted(e['perf'] for e in imc['events']) == nps1 and len(nps1) == 8,
          '%s: the channels are the eight of nps1_die_to_dram' % where, 'perf: %s' % nps1)
    for e in imc['events']:
        j = ev.get(e['perf'])
        check(j and int(j['EventCode'], 16) == e['event'] and
              int(j.get('UMask', '0'), 16) == e['umask'] and j.get('Unit') == 'DFPMC',
              '%s: %s is DF event 0x%x umask 0x%02x' % (where, e['perf'], e['event'], e['umask']),
              'perf: %s' % j)
        want = place(e['event'], ev14) | place(e['umask'], um8) | box['ctl_en']
        check(e.get('ctl') == want,
              '%s: %s control 0x%x is event14/umask8 + enable' % (where, e['perf'], want),
              'memdiag_df_ctl: 0x%x' % (e.get('ctl') or 0))
        check(e['bytes'] == 64 and e['meaning'] == 'rdwr' and j and
              'Requests with Data (64B)' in j.get('PublicDescription', ''),
              '%s: %s counts 64-byte requests, reads and writes together' % (where, e['perf']))

# Zen 2 and Zen 3's core PMU before PerfMonV2 (amd/core.c: no global
# control, AMD64_NUM_COUNTERS_CORE counters, family 0x17+ pairs an even
# counter with the odd one above it, whose control is
# AMD_MERGE_EVENT_ENABLE), and Zen 3's MAB events against amdzen3's JSON:
# the event whose description asks for the MergeEvent is merged, on an
# even counter; Zen 2 has no ls_alloc_mab_count and says so
m = re.search(r'#define AMD_MERGE_EVENT \(\(0x([0-9A-F]+)ULL << (\d+)\) \| 0x([0-9A-F]+)ULL\)',
              amd_core)
merge_ctl = ((int(m.group(1), 16) << int(m.group(2)) | int(m.group(3), 16)) | ctl_en
             if m and ctl_en and re.search(r'#define AMD_MERGE_EVENT_ENABLE \(AMD_MERGE_EVENT \| '
                                           r'ARCH_PERFMON_EVENTSEL_ENABLE\)', amd_core) and
             'x86_pmu.perf_ctr_pair_en = AMD_MERGE_EVENT_ENABLE' in amd_core else None)
ncore = define(pe_h, 'AMD64_NUM_COUNTERS_CORE')
even = sum(1 << i for i in range(0, ncore - 1, 2)) if re.search(
    r'for \(i = 0; i < x86_pmu_max_num_counters\(NULL\) - 1; i \+= 2\)\s*even_ctr_mask \|= BIT_ULL\(i\);',
    amd_core) else None
for r in df_rows:
    n, d = r['name'], r['pmu_events']
    where = '%s 0x%02x-0x%02x' % (n, r['model'], r['model_max'])
    ev = perf_events(d)
    if n == 'AMD Zen 2':
        check(not r['core'] and 'ls_alloc_mab_count' not in ev and
              'ls_alloc_mab_count' in r['latency_reason'],
              '%s: no L1-miss latency: amdzen2 has no ls_alloc_mab_count, and the reason says so'
              % where)
        continue
    p = r['pmu']
    check(p['evtsel'] == define(msr_h, 'MSR_F15H_PERF_CTL') and
          p['ctr'] == define(msr_h, 'MSR_F15H_PERF_CTR') and p['stride'] == 2 and
          p['global_ctrl'] == 0 and p['n_ctrs'] == ncore and p['ctr_bits'] == 48,
          '%s: PerfCtl/PerfCtr + 2i, no global control, AMD64_NUM_COUNTERS_CORE (%d) counters'
          % (where, ncore), 'pmu: %s' % p)
    check(merge_ctl is not None and p['merge_evtsel'] == merge_ctl,
          '%s: the merge event control is AMD_MERGE_EVENT_ENABLE (0x%x)' % (where, merge_ctl or 0),
          'table: 0x%x' % p['merge_evtsel'])
    check('mab_occ' in r['core'] and 'mab_alloc' in r['core'] and 'cycles' in r['core_fix'],
          '%s: the MAB latency events and cycles are in the table' % where)
    for group in ('core', 'core_fix'):
        for role, c in r[group].items():
            j = ev.get(c['perf'])
            check(j and int(j['EventCode'], 16) == c['event'] and
                  int(j.get('UMask', '0'), 16) == c['umask'],
                  '%s: %s (%s) is event 0x%02x umask 0x%02x'
                  % (where, c['perf'], role, c['event'], c['umask']), 'perf: %s' % j)
            wants_merge = bool(j) and 'MergeEvent' in j.get('PublicDescription', '')
            check(c['merge'] == wants_merge and
                  c['counters'] == (even if wants_merge else (1 << ncore) - 1),
                  '%s: %s %s, on %s' % (where, c['perf'], 'merged' if wants_merge else
                                        'not merged', 'the even counters (pair_constraint)'
                                        if wants_merge else 'any counter'),
                  'merge %s counters 0x%x' % (c['merge'], c['counters']))

# the core PMU descriptions against msr-index.h and amd/core.c
pmus = {r['pmu']['name']: r['pmu'] for r in rows if 'pmu' in r}
a = pmus.get('AMD PerfMonV2')
check(a is not None, 'the AMD rows name the AMD PerfMonV2 PMU')
if a:
    for k, v in [('evtsel', 'MSR_F15H_PERF_CTL'), ('ctr', 'MSR_F15H_PERF_CTR'),
                 ('global_ctrl', 'MSR_AMD64_PERF_CNTR_GLOBAL_CTL')]:
        check(a[k] == define(msr_h, v), 'AMD PMU %s is %s (0x%x)' % (k, v, a[k]),
              'msr-index.h: %s' % define(msr_h, v))
    check(a['stride'] == 2 and re.search(r'MSR_F15H_PERF_CTL1\s+\(MSR_F15H_PERF_CTL \+ 2\)', msr_h),
          'AMD PMU control i is at MSR_F15H_PERF_CTL + 2i')
    check(re.search(r'\.cntval_bits\s*=\s*%d,' % a['ctr_bits'], amd_core),
          'AMD PMU counters are %d bits (amd/core.c cntval_bits)' % a['ctr_bits'])
    check(a['fixed_ctr'] == 0 and a['offcore_rsp'] == 0,
          'AMD PMU: no fixed counters, no offcore response MSR')
i = pmus.get('Intel architectural perfmon')
check(i is not None, 'the Intel rows name the Intel PMU')
if i:
    for k, v in [('evtsel', 'MSR_P6_EVNTSEL0'), ('ctr', 'MSR_P6_PERFCTR0'),
                 ('global_ctrl', 'MSR_CORE_PERF_GLOBAL_CTRL'),
                 ('fixed_ctrl', 'MSR_CORE_PERF_FIXED_CTR_CTRL'),
                 ('fixed_ctr', 'MSR_CORE_PERF_FIXED_CTR0'),
                 ('offcore_rsp', 'MSR_OFFCORE_RSP_0')]:
        check(i[k] == define(msr_h, v), 'Intel PMU %s is %s (0x%x)' % (k, v, i[k]),
              'msr-index.h: %s' % define(msr_h, v))

tap.finish(more_than=30)
