/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memdiag_marker.h - libmemdiag-marker: name regions of a program and get,
 * per region, its calls, its time and the memdiag counters' deltas over
 * it (DRAM read and write bytes, offcore reads, load latencies), printed
 * by "memdiagctl stat --marker -- PROGRAM".
 *
 *	memdiag_marker_init();
 *	memdiag_marker_start("triad");
 *	... the code measured ...
 *	memdiag_marker_stop("triad");
 *	memdiag_marker_close();
 *
 * Link with `pkg-config --cflags --libs memdiag-marker`. Every function
 * is thread-safe; regions nest per thread (a stop closes the innermost
 * region of that name the calling thread opened). One netlink socket per
 * process takes a snapshot of every socket's counters at each start and
 * stop. The memory controllers' counts are socket-wide: every process on
 * the socket adds to them, not only the region's code.
 *
 * Without the memdiag module, without a counting session (stat starts
 * one) or without permission, regions still get their calls and time,
 * and memdiag_marker_counters_reason() says why there are no counters.
 */

#ifndef MEMDIAG_MARKER_H
#define MEMDIAG_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

/* what the shared library exports: these functions, nothing else */
#if defined(__GNUC__)
#define MEMDIAG_MARKER_API __attribute__((visibility("default")))
#else
#define MEMDIAG_MARKER_API
#endif

/* what the shared library exports: these functions, nothing else */
#if defined(__GNUC__)
#define MEMDIAG_MARKER_API __attribute__((visibility("default")))
#else
#define MEMDIAG_MARKER_API
#endif

/* The environment variable naming the file the results are appended to. */
#define MEMDIAG_MARKER_ENV "MEMDIAG_MARKER_FILE"
/* Longest region name, in bytes, without the terminating NUL. */
#define MEMDIAG_MARKER_NAME_MAX 63
/* How deep one thread's regions nest. */
#define MEMDIAG_MARKER_DEPTH_MAX 32

/*
 * Connect to the memdiag module (once per process; further calls do
 * nothing). 0, or -1 with errno set when out of memory: the counters'
 * absence is no error (see memdiag_marker_counters_reason()).
 */
MEMDIAG_MARKER_API MEMDIAG_MARKER_API int memdiag_marker_init(void);

/*
 * Append the regions to the file $MEMDIAG_MARKER_FILE names (one JSON
 * line; "memdiagctl stat --marker" sets it) and free everything. Also run
 * at exit when not called. 0, or -1 with errno: ENOENT when the variable
 * is not set (nothing is written), else why the file could not be written.
 */
MEMDIAG_MARKER_API MEMDIAG_MARKER_API int memdiag_marker_close(void);

/*
 * Open region @name (1 to MEMDIAG_MARKER_NAME_MAX bytes) on this thread.
 * 0, or -1 with errno: EINVAL (no name, or not initialized),
 * ENAMETOOLONG, ENOSPC (nested deeper than MEMDIAG_MARKER_DEPTH_MAX),
 * ENOMEM.
 */
MEMDIAG_MARKER_API MEMDIAG_MARKER_API int memdiag_marker_start(const char *name);

/*
 * Close the innermost region @name this thread opened and add the call,
 * its time and its counter deltas to the region. 0, or -1 with errno
 * ENOENT when this thread has no such region open.
 */
MEMDIAG_MARKER_API MEMDIAG_MARKER_API int memdiag_marker_stop(const char *name);

/*
 * Why the regions get no counter deltas (the module is not loaded, no
 * session runs, permission), or NULL while the counters are read.
 */
MEMDIAG_MARKER_API MEMDIAG_MARKER_API const char *memdiag_marker_counters_reason(void);

#ifdef __cplusplus
}
#endif

#endif /* MEMDIAG_MARKER_H */
