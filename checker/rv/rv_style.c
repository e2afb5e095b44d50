// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpatch.pl findings that are style where a subsystem's conventions
 * say so (--extra): the rule table has one category per type, so such a
 * finding is reported under a type of rules_style.def instead of
 * checkpatch.pl's (eng_report() asks rv_retype()), with a first line
 * that says why (checkpatch.pl's advice does not apply there).
 *
 *   ENOTSUPP -> ENOTSUPP_CONVENTION   in the subsystems whose core code
 *               tests for -ENOTSUPP (a driver there must return it, not
 *               -EOPNOTSUPP), or in a file whose existing lines return it
 *   COMPLEX_MACRO, MACRO_ARG_* -> ATTR_LIST_MACRO   on a macro whose body
 *               lists or defines sysfs attributes: a list of
 *               &dev_attr_X.attr cannot be put in parentheses
 *
 * Without --extra nothing changes: checkpatch.pl's output stays its own.
 */
#include <string.h>

#include "rv.h"

#include "../banned.h"

/*
 * The subsystems whose core code compares a driver's result with
 * -ENOTSUPP (gpiolib, pinconf, led-core, soc-core/soc-dai, phy-core,
 * NFS): there it is the documented answer, not a user-space errno.
 */
#define ENOTSUPP_SUBSYSTEMS "^(?:drivers/gpio/|drivers/pinctrl/|drivers/leds/|sound/soc/|include/sound/soc|drivers/phy/|fs/nfs/|fs/nfsd/|include/linux/(?:gpio|pinctrl|leds|phy/))"

/* Whether the current file's existing lines (context or removed) in
 * the patch return ENOTSUPP: its convention. */
static int file_uses_enotsupp(struct eng *e)
{
	long i;

	for (i = e->linenr - 2; i >= 0; i--) {
		const char *r = e->rawlines[i];

		if (!strncmp(r, "+++ ", 4) || !strncmp(r, "diff --git ", 11))
			break;
		if ((r[0] == ' ' || r[0] == '-') && MQ(e, "\\bENOTSUPP\\b", e->lines[i]))
			return 1;
	}
	for (i = e->linenr; (size_t)i < e->nlines; i++) {
		const char *r = e->rawlines[i];

		if (!strncmp(r, "diff --git ", 11) ||
		    (!strncmp(r, "--- ", 4) && (size_t)i + 1 < e->nlines &&
		     !strncmp(e->rawlines[i + 1], "+++ ", 4)))
			break;
		if ((r[0] == ' ' || r[0] == '-') && MQ(e, "\\bENOTSUPP\\b", e->lines[i]))
			return 1;
	}
	return 0;
}

/* *msg with its first line replaced by first (the rest, the place and
 * the quoted lines, kept) */
static void new_first_line(struct eng *e, const char **msg, const char *first)
{
	const char *nl = strchr(*msg, '\n');

	*msg = eng_printf(e, "%s%s", first, nl ? nl : "\n");
}

enum rule_id rv_retype(struct eng *e, enum rule_id id, const char **msg)
{
	const char *body;

	switch (id) {
	case R_ENOTSUPP:
		if (!MQ(e, ENOTSUPP_SUBSYSTEMS, e->realfile.buf) && !file_uses_enotsupp(e))
			return id;
		new_first_line(e, msg, "ENOTSUPP is this subsystem's convention (its core code tests for -ENOTSUPP, or the file returns it already): keep it, but never let it reach user space, which knows no such errno");
		return R_ENOTSUPP_CONVENTION;
	case R_COMPLEX_MACRO:
	case R_MACRO_ARG_REUSE:
	case R_MACRO_ARG_PRECEDENCE:
	case R_MACRO_ARG_UNUSED:
		/* the macro's text follows the message's first line */
		body = strchr(*msg, '\n');
		if (!body || !MQ(e, "&\\s*\\w*(?:dev|drv|driver|class|bus|kobj|bin)?_?attr_\\w+|&\\w*attr\\w*\\.(?:dev_attr\\.)?attr\\b|\\b(?:SENSOR_|IIO_)?\\w*DEVICE_ATTR\\w*\\s*\\(|\\b__ATTR\\w*\\s*\\(|\\bSENSOR_ATTR\\w*\\s*\\(", body))
			return id;
		new_first_line(e, msg, eng_printf(e, "checkpatch.pl's %s on a macro that lists or defines sysfs attributes, which parentheses or a do-while would break: a style matter at most (write the list out if the macro obscures it)",
						  rule_table[id].name));
		return R_ATTR_LIST_MACRO;
	default:
		return id;
	}
}
