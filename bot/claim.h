/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claim: the name this process writes on the rows it works on (a
 * message it processes, a reply it hands to delivery: store_msg_claim,
 * store_reply_claim), and whether the holder of another name still
 * lives, so that two processes on one database never do the same work
 * and the work of one that died is taken over.
 *
 * A name is "HOST BOOT PID START": the host name, the kernel's boot id,
 * the process id and the process's start time in clock ticks since boot
 * (/proc/PID/stat), so neither a process id used again nor a reboot
 * passes for the holder.
 *
 * A claim holds while its holder lives: on this host and boot, while
 * the process exists (kill(pid, 0) says so, which a hidden /proc does
 * not change) and, where /proc shows it, started at the time named,
 * however old the claim.  A claim whose holder cannot be seen (another
 * host sharing the database, a name that does not parse) holds until
 * it is CLAIM_TTL seconds old.
 */
#ifndef RB_CLAIM_H
#define RB_CLAIM_H

#include <stdint.h>

#define CLAIM_TTL	3600	/* seconds a claim of an unseen holder holds */
#define CLAIM_MAX	192	/* bytes of a name, NUL included */

/* This process's name (computed once; the buffer lives as long as the
 * process).  Call it first before threads start. */
const char *claim_self(void);

/* 1 when the claim name, made at claimed_at, still holds at now; 0 when
 * its holder is gone (or, unseen, the claim is too old) and its work may
 * be taken over.  name NULL holds nothing. */
int claim_holds(const char *name, int64_t claimed_at, int64_t now);

#endif
