#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbox-util.h"
#include "mlq.h"
#include "tap.h"

#define S_RE	(1 << 0)
#define S_FWD	(1 << 1)
#define S_PATCH (1 << 2)
#define S_RFC	(1 << 3)
#define S_PULL	(1 << 4)

struct subj_case {
	const char
	    *file; /* under ../shared, or the subject itself for hand cases */
	const char *msgid;
	const char *title;
	const char *prefix;
	int version, index, total;
	unsigned flags;
	int revert_depth;
	const char *reverted;
};

/* Real subjects, read in place from the corpus by Message-Id. */
static const struct subj_case corpus_cases[] = {
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210406010025.90549-1-haiyue.wang@intel.com>",
	    "Enable Intel VF RSS", "net-next", 1, 0, 6, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210413004844.32462-5-haiyue.wang@intel.com>",
	    "iavf: Support for modifying TCP RSS flow hashing", "net-next", 3,
	    4, 6, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<c30428155948b44cf08aa438db8bebff67730207.camel@intel.com>",
	    "ice: fix memory leak of aRFS after resuming from suspend", "net",
	    2, 0, 0, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<MW3PR11MB4748BCD0B7C9E4EBEE767F74EB759@MW3PR11MB4748.namprd11.prod.outlook.com>",
	    "i40e: Fix sparse error: 'vsi->netdev' could be null", "net", 1, 0,
	    0, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210409095305.542546686@linuxfoundation.org>",
	    "platform/x86: intel_pmc_core: Ignore GBE LTR on Tiger Lake platforms",
	    "5.10", 1, 22, 41, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210411055335.7111-1-rdunlap@infradead.org>",
	    "csky: change a Kconfig symbol name to fix e1000 build error", "",
	    1, 0, 0, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox", "<20210412162846.42706d99@carbon>",
	    "igb: Fix XDP with PTP enabled", "net", 1, 0, 0,
	    S_RE | S_PATCH | S_RFC, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210413190345.GA304933@embeddedor>",
	    "ixgbe: Fix out-bounds warning in ixgbe_host_interface_command()",
	    "next", 1, 0, 0, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<60659892.2tbLhs34Br2D9Vsp%lkp@intel.com>",
	    "BUILD SUCCESS 7be4e40d9936a3ceedd29a92d867ade2724b4f18", "", 1, 0,
	    0, 0, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210406114734.0e00cb2f@kicinski-fedora-pc1c0hjn.dhcp.thefacebook.com>",
	    "netconsole triggers warning in netpoll_poll_dev", "", 1, 0, 0,
	    S_RE, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<CO1PR11MB5105D33940A288FD2120F695FA749@CO1PR11MB5105.namprd11.prod.outlook.com>",
	    "ice: reduce scope of variable", "S58", 1, 13, 13, S_RE | S_PATCH,
	    0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210416134054.58330-1-eryk.roch.rybak@intel.com>",
	    "i40e: Fix changing previously set num_queue_pairs for PFs", "net",
	    2, 1, 2, S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<MW3PR11MB4748FAECF13CAF958B57A9B5EB739@MW3PR11MB4748.namprd11.prod.outlook.com>",
	    "ixgbe: Fix NULL pointer dereference in ethtool loopback test",
	    "net", 1, 0, 0, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<1e3a6124-879c-7b4f-3804-30d323ca1fc7@linux.intel.com>",
	    "igc: enable auxiliary PHC functions for the i225", "next-queue", 2,
	    2, 2, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<20210412144107.3659411-1-sasha.neftin@intel.com>",
	    "igc: Update driver to use ethtool_sprintf", "", 1, 1, 1, S_PATCH,
	    0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox",
	    "<8fd160b556fc4d45bff2d607918aad33@huawei.com>",
	    "ice: Re-organizes reqstd/avail {R, T}XQ check/code for efficiency+readability",
	    "net", 1, 0, 0, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/iwl-2021-04.mbox", "<20210423130427.1bbe4df2@carbon>",
	    "i40e: fix broken XDP support", "intel-net", 1, 0, 0,
	    S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20191001080253.6135-2-icenowy@aosc.io>",
	    "Revert \"drm/sun4i: dsi: Change the start delay calculation\"", "",
	    1, 1, 3, S_PATCH, 1,
	    "drm/sun4i: dsi: Change the start delay calculation" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<CAMty3ZDW4XHyW+6XL_RSVHqTSk79-r749pa0n5e6VbUzowAsiw@mail.gmail.com>",
	    "Revert \"drm/sun4i: dsi: Rework a bit the hblk calculation\"", "",
	    1, 3, 3, S_RE | S_PATCH, 1,
	    "drm/sun4i: dsi: Rework a bit the hblk calculation" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20191002112651.100504-1-mripard@kernel.org>",
	    "ARM: dts: sunxi: Revert phy-names removal for ECHI and OHCI", "",
	    1, 1, 2, S_PATCH, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20191106104918.26397-3-ardb@kernel.org>",
	    "Revert \"ARM: 8857/1: efi: enable CP15 DMB instructions before cleaning the cache\"",
	    "", 1, 2, 2, S_PATCH, 1,
	    "ARM: 8857/1: efi: enable CP15 DMB instructions before cleaning the cache" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20200214161715.18113-77-sashal@kernel.org>",
	    "Revert \"tty/serial: atmel: fix out of range clock divider handling\"",
	    "AUTOSEL 4.14", 1, 77, 186, S_PATCH, 1,
	    "tty/serial: atmel: fix out of range clock divider handling" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20200117144010.11149-2-ykaukab@suse.de>",
	    "Revert \"drivers/hwtracing: make coresight-* explicitly non-modular\"",
	    "", 1, 1, 15, S_PATCH | S_RFC, 1,
	    "drivers/hwtracing: make coresight-* explicitly non-modular" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<011a01d5c51d$d7482290$85d867b0$@samsung.com>",
	    "Revert \"net: stmmac: platform: Fix MDIO init for platforms without PHY\"",
	    "net", 1, 0, 0, S_RE | S_PATCH, 1,
	    "net: stmmac: platform: Fix MDIO init for platforms without PHY" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20200227104212.12562-3-m.felsch@pengutronix.de>",
	    "Partially Revert \"usb: chipidea: host: turn on vbus before add hcd if early vbus on is required\"",
	    "", 1, 2, 3, S_PATCH, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox", "<9822.1277312573@redhat.com>",
	    "cifs: define inode-level cache object and register them", "", 1, 6,
	    10, S_RE | S_PATCH | S_RFC, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<1259224970-sup-5259@cannonball>",
	    "Makefile: Enable backslash escapes for echo.", "", 1, 0, 0,
	    S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox", "<87sgti1j1w.fsf@FE-laptop>",
	    "ARM: mvebu: arm for v5.2 (#1)", "", 2, 0, 0,
	    S_RE | S_PATCH | S_PULL, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<2024012200-stratus-curdle-fa92@gregkh>", "Revert ef481b262bba",
	    "", 1, 0, 0, S_RE, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<ef3924ad-7534-bb14-7a71-8c60f03aa8d6@canonical.com>",
	    "NAK: [PATCH][next] crypto: allwinner: fix spelling mistake \"recommandation\" -> \"recommendation\"",
	    "", 1, 0, 0, 0, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20190827195810.5748AD02CE9@fitzroy.sirena.org.uk>",
	    "Applied \"ASoC: sun4i: Revert A83t description\" to the asoc tree",
	    "", 1, 0, 0, 0, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<AM0PR04MB4211508CC25111598527757A80350@AM0PR04MB4211.eurprd04.prod.outlook.com>",
	    "clk: imx: scu: add parsing clocks from device tree support", "", 2,
	    0, 2, S_RE | S_PATCH, 0, NULL },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<3fad0b95-fe97-8c4a-3ca9-3ed2a9fa2134@lenovo.com>",
	    "Revert \"e1000e: Add handshake with the CSME to support S0ix\"",
	    "", 1, 3, 3, S_RE | S_PATCH, 1,
	    "e1000e: Add handshake with the CSME to support S0ix" },
	{ "corpus/lists/tags-and-reverts.mbox",
	    "<20220613145133.GA701092@bhelgaas>",
	    "commit 1d71eb53e451 (\"Revert \"PCI: Make pci_enable_ptm() private\"\")",
	    "5.10", 1, 1, 2, S_RE | S_PATCH, 0, NULL },
	{ "corpus/patchwork-mail/series/mercurial-cover-letter.mbox",
	    "<patchbomb.1485159385@nuevo>", "Sample Mercurial patches", "", 1,
	    0, 2, S_PATCH, 0, NULL },
	{ "corpus/patchwork-mail/series/base-extra-patches.mbox",
	    "<1473632524-8585-4-git-send-email-stephenfinucane@gmail.com>",
	    "test: Remove Markdown formatting", "", 1, 3, 2, S_PATCH, 0, NULL },
	{ "corpus/patchwork-mail/series/base-no-references-no-cover.mbox",
	    "<790af26b-7055-7997-2080-f967aef2d26d@linux.vnet.ibm.com>",
	    "powerpc/dlpar: Correct display of hot-add/hot-remove CPUs and memory",
	    "", 1, 0, 2, S_PATCH, 0, NULL },
	{ "corpus/patchwork-mail/series/base-different-versions.mbox",
	    "<20170613191725.26625-5-f.fainelli@gmail.com>",
	    "net: dsa: Introduce dsa_get_cpu_port()", "", 1, 4, 4, S_PATCH, 0,
	    NULL },
	{ "corpus/patchwork-mail/series/mercurial-cover-letter.mbox",
	    "<b3d2e8cce78c04dbf6f2.1485159387@nuevo>",
	    "tests: work around FreeBSD's unzip having slightly different output",
	    "", 1, 2, 2, S_PATCH, 0, NULL },
};

/* The seeds: the umn.edu cover letter and the eight reverts. */
static const struct subj_case seed_cases[] = {
	{ "seeds/001-cover-revertion-of-all-of-the-umn-edu-commits.txt", NULL,
	    "Revertion of all of the umn.edu commits", "", 1, 0, 190, S_PATCH,
	    0, NULL },
	{ "seeds/002-patch-revert-net-rds-avoid-potential-use-after-free-in-rds-sen.patch",
	    NULL,
	    "Revert \"net/rds: Avoid potential use after free in rds_send_remove_from_sock\"",
	    "", 1, 1, 190, S_PATCH, 1,
	    "net/rds: Avoid potential use after free in rds_send_remove_from_sock" },
	{ "seeds/003-patch-revert-alsa-usx2y-fix-a-double-free-bug.patch", NULL,
	    "Revert \"ALSA: usx2y: fix a double free bug\"", "", 1, 80, 190,
	    S_PATCH, 1, "ALSA: usx2y: fix a double free bug" },
	{ "seeds/004-patch-revert-audit-fix-a-memory-leak-bug.patch", NULL,
	    "Revert \"audit: fix a memory leak bug\"", "", 1, 85, 190, S_PATCH,
	    1, "audit: fix a memory leak bug" },
	{ "seeds/005-patch-revert-udf-fix-an-uninitialized-read-bug-and-remove-dead.patch",
	    NULL,
	    "Revert \"udf: fix an uninitialized read bug and remove dead code\"",
	    "", 1, 87, 190, S_PATCH, 1,
	    "udf: fix an uninitialized read bug and remove dead code" },
	{ "seeds/006-patch-revert-gdrom-fix-a-memory-leak-bug.patch", NULL,
	    "Revert \"gdrom: fix a memory leak bug\"", "", 1, 167, 190, S_PATCH,
	    1, "gdrom: fix a memory leak bug" },
	{ "seeds/007-patch-revert-ethtool-fix-a-missing-check-bug.patch", NULL,
	    "Revert \"ethtool: fix a missing-check bug\"", "", 1, 182, 190,
	    S_PATCH, 1, "ethtool: fix a missing-check bug" },
	{ "seeds/008-patch-revert-yam-fix-a-missing-check-bug.patch", NULL,
	    "Revert \"yam: fix a missing-check bug\"", "", 1, 184, 190, S_PATCH,
	    1, "yam: fix a missing-check bug" },
	{ "seeds/009-patch-revert-net-cxgb3-main-fix-a-missing-check-bug.patch",
	    NULL, "Revert \"net: cxgb3_main: fix a missing-check bug\"", "", 1,
	    185, 190, S_PATCH, 1, "net: cxgb3_main: fix a missing-check bug" },
	{ "seeds/010-patch-sunrpc-add-a-check-for-gss-release-msg.patch", NULL,
	    "SUNRPC: Add a check for gss_release_msg", "", 1, 0, 0, S_PATCH, 0,
	    NULL },
};

/* Hand-written forms: the subject is in .file. */
static const struct subj_case hand_cases[] = {
	{ "[Intel-wired-lan] Re: [PATCH] ice: foo", NULL, "ice: foo", "", 1, 0,
	    0, S_RE | S_PATCH, 0, NULL },
	{ "AW: Re[2]: Fwd: SV:  WG:  multiple    spaces\tand a tab", NULL,
	    "multiple spaces and a tab", "", 1, 0, 0, S_RE | S_FWD, 0, NULL },
	{ "Antw: Odp: R: Ref: VS: Re(3): RE : Fw: x", NULL, "x", "", 1, 0, 0,
	    S_RE | S_FWD, 0, NULL },
	{ "[PATCH v2 3/7] foo", NULL, "foo", "", 2, 3, 7, S_PATCH, 0, NULL },
	{ "[PATCH net-next v3 0/5] foo", NULL, "foo", "net-next", 3, 0, 5,
	    S_PATCH, 0, NULL },
	{ "[RFC PATCH] foo", NULL, "foo", "", 1, 0, 0, S_PATCH | S_RFC, 0,
	    NULL },
	{ "[RFC] foo", NULL, "foo", "", 1, 0, 0, S_PATCH | S_RFC, 0, NULL },
	{ "[RFC/PATCH 1/3] foo", NULL, "foo", "", 1, 1, 3, S_PATCH | S_RFC, 0,
	    NULL },
	{ "[PATCHv2 03/07] foo", NULL, "foo", "", 2, 3, 7, S_PATCH, 0, NULL },
	{ "[PATCH V12] foo", NULL, "foo", "", 12, 0, 0, S_PATCH, 0, NULL },
	{ "[PATCH v2] [net] foo", NULL, "foo", "net", 2, 0, 0, S_PATCH, 0,
	    NULL },
	{ "[PATCH] [v3] foo", NULL, "foo", "", 3, 0, 0, S_PATCH, 0, NULL },
	{ "[GIT PULL] nfsd changes for 5.13", NULL, "nfsd changes for 5.13", "",
	    1, 0, 0, S_PATCH | S_PULL, 0, NULL },
	{ "GIT PULL: nfs fixes", NULL, "GIT PULL: nfs fixes", "", 1, 0, 0,
	    S_PULL, 0, NULL },
	{ "[PATCH] foo [bar] baz", NULL, "foo [bar] baz", "", 1, 0, 0, S_PATCH,
	    0, NULL },
	{ "Revert \"Revert \"X\"\"", NULL, "Revert \"Revert \"X\"\"", "", 1, 0,
	    0, 0, 2, "Revert \"X\"" },
	{ "Revert \"Revert \"Revert \"X\"\"\"", NULL,
	    "Revert \"Revert \"Revert \"X\"\"\"", "", 1, 0, 0, 0, 3,
	    "Revert \"Revert \"X\"\"" },
	{ "Revert \"foo\" again", NULL, "Revert \"foo\" again", "", 1, 0, 0, 0,
	    1, "foo" },
	{ "Revert: \"foo bar\"", NULL, "Revert: \"foo bar\"", "", 1, 0, 0, 0, 1,
	    "foo bar" },
	{ "Reapply \"foo\"", NULL, "Reapply \"foo\"", "", 1, 0, 0, 0, 0, NULL },
	{ "[PATCH 2/2] Revert \"net: a very long title that was cut", NULL,
	    "Revert \"net: a very long title that was cut", "", 1, 2, 2,
	    S_PATCH, 1, "net: a very long title that was cut" },
	{ "Revert foo", NULL, "Revert foo", "", 1, 0, 0, 0, 0, NULL },
	{ "", NULL, "", "", 1, 0, 0, 0, 0, NULL },
	{ "Re:", NULL, "", "", 1, 0, 0, S_RE, 0, NULL },
	{ "[PATCH", NULL, "[PATCH", "", 1, 0, 0, 0, 0, NULL },
	{ "Reply: not a marker", NULL, "Reply: not a marker", "", 1, 0, 0, 0, 0,
	    NULL },
};

static void
check(const struct mlq_subject *s, const struct subj_case *c, const char *what)
{
	is_str(s->title, c->title, "%s: title", what);
	is_str(s->prefix, c->prefix, "%s: prefix", what);
	is_int(s->version, c->version, "%s: version", what);
	is_int(s->index, c->index, "%s: index", what);
	is_int(s->total, c->total, "%s: total", what);
	is_int(s->is_reply, (c->flags & S_RE) != 0, "%s: is_reply", what);
	is_int(s->is_forward, (c->flags & S_FWD) != 0, "%s: is_forward", what);
	is_int(s->has_patch_tag, (c->flags & S_PATCH) != 0, "%s: has_patch_tag",
	    what);
	is_int(s->is_rfc, (c->flags & S_RFC) != 0, "%s: is_rfc", what);
	is_int(s->is_pull, (c->flags & S_PULL) != 0, "%s: is_pull", what);
	is_int(s->revert_depth, c->revert_depth, "%s: revert_depth", what);
	if (c->reverted == NULL)
		ok(s->reverted == NULL, "%s: reverted is NULL", what);
	else
		is_str(s->reverted, c->reverted, "%s: reverted", what);
}

/* The Subject: of message msgid in an mbox, or of a single message. */
static bool
subject_of(const char *shared, const struct subj_case *c, struct mlq_buf *out)
{
	struct mlq_buf id;
	struct tmail *m, one;
	char path[4096], *data;
	size_t len, n, i;
	bool found = false;

	snprintf(path, sizeof(path), "%s/%s", shared, c->file);
	if ((data = tmail_read(path, &len)) == NULL)
		return false;
	if (c->msgid == NULL) {
		tmail_one(data, len, &one);
		found = tmail_header(&one, "Subject", out);
		free(data);
		return found;
	}
	mlq_buf_init(&id);
	m = tmail_split_mbox(data, len, &n);
	for (i = 0; i < n && !found; i++)
		if (tmail_header(&m[i], "Message-Id", &id) &&
		    strcmp(id.data, c->msgid) == 0)
			found = tmail_header(&m[i], "Subject", out);
	mlq_buf_release(&id);
	free(m);
	free(data);
	return found;
}

static void
run_file_cases(const char *shared, const struct subj_case *cases, size_t n)
{
	struct mlq_subject s;
	struct mlq_arena *a = mlq_arena_new();
	struct mlq_buf b;
	size_t i;

	mlq_buf_init(&b);
	for (i = 0; i < n; i++) {
		if (!ok(subject_of(shared, &cases[i], &b), "found %s %s",
			cases[i].file, cases[i].msgid ? cases[i].msgid : ""))
			continue;
		is_int(mlq_subject_parse(b.data, a, &s, NULL), MLQ_OK,
		    "parse '%s'", b.data);
		check(&s, &cases[i], b.data);
	}
	mlq_buf_release(&b);
	mlq_arena_free(a);
}

static void
run_hand_cases(void)
{
	struct mlq_subject s;
	struct mlq_arena *a = mlq_arena_new();
	size_t i;

	for (i = 0; i < sizeof(hand_cases) / sizeof(hand_cases[0]); i++) {
		is_int(mlq_subject_parse(hand_cases[i].file, a, &s, NULL),
		    MLQ_OK, "parse '%s'", hand_cases[i].file);
		check(&s, &hand_cases[i], hand_cases[i].file);
	}
	mlq_subject_parse("Re: [PATCH v2]  SUNRPC:   Add a Check", a, &s, NULL);
	is_str(s.norm, "sunrpc: add a check", "norm folds case and space");
	mlq_subject_parse("[PATCH] SUNRPC: Add a check", a, &s, NULL);
	is_str(s.norm, "sunrpc: add a check", "norm matches across versions");
	mlq_subject_parse("Fwd: Caf\xc3\xa9 \xc3\x89T\xc3\x89", a, &s, NULL);
	is_str(s.norm, "caf\xc3\xa9 \xc3\x89t\xc3\x89",
	    "norm lower-cases ASCII only, UTF-8 intact");
	is_int(mlq_subject_parse(NULL, a, &s, NULL), MLQ_OK, "NULL subject");
	is_str(s.title, "", "NULL subject: empty title");
	mlq_arena_free(a);
	/* The quick reading of a stored subject that lists of versions use. */
	ok(mlq_subject_tagged_rfc("[RFC PATCH] foo: bar"), "[RFC PATCH] is RFC");
	ok(mlq_subject_tagged_rfc("[PATCH rfc 2/5] foo: bar"),
	    "[PATCH rfc 2/5] is RFC");
	ok(!mlq_subject_tagged_rfc("[PATCH] nfsd: follow RFC 8881"),
	    "RFC in the title is not");
	ok(!mlq_subject_tagged_rfc("Re: [RFC PATCH] foo"), "a reply is not");
	ok(!mlq_subject_tagged_rfc(NULL), "NULL is not");
}

int
main(void)
{
	const char *shared = tap_shared_dir();

	if (shared == NULL)
		plan_skip_all("../shared (seeds, corpus) is missing");
	run_hand_cases();
	run_file_cases(shared, seed_cases,
	    sizeof(seed_cases) / sizeof(seed_cases[0]));
	run_file_cases(shared, corpus_cases,
	    sizeof(corpus_cases) / sizeof(corpus_cases[0]));
	return done_testing();
}
