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

enum rule_id {
#define RULE(name, sevs, cat, conf, desc) R_##name,
#include "rules.def"
#undef RULE
	RULE__COUNT
};

struct rule {
	const char *name;
	unsigned sevs;		/* SEV_E | SEV_W | SEV_C */
	enum rule_cat cat;
	enum rule_conf conf;
	const char *desc;
};

extern const struct rule rule_table[RULE__COUNT];

/* The rule named name[0, n) (case-insensitive), or -1. */
int rule_find(const char *name, size_t n);
const char *rule_sev_name(enum rule_sev sev);	/* "ERROR", "WARNING", "CHECK" */
const char *rule_cat_name(enum rule_cat cat);	/* "security", ... */
int rule_cat_find(const char *name, size_t n);
const char *rule_conf_name(enum rule_conf conf);	/* "certain", "question" */

#endif
