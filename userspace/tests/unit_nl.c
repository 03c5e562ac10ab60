// SPDX-License-Identifier: GPL-2.0
/* unit_nl.c - unit tests: netlink plumbing, against the kernel's own nlctrl family (nl.c). */

#include "helpers.h"
#include "units.h"

/* the unit: "unit.bin -f nl" runs its tests alone */
FIXTURE(nl) {};
FIXTURE_SETUP(nl) {}
FIXTURE_TEARDOWN(nl) {}

TEST_F(nl, nl)
{
	char long_name[41];
	struct nl_family fam;
	struct nl_error e;
	struct nlmsghdr *req, *reply;
	const struct nl_mcgrp *grp;
	struct nl nl;
	int zero = 0, rc;

	if (nl_open(&nl, &e) < 0) {
		skip("nl: netlink tests", strerror(e.err));
		return;
	}

	rc = nl_family_get(&nl, "nlctrl", &fam, &e);
	ok(rc == 0 && fam.id == GENL_ID_CTRL && !strcmp(fam.name, "nlctrl") &&
	   fam.version >= 1 && fam.hdrsize == 0,
	   "nl: resolves nlctrl (id %u, version %u)", fam.id, fam.version);
	ok(nl_family_has_op(&fam, CTRL_CMD_GETFAMILY) &&
	   !nl_family_has_op(&fam, 0xff),
	   "nl: family ops are listed (%zu ops)", fam.nr_ops);
	grp = nl_family_mcgrp(&fam, "notify");
	ok(grp && grp->id && !nl_family_mcgrp(&fam, "nonexistent"),
	   "nl: multicast group ids are listed (notify = %u)",
	   grp ? grp->id : 0);
	ok(grp && nl_subscribe(&nl, grp->id, &e) == 0,
	   "nl: can subscribe to a multicast group");
	nl_family_free(&fam);

	rc = nl_family_get(&nl, "mdc-nosuchfam", &fam, &e);
	ok(rc < 0 && e.kernel && e.err == ENOENT,
	   "nl: an absent family is ENOENT from the kernel (%s)",
	   strerror(e.err));

	/*
	 * An over-long family name breaks nlctrl's policy: the kernel's
	 * extack must come back with the offset of that attribute, which
	 * follows a valid one so the lookup can't just take the first.
	 */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	req = nl_msg_start(&nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_u16(req, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, long_name);
	rc = nl_do(&nl, req, &reply, &e);
	ok(rc < 0 && !reply && e.kernel && e.err == EINVAL && e.msg[0] &&
	   e.bad_type == CTRL_ATTR_FAMILY_NAME && !e.bad_inside,
	   "nl: extack message and offending attribute decoded (\"%s\", type %d)",
	   e.msg, e.bad_type);

	/* without CAP_ACK the request is echoed before the TLVs */
	mnl_socket_setsockopt(nl.sock, NETLINK_CAP_ACK, &zero, sizeof(zero));
	req = nl_msg_start(&nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_u16(req, CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, long_name);
	rc = nl_do(&nl, req, &reply, &e);
	ok(rc < 0 && e.err == EINVAL && e.msg[0] &&
	   e.bad_type == CTRL_ATTR_FAMILY_NAME,
	   "nl: extack decoded past an echoed request too");

	nl_close(&nl);
}

/* A notification queued before a reply must not be taken for the reply. */
TEST_F(nl, nl_filter)
{
	struct fake_kernel k;
	struct nl_family fam;
	struct nl_error e;
	struct snap a, b;
	struct nl nl;
	int rc;

	if (nl_open(&nl, &e) < 0) {
		skip("nl: notifications are not replies", strerror(e.err));
		return;
	}
	k.to = nl.portid;
	k.tx = mnl_socket_open(NETLINK_GENERIC);
	if (!k.tx || mnl_socket_bind(k.tx, 0, MNL_SOCKET_AUTOPID) < 0) {
		skip("nl: notifications are not replies", "no second socket");
		goto out;
	}
	canned_pair(0, &a, &b);
	rc = fake_send(&k, &a, GENL_ID_CTRL);
	if (rc < 0) {
		skip("nl: notifications are not replies",
		     "sending to a netlink socket needs CAP_NET_ADMIN");
		goto out;
	}
	fake_send(&k, &b, 0x1f);
	rc = nl_family_get(&nl, "nlctrl", &fam, &e);
	ok(rc == 0 && fam.id == GENL_ID_CTRL && !strcmp(fam.name, "nlctrl"),
	   "nl: notifications (sequence 0) queued before a reply are skipped");
	if (rc == 0)
		nl_family_free(&fam);
out:
	if (k.tx)
		mnl_socket_close(k.tx);
	nl_close(&nl);
}
