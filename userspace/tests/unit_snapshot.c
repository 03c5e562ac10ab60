// SPDX-License-Identifier: GPL-2.0
/* unit_snapshot.c - unit tests: snapshot messages and the snapshot printer (snapshot.c, cmd_snapshot.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f snapshot" runs its tests alone */
FIXTURE(snapshot) {};
FIXTURE_SETUP(snapshot) {}
FIXTURE_TEARDOWN(snapshot) {}

static void put_channel(struct nlmsghdr *nlh, uint32_t id, uint64_t rd,
			uint64_t wr)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, SA(CHANNEL));

	mnl_attr_put_u32(nlh, MEMDIAG_A_CHANNEL_ID, id);
	mnl_attr_put(nlh, MEMDIAG_A_CHANNEL_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_READ_BYTES, rd);
	mnl_attr_put_u64(nlh, MEMDIAG_A_CHANNEL_WRITE_BYTES, wr);
	mnl_attr_nest_end(nlh, nest);
}

TEST_F(snapshot, snap_parse)
{
	char buf[2048], why[160];
	struct nlmsghdr *nlh;
	struct snap a, b, s;
	struct nlattr *nest;
	int rc;

	canned_pair(0, &a, &b);
	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, &a, true);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc == 0 && s.have == a.have && !memcmp(s.v, a.v, sizeof(s.v)),
	   "snapshot: every attribute read, pad attributes skipped");

	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT_NTF, &a, false);
	mnl_attr_put_strz(nlh, MEMDIAG_A_SNAPSHOT_MAX + 4, "future");
	put_channel(nlh, 0, 1, 2);
	put_channel(nlh, 1, 3, 4);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc == 0 && s.have == a.have && s.nr_channels == 2,
	   "snapshot: unknown attributes skipped, channels counted");

	a.have = 0;
	snap_set(&a, SA(TIME_NS), T0);
	nlh = snap_msg(buf, MEMDIAG_CMD_SNAPSHOT, &a, false);
	errno = 0;
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0 && errno == EBADMSG, "snapshot: no socket is malformed");
	is_str(why, "no socket attribute", "snapshot: says the socket is missing");

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	mnl_attr_put_u32(nlh, SA(DRAM_READ_BYTES), 5);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a u64 counter sent as 4 bytes is refused");
	is_str(why, "attribute dram-read-bytes (type 5) has the wrong size",
	       "snapshot: names the attribute");

	nlh = reply_start(buf);
	mnl_attr_put_u64(nlh, SA(SOCKET), 0);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a u32 sent as 8 bytes is refused");
	is_str(why, "attribute socket (type 1) has the wrong size",
	       "snapshot: names the u32");

	nlh = reply_start(buf);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	nest = mnl_attr_nest_start(nlh, SA(CHANNEL));
	mnl_attr_put_u32(nlh, MEMDIAG_A_CHANNEL_READ_BYTES, 1);
	mnl_attr_nest_end(nlh, nest);
	rc = snap_parse(nlh, &s, why, sizeof(why));
	ok(rc < 0, "snapshot: a malformed channel nest is refused");
	is_str(why, "attribute channel.read-bytes (type 3) has the wrong size",
	       "snapshot: names the nested attribute with its set");
}

static int snapshot_case(const struct nlmsghdr *const *msgs, size_t nr,
			 bool json, bool channels, char **out, char **err)
{
	struct capture c;
	struct printer p;
	struct buf b;
	int rc;

	buf_open(&b);
	print_init(&p, b.f, json, false);
	capture_start(&c);
	rc = snapshot_show("snapshot", &p, msgs, nr, channels);
	if (rc == MDC_EXIT_OK)
		rc = cli_output_end("snapshot", &p);
	*err = capture_end(&c);
	buf_close(&b);
	*out = b.data;
	return rc;
}

/* Long: one scenario, its checks in the order the behaviour unfolds. */
TEST_F(snapshot, snapshot_show)
{
	static char buf0[2048], buf1[2048], buf2[2048];
	const struct nlmsghdr *msgs[2];
	struct nlmsghdr *nlh;
	struct snap a, b;
	char *out, *err;
	int rc;

	/* socket 1 first: the output is in socket order */
	canned_pair(1, &a, &b);
	a.have &= ~((1u << SA(CORE_EPOCH)) | (1u << SA(NR_CPUS)) |
		    (1u << SA(INSTRUCTIONS)) | (1u << SA(CYCLES)) |
		    (1u << SA(REF_CYCLES)) | (1u << SA(L1D_PEND_MISS)) |
		    (1u << SA(L1_MISS)) | (1u << SA(LFB_HIT)) |
		    (1u << SA(OFFCORE_DRAM_READS)));
	nlh = snap_msg(buf1, MEMDIAG_CMD_SNAPSHOT, &a, false);
	put_channel(nlh, 0, 1500000000000, 600000000000);
	put_channel(nlh, 2, 500000000000, 400000000000);
	msgs[0] = nlh;
	canned_pair(0, &a, &b);
	nlh = snap_msg(buf0, MEMDIAG_CMD_SNAPSHOT, &a, true);
	put_channel(nlh, 0, 600000000000, 250000000000);
	put_channel(nlh, 1, 400000000000, 150000000000);
	msgs[1] = nlh;

	rc = snapshot_case(msgs, 2, false, true, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err, "snapshot text: exit 0, nothing on stderr");
	is_str(out,
	       "                                           socket 0             socket 1\n"
	       "time-ns                               1000000000000        1000000001000\n"
	       "imc-epoch                                         1                    1\n"
	       "dram-read-bytes                       1000000000000        2000000000000\n"
	       "dram-write-bytes                       400000000000        1000000000000\n"
	       "dram-rdwr-bytes                                   -                    -\n"
	       "core-epoch                                        1                    -\n"
	       "nr-cpus                                          28                    -\n"
	       "instructions                          2000000000000                    -\n"
	       "cycles                                4000000000000                    -\n"
	       "ref-cycles                            5000000000000                    -\n"
	       "l1d-pend-miss                          900000000000                    -\n"
	       "l1-miss                                  3000000000                    -\n"
	       "lfb-hit                                  1500000000                    -\n"
	       "l1-miss-any                                       -                    -\n"
	       "offcore-dram-reads                       1000000000                    -\n"
	       "mab-occupancy                                     -                    -\n"
	       "mab-allocations                                   -                    -\n"
	       "l3-epoch                                          -                    -\n"
	       "l3-sampled-dram-latency-cycles                    -                    -\n"
	       "l3-sampled-dram-requests                          -                    -\n"
	       "prefetch-disabled                                 -                    -\n"
	       "prefetch-mixed                                    -                    -\n"
	       "prefetch-changed                                  -                    -\n"
	       "channel 0 read-bytes                   600000000000        1500000000000\n"
	       "channel 0 write-bytes                  250000000000         600000000000\n"
	       "channel 1 read-bytes                   400000000000                    -\n"
	       "channel 1 write-bytes                  150000000000                    -\n"
	       "channel 2 read-bytes                              -         500000000000\n"
	       "channel 2 write-bytes                             -         400000000000\n",
	       "snapshot text: counters as rows, sockets as columns, '-' when absent");
	free(out);
	free(err);

	rc = snapshot_case(msgs, 2, true, true, &out, &err);
	ok(rc == MDC_EXIT_OK && !*err, "snapshot json: exit 0, nothing on stderr");
	is_str(out,
	       "[{\"socket\":0,\"time_ns\":1000000000000,\"imc_epoch\":1,"
	       "\"read_bytes\":1000000000000,\"write_bytes\":400000000000,"
	       "\"core_epoch\":1,\"nr_cpus\":28,\"instructions\":2000000000000,"
	       "\"cycles\":4000000000000,\"ref_cycles\":5000000000000,"
	       "\"l1d_pend_miss\":900000000000,\"l1_miss\":3000000000,"
	       "\"lfb_hit\":1500000000,\"offcore_dram_reads\":1000000000,"
	       "\"channels\":[{\"id\":0,\"read_bytes\":600000000000,\"write_bytes\":250000000000},"
	       "{\"id\":1,\"read_bytes\":400000000000,\"write_bytes\":150000000000}]},"
	       "{\"socket\":1,\"time_ns\":1000000001000,\"imc_epoch\":1,"
	       "\"read_bytes\":2000000000000,\"write_bytes\":1000000000000,"
	       "\"channels\":[{\"id\":0,\"read_bytes\":1500000000000,\"write_bytes\":600000000000},"
	       "{\"id\":2,\"read_bytes\":500000000000,\"write_bytes\":400000000000}]}]\n",
	       "snapshot json: snake_case spec names, absent counters absent, channel arrays");
	free(out);
	free(err);

	rc = snapshot_case(msgs + 1, 1, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK && !strstr(out, "channel"),
	   "snapshot json: no channel key without --channels");
	free(out);
	free(err);

	/* the prefetch state: masks say so in their key, the flag is a bool */
	nlh = reply_start(buf2);
	mnl_attr_put_u32(nlh, SA(SOCKET), 3);
	mnl_attr_put_u32(nlh, SA(PREFETCH_DISABLED), 5);
	mnl_attr_put_u32(nlh, SA(PREFETCH_MIXED), 2);
	mnl_attr_put_u8(nlh, SA(PREFETCH_CHANGED), 1);
	msgs[1] = nlh;
	rc = snapshot_case(msgs + 1, 1, true, false, &out, &err);
	is_str(out, "[{\"socket\":3,\"prefetch_disabled_mask\":5,"
	       "\"prefetch_mixed_mask\":2,\"prefetch_changed\":true}]\n",
	       "snapshot json: prefetch bitmasks end in _mask, prefetch_changed is a bool");
	free(out);
	free(err);

	rc = snapshot_case(msgs, 0, true, false, &out, &err);
	ok(rc == MDC_EXIT_OK, "snapshot json: no socket is no error");
	is_str(out, "[]\n", "snapshot json: no socket is an empty array");
	free(out);
	free(err);

	nlh = reply_start(buf2);
	mnl_attr_put_u32(nlh, SA(SOCKET), 0);
	mnl_attr_put_u16(nlh, SA(CYCLES), 5);
	msgs[1] = nlh;
	rc = snapshot_case(msgs, 2, false, false, &out, &err);
	ok(rc == MDC_EXIT_KERNEL && !*out,
	   "snapshot: a malformed reply exits 5 and prints nothing");
	is_str(err, "memdiagctl: snapshot: malformed snapshot reply from the memdiag module: attribute cycles (type 11) has the wrong size\n",
	       "snapshot: the malformed attribute is named");
	free(out);
	free(err);
}
