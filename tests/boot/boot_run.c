// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test driver for the QEMU load stage (bot/stage/boot.c), built by
 * tests/boot/test_boot.sh and tests/bench/bench_boot.sh:
 *
 *   boot_run KERNEL HEADERS WORK NAME SOURCE.c [TIMEOUT]
 *
 * prints "verdict=ok|concern|not-checked type=... build_s=... boot_s=..."
 * then "note: ..." and the finding's console lines, one per line.  Exit
 * status 0 whatever the verdict, 1 when the stage refused to run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bot/stage/boot.h"
#include "../../checker/banned.h"

static char src[BOOT_MAX_SOURCE + 1];

int main(int argc, char **argv)
{
	struct boot_opts o;
	struct boot_result r;
	static const char *const v[] = { "not-checked", "ok", "concern" };
	FILE *f;
	size_t n;
	int rc;

	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: boot_run KERNEL HEADERS WORK NAME SOURCE.c [TIMEOUT]\n");
		return 2;
	}
	memset(&o, 0, sizeof(o));
	o.kernel = argv[1];
	o.headers = argv[2];
	o.work = argv[3];
	if (argc == 7) {
		char *end;
		long t;

		errno = 0;
		t = strtol(argv[6], &end, 10);
		if (errno || *end || t < 1 || t > 3600) {
			fprintf(stderr, "boot_run: bad timeout\n");
			return 2;
		}
		o.timeout = (int)t;
	}
	f = fopen(argv[5], "rb");
	if (!f) {
		perror(argv[5]);
		return 2;
	}
	n = fread(src, 1, BOOT_MAX_SOURCE, f);
	fclose(f);
	rc = boot_module(&o, argv[4], src, n, &r);
	printf("verdict=%s type=%s module=%s is_module=%d build_s=%.1f boot_s=%.1f\n",
	       v[r.verdict], r.type[0] ? r.type : "-", r.module,
	       boot_is_module_source(src, n), r.build_s, r.boot_s);
	printf("note: %s\n", r.note);
	fputs(r.message, stdout);
	return rc ? 1 : 0;
}
