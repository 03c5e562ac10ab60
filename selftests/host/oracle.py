# SPDX-License-Identifier: GPL-2.0
"""oracle.py - what memdiag's table oracles (*_oracle.py) share besides
their TAP results (tap.py): the value of a C #define, and perf's
pmu-events for x86 in linux-source-6.12 (which directory mapfile.csv gives
a CPU, the events of a directory's JSON files, an EventCode's codes)."""

import glob
import json
import os
import re


def define(text, name):
    """The value of '#define NAME VALUE' or '#define NAME (VALUE << N)' in
    @text, or None."""
    m = re.search(r'#define\s+%s\s+\(?\s*(0x[0-9a-fA-F]+|\d+)(?:\s*<<\s*(\d+))?'
                  % name, text)
    if not m:
        return None
    v = int(m.group(1), 0)
    return v << int(m.group(2)) if m.group(2) else v


def intel_model(family_h, name):
    """(family, model) of INTEL_@name in intel-family.h's @family_h text
    ('#define INTEL_NAME IFM(6, 0xMODEL)'), or None."""
    m = re.search(r'#define\s+INTEL_%s\s+IFM\((\d+),\s*(0x[0-9A-Fa-f]+)\)' % name,
                  family_h)
    return (int(m.group(1)), int(m.group(2), 16)) if m else None


def codes(s):
    """An EventCode field ("0xd1" or "0xb7,0xbb") as its numbers."""
    return [int(x, 16) for x in str(s).replace(' ', '').split(',') if x]


def posix_regex(key):
    """A mapfile key (a POSIX extended regex, as perf compiles it) for
    Python's re: its only POSIX class is [[:xdigit:]]."""
    return key.replace('[:xdigit:]', '0-9A-Fa-f')


class PmuEvents:
    """perf's tools/perf/pmu-events/arch/x86 of the kernel source @ksrc."""

    def __init__(self, ksrc):
        self.dir = os.path.join(ksrc, 'tools/perf/pmu-events/arch/x86')
        self._events = {}

    def directory(self, vendor, family, model, stepping=None):
        """The core event directory perf picks: mapfile keys are matched
        whole against 'Vendor-Family-Model[-Stepping]' (hex model and
        stepping), with the stepping and without."""
        cpuid = '%s-%d-%X' % (vendor, family, model)
        ids = [cpuid] if stepping is None else ['%s-%X' % (cpuid, stepping), cpuid]
        for line in open(os.path.join(self.dir, 'mapfile.csv')):
            key, _ver, fname, etype = line.strip().split(',')[:4]
            if etype != 'core' or key == 'Family-model':
                continue
            if any(re.match(posix_regex(key) + '$', i) for i in ids):
                return fname
        return None

    def events(self, d):
        """{EventName: entry} of every JSON file of directory @d; the same
        dict on every call, so a caller may change it for a while."""
        if d not in self._events:
            ev = {}
            for f in glob.glob(os.path.join(self.dir, d, '*.json')):
                j = json.load(open(f))
                for e in j if isinstance(j, list) else []:
                    if 'EventName' in e:
                        ev[e['EventName']] = e
            self._events[d] = ev
        return self._events[d]
