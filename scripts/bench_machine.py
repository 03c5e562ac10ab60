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


def cache_sizes():
    """{level: bytes} of cpu0's data and unified caches in sysfs (the
    highest level is the last-level cache); {} if sysfs has none."""
    sizes = {}
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        names = os.listdir(base)
    except OSError:
        return sizes
    for n in names:
        try:
            with open(os.path.join(base, n, "level")) as f:
                level = int(f.read())
            with open(os.path.join(base, n, "type")) as f:
                kind = f.read().strip()
            with open(os.path.join(base, n, "size")) as f:
                v = f.read().strip()
        except (OSError, ValueError):
            continue
        m = re.fullmatch(r"(\d+)([KMG]?)", v)
        if m and kind in ("Data", "Unified"):
            sizes[level] = int(m.group(1)) << \
                {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]
    return sizes


def socket0_cpus(cpu_dir=None):
    """The online CPUs of socket 0 (physical_package_id 0) this process
    may run on, from sysfs (@cpu_dir, or the test hook
    MEMDIAG_TEST_SYSFS_CPU, which also lifts the affinity check)."""
    cpu_dir = cpu_dir or os.environ.get("MEMDIAG_TEST_SYSFS_CPU")
    real = not cpu_dir
    cpu_dir = cpu_dir or "/sys/devices/system/cpu"
    allowed = os.sched_getaffinity(0) if real else None
    cpus = []
    for n in os.listdir(cpu_dir):
        m = re.fullmatch(r"cpu(\d+)", n)
        if not m or (allowed is not None and int(m.group(1)) not in allowed):
            continue
        try:
            with open(os.path.join(cpu_dir, n, "online")) as f:
                if f.read().strip() != "1":
                    continue
        except OSError:
            pass	# no file: a CPU that cannot go offline
        try:
            with open(os.path.join(cpu_dir, n, "topology",
                                   "physical_package_id")) as f:
                if int(f.read()) == 0:
                    cpus.append(int(m.group(1)))
        except (OSError, ValueError):
            continue
    return sorted(cpus)


def llc_bytes():
    """The last-level cache (cpu0's highest level in sysfs), 0 if none."""
    sizes = cache_sizes()
    return sizes[max(sizes)] if sizes else 0


def dram_default(floor):
    """A DRAM working set: 4x this machine's last-level cache (so that it
    cannot be served from it), at least @floor, a multiple of 768 KiB."""
    step = 768 * K
    want = max(floor, 4 * llc_bytes())
    return (want + step - 1) // step * step


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
