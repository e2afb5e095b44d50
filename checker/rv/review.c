// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot's own checks, beyond checkpatch.pl: what a maintainer must not
 * miss when merging a young driver.  Three modules, each a file:
 *   rv_uapi.c      user-space interfaces (uapi headers, ioctl, sysfs,
 *                  procfs, character devices, syscalls, netlink, ...)
 *   rv_security.c  unchecked user copies, overflowing allocation sizes,
 *                  unbounded string functions, permissions, formats
 *   rv_process.c   maintainers, Kconfig defaults, shared code, tags
 *   rv_fix.c       security fixes: the bug the message names, the guard
 *                  the diff adds (read as C: rv_code.c, cview.c, cfunc.c)
 *   rv_flow.c      lengths and indexes from outside, file descriptors,
 *                  sizes cut to narrow types (followed through a function)
 *   rv_leak.c      structs copied out with fields or padding unwritten
 *   rv_perm.c      permission helpers tested backwards or ignored, device
 *                  nodes every user may write, unterminated attribute arrays
 *   rv_life.c      use after free, double free, error paths that keep a
 *                  lock or leak an allocation
 * Their message types are in rules_uapi.def, rules_security.def and
 * rules_process.def.  rv_style.c is no module: eng_report() asks it
 * whether a checkpatch.pl finding is style by its subsystem's
 * convention (its types: rules_style.def).
 */
#include "rv.h"

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
	rv_fix_final(e);
	rv_flow_final(e);
	rv_leak_final(e);
	rv_perm_final(e);
	rv_life_final(e);
}

void review_release(struct eng *e)
{
	rv_uapi_release(e);
	rv_security_release(e);
	rv_process_release(e);
	rv_code_release(e);
	rv_twin_release(e);
}
