// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule table (rules.def and the reviewbot rule files): lookups by
 * name, category and checkpatch.pl version (rules.h).
 */
#include "rules.h"

#include <stdio.h>
#include <strings.h>
#include <string.h>

#include "banned.h"

/*
 * rules.def sets RULE_OWN and RULE_CPV (what a plain RULE row means) for
 * checkpatch.pl's rows, then for reviewbot's own.
 */
const struct rule rule_table[RULE__COUNT] = {
#define RULE_V(name, cpv, sevs, cat, conf, desc) \
	{ #name, (sevs), (cat), (conf), (desc), (cpv), RULE_OWN },
#define RULE(name, sevs, cat, conf, desc) \
	RULE_V(name, RULE_CPV, sevs, cat, conf, desc)
#include "checkpatch/rules.def"
#undef RULE
#undef RULE_V
};

/* The versions, as enum cp_version orders them. */
static const struct {
	const char *name;
	int major, minor;
} cp_versions[CP__COUNT] = {
	[CP_6_1] = { "6.1", 6, 1 },
	[CP_6_12] = { "6.12", 6, 12 },
};

static const char *const cat_names[CAT__COUNT] = {
	"security", "uapi", "correctness", "process", "style",
};

int rule_find(const char *name, size_t n)
{
	int i;

	for (i = 0; i < RULE__COUNT; i++) {
		const char *r = rule_table[i].name;

		if (strlen(r) == n && !strncasecmp(r, name, n))
			return i;
	}
	return -1;
}

const char *rule_sev_name(enum rule_sev sev)
{
	switch (sev) {
	case SEV_ERROR:
		return "ERROR";
	case SEV_WARNING:
		return "WARNING";
	case SEV_CHECK:
		return "CHECK";
	}
	return "?";
}

const char *rule_cat_name(enum rule_cat cat)
{
	return cat < CAT__COUNT ? cat_names[cat] : "?";
}

int rule_cat_find(const char *name, size_t n)
{
	int i;

	for (i = 0; i < CAT__COUNT; i++)
		if (strlen(cat_names[i]) == n && !strncasecmp(cat_names[i], name, n))
			return i;
	return -1;
}

const char *rule_conf_name(enum rule_conf conf)
{
	switch (conf) {
	case CONF_CERTAIN:
		return "certain";
	case CONF_QUESTION:
		return "question";
	}
	return "?";
}

int rule_in_version(const struct rule *r, enum cp_version v)
{
	return r->own || ((unsigned)v < CP__COUNT && (r->cpv & (1u << v)));
}

const char *cp_version_name(enum cp_version v)
{
	return (unsigned)v < CP__COUNT ? cp_versions[v].name : "?";
}

int cp_version_find(const char *s, size_t n)
{
	int i;

	for (i = 0; i < CP__COUNT; i++)
		if (strlen(cp_versions[i].name) == n && !memcmp(cp_versions[i].name, s, n))
			return i;
	return -1;
}

enum cp_version cp_version_nearest(int major, int minor)
{
	long want = (long)major * 1000 + minor, best_d = -1;
	int i, best = CP_LATEST;

	for (i = 0; i < CP__COUNT; i++) {
		long v = (long)cp_versions[i].major * 1000 + cp_versions[i].minor;
		long d = v > want ? v - want : want - v;

		/* (oldest first: a tie keeps the older) */
		if (best_d < 0 || d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return (enum cp_version)best;
}

void cp_version_list(char *buf, size_t sz, const char *sep)
{
	size_t used = 0;
	int i, n;

	if (!sz)
		return;
	buf[0] = '\0';
	for (i = 0; i < CP__COUNT; i++) {
		n = snprintf(buf + used, sz - used, "%s%s", i ? sep : "",
			     cp_versions[i].name);
		if (n < 0 || (size_t)n >= sz - used)
			return;
		used += (size_t)n;
	}
}
