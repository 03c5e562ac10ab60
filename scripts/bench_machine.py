# SPDX-License-Identifier: GPL-2.0
"""bench_machine.py - what "make bench" says about the machine it ran on:
the caches in sysfs that size its levels, and the processor, kernel and
code its numbers come from."""

import datetime
import os
import platform
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K = 1 << 10


def cpu_dir():
    """sysfs's CPU directory; MEMDIAG_TEST_SYSFS_CPU replaces it (the
    test hook memdiagctl run reads too), so that a test can fake one."""
    return os.environ.get("MEMDIAG_TEST_SYSFS_CPU", "/sys/devices/system/cpu")


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def parse_cpulist(text):
    """A kernel CPU list ("0-3,8") as a sorted list; [] for none."""
    cpus = set()
    for part in (text or "").split(","):
        if part.strip():
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    return sorted(cpus)


def socket_cpus(socket=0):
    """The online CPUs whose physical_package_id is @socket, in order
    (those memdiagctl run --socket and likwid-bench's S0 domain use);
    [] where sysfs does not say."""
    cpus = []
    for c in parse_cpulist(_read(os.path.join(cpu_dir(), "online"))):
        pkg = _read(os.path.join(cpu_dir(), "cpu%d" % c, "topology",
                                 "physical_package_id"))
        if pkg is not None and pkg.isdigit() and int(pkg) == socket:
            cpus.append(c)
    return cpus


def cpu_caches(cpu):
    """{level: (bytes, [CPUs sharing it])} of @cpu's data and unified
    caches in sysfs (the highest level is the last-level cache)."""
    caches = {}
    base = os.path.join(cpu_dir(), "cpu%d" % cpu, "cache")
    try:
        names = os.listdir(base)
    except OSError:
        return caches
    for n in names:
        level, kind, size = (_read(os.path.join(base, n, k))
                             for k in ("level", "type", "size"))
        m = re.fullmatch(r"(\d+)([KMG]?)", size or "")
        if not m or kind not in ("Data", "Unified") or \
                not (level or "").isdigit():
            continue
        shared = parse_cpulist(_read(os.path.join(base, n,
                                                  "shared_cpu_list")))
        caches[int(level)] = (int(m.group(1)) << {"": 0, "K": 10, "M": 20,
                                                  "G": 30}[m.group(2)],
                              shared or [cpu])
    return caches


def cache_sizes():
    """{level: bytes} of cpu0's data and unified caches in sysfs (the
    highest level is the last-level cache); {} if sysfs has none."""
    return {lv: v[0] for lv, v in cpu_caches(0).items()}


def cache_share(level, cpus):
    """The bytes of cache @level each of @cpus gets when all of them run:
    the least of (size / how many of @cpus share that instance), from
    sysfs (two SMT siblings halve their L1 and L2, threads in one L3
    divide it); None where sysfs lacks that level for one of them."""
    share = None
    for c in cpus:
        cache = cpu_caches(c).get(level)
        if cache is None:
            return None
        size, shared = cache
        per = size // max(1, len(set(shared) & set(cpus)))
        share = per if share is None else min(share, per)
    return share


def llc_total(cpus):
    """The distinct last-level caches of @cpus together, in bytes (a Zen
    socket has one L3 per CCX; sysfs names the CPUs sharing each); 0 if
    sysfs has none."""
    seen, total = set(), 0
    for c in cpus:
        caches = cpu_caches(c)
        if caches:
            size, shared = caches[max(caches)]
            if tuple(shared) not in seen:
                seen.add(tuple(shared))
                total += size
    return total


def cpu_flags():
    """The first CPU's flags in /proc/cpuinfo, less those named in
    MEMDIAG_TEST_HIDE_CPU (the hook by which memdiagctl acts as if the CPU
    lacked sse2, avx or avx512f, so that both sides narrow alike)."""
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                if key.strip() == "flags":
                    flags = set(val.split())
                    break
    except OSError:
        pass
    hidden = os.environ.get("MEMDIAG_TEST_HIDE_CPU", "")
    return flags - {h.strip() for h in hidden.split(",")}


def likwid_tests():
    """The kernels this likwid-bench offers (likwid-bench -a)."""
    try:
        out = subprocess.run(["likwid-bench", "-a"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
    except OSError:
        return set()
    return set(re.findall(r"^(\w+) - ", out, re.M))


def machine():
    info = {"date": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%M:%SZ"),
            "kernel": platform.release(), "cpus": os.cpu_count()}
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for key in ("Model name", "Hypervisor vendor", "L1d cache", "L2 cache",
                    "L3 cache"):
            m = re.search(r"^%s:\s+(.*)$" % re.escape(key), out, re.M)
            if m:
                info[key.lower().replace(" ", "_")] = m.group(1).strip()
    except OSError:
        pass
    try:
        out = subprocess.run(["likwid-bench", "-h"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
        m = re.search(r"Version\s+([0-9.]+)", out)
        info["likwid_version"] = m.group(1) if m else None
    except OSError:
        info["likwid_version"] = None
    try:
        info["memdiag_commit"] = subprocess.run(
            ["git", "-C", TOP, "describe", "--always", "--dirty"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True).stdout.strip() or None
        info["memdiag_commit_full"] = subprocess.run(
            ["git", "-C", TOP, "rev-parse", "HEAD"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True).stdout.strip() or None
    except OSError:
        info["memdiag_commit"] = info["memdiag_commit_full"] = None
    info["processor"] = processor()
    return info


def processor():
    """The processor the numbers come from, as the kernel reports it: the
    first CPU's /proc/cpuinfo (model name, vendor, family/model/stepping,
    microcode) and the L3 size in sysfs (what the VM is told, which may be
    the whole host's L3, not the share this VM gets)."""
    cpu = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break		# the first CPU only
                key, _, val = line.partition(":")
                cpu[key.strip()] = val.strip()
    except OSError:
        pass
    l3 = cache_sizes().get(3)
    l3 = "%dK" % (l3 >> 10) if l3 else None
    return {"model_name": cpu.get("model name"),
            "vendor": cpu.get("vendor_id"),
            "family": cpu.get("cpu family"), "model": cpu.get("model"),
            "stepping": cpu.get("stepping"),
            "microcode": cpu.get("microcode"), "l3_size": l3}


def describe(m):
    """One line for the top of the output: which processor, which code."""
    p = m["processor"]
    return ("processor: %s (%s family %s model %s stepping %s, microcode "
            "%s), L3 %s (sysfs), %s CPUs, kernel %s, memdiag %s, %s" % (
                p["model_name"], p["vendor"], p["family"], p["model"],
                p["stepping"], p["microcode"], p["l3_size"], m["cpus"],
                m["kernel"], m["memdiag_commit"], m["date"]))
