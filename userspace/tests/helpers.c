// SPDX-License-Identifier: GPL-2.0
/* helpers.c - the unit tests' shared helpers (helpers.h). */

#include "helpers.h"

/* Diagnostics on stdout: each line of @s prefixed with "#   label: ". */
void diag(const char *label, const char *s)
{
	const char *nl;

	do {
		nl = strchr(s, '\n');
		printf("#   %s: %.*s\n", label,
		       nl ? (int)(nl - s) : (int)strlen(s), s);
		s = nl ? nl + 1 : NULL;
	} while (s && *s);
}

void buf_open(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->f = open_memstream(&b->data, &b->len);
	if (!b->f) {
		perror("open_memstream");
		exit(2);
	}
}

void buf_close(struct buf *b)
{
	fclose(b->f);
}

void capture_start(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved = dup(2);
	if (!c->tmp || c->saved < 0 || dup2(fileno(c->tmp), 2) < 0) {
		perror("capture stderr");
		exit(2);
	}
}

char *capture_end(struct capture *c)
{
	long len;
	char *s;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	len = ftell(c->tmp);
	s = calloc(1, len > 0 ? (size_t)len + 1 : 1);
	rewind(c->tmp);
	if (!s || (len > 0 && fread(s, 1, (size_t)len, c->tmp) != (size_t)len)) {
		perror("read captured stderr");
		exit(2);
	}
	fclose(c->tmp);
	return s;
}

struct nlmsghdr *reply_start(char *buf)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 0x1f;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = MEMDIAG_CMD_GET_INFO;
	genl->version = MEMDIAG_FAMILY_VERSION;
	return nlh;
}

struct snap snap_at(uint32_t socket, uint64_t t_ns)
{
	struct snap s;

	memset(&s, 0, sizeof(s));
	snap_set(&s, SA(SOCKET), socket);
	snap_set(&s, SA(TIME_NS), t_ns);
	return s;
}

void snap_imc(struct snap *s, uint32_t epoch, uint64_t rd, uint64_t wr)
{
	snap_set(s, SA(IMC_EPOCH), epoch);
	snap_set(s, SA(DRAM_READ_BYTES), rd);
	snap_set(s, SA(DRAM_WRITE_BYTES), wr);
}

void snap_core(struct snap *s, uint32_t epoch, struct core_counts c)
{
	snap_set(s, SA(CORE_EPOCH), epoch);
	snap_set(s, SA(NR_CPUS), 28);
	snap_set(s, SA(INSTRUCTIONS), c.cycles / 2);
	snap_set(s, SA(CYCLES), c.cycles);
	snap_set(s, SA(REF_CYCLES), c.ref);
	snap_set(s, SA(L1D_PEND_MISS), c.pend);
	snap_set(s, SA(L1_MISS), c.l1m);
	snap_set(s, SA(LFB_HIT), c.lfb);
	snap_set(s, SA(OFFCORE_DRAM_READS), c.ocr);
}

/*
 * The canned pair of memdiagctl(8)'s example, one second apart on a
 * 28-CPU socket at 2.0 GHz (TSC 2.5 GHz): socket 0 moderately loaded,
 * socket 1 saturated.
 */
void canned_pair(uint32_t socket, struct snap *a, struct snap *b)
{
	static const struct core_counts c0 = {
		4000000000000, 5000000000000, 900000000000, 3000000000,
		1500000000, 1000000000,
	};

	*a = snap_at(socket, T0 + socket * 1000);
	*b = snap_at(socket, T0 + socket * 1000 + SEC);
	snap_core(a, 1, c0);
	if (socket == 0) {
		snap_imc(a, 1, 1000000000000, 400000000000);
		/* 25.6 GB/s read, 6.4 write; 300 M offcore reads = 19.2 GB/s */
		snap_imc(b, 1, 1000000000000 + 25600000000, 400000000000 + 6400000000);
		snap_core(b, 1, (struct core_counts){
			c0.cycles + 56000000000, c0.ref + 70000000000,
			c0.pend + 9000000000, c0.l1m + 30000000,
			c0.lfb + 15000000, c0.ocr + 300000000 });
	} else {
		snap_imc(a, 1, 2000000000000, 1000000000000);
		snap_imc(b, 1, 2000000000000 + 80000000000, 1000000000000 + 20000000000);
		snap_core(b, 1, (struct core_counts){
			c0.cycles + 60000000000, c0.ref + 75000000000,
			c0.pend + 40000000000, c0.l1m + 80000000,
			c0.lfb + 20000000, c0.ocr + 500000000 });
	}
}

/* Snapshot @i of a socket counting 1 GB/s of reads: 1 byte per ns. */
struct snap steady(uint64_t t_ns, uint32_t epoch, uint64_t base)
{
	struct snap s = snap_at(0, t_ns);

	snap_imc(&s, epoch, base + (t_ns - T0), 0);
	snap_core(&s, 1, (struct core_counts){ t_ns, t_ns, t_ns, t_ns / 100,
					       0, 0 });
	return s;
}

/* A snapshot message as memdiag builds it, pads included when @pad. */
struct nlmsghdr *snap_msg(char *buf, uint8_t cmd, const struct snap *s,
				 bool pad)
{
	struct nlmsghdr *nlh = reply_start(buf);
	struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	unsigned int a;

	genl->cmd = cmd;
	for (a = 1; a < SNAP_ATTRS; a++) {
		if (!snap_has(s, a))
			continue;
		switch (a) {
		case SA(SOCKET):
		case SA(IMC_EPOCH):
		case SA(CORE_EPOCH):
		case SA(NR_CPUS):
			mnl_attr_put_u32(nlh, (uint16_t)a, (uint32_t)s->v[a]);
			break;
		default:
			if (pad)
				mnl_attr_put(nlh, SA(PAD), 0, NULL);
			mnl_attr_put_u64(nlh, (uint16_t)a, s->v[a]);
		}
	}
	for (a = 0; a < s->nr_chan; a++) {
		struct nlattr *nest = mnl_attr_nest_start(nlh, SA(CHANNEL));

		mnl_attr_put_u32(nlh, MEMDIAG_A_CHANNEL_ID, s->chan[a].id);
		mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_READ_BYTES,
				 s->chan[a].read_bytes);
		mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_WRITE_BYTES,
				 s->chan[a].write_bytes);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

int fake_send(struct fake_kernel *k, const struct snap *s, uint16_t type)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_pid = k->to };
	char buf[2048];
	struct nlmsghdr *nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, s, true);

	nlh->nlmsg_type = type;
	return sendto(mnl_socket_get_fd(k->tx), nlh, nlh->nlmsg_len, 0,
		      (struct sockaddr *)&sa, sizeof(sa)) < 0 ? -errno : 0;
}

void canned_summary(struct info_summary *sum)
{
	static uint32_t ids[] = { 0, 1 };
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	sum->have_nr_sockets = true;
	sum->nr_sockets = 2;
	sum->socket = ids;
	sum->nr_socket = 2;
	sum->tsc_khz = TSC_KHZ;
	for (i = 0; i <= MEMDIAG_CAPABILITY_MAX; i++)
		sum->cap[i].listed = sum->cap[i].available = true;
	/* the canned pair is an Intel one: AMD's L3 latency is not there */
	sum->cap[MEMDIAG_CAPABILITY_L3_DRAM_LATENCY].available = false;
}

void wrun_start(struct wrun *r, bool json, const struct info_summary *sum)
{
	memset(&r->w, 0, sizeof(r->w));
	r->w.cmd = "watch";
	r->w.json = json;
	r->w.all = true;
	r->w.interval_ms = 1000;
	r->w.threshold = WATCH_DEFAULT_THRESHOLD;
	r->w.family = 0x1f;	/* reply_start()'s */
	/* the wall clock of time_ns 10^12 is 1.7 x 10^18 */
	r->w.have_unix_offset = true;
	r->w.unix_offset_ns = 1700000000000000000LL - 1000000000000LL;
	buf_open(&r->b);
	r->w.out = r->b.f;
	capture_start(&r->c);
	r->init_rc = watch_init(&r->w, sum);
}

void wrun_feed(struct wrun *r, const struct snap *s)
{
	char buf[2048];

	watch_msg(snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, s, true), &r->w);
}

void wrun_end(struct wrun *r, char **out, char **err)
{
	*err = capture_end(&r->c);
	buf_close(&r->b);
	*out = r->b.data;
	watch_free(&r->w);
}

int unit_setup_nothing(void *ctx, unsigned int tid)
{
	(void)ctx;
	(void)tid;
	return 0;
}
