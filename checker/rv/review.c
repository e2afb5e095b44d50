// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's own checks, beyond checkpatch.pl: what a maintainer must not
 * miss when merging a young driver.  Three modules, each a file:
 *   rv_uapi.c      user-space interfaces (uapi headers, ioctl, sysfs,
 *                  procfs, character devices, syscalls, netlink, ...)
 *   rv_security.c  unchecked user copies, overflowing allocation sizes,
 *                  unbounded string functions, permissions, formats
 *   rv_process.c   maintainers, Kconfig defaults, shared code, tags
 * Their message types are in rules_uapi.def, rules_security.def and
 * rules_process.def.  rv_style.c is no module: eng_report() asks it
 * whether a checkpatch.pl finding is style by its subsystem's
 * convention (its types: rules_style.def).
 */
#include "../checkpatch/eng.h"

#include "../banned.h"

void review_line(struct eng *e)
{
	rv_uapi_line(e);
	rv_security_line(e);
	rv_process_line(e);
}

void review_final(struct eng *e)
{
	rv_uapi_final(e);
	rv_security_final(e);
	rv_process_final(e);
}

void review_release(struct eng *e)
{
	rv_uapi_release(e);
	rv_security_release(e);
	rv_process_release(e);
}
