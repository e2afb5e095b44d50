/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rule table (rules.def): every message type with its severities,
 * category, confidence and one-line description.
 */
#ifndef RB_RULES_H
#define RB_RULES_H

#include <stddef.h>

enum rule_sev {
	SEV_ERROR = 0,
	SEV_WARNING = 1,
	SEV_CHECK = 2,
};

#define SEV_E (1u << SEV_ERROR)
#define SEV_W (1u << SEV_WARNING)
#define SEV_C (1u << SEV_CHECK)

enum rule_cat {
	CAT_SECURITY = 0,
	CAT_UAPI,
	CAT_CORRECTNESS,
	CAT_PROCESS,
	CAT_STYLE,
	CAT__COUNT
};

/*
 * How sure a finding of the type is: certain (a fact about the patch: a
 * security or uapi one makes the review's checklist say "concern") or a
 * question (worth a look, worded "check that ...": never a concern).
 */
enum rule_conf {
	CONF_CERTAIN = 0,
	CONF_QUESTION,
};

/*
 * The checkpatch.pl versions whose rules the checker follows, oldest
 * first (a check's chk_opts.cp_version).  A rule that differs between
 * versions says so where it is defined: its row in rules.def
 * (RULE_V with a CPV_ mask) and, in the code, a test of the version at
 * the one place a condition or message differs (e->cpv >= CP_6_12).
 * Adding a version is an enumerator here, its row in cp_versions[]
 * (rules.c), and the differences (README: "Adding a checkpatch.pl
 * version").
 */
enum cp_version {
	CP_6_1 = 0,
	CP_6_12,
	CP__COUNT
};
#define CP_LATEST	(CP__COUNT - 1)	/* the default */

/* Sets of versions, a bit each: every one, from v on, up to v. */
#define CPV_ALL		((1u << CP__COUNT) - 1)
#define CPV_FROM(v)	(CPV_ALL & ~((1u << CP_##v) - 1))
#define CPV_UPTO(v)	((2u << CP_##v) - 1)

enum rule_id {
#define RULE(name, sevs, cat, conf, desc) R_##name,
#define RULE_V(name, cpv, sevs, cat, conf, desc) R_##name,
#include "checkpatch/rules.def"
#undef RULE
#undef RULE_V
	RULE__COUNT
};

struct rule {
	const char *name;
	unsigned sevs;		/* SEV_E | SEV_W | SEV_C */
	enum rule_cat cat;
	enum rule_conf conf;
	const char *desc;
	/*
	 * The checkpatch.pl versions that have the type (CPV_ bits): CPV_ALL
	 * for most, 0 for reviewbot's own types only.
	 */
	unsigned cpv;
	int own;		/* reviewbot's own type (--extra) */
};

extern const struct rule rule_table[RULE__COUNT];

/* The rule named name[0, n) (case-insensitive), or -1. */
int rule_find(const char *name, size_t n);
const char *rule_sev_name(enum rule_sev sev);	/* "ERROR", "WARNING", "CHECK" */
const char *rule_cat_name(enum rule_cat cat);	/* "security", ... */
int rule_cat_find(const char *name, size_t n);
const char *rule_conf_name(enum rule_conf conf);	/* "certain", "question" */
/* Whether version v reports the type: checkpatch.pl's of v, or reviewbot's own. */
int rule_in_version(const struct rule *r, enum cp_version v);

/* "6.1", "6.12", ... ("?" for a value out of range) */
const char *cp_version_name(enum cp_version v);
/* The version named s[0, n) exactly ("6.12"), or -1. */
int cp_version_find(const char *s, size_t n);
/*
 * The supported version nearest to kernel major.minor (a tree's Makefile
 * VERSION and PATCHLEVEL): the one whose number is closest, the older of
 * two as close.  A kernel 5.x tree gets the oldest, a 7.x the newest.
 */
enum cp_version cp_version_nearest(int major, int minor);
/* The supported versions joined by sep ("6.1, 6.12") into buf[0, sz). */
void cp_version_list(char *buf, size_t sz, const char *sep);

#endif
