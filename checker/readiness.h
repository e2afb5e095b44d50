/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Merge readiness: the questions a maintainer asks before taking a young
 * driver, answered from the checker's findings, for one patch
 * (chk_readiness_patch) and for a series (chk_readiness_merge of its
 * patches).  Each criterion is
 *   CHK_READY_OK           nothing found against it
 *   CHK_READY_CONCERN      findings to look at: refs names them
 *   CHK_READY_NOT_CHECKED  the checker cannot tell (no build stage yet)
 *
 *   security         any certain finding of category security (a type
 *                    whose confidence is CONF_CERTAIN: rules.def)
 *   uapi             any certain finding of category uapi.  A new user-space
 *                    interface is not a defect: it is a concern because
 *                    it is kept forever once merged, so it needs a review
 *                    of its own (and documentation), not a fix
 *   affects_others   SHARED_CODE_CHANGE (shared code changed by a driver
 *                    patch) and DRIVER_DEFAULT_ENABLED (a driver built for
 *                    people without the hardware)
 *   maintainer       NEW_FILE_NO_MAINTAINERS.  checkpatch.pl's
 *                    FILE_PATH_CHANGES does not count: it fires on every
 *                    move and deletion, and even when the same patch
 *                    changes MAINTAINERS after the new files
 *   compiles         not checked
 *   works            not checked ("seems to work")
 *   process          a certain process finding that stops a maintainer
 *                    from applying the patch as it is: the sign-off
 *                    chain, From: against Signed-off-by:, a fix without
 *                    its Fixes: tag, a commit message git am would cut
 *                    (chk_process_kind() names which); other process
 *                    findings (a typo, a link's form) are no concern
 * The article's fifth criterion, "compiles and seems to work", is two
 * entries here so a build stage and a test stage can fill them apart.
 *
 * CHK_READY_OK says only that nothing was found against a criterion by
 * what ran: the review words it from what was checked ("no finding in
 * the patch text"), never as "ok" unless a stage ran and passed.
 *
 * The answer is only as good as the run behind it: a result checked
 * without opts.extra, or with --types / --category filters, lacks the
 * findings of the criteria it left out, which then read OK.
 *
 * A finding is named by (patch, finding): the index of the patch in the
 * series (0 for chk_readiness_patch; merge shifts the merged patches
 * after the ones already there) and the index into that patch's
 * chk_result.f.  No I/O; the readiness owns its refs until
 * chk_readiness_release().
 */
#ifndef RB_READINESS_H
#define RB_READINESS_H

#include <stddef.h>

#include "checker.h"

enum chk_ready {
	CHK_READY_OK = 0,
	CHK_READY_CONCERN,
	CHK_READY_NOT_CHECKED,
};

enum chk_criterion {
	CHK_CRIT_SECURITY = 0,
	CHK_CRIT_UAPI,
	CHK_CRIT_AFFECTS_OTHERS,
	CHK_CRIT_MAINTAINER,
	CHK_CRIT_COMPILES,
	CHK_CRIT_WORKS,
	CHK_CRIT_PROCESS,	/* last: the others keep their numbers */
	CHK_CRIT__COUNT
};

#define CHK_READY_MAX_REFS	(1u << 22)	/* refs per criterion */

struct chk_ready_ref {
	size_t patch;		/* index of the patch in the series */
	size_t finding;		/* index into that patch's chk_result.f */
};

struct chk_ready_crit {
	enum chk_ready state;
	struct chk_ready_ref *refs;	/* the findings behind a concern */
	size_t n, alloc;
};

struct chk_readiness {
	struct chk_ready_crit crit[CHK_CRIT__COUNT];
	long per_cat[CAT__COUNT];	/* findings per category */
	long errors, warnings, checks;
	size_t patches;			/* patches counted */
	int failed;			/* out of memory: refs are incomplete */
};

/* An empty readiness (no patch yet): every checked criterion OK. */
void chk_readiness_init(struct chk_readiness *r);
void chk_readiness_release(struct chk_readiness *r);
/* The readiness of one patch; out (initialised, or holding an earlier
 * result) is released and filled again. */
void chk_readiness_patch(const struct chk_result *res, struct chk_readiness *out);
/* Adds from (one patch or a series) after the patches already in into:
 * a concern anywhere is a concern of the series, then not checked
 * anywhere, then OK. */
void chk_readiness_merge(struct chk_readiness *into, const struct chk_readiness *from);
/* The criterion a finding of rule speaks to, or -1 (readiness.h's
 * table above); a rule out of range is -1. */
int chk_criterion_of(enum rule_id rule);
/* For a rule of CHK_CRIT_PROCESS, what blocks applying: "the sign-off
 * chain", "From: against Signed-off-by:", "a fix without a Fixes: tag",
 * "the form of its Fixes: tag", "a commit message git am cuts"; NULL for
 * other rules. */
const char *chk_process_kind(enum rule_id rule);
/* "ok", "concern", "not checked" */
const char *chk_ready_name(enum chk_ready s);
/* "security", "uapi", "affects_others", "maintainer", "compiles", "works",
 * "process" */
const char *chk_criterion_name(enum chk_criterion c);

#endif
