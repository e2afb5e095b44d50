// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of bot/mail/subject.c: subject tags ([PATCH v2 3/7], RFC,
 * RESEND, prefixes) and the version names written back into reviews.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../bot/mail/subject.h"

#define O SUBJ_OTHER
#define P SUBJ_PATCH
#define C SUBJ_COVER
#define R SUBJ_REPLY

struct subject_case {
	const char *in;
	enum subject_kind kind;
	int version, minor, part, total;
	int rfc, resend, bad;
	const char *prefix;
	const char *normalised;
};

/*
 * Real subjects: the corpus (/work/shared/corpus, lists linux-leds and
 * driverdev-devel, an OpenWrt patch queue), the header's examples,
 * common list shapes, then hostile ones.
 */
static const struct subject_case cases[] = {
	/* corpus */
	{ "[PATCH] nvmem: core: support \"mac-base\" fixed layout cells",
	  P, 1, 0, 1, 1, 0, 0, 0, "", "nvmem: core: support \"mac-base\" fixed layout cells" },
	{ "[PATCH 07/18] leds: gpio: switch to",
	  P, 1, 0, 7, 18, 0, 0, 0, "", "leds: gpio: switch to" },
	{ "[PATCH v3 12/18] wilc1000: add wlan.h",
	  P, 3, 0, 12, 18, 0, 0, 0, "", "wilc1000: add wlan.h" },
	{ "[PATCH v5 13/17] wilc1000: add wlan.c",
	  P, 5, 0, 13, 17, 0, 0, 0, "", "wilc1000: add wlan.c" },
	{ "[PATCH RFC] staging: kpc2000: use int for",
	  P, 1, 0, 1, 1, 1, 0, 0, "RFC", "staging: kpc2000: use int for" },
	{ "[PATCH v1 1/1] leds: Unexport of_led_get()",
	  P, 1, 0, 1, 1, 0, 0, 0, "", "leds: Unexport of_led_get()" },
	{ "[PATCH 4.9] staging: android: ion: fix page is NULL",
	  P, 1, 0, 1, 1, 0, 0, 0, "4.9", "staging: android: ion: fix page is NULL" },
	{ "[PATCH v10] staging: fbtft: add tearing signal detect",
	  P, 10, 0, 1, 1, 0, 0, 0, "", "staging: fbtft: add tearing signal detect" },
	{ "[PATCH v2 79/79] media: hantro: document the usage of",
	  P, 2, 0, 79, 79, 0, 0, 0, "", "media: hantro: document the usage of" },
	{ "[PATCH 06/10] [v4] leds: gpio: make legacy gpiolib interface optional",
	  P, 4, 0, 6, 10, 0, 0, 0, "", "leds: gpio: make legacy gpiolib interface optional" },
	{ "[RFC net-next 7/7] net: dsa: mv88e6xxx: Request assisted learning on CPU port",
	  P, 1, 0, 7, 7, 1, 0, 0, "RFC net-next",
	  "net: dsa: mv88e6xxx: Request assisted learning on CPU port" },
	{ "[PATCH RFT/RFC v2 25/47] staging: media: zoran: zoran does not",
	  P, 2, 0, 25, 47, 1, 0, 0, "RFT/RFC", "staging: media: zoran: zoran does not" },
	{ "[PATCH RFC v3 3/9] staging: most: core: remove noisy log messages",
	  P, 3, 0, 3, 9, 1, 0, 0, "RFC", "staging: most: core: remove noisy log messages" },
	{ "[PATCH] Revert \"Revert \"Revert \"driver core: Set fw_devlink=on by",
	  P, 1, 0, 1, 1, 0, 0, 0, "",
	  "Revert \"Revert \"Revert \"driver core: Set fw_devlink=on by" },
	{ "[PATCH net-next v5 1/3] ethtool: Implement ethtool_puts()",
	  P, 5, 0, 1, 3, 0, 0, 0, "net-next", "ethtool: Implement ethtool_puts()" },
	{ "[PATCH AUTOSEL 5.6 16/62] most: core: use function subsys_initcall()",
	  P, 1, 0, 16, 62, 0, 0, 0, "AUTOSEL 5.6", "most: core: use function subsys_initcall()" },
	{ "[PATCH 05/15] net: dsa: mt7530: refactor MT7530_MFC and MT7531_CFC,",
	  P, 1, 0, 5, 15, 0, 0, 0, "", "net: dsa: mt7530: refactor MT7530_MFC and MT7531_CFC," },
	{ "[PATCH v7 8/8] Input: mtk-pmic-keys: add MT6357 support",
	  P, 7, 0, 8, 8, 0, 0, 0, "", "Input: mtk-pmic-keys: add MT6357 support" },
	{ "mtd: bcm47xxpart: detect T_Meter partition",
	  O, 1, 0, 1, 1, 0, 0, 0, "", "mtd: bcm47xxpart: detect T_Meter partition" },
	{ " hack: net: fq_codel: tune defaults for small devices",
	  O, 1, 0, 1, 1, 0, 0, 0, "", "hack: net: fq_codel: tune defaults for small devices" },
	/* the header's examples */
	{ "[PATCH] foo: bar", P, 1, 0, 1, 1, 0, 0, 0, "", "foo: bar" },
	{ "[PATCH v3 2/7] foo: bar", P, 3, 0, 2, 7, 0, 0, 0, "", "foo: bar" },
	{ "[RFC PATCH net-next v2 0/5] foo",
	  C, 2, 0, 0, 5, 1, 0, 0, "RFC net-next", "foo" },
	{ "[PATCH 1/1] foo", P, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[PATCH v5.1 3/7] foo", P, 5, 1, 3, 7, 0, 0, 0, "", "foo" },
	{ "[PATCH V2] foo", P, 2, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[PATCHv2 1/3] foo", P, 2, 0, 1, 3, 0, 0, 0, "", "foo" },
	{ "[PATCH-v2] foo", P, 2, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[patch] foo", P, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[PATCH -next v2] foo", P, 2, 0, 1, 1, 0, 0, 0, "-next", "foo" },
	{ "[PATCH RESEND v2] foo", P, 2, 0, 1, 1, 0, 1, 0, "", "foo" },
	{ "[net-next PATCH v2 03/10] foo", P, 2, 0, 3, 10, 0, 0, 0, "net-next", "foo" },
	{ "[PATCH 2/7 v3] foo", P, 3, 0, 2, 7, 0, 0, 0, "", "foo" },
	{ "[PATCH v2 net] foo", P, 2, 0, 1, 1, 0, 0, 0, "net", "foo" },
	{ "[PATCH] [net] foo", P, 1, 0, 1, 1, 0, 0, 0, "net", "foo" },
	{ "[PATCH v2,net-next,1/2] foo", P, 2, 0, 1, 2, 0, 0, 0, "net-next", "foo" },
	{ "[PATCH 5.10 012/345] foo", P, 1, 0, 12, 345, 0, 0, 0, "5.10", "foo" },
	{ "[Intel-wired-lan] [PATCH iwl-next v3 2/4] ice: foo",
	  P, 3, 0, 2, 4, 0, 0, 0, "Intel-wired-lan iwl-next", "ice: foo" },
	/* other clients and tools (issue 21) */
	{ "[PATCH 0 of 2] Sample Mercurial patches", C, 1, 0, 0, 2, 0, 0, 0, "",
	  "Sample Mercurial patches" },
	{ "[PATCH 1 of 2] contrib: fix check-commit", P, 1, 0, 1, 2, 0, 0, 0, "",
	  "contrib: fix check-commit" },
	{ "[PATCH v3 2 of 12] foo", P, 3, 0, 2, 12, 0, 0, 0, "", "foo" },
	{ "[PATCH 1 of] foo", P, 1, 0, 1, 1, 0, 0, 0, "1 of", "foo" },
	{ "[net,v2,1/2] net: dsa: foo", P, 2, 0, 1, 2, 0, 0, 0, "net",
	  "net: dsa: foo" },
	{ "[v2,0/2] cover", C, 2, 0, 0, 2, 0, 0, 0, "", "cover" },
	{ "[1/2] foo", P, 1, 0, 1, 2, 0, 0, 0, "", "foo" },
	{ "[PATCH1/8] foo", P, 1, 0, 1, 8, 0, 0, 0, "", "foo" },
	/* Patchwork's test_parser.py test_series_markers */
	{ "[bar 1/2] foo", P, 1, 0, 1, 2, 0, 0, 0, "bar", "foo" },
	{ "[bar 0/12] foo", C, 1, 0, 0, 12, 0, 0, 0, "bar", "foo" },
	{ "[bar 1 of 2] foo", P, 1, 0, 1, 2, 0, 0, 0, "bar", "foo" },
	{ "[bar 0 of 12] foo", C, 1, 0, 0, 12, 0, 0, 0, "bar", "foo" },
	{ "[PATCH1 of 8] foo", P, 1, 0, 1, 8, 0, 0, 0, "", "foo" },
	{ "[PATCH100/123] foo", P, 1, 0, 100, 123, 0, 0, 0, "", "foo" },
	{ "[v2PATCH1/4] foo", P, 2, 0, 1, 4, 0, 0, 0, "", "foo" },
	{ "[v2 PATCH1/4] foo", P, 2, 0, 1, 4, 0, 0, 0, "", "foo" },
	{ "[v2] [PATCH1/4] foo", P, 2, 0, 1, 4, 0, 0, 0, "", "foo" },
	{ "[PATCH,1/2] meep", P, 1, 0, 1, 2, 0, 0, 0, "", "meep" },
	{ "[PATCH1] foo", O, 1, 0, 1, 1, 0, 0, 0, "PATCH1", "foo" },
	{ "[Patch 2/2]: powerpc/hotplug/mm: Fix hot-add memory node assoc",
	  P, 1, 0, 2, 2, 0, 0, 0, "", "powerpc/hotplug/mm: Fix hot-add memory node assoc" },
	{ "[PATCH]:foo", P, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[GIT PULL]: foo", O, 1, 0, 1, 1, 0, 0, 0, "GIT PULL", ": foo" },
	/* replies: still say what they answer */
	{ "Re: [PATCH v3 2/7] foo: bar", R, 3, 0, 2, 7, 0, 0, 0, "", "foo: bar" },
	{ "RE: [PATCH] foo", R, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "re: re: Re: [PATCH 0/3] foo", R, 1, 0, 0, 3, 0, 0, 0, "", "foo" },
	{ "Re[2]: [PATCH] foo", R, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "AW: [PATCH v2] foo", R, 2, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "Aw: Antw: foo", R, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "Fwd: [PATCH] foo", R, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "Fw: Sv: hello", R, 1, 0, 1, 1, 0, 0, 0, "", "hello" },
	{ "Re : [PATCH] foo", R, 1, 0, 1, 1, 0, 0, 0, "", "foo" },
	{ "[Intel-wired-lan] Re: [PATCH net] foo",
	  R, 1, 0, 1, 1, 0, 0, 0, "Intel-wired-lan net", "foo" },
	{ "Re: hello", R, 1, 0, 1, 1, 0, 0, 0, "", "hello" },
	/* not a patch */
	{ "[GIT PULL] net for 6.9", O, 1, 0, 1, 1, 0, 0, 0, "GIT PULL", "net for 6.9" },
	{ "[ANNOUNCE] v6.9-rt5", O, 1, 0, 1, 1, 0, 0, 0, "ANNOUNCE", "v6.9-rt5" },
	{ "[syzbot] [mm?] KASAN: use-after-free Read in foo",
	  O, 1, 0, 1, 1, 0, 0, 0, "syzbot mm?", "KASAN: use-after-free Read in foo" },
	{ "Revert: foo", O, 1, 0, 1, 1, 0, 0, 0, "", "Revert: foo" },
	{ "Regression: foo", O, 1, 0, 1, 1, 0, 0, 0, "", "Regression: foo" },
	{ "[PATCH] Re: foo", P, 1, 0, 1, 1, 0, 0, 0, "", "Re: foo" },
	/* hostile */
	{ "", O, 1, 0, 1, 1, 0, 0, 0, "", "" },
	{ "   \t  ", O, 1, 0, 1, 1, 0, 0, 0, "", "" },
	{ "[PATCH 1/99999] foo", O, 1, 0, 1, 1, 0, 0, 1, "", "foo" },
	{ "[PATCH 5/3] foo", O, 1, 0, 1, 1, 0, 0, 1, "", "foo" },
	{ "[PATCH 0/0] foo", O, 1, 0, 1, 1, 0, 0, 1, "", "foo" },
	{ "[PATCH 1/99999999999999999999999] foo", O, 1, 0, 1, 1, 0, 0, 1, "", "foo" },
	{ "Re: [PATCH 5/3] foo", O, 1, 0, 1, 1, 0, 0, 1, "", "foo" },
	{ "[PATCH 0001/0002] foo", P, 1, 0, 1, 2, 0, 0, 0, "", "foo" },
	{ "[PATCH v99999] foo", P, 1, 0, 1, 1, 0, 0, 0, "v99999", "foo" },
	{ "[PATCH v0] foo", P, 1, 0, 1, 1, 0, 0, 0, "v0", "foo" },
	{ "[PATCH v2.99999] foo", P, 1, 0, 1, 1, 0, 0, 0, "v2.99999", "foo" },
	{ "[PATCH v999 9999/9999] foo", P, 999, 0, 9999, 9999, 0, 0, 0, "", "foo" },
	{ "[PATCH v2 1/3 foo bar", O, 1, 0, 1, 1, 0, 0, 0, "", "[PATCH v2 1/3 foo bar" },
	{ "[PATCH] [net foo", P, 1, 0, 1, 1, 0, 0, 0, "", "[net foo" },
	{ "[", O, 1, 0, 1, 1, 0, 0, 0, "", "[" },
	{ "[]", O, 1, 0, 1, 1, 0, 0, 0, "", "" },
	{ "[PATCH]", P, 1, 0, 1, 1, 0, 0, 0, "", "" },
	{ "[PATCH v2 3/4]    leds:\t\t\tfoo   bar  \t ", P, 2, 0, 3, 4, 0, 0, 0, "",
	  "leds: foo bar" },
	{ "[PATCH] leds: f\xc3\xbc" "r \xe2\x80\x9cLED\xe2\x80\x9d \xf0\x9f\x92\xa1",
	  P, 1, 0, 1, 1, 0, 0, 0, "", "leds: f\xc3\xbc" "r \xe2\x80\x9cLED\xe2\x80\x9d \xf0\x9f\x92\xa1" },
	{ "[PATCH] foo\r\n bar", P, 1, 0, 1, 1, 0, 0, 0, "", "foo bar" },
	{ "[PATCH] foo\x1b[31m bar", P, 1, 0, 1, 1, 0, 0, 0, "", "foo [31m bar" },
};

static void test_subject__table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct subject_case *t = &cases[i];
		struct subject sj;

		subject_parse(t->in, strlen(t->in), &sj);
		if (sj.kind != t->kind || sj.version != t->version ||
		    sj.version_minor != t->minor || sj.part != t->part ||
		    sj.total != t->total || sj.rfc != t->rfc ||
		    sj.resend != t->resend || sj.bad_numbers != t->bad ||
		    strcmp(sj.prefix, t->prefix) ||
		    strcmp(sj.normalised, t->normalised))
			fail_msg("case %zu \"%s\": got %s v%d.%d %d/%d rfc=%d resend=%d "
				 "bad=%d prefix \"%s\" normalised \"%s\"", i, t->in,
				 subject_kind_name(sj.kind), sj.version,
				 sj.version_minor, sj.part, sj.total, sj.rfc,
				 sj.resend, sj.bad_numbers, sj.prefix,
				 sj.normalised);
	}
	assert_true(i >= 40);
}

static void test_subject__says_whether_a_version_was_given(void **state)
{
	struct subject sj;

	(void)state;
	subject_parse("[PATCH 1/2] foo", 15, &sj);
	assert_int_equal(sj.has_version, 0);
	assert_int_equal(sj.version, 1);
	subject_parse("[PATCH v1 1/2] foo", 18, &sj);
	assert_int_equal(sj.has_version, 1);
	assert_int_equal(sj.version, 1);
	subject_parse("[PATCHv3] foo", 13, &sj);
	assert_int_equal(sj.has_version, 1);
	assert_int_equal(sj.version, 3);
}

static void test_subject__nul_is_space_and_len_is_the_truth(void **state)
{
	static const char s[] = "[PATCH v2] a\0b c";
	struct subject sj;

	(void)state;
	subject_parse(s, sizeof(s) - 1, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	assert_string_equal(sj.normalised, "a b c");
	/* only [0, len) is read */
	subject_parse("[PATCH v2] abcdef", 13, &sj);
	assert_string_equal(sj.normalised, "ab");
	subject_parse("[PATCH v2] abc", 5, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_string_equal(sj.normalised, "[PATC");
	subject_parse(NULL, 0, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_string_equal(sj.normalised, "");
}

static void test_subject__long_subject_is_cut_at_max(void **state)
{
	size_t n = SUBJECT_MAX * 3, i;
	char *s = malloc(n);
	struct subject sj;

	(void)state;
	assert_non_null(s);
	memcpy(s, "[PATCH v4 1/2] ", 15);
	for (i = 15; i < n; i++)
		s[i] = (char)('a' + i % 26);
	subject_parse(s, n, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	assert_int_equal(sj.version, 4);
	assert_int_equal(strlen(sj.normalised), SUBJECT_MAX - 15);
	assert_memory_equal(sj.normalised, s + 15, SUBJECT_MAX - 15);

	/* a UTF-8 sequence cut by the limit is dropped whole */
	memset(s, ' ', n);
	memcpy(s + SUBJECT_MAX - 3, "x\xe2\x80\x9c", 4);
	subject_parse(s, n, &sj);
	assert_string_equal(sj.normalised, "x");
	memcpy(s + SUBJECT_MAX - 2, "\xc3\xbc", 2);
	subject_parse(s, n, &sj);
	assert_string_equal(sj.normalised, "x\xc3\xbc");

	/* a bracket group that never closes within the limit is text */
	memset(s, 'x', n);
	s[0] = '[';
	memcpy(s + 1, "PATCH ", 6);
	s[SUBJECT_MAX + 5] = ']';
	subject_parse(s, n, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_int_equal(strlen(sj.normalised), SUBJECT_MAX);

	/* a group of many tags: prefix is cut at a tag */
	for (i = 0; i + 6 < n; i += 6)
		memcpy(s + i, " tag12", 6);
	memcpy(s, "[PATCH", 6);
	s[2000] = ']';
	subject_parse(s, n, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	assert_true(strlen(sj.prefix) < sizeof(sj.prefix));
	assert_true(strlen(sj.prefix) > sizeof(sj.prefix) - 8);
	assert_int_equal(sj.prefix[strlen(sj.prefix) - 1], '2');
	free(s);
}

static void test_subject__has_numbers_tells_1_of_1_from_none(void **state)
{
	struct subject s;

	(void)state;
	subject_parse("[PATCH 1/1] foo", 15, &s);
	assert_int_equal(s.has_numbers, 1);
	subject_parse("[PATCH] foo", 11, &s);
	assert_int_equal(s.has_numbers, 0);
	subject_parse("[PATCH 5/3] foo", 15, &s);
	assert_int_equal(s.has_numbers, 0);
	subject_parse("[PATCH v2 00/10] foo", 20, &s);
	assert_int_equal(s.has_numbers, 1);
	assert_int_equal(s.kind, SUBJ_COVER);
}

/* [limits] max_series_parts: lower, higher, and never past the ceiling */
static void test_subject__max_parts_lower_and_higher(void **state)
{
	static const char s12[] = "[PATCH v2 3/12] foo";
	static const char big[] = "[PATCH 2/20000] foo";
	static const char huge[] = "[PATCH 2/100000] foo";
	struct subject sj;

	(void)state;
	subject_parse_max(s12, strlen(s12), 12, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	assert_int_equal(sj.total, 12);
	subject_parse_max(s12, strlen(s12), 11, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_int_equal(sj.bad_numbers, 1);
	/* a cover letter counts its N too */
	subject_parse_max("[PATCH 0/12] foo", 16, 11, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_int_equal(sj.bad_numbers, 1);

	subject_parse(big, strlen(big), &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	subject_parse_max(big, strlen(big), SUBJECT_MAX_PARTS, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	subject_parse_max(big, strlen(big), 20000, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	assert_int_equal(sj.part, 2);
	assert_int_equal(sj.total, 20000);

	subject_parse_max(huge, strlen(huge), 1 << 30, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
	assert_int_equal(sj.bad_numbers, 1);
	/* below 1 counts as 1: [PATCH] and 1/1 stay patches */
	subject_parse_max("[PATCH 1/1] foo", 15, 0, &sj);
	assert_int_equal(sj.kind, SUBJ_PATCH);
	subject_parse_max("[PATCH 1/2] foo", 15, 0, &sj);
	assert_int_equal(sj.kind, SUBJ_OTHER);
}

static void test_subject__kind_names(void **state)
{
	(void)state;
	assert_string_equal(subject_kind_name(SUBJ_OTHER), "other");
	assert_string_equal(subject_kind_name(SUBJ_PATCH), "patch");
	assert_string_equal(subject_kind_name(SUBJ_COVER), "cover");
	assert_string_equal(subject_kind_name(SUBJ_REPLY), "reply");
}

static void test_subject__version_name_says_the_minor_only_when_set(void **state)
{
	char b[16];

	(void)state;
	subject_version_name(3, 0, b, sizeof(b));
	assert_string_equal(b, "v3");
	subject_version_name(5, 1, b, sizeof(b));
	assert_string_equal(b, "v5.1");
	subject_version_name(999, 1, b, 4);
	assert_string_equal(b, "v99");
	/* as a tag before M/N: a plain v1 is left out */
	subject_version_tag(1, 0, b, sizeof(b));
	assert_string_equal(b, "");
	subject_version_tag(0, 0, b, sizeof(b));
	assert_string_equal(b, "");
	subject_version_tag(3, 0, b, sizeof(b));
	assert_string_equal(b, "v3 ");
	subject_version_tag(1, 1, b, sizeof(b));
	assert_string_equal(b, "v1.1 ");
	subject_version_tag(5, 2, b, sizeof(b));
	assert_string_equal(b, "v5.2 ");
	/* a subject's version named again as it was written */
	{
		struct subject sj;
		const char *subj = "[PATCH v5.2 1/3] leds: x";

		subject_parse(subj, strlen(subj), &sj);
		subject_version_name(sj.version, sj.version_minor, b, sizeof(b));
		assert_string_equal(b, "v5.2");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject__table),
		cmocka_unit_test(test_subject__says_whether_a_version_was_given),
		cmocka_unit_test(test_subject__nul_is_space_and_len_is_the_truth),
		cmocka_unit_test(test_subject__long_subject_is_cut_at_max),
		cmocka_unit_test(test_subject__has_numbers_tells_1_of_1_from_none),
		cmocka_unit_test(test_subject__max_parts_lower_and_higher),
		cmocka_unit_test(test_subject__kind_names),
		cmocka_unit_test(test_subject__version_name_says_the_minor_only_when_set),
	};

	return cmocka_run_group_tests_name("subject", tests, NULL, NULL);
}
