# SPDX-License-Identifier: GPL-2.0
"""bench_readers.py - how "make bench" takes a pair's value out of
memdiagctl's -j document: one reader per kind of run (stream's op rows,
the first result of read-delay and traffic, latency's rows by size,
throughput's, calibrate --show's delay-0 point), named in each pair line
of bench_plan.PAIRS."""

K, M = 1 << 10, 1 << 20


def fmt_size(v):
    """@v bytes as the largest unit that divides it: 4G, 130M, 48K."""
    for unit, m in (("G", 1 << 30), ("M", M), ("K", K)):
        if v >= m and v % m == 0:
            return "%d%s" % (v // m, unit)
    return str(v)


def stream_row(doc, i, op):
    """memdiag stream's row of one op, verified, from the code of the
    width the pair's peer runs."""
    if doc.get("isa") != i["memdiag_isa"]:
        raise RuntimeError("stream ran its %s code, not %s" %
                           (doc.get("isa"), i["memdiag_isa"]))
    for r in doc["results"]:
        if r["op"] == op:
            if r.get("verified") is not True:
                raise RuntimeError("stream result not verified")
            return r
    raise RuntimeError("no '%s' in the stream results" % op)


def first_row(doc, i):
    """read-delay's and traffic's first (only) result."""
    return doc["results"][0]


PAGE_NOTES = set()	# latency runs that did not get the huge pages asked for


def read_latency(doc, i):
    sz = i["sz"]
    for r in doc["results"]:
        if r["size_bytes"] == sz["w"]:
            # over 4K pages a DRAM chase also times page walks (about
            # twice the ns on the VM of kernels.rst): say when memdiag's
            # run got fewer huge pages than whole ones fit
            huge, page = r.get("hugepage_bytes"), r.get("page_size_bytes")
            fit = sz["w"] // (2 * M) * 2 * M
            if huge is not None and page and huge < fit:
                PAGE_NOTES.add("memdiag latency at %s ran with %d of %d "
                               "bytes in huge pages" %
                               (fmt_size(sz["w"]), huge, sz["w"]))
            return r["ns_per_load"]
    raise RuntimeError("no latency result for %d bytes" % sz["w"])


def throughput_row(doc, i):
    """memdiag throughput's --mix load row at W (per thread), which must
    have run at the width asked for (sse, avx or avx512)."""
    if doc.get("width") != i["memdiag_isa"]:
        raise RuntimeError("throughput ran at width %s, not %s" %
                           (doc.get("width"), i["memdiag_isa"]))
    for r in doc["results"]:
        if r["size_bytes"] == i["sz"]["w"] and r["mix"] == "load":
            return r
    raise RuntimeError("no load result for %d bytes" % i["sz"]["w"])


def read_calibrate(doc, i):
    """calibrate --show -j: socket 0's read curve, its delay-0 point at
    the pair's generator count (bandwidth_gbps: the generators' bytes,
    or the memory controllers' where the module counts them)."""
    for sock in doc["sockets"]:
        if sock["socket"] != 0:
            continue
        for curve in sock["curves"]:
            if curve["mix"] != "read":
                continue
            for pt in curve["points"]:
                if pt["threads"] == i["threads"] and pt["delay"] == 0:
                    return pt["bandwidth_gbps"]
    raise RuntimeError("calibrate has no read point at %d threads, delay 0"
                       % i["threads"])


# Readers whose value is a result row's median GB/s: the row; memdiag
# times the threads of each of these runs between barriers, so the row
# also says how long they waited (read_thread_wait)
ROWS = {"stream": stream_row, "throughput": throughput_row,
        "first": first_row}
# the other readers: the value itself
READERS = {"latency": read_latency, "calibrate": read_calibrate}


def read_value(doc, i):
    kind, args = i["reader"][0], i["reader"][1:]
    if kind in ROWS:
        return ROWS[kind](doc, i, *args)["gbps"]
    return READERS[kind](doc, i, *args)


def read_thread_wait(doc, i):
    """(wait, parts) of the row the pair's value came from: the share of
    the median repetition memdiag's threads spent at its barrier waiting
    for the slowest (thread_wait_fraction; None with one thread) and the
    calls each thread made in a repetition (parts_per_rep, which
    kernels/repeat.c doubles while that brings the wait down); (None,
    None) for a reader without a row."""
    row = ROWS.get(i["reader"][0])
    if row is None:
        return None, None
    r = row(doc, i, *i["reader"][1:])
    return r.get("thread_wait_fraction"), r.get("parts_per_rep")
