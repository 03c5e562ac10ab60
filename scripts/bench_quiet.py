# SPDX-License-Identifier: GPL-2.0
"""bench_quiet.py - whether the runs of a "make bench" trial had their CPUs
to themselves.

A pair's ratio compares two runs made seconds apart. On a shared machine a
task that wants a CPU during one of them (another job, a kernel thread, the
host running something else on a vCPU) slows that side alone, and the
trial's ratio measures the neighbour. With all CPUs busy (the N-thread rows)
nothing absorbs it: on the 2-vCPU VM of Documentation/measurements.rst,
with a compile beside the bench, single trials of the 2-thread rows read
0.35 to 1.40.

The kernel counts both kinds of theft, so the bench measures them around
every run instead of guessing:
- CPU pressure, /proc/pressure/cpu "some": the wall time during which at
  least one runnable task waited for a CPU. The bench's own threads never
  wait (one per CPU, the driver asleep), so what it counts is somebody
  else's demand.
- steal, the eighth value of /proc/stat's "cpu" line: the time the
  hypervisor gave this guest's vCPUs to something else, as a share of all
  CPUs' time.

A run's disturbance is the larger of the two shares; a trial is disturbed
when a run in it exceeded the limit (--max-disturbance). make bench runs a
disturbed trial again (--retries), and a pair's ratio is the median of its
quiet trials when at least MIN_QUIET of them are; otherwise the row is
marked disturbed and counts neither as above nor as below 0.98.
"""

import os
import time

PSI_CPU = "/proc/pressure/cpu"
PROC_STAT = "/proc/stat"
MIN_QUIET = 3


def psi_some_us(path=PSI_CPU):
    """The "some" line's total (microseconds), or None without PSI."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("some "):
                    return int(line.split("total=")[1].split()[0])
    except (OSError, IndexError, ValueError):
        pass
    return None


def steal_ticks(path=PROC_STAT):
    """(steal ticks summed over CPUs, CPUs) from /proc/stat, or None."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    ncpu = sum(1 for ln in lines if ln.startswith("cpu") and
               ln[3:4].isdigit())
    for ln in lines:
        v = ln.split()
        if v and v[0] == "cpu" and len(v) > 8:
            return int(v[8]), max(ncpu, 1)
    return None


class Meter:
    """Readings before and after a run; the paths are parameters so that
    the host test can feed canned files."""

    def __init__(self, psi=PSI_CPU, stat=PROC_STAT, clock=time.monotonic):
        self.psi, self.stat, self.clock = psi, stat, clock
        self.hz = os.sysconf("SC_CLK_TCK")

    def now(self):
        return (self.clock(), psi_some_us(self.psi), steal_ticks(self.stat))

    def share(self, before, after):
        """{"cpu_pressure": f, "steal": f} over the run between two
        readings, each a share of the wall time (None where the kernel
        gave no figure)."""
        wall = after[0] - before[0]
        out = {"cpu_pressure": None, "steal": None}
        if wall <= 0:
            return out
        if before[1] is not None and after[1] is not None:
            out["cpu_pressure"] = round((after[1] - before[1]) / 1e6 / wall,
                                        4)
        if before[2] and after[2]:
            ticks = after[2][0] - before[2][0]
            out["steal"] = round(ticks / self.hz / wall / after[2][1], 4)
        return out

    def measure(self, fn, *args):
        """fn(*args) and the share of its run: (value, share). An
        exception from fn passes through unchanged."""
        before = self.now()
        value = fn(*args)
        return value, self.share(before, self.now())


def disturbance(share):
    """The larger of a run's two shares (0 when the kernel gave none)."""
    return max([v for v in share.values() if v is not None], default=0.0)


def quiet_trials(by_trial_share, limit):
    """The trials whose every run stayed at or under @limit, from
    {trial: [share, ...]}; a trial without a reading counts as quiet."""
    return {t for t, shares in by_trial_share.items()
            if all(disturbance(s) <= limit for s in shares)}
