/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memdiag.h - types and functions shared by memdiag's source files.
 */
#ifndef _MEMDIAG_H
#define _MEMDIAG_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <uapi/linux/memdiag.h>

#include "compat.h"
#include "uarch.h"
#include "prefetch.h"
#include "platform.h"

struct cpumask;
struct sk_buff;

#define MEMDIAG_REASON_LEN	192
#define MEMDIAG_MAX_SOCKETS	64
/* IMC channels reported per socket (Sapphire Rapids has 8) */
#define MEMDIAG_MAX_CHANNELS	32
#define MEMDIAG_DF_MAX_NODES	8	/* NUMA nodes of a socket's DRAM */

/*
 * Limits, explained in Documentation/memdiag.rst "Limits". Sessions need
 * CAP_PERFMON or CAP_SYS_ADMIN; readers allowed only by unprivileged_read
 * get a sample at most MEMDIAG_UNPRIV_SAMPLE_MS old instead of a new one.
 */
#define MEMDIAG_SESSIONS_PER_SOCKET	4
#define MEMDIAG_SESSIONS_PER_USER	16
#define MEMDIAG_SESSIONS_MAX		64
#define MEMDIAG_MIN_INTERVAL_MS		10
#define MEMDIAG_MAX_INTERVAL_MS		60000
#define MEMDIAG_UNPRIV_SAMPLE_MS	100

/* One capability: can it be used, and if not, why (for get-info). */
struct memdiag_cap {
	bool available;
	/*
	 * prefetch-control: a write was read back equal (set once, never
	 * cleared; written under pf_lock, read without: READ_ONCE).
	 */
	bool verified;
	char reason[MEMDIAG_REASON_LEN];
};

/* A hardware counter extended to a monotonic 64-bit count. */
struct memdiag_ext64 {
	u64 raw;	/* last value read */
	u64 total;	/* sum of the deltas seen */
};

/*
 * Add the step from the last reading to @raw, a @bits-wide count that may
 * have wrapped once. A step above @max cannot be a wrap at any rate the
 * hardware reaches: the counter was reset or reprogrammed under us, so the
 * step is not counted, the counter is re-baselined and false is returned.
 */
static inline bool memdiag_ext64_update(struct memdiag_ext64 *e, u64 raw,
					unsigned int bits, u64 max)
{
	u64 mask = GENMASK_ULL(bits - 1, 0);
	u64 delta = (raw - e->raw) & mask;

	e->raw = raw & mask;
	if (delta > max)
		return false;
	e->total += delta;
	return true;
}

static inline void memdiag_ext64_start(struct memdiag_ext64 *e, u64 raw,
				       unsigned int bits)
{
	e->raw = raw & GENMASK_ULL(bits - 1, 0);
}

/* Core counters memdiag reads: the events of enum memdiag_core_ev, then fixed. */
enum {
	MEMDIAG_FIX_INSTR = MEMDIAG_EV_NR,	/* fixed counter 0 */
	MEMDIAG_FIX_CYCLES,			/* fixed counter 1 */
	MEMDIAG_FIX_REF,			/* fixed counter 2 */
	MEMDIAG_CORE_NR
};

/* What one socket's counters said at one moment. */
struct memdiag_snap {
	u32 socket;
	u64 time_ns;
	bool has_imc;
	u32 imc_epoch;
	u64 rd_bytes, wr_bytes;
	bool has_core;
	u32 core_epoch;
	u32 nr_cpus;
	bool has[MEMDIAG_CORE_NR];
	u64 ctr[MEMDIAG_CORE_NR];
	/*
	 * AMD's DF (Zen 2/3): reads and writes together, rdwr_bytes and the
	 * channels' rdwr_bytes and counted_ns instead of rd/wr_bytes
	 */
	bool imc_rdwr;
	u64 rdwr_bytes;		/* estimated for the socket: imc_df.c */
	bool no_total;		/* a fixed channel set: rdwr_bytes not sent */
	u32 nr_chan;		/* IMC channels, counted with the totals */
	struct {
		u32 id;
		u64 rd_bytes, wr_bytes;
		u64 rdwr_bytes, counted_ns;	/* imc_rdwr */
	} chan[MEMDIAG_MAX_CHANNELS];
	/*
	 * AMD's DF (Zen 2/3): the socket's NUMA nodes and the estimate of
	 * their channels (df_nodes.c); nodes_why instead when the DF's
	 * address maps give no clean channel -> node table
	 */
	const char *nodes_why;
	u32 nr_node;
	struct {
		u32 id, chans;		/* NUMA node, bit i: channel i */
		bool measured;		/* false: a channel outside a fixed set */
		u64 rdwr_bytes;
	} node[MEMDIAG_DF_MAX_NODES];
	bool has_l3;		/* the L3-sampled DRAM latency (AMD) */
	u32 l3_epoch;
	u64 l3_lat_cycles, l3_requests;
	bool has_prefetch;
	bool prefetch_changed;	/* some CPU differs from what was found */
	u32 prefetch_off;	/* prefetchers off on every CPU */
	u32 prefetch_mixed;	/* off on some CPUs only */
};

/*
 * What the module found at load time. Read-only afterwards except:
 * core_mode and core_mode_reason, which core.c changes at session start
 * and stop under memdiag_lock (readers hold it too), and
 * caps[PREFETCH_CONTROL].verified (see struct memdiag_cap).
 */
struct memdiag_state {
	enum memdiag_platform platform;
	const struct memdiag_platform_ops *plat;
	struct memdiag_cpu_ident ident;
	const struct memdiag_uarch *uarch;	/* NULL: unsupported */
	char uarch_reason[MEMDIAG_REASON_LEN];
	struct memdiag_cap caps[MEMDIAG_CAPABILITY_MAX + 1];
	enum memdiag_core_mode core_pref;	/* core= (0444): NONE is auto */
	/* in use, or to be used; memdiag_lock */
	enum memdiag_core_mode core_mode;
	char core_mode_reason[MEMDIAG_REASON_LEN];	/* memdiag_lock */
	const struct memdiag_pf_desc *prefetch;	/* NULL: none known */
};

extern struct memdiag_state memdiag;

/*
 * An allocation fault point: true when the platform makes this
 * allocation fail (the sim's fail_alloc switch; never on hardware), so
 * that tests reach every out-of-memory path.
 */
static inline bool memdiag_alloc_fails(void)
{
	return memdiag.plat && memdiag.plat->fail_alloc &&
	       memdiag.plat->fail_alloc();
}

#define memdiag_kcalloc(n, size) \
	(memdiag_alloc_fails() ? NULL : kcalloc(n, size, GFP_KERNEL))
#define memdiag_zalloc_cpumask(mask) \
	(!memdiag_alloc_fails() && zalloc_cpumask_var(mask, GFP_KERNEL))

extern bool memdiag_unprivileged_read;
/* Serialises sessions, counter programming and sampling. */
extern struct mutex memdiag_lock;

/* platform.c */
int memdiag_platform_get(struct memdiag_state *st);
void memdiag_platform_put(struct memdiag_state *st);

/* uarch.c */
const struct memdiag_uarch *memdiag_uarch_match(const struct memdiag_cpu_ident *id,
						char *reason, size_t len);

/* caps.c */
void memdiag_caps_unsupported(struct memdiag_state *st);
void memdiag_caps_imc(struct memdiag_state *st, int err, const char *why);
void memdiag_caps_core(struct memdiag_state *st, int err, const char *why);
void memdiag_caps_l3(struct memdiag_state *st, int err, const char *why);

/* topology.c */
unsigned int memdiag_socket_of(unsigned int cpu);
unsigned int memdiag_socket_cpu(unsigned int socket, unsigned int except);
unsigned int memdiag_socket_package(unsigned int socket);
int memdiag_package_to_socket(unsigned int package);
unsigned int memdiag_max_sockets(void);
unsigned int memdiag_nr_sockets(void);
unsigned int memdiag_socket_nodes(unsigned int socket);

/* imc.c: discovery at load, programming while a session runs */
int memdiag_imc_discover(struct memdiag_state *st, char *reason, size_t len);
void memdiag_imc_free(void);
int memdiag_imc_start(char *msg, size_t len);
void memdiag_imc_stop(void);
void memdiag_imc_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns);
int memdiag_imc_df_channels_check(u32 set, char *msg, size_t len);
u32 memdiag_imc_df_channels(void);
void memdiag_imc_df_set_channels(u32 set);
int memdiag_imc_cpu_online(unsigned int cpu);
/* df_nodes.c: the NUMA node each Zen 2/3 DRAM channel serves */
void memdiag_df_nodes_init(unsigned int socket, unsigned int n_chans);
const char *memdiag_df_nodes_why(unsigned int socket);
unsigned int memdiag_df_nodes(unsigned int socket, u32 *ids, u32 *chans);
int memdiag_imc_cpu_offline(unsigned int cpu);

/* l3.c: AMD's L3 PMU, one per CCX, counted into its socket */
int memdiag_l3_init(struct memdiag_state *st, char *reason, size_t len);
void memdiag_l3_exit(void);
int memdiag_l3_start(char *msg, size_t len);
void memdiag_l3_stop(void);
void memdiag_l3_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns);
int memdiag_l3_cpu_online(unsigned int cpu);
int memdiag_l3_cpu_offline(unsigned int cpu);

/* core.c */
/* An MSR to put back: memdiag_msr_put_back() in msr_restore.c */
struct memdiag_msr_back {
	u32 msr;
	u64 ours, orig;		/* what memdiag wrote, what it found */
};

#define MEMDIAG_MSR_BACK_MAX	24
int memdiag_msr_put_back(unsigned int cpu, const struct memdiag_msr_back *regs,
			 unsigned int n);

int memdiag_core_init(struct memdiag_state *st, char *reason, size_t len);
void memdiag_core_exit(void);
unsigned int memdiag_core_restore_failed(void);
int memdiag_core_start(char *msg, size_t len);
void memdiag_core_stop(void);
void memdiag_core_sample(struct memdiag_snap *snap, unsigned int n, u64 dt_ns);
int memdiag_core_cpu_online(unsigned int cpu);
int memdiag_core_cpu_offline(unsigned int cpu);
int memdiag_core_fill_ctr(u32 *msr, unsigned int *bits, char *msg,
			  size_t len);

/* core_perf.c */
int memdiag_core_perf_start(const struct memdiag_core_event *core,
			    const struct memdiag_core_event *fix,
			    char *msg, size_t len);
void memdiag_core_perf_stop(void);
void memdiag_core_perf_sample(struct memdiag_snap *snap, unsigned int n);

/* session.c: sessions own sampling; each periodic sample goes to a hook */
typedef void (*memdiag_publish_fn)(const struct memdiag_snap *snaps,
				   unsigned int n);
int memdiag_session_init(memdiag_publish_fn publish);
void memdiag_session_exit(void);
int memdiag_session_start(u32 portid, kuid_t uid, u32 interval_ms,
			  u32 df_channels, u32 *id, u32 *mode, const char **why,
			  char *msg, size_t len);
int memdiag_session_stop(u32 portid, u32 id);
int memdiag_session_want_groups(u32 portid, u32 id, char *msg, size_t len);
bool memdiag_session_active(void);
int memdiag_session_snapshot(struct memdiag_snap *snaps, u64 max_age_ns);
unsigned int memdiag_session_nr_snaps(void);

/* prefetch.c, prefetch_hp.c */
const struct memdiag_pf_desc *
memdiag_prefetch_match(const struct memdiag_cpu_ident *id, char *reason,
		       size_t len);
void memdiag_prefetch_probe(struct memdiag_state *st, struct memdiag_cap *cap);
int memdiag_prefetch_init(void);
void memdiag_prefetch_exit(void);
u32 memdiag_prefetch_off(u64 val);
void memdiag_prefetch_widen(const struct cpumask *scope, struct cpumask *out);
int memdiag_prefetch_set(const struct cpumask *scope, int socket, u32 mask,
			 bool off, struct cpumask *touched, char *msg,
			 size_t len);
int memdiag_prefetch_restore(const struct cpumask *scope, int socket,
			     struct cpumask *touched, char *msg, size_t len);

/* One CPU's register and what memdiag keeps for its core. */
struct memdiag_pf_state {
	u64 val;
	bool saved;	/* memdiag changed the core; orig is what it found */
	bool failed;	/* putting orig back failed; it is retried */
	u64 orig;
};

int memdiag_prefetch_read(unsigned int cpu, struct memdiag_pf_state *st);
void memdiag_prefetch_sample(struct memdiag_snap *snap, unsigned int n);

/* genl.c */
struct genl_info;
extern struct genl_family memdiag_nl_family;
bool memdiag_nl_perfmon(struct sk_buff *skb);
struct netlink_ext_ack;
struct nlattr;
bool memdiag_nl_allowed(struct sk_buff *skb, struct netlink_ext_ack *extack,
			u8 cmd);
__printf(4, 5)
void memdiag_nl_errf(struct netlink_ext_ack *extack, u32 portid,
		     const struct nlattr *bad, const char *fmt, ...);
void memdiag_nl_err_release(u32 portid);
void *memdiag_genl_reply_put(struct sk_buff *msg, struct genl_info *info);
int memdiag_genl_init(void);
void memdiag_genl_exit(void);
void memdiag_genl_publish(const struct memdiag_snap *snaps, unsigned int n);

#endif /* _MEMDIAG_H */
