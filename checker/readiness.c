// SPDX-License-Identifier: GPL-2.0-only
/* Merge readiness from the checker's findings (readiness.h). */
#include <stdlib.h>
#include <string.h>

#include "readiness.h"

#include "banned.h"

void chk_readiness_init(struct chk_readiness *r)
{
	memset(r, 0, sizeof(*r));
	/* OK is 0; only the stages that do not exist yet say otherwise */
	r->crit[CHK_CRIT_COMPILES].state = CHK_READY_NOT_CHECKED;
	r->crit[CHK_CRIT_WORKS].state = CHK_READY_NOT_CHECKED;
}

void chk_readiness_release(struct chk_readiness *r)
{
	int c;

	for (c = 0; c < CHK_CRIT__COUNT; c++)
		free(r->crit[c].refs);
	chk_readiness_init(r);
}

static void add_ref(struct chk_readiness *r, enum chk_criterion c,
		    size_t patch, size_t finding)
{
	struct chk_ready_crit *k = &r->crit[c];

	k->state = CHK_READY_CONCERN;
	if (k->n == k->alloc) {
		size_t na = k->alloc ? k->alloc * 2 : 8;
		struct chk_ready_ref *nr;

		if (na > CHK_READY_MAX_REFS) {
			r->failed = 1;
			return;
		}
		nr = realloc(k->refs, na * sizeof(*nr));
		if (!nr) {
			r->failed = 1;
			return;
		}
		k->refs = nr;
		k->alloc = na;
	}
	k->refs[k->n].patch = patch;
	k->refs[k->n].finding = finding;
	k->n++;
}

/*
 * The process findings that stop a maintainer from applying a patch as
 * it is, with what they are about.  Every other process finding (a
 * typo, a link's form, a subject's wording) is worth fixing but blocks
 * nothing.
 */
static const struct {
	enum rule_id rule;
	const char *kind;
} blocking[] = {
	{ R_BAD_SIGN_OFF, "the sign-off chain" },
	{ R_MISSING_SIGN_OFF, "the sign-off chain" },
	{ R_NO_AUTHOR_SIGN_OFF, "the sign-off chain" },
	{ R_SIGN_OFF_NOT_SENDER, "the sign-off chain" },
	{ R_FIXES_AFTER_SIGN_OFF, "the sign-off chain" },
	{ R_FROM_SIGN_OFF_MISMATCH, "From: against Signed-off-by:" },
	{ R_MISSING_FIXES_TAG, "a fix without a Fixes: tag" },
	{ R_BAD_FIXES_TAG, "the form of its Fixes: tag" },
	{ R_COMMIT_LOG_CUT, "a commit message git am cuts" },
	{ R_DIFF_IN_COMMIT_MSG, "a commit message git am cuts" },
};

const char *chk_process_kind(enum rule_id rule)
{
	size_t i;

	if ((unsigned)rule >= RULE__COUNT || rule_table[rule].cat != CAT_PROCESS ||
	    rule_table[rule].conf != CONF_CERTAIN)
		return NULL;
	for (i = 0; i < sizeof(blocking) / sizeof(blocking[0]); i++)
		if (blocking[i].rule == rule)
			return blocking[i].kind;
	return NULL;
}

int chk_criterion_of(enum rule_id rule)
{
	if ((unsigned)rule >= RULE__COUNT)
		return -1;
	switch (rule) {
	case R_SHARED_CODE_CHANGE:
	case R_DRIVER_DEFAULT_ENABLED:
		return CHK_CRIT_AFFECTS_OTHERS;
	case R_NEW_FILE_NO_MAINTAINERS:
		return CHK_CRIT_MAINTAINER;
	default:
		break;
	}
	/* a question is worth a look, never an alarm */
	if (rule_table[rule].conf != CONF_CERTAIN)
		return -1;
	if (rule_table[rule].cat == CAT_SECURITY)
		return CHK_CRIT_SECURITY;
	if (rule_table[rule].cat == CAT_UAPI)
		return CHK_CRIT_UAPI;
	if (chk_process_kind(rule))
		return CHK_CRIT_PROCESS;
	return -1;
}

void chk_readiness_patch(const struct chk_result *res, struct chk_readiness *out)
{
	size_t i;

	chk_readiness_release(out);
	out->patches = 1;
	out->errors = res->errors;
	out->warnings = res->warnings;
	out->checks = res->checks;
	for (i = 0; i < res->n; i++) {
		const struct chk_finding *f = &res->f[i];
		int c;

		if ((unsigned)f->rule >= RULE__COUNT)
			continue;
		out->per_cat[rule_table[f->rule].cat]++;
		c = chk_criterion_of(f->rule);
		if (c >= 0)
			add_ref(out, (enum chk_criterion)c, 0, i);
	}
}

/* concern > not checked > ok: the series is as ready as its worst patch */
static enum chk_ready worse(enum chk_ready a, enum chk_ready b)
{
	if (a == CHK_READY_CONCERN || b == CHK_READY_CONCERN)
		return CHK_READY_CONCERN;
	if (a == CHK_READY_NOT_CHECKED || b == CHK_READY_NOT_CHECKED)
		return CHK_READY_NOT_CHECKED;
	return CHK_READY_OK;
}

void chk_readiness_merge(struct chk_readiness *into, const struct chk_readiness *from)
{
	size_t base = into->patches, i;
	int c;

	for (c = 0; c < CHK_CRIT__COUNT; c++) {
		const struct chk_ready_crit *k = &from->crit[c];
		enum chk_ready st = worse(into->crit[c].state, k->state);

		for (i = 0; i < k->n; i++)
			add_ref(into, (enum chk_criterion)c, base + k->refs[i].patch,
				k->refs[i].finding);
		into->crit[c].state = st;
	}
	for (c = 0; c < CAT__COUNT; c++)
		into->per_cat[c] += from->per_cat[c];
	into->errors += from->errors;
	into->warnings += from->warnings;
	into->checks += from->checks;
	into->patches += from->patches;
	into->failed |= from->failed;
}

const char *chk_ready_name(enum chk_ready s)
{
	switch (s) {
	case CHK_READY_OK:
		return "ok";
	case CHK_READY_CONCERN:
		return "concern";
	case CHK_READY_NOT_CHECKED:
		return "not checked";
	}
	return "?";
}

const char *chk_criterion_name(enum chk_criterion c)
{
	static const char *const names[CHK_CRIT__COUNT] = {
		"security", "uapi", "affects_others", "maintainer",
		"compiles", "works", "process",
	};

	return (unsigned)c < CHK_CRIT__COUNT ? names[c] : "?";
}
