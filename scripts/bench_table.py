# SPDX-License-Identifier: GPL-2.0
"""bench_table.py - what "make bench" makes of its trials: each pair's
ratio (the median of the trials' own ratios, over the quiet trials), the
printed table, the JSON rows and the summary line."""

import math
import statistics

import bench_quiet
from bench_plan import ALL

# The bar a pair is held to, and how sure the table must be that a pair
# is under it before it says so.
BAR = 0.98
COVERAGE = 0.90


def pair_ratio(by_trial, lower_better):
    """The pair's ratio from {trial: {"memdiag": v, "peer_values": v}}:
    each trial ran both sides next to each other (at once for the DRAM
    latency pair), so a trial's own ratio is one measurement, and the
    pair's is their median. The two sides' medians can come from
    different trials, and so from a different host state (a process that
    drew the slow one of the VM's two speeds, a minute of a busy
    neighbour). A trial where one side failed has no ratio. Returns
    (median or None, [ratio per trial, rounded to 4 places])."""
    ratios = []
    for t in sorted(by_trial):
        v = by_trial[t]
        if "memdiag" not in v or "peer_values" not in v:
            continue
        md, pe = v["memdiag"], v["peer_values"]
        ratios.append(pe / md if lower_better else md / pe)
    if not ratios:
        return None, []
    return statistics.median(ratios), [round(r, 4) for r in ratios]


def median_interval(ratios):
    """A distribution-free confidence interval for the median of the
    trials' ratios, from their order statistics: [x(k), x(n+1-k)] holds
    the true median with probability 1 - 2 P(B < k), B ~ Binomial(n, 1/2),
    whatever the noise's shape (the VM's is bimodal, so no normal
    interval). k is the largest that keeps COVERAGE; with too few trials
    for it, the widest one, with the coverage it has. Returns (lo, hi,
    coverage), or None without ratios."""
    x = sorted(ratios)
    n = len(x)
    if not n:
        return None

    def cov(k):
        return 1 - 2 * sum(math.comb(n, j) for j in range(k)) / 2.0 ** n
    k = 1
    while k + 1 <= (n + 1) // 2 and cov(k + 1) >= COVERAGE:
        k += 1
    return x[k - 1], x[n - k], round(cov(k), 4)


def standing(ratio, interval):
    """Where a pair stands against BAR: "at or above" (median at BAR or
    more), "below" (the whole interval under BAR: the trials say so with
    at least the interval's coverage), or "undecided" (the median under
    BAR, the interval reaching it: more trials could go either way)."""
    if ratio is None or interval is None:
        return None
    if ratio >= BAR:
        return "at or above"
    return "below" if interval[1] < BAR else "undecided"


def quiet_ratio(i, limit):
    """The pair's ratio over its quiet trials (all of them when none is
    quiet), their number, and every trial's ratio:
    (ratio, interval, quiet trials, [ratio per trial])."""
    lower_better = i["unit"] == "ns"
    _, each = pair_ratio(i["by_trial"], lower_better)
    quiet = bench_quiet.quiet_trials(i["shares"], limit)
    by = {t: v for t, v in i["by_trial"].items() if t in quiet} \
        or i["by_trial"]
    ratio, mine = pair_ratio(by, lower_better)
    return ratio, median_interval(mine), len(quiet), each


def side_values(i, side):
    """One side's values of pair instance @i ("memdiag" or "peer_values"),
    in trial order, from the trials where that side succeeded."""
    return [v[side] for _, v in sorted(i["by_trial"].items()) if side in v]


def variant(i):
    """Which code each side ran: memdiag's width / the peer's kernel."""
    peer = i["peer"]["test"] or i["peer"]["kind"]
    return "%s/%s" % (i["memdiag_isa"] or "-", peer)


def peer_command(i):
    """The peer's command, as the JSON row names it."""
    peer = i["peer"]
    if peer["kind"].startswith("chase"):
        return peer["kind"]
    if peer["kind"] == "read":
        return "bench-read --streams %s --cpus %s %s" % (
            peer["streams"], ",".join(map(str, peer["cpus"])), peer["size"])
    return "likwid-bench -t %s -W S0:%sB:%d" % (peer["test"], peer["size"],
                                               i["threads"])


def json_row(i, reps):
    peer = i["peer"]
    if i["kernel"] == "calibrate":
        md_cmd = "memdiagctl %s --curve FILE; memdiagctl calibrate " \
            "--show -j --curve FILE" % i["memdiag_args"]
    else:
        md_cmd = "memdiagctl run %s --threads %d --reps %d -j" % (
            i["memdiag_args"], i["threads"], reps)
    return {"name": i["name"], "pair": i["pair"], "level": i["level"],
            "threads": i["threads"], "unit": i["unit"],
            "memdiag_isa": i["memdiag_isa"], "peer_kernel": peer["test"],
            "memdiag_command": md_cmd,
            # "whole": timed as the peer times (run --timing whole)
            "memdiag_timing": i.get("timing") or "repetition",
            "peer": peer_command(i),
            "working_set_per_thread": i["sz"]["w"],
            "memdiag_values": side_values(i, "memdiag"),
            "peer_values": side_values(i, "peer_values"),
            "trial_disturbance": [
                round(max(map(bench_quiet.disturbance, sh), default=0), 4)
                for _, sh in sorted(i["shares"].items())],
            "trial_attempts": [n for _, n in sorted(i["attempts"].items())],
            # per trial: memdiag's median repetition's share of waiting
            "memdiag_thread_wait_fraction": [
                w for _, w in sorted(i.get("waits", {}).items())],
            # and the calls a thread made in each repetition
            "memdiag_parts_per_rep": [
                n for _, n in sorted(i.get("parts", {}).items())],
            "errors": i["errors"]}


def table_row(i, row, limit):
    """Print one instance's line of the table; True if it is below BAR.
    The ratio is the median over the quiet trials (runs at or under
    @limit of disturbance, bench_quiet.py) when there are MIN_QUIET of
    them; otherwise the row is disturbed: the ratio printed (over the
    quiet trials it has, or all when none is) counts for nothing. A row
    under BAR is "< 0.98" only when its whole interval is (standing())."""
    md_vals, pe_vals = row["memdiag_values"], row["peer_values"]
    if not md_vals or not pe_vals:
        print("%-30s %-22s %s" % (i["name"], variant(i),
                                  "error: " + (i["errors"] or ["?"])[0]))
        return False
    lower_better = i["unit"] == "ns"
    md_med, pe_med = statistics.median(md_vals), statistics.median(pe_vals)
    best = min if lower_better else max
    md_best, pe_best = best(md_vals), best(pe_vals)
    if lower_better:
        ratio, ratio_best = pe_med / md_med, pe_best / md_best
    else:
        ratio, ratio_best = md_med / pe_med, md_best / pe_best
    row["ratio_of_medians"] = round(ratio, 4)
    trial_ratio, interval, quiet, row["trial_ratios"] = quiet_ratio(i, limit)
    row["quiet_trials"] = quiet
    if trial_ratio is not None:
        ratio = trial_ratio
    row["disturbed"] = quiet < bench_quiet.MIN_QUIET
    row["ratio_interval"] = [round(v, 4) for v in interval[:2]] \
        if interval else None
    row["ratio_interval_coverage"] = interval[2] if interval else None
    row["standing"] = None if row["disturbed"] else \
        standing(ratio, interval)
    flag = "  (at once)" if "trials" in i else ""
    row.update({"memdiag_median": md_med, "peer_median": pe_med,
                "ratio_median": round(ratio, 4), "memdiag_best": md_best,
                "peer_best": pe_best, "ratio_best": round(ratio_best, 4)})
    if row["disturbed"]:
        flag += "  disturbed (%d of %d trials quiet)" % (quiet,
                                                         len(i["shares"]))
    elif row["standing"] == "below":
        flag += "  < %g" % BAR
    elif row["standing"] == "undecided":
        flag += "  undecided (< %g, within noise)" % BAR
    span = "%.2f-%.2f" % tuple(interval[:2]) if interval else "-"
    print("%-30s %-22s %9.2f %9.2f %6.3f %11s  %9.2f %9.2f %6.3f  %s%s" % (
        i["name"], variant(i), md_med, pe_med, ratio, span, md_best,
        pe_best, ratio_best, i["unit"], flag))
    return row["standing"] == "below"


def skipped_lines(skipped):
    """The skipped instances, one line per pair and reason."""
    groups = {}
    for i in skipped:
        groups.setdefault((i["pair"], variant(i), i["skipped"]), []).append(i)
    for (pair, var, why), group in groups.items():
        where = sorted({i["level"] for i in group}, key=ALL.index)
        threads = sorted({i["threads"] for i in group})
        print("%-30s %-22s skipped (%d: %s at %s): %s" % (
            pair, var, len(group), " ".join(where),
            " ".join("%dT" % t for t in threads), why))


def summary(result, low, skipped):
    """The last line: how many pair instances ran, were skipped (and
    why) and failed, and how many stand below BAR or undecided."""
    ran = [r for r in result["pairs"] if "ratio_median" in r]
    failed = [r for r in result["pairs"]
              if "ratio_median" not in r and "skipped" not in r]
    why = sorted({i["skipped"] for i in skipped})
    disturbed = sum(1 for r in ran if r.get("disturbed"))
    undecided = sum(1 for r in ran if r.get("standing") == "undecided")
    return ("%d pairs ran, %d skipped%s, %d failed; %d below %g (the "
            "whole %g %% interval of the median ratio), %d undecided (the "
            "median below, the interval reaching %g); %d disturbed (fewer "
            "than %d quiet trials: another task or the host took CPU time "
            "above %g of a run); %.0f s; all values in %s" % (
                len(ran), len(skipped),
                " (" + "; ".join(why) + ")" if why else "", len(failed),
                low, BAR, COVERAGE * 100, undecided, BAR, disturbed,
                bench_quiet.MIN_QUIET, result["config"]["max_disturbance"],
                result["seconds"], result["json"]))


def wait_notes(rows):
    """A note for each row that stands below BAR or undecided whose
    memdiag runs say how long its threads waited at the barrier that
    closes each timed repetition: a thread that lags holds up every
    repetition, where the peers time each thread's whole run once and
    keep only the slowest thread's total."""
    notes = []
    for r in rows:
        waits = [w for w in r.get("memdiag_thread_wait_fraction", [])
                 if w is not None]
        # one thread waits for nobody: memdiag gives null
        if not waits or r.get("standing") not in ("below", "undecided"):
            continue
        parts = [n for n in r.get("memdiag_parts_per_rep", []) if n]
        calls = ""
        if parts:
            calls = ", in repetitions of %d-%d calls a thread" % (
                min(parts), max(parts))
        if r.get("memdiag_timing") == "whole":
            notes.append("%s: timed whole, as the peer, memdiag's threads "
                         "waited for the slowest a median %.1f %% of each "
                         "run (%.1f-%.1f over the trials%s)" % (
                             r["name"], 100 * statistics.median(waits),
                             100 * min(waits), 100 * max(waits), calls))
            continue
        notes.append("%s: memdiag's threads waited for the slowest a "
                     "median %.1f %% of each timed repetition (%.1f-%.1f "
                     "over the trials%s); the peer's threads do not meet "
                     "between repetitions" % (
                         r["name"], 100 * statistics.median(waits),
                         100 * min(waits), 100 * max(waits), calls))
    return notes


def default_side(i, limit):
    """memdiag's default timing on instance @i, where it ran beside the
    whole-timed run (bench_plan.WHOLE, more than one thread): its values,
    the median of its trials' ratios to the same trial's peer over the
    trials quiet on every run (pair and default), the interval of that
    median, its thread wait and calls per repetition; None where it did
    not run. Not held to BAR: the pair's ratio is the like-for-like one."""
    if not i.get("default_args"):
        return None
    quiet = set(bench_quiet.quiet_trials(i["shares"], limit))
    dshares = i.get("default_shares", {})
    by, values = {}, []
    for t, v in sorted(i["by_trial"].items()):
        if "memdiag_default" not in v:
            continue
        values.append(v["memdiag_default"])
        if t in quiet and bench_quiet.disturbance(dshares.get(t, {})) <= limit:
            by[t] = {"memdiag": v["memdiag_default"],
                     "peer_values": v.get("peer_values")}
    by = {t: v for t, v in by.items() if v["peer_values"] is not None}
    ratio, ratios = pair_ratio(by, i["unit"] == "ns")
    interval = median_interval(ratios)
    return {"timing": "repetition", "values": values,
            "quiet_trials": len(by), "trial_ratios": ratios,
            "ratio_median": round(ratio, 4) if ratio is not None else None,
            "ratio_interval": [round(x, 4) for x in interval[:2]]
            if interval else None,
            "thread_wait_fraction": [
                w for _, w in sorted(i.get("default_waits", {}).items())],
            "parts_per_rep": [
                n for _, n in sorted(i.get("default_parts", {}).items())]}


def default_table(todo, rows, limit):
    """After the table: memdiag's default timing beside each row timed
    whole (JSON memdiag_default in the row), its ratio to the peer and
    how long its threads waited at the barrier ending each repetition."""
    by_name = {r["name"]: r for r in rows}
    lines = []
    for i in todo:
        d = default_side(i, limit)
        if d is None or i["name"] not in by_name:
            continue
        by_name[i["name"]]["memdiag_default"] = d
        if not d["values"]:
            continue
        waits = [w for w in d["thread_wait_fraction"] if w is not None]
        parts = [n for n in d["parts_per_rep"] if n]
        span = "%.2f-%.2f" % tuple(d["ratio_interval"]) \
            if d["ratio_interval"] else "-"
        lines.append("%-30s %9.2f %6s %11s  %5s %-13s %s%s" % (
            i["name"], statistics.median(d["values"]),
            "%.3f" % d["ratio_median"] if d["ratio_median"] is not None
            else "-", span,
            "%.1f" % (100 * statistics.median(waits)) if waits else "-",
            " (%.1f-%.1f)" % (100 * min(waits), 100 * max(waits))
            if waits else "", "%d-%d" % (min(parts), max(parts))
            if parts else "-", "" if d["quiet_trials"] >= bench_quiet.MIN_QUIET
            else "  disturbed (%d quiet)" % d["quiet_trials"]))
    if not lines:
        return
    print()
    print("memdiag's default timing beside (a barrier after every "
          "repetition, as STREAM), against the same trials' peer; not "
          "held to %g:" % BAR)
    print("%-30s %9s %6s %11s  %-19s %s" % (
        "pair", "memdiag", "ratio", "interval", "wait % (range)",
        "calls/rep"))
    for line in lines:
        print(line)
