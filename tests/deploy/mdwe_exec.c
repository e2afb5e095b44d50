// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdwe_exec PROGRAM [ARG]...: runs PROGRAM with the kernel's
 * memory-deny-write-execute on (PR_SET_MDWE, Linux 6.3 and later), the
 * restriction systemd's MemoryDenyWriteExecute= puts on the daemon: no
 * mapping both writable and executable, no mapping made executable
 * later.  Exits 77 (skip) when the kernel does not have it.
 *
 * mdwe_exec --jit-probe [on]: prints what pcre2_jit_compile() returns,
 * with MDWE on when "on" is given (the unit's comment says it fails).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_SET_MDWE
#define PR_SET_MDWE			65
#define PR_MDWE_REFUSE_EXEC_GAIN	1
#endif

static int mdwe_on(void)
{
	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0L, 0L, 0L)) {
		fprintf(stderr, "mdwe_exec: PR_SET_MDWE: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int jit_probe(int on)
{
	pcre2_code *c;
	PCRE2_SIZE off;
	int err, rc;

	if (on && mdwe_on())
		return 77;
	c = pcre2_compile((PCRE2_SPTR)"a(b+)c", PCRE2_ZERO_TERMINATED, 0, &err, &off,
			  NULL);
	if (!c)
		return 2;
	rc = pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	printf("%d\n", rc);
	pcre2_code_free(c);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--jit-probe"))
		return jit_probe(argc > 2 && !strcmp(argv[2], "on"));
	if (argc < 2) {
		fprintf(stderr, "usage: mdwe_exec PROGRAM [ARG]...\n");
		return 2;
	}
	if (mdwe_on())
		return 77;
	execv(argv[1], argv + 1);
	fprintf(stderr, "mdwe_exec: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
