// SPDX-License-Identifier: GPL-2.0-only
#include "rules.h"

#include <strings.h>
#include <string.h>

#include "banned.h"

const struct rule rule_table[RULE__COUNT] = {
#define RULE(name, sevs, cat, conf, desc) { #name, (sevs), (cat), (conf), (desc) },
#include "rules.def"
#undef RULE
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
