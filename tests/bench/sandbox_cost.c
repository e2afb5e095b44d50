// SPDX-License-Identifier: GPL-2.0-only
/*
 * make bench: what a sandbox costs (bot/stage/sandbox.c), built by
 * tests/bench/bench_build.sh:
 *
 *   sandbox_cost N DIR...
 *
 * runs `true` N times in a sandbox that sees DIR... read-only (the
 * compile stage's folders), and N times without one (fork and exec), and
 * prints the medians: "sandbox_ms=... plain_ms=...".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../bot/stage/sandbox.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *const tru[] = { "true", NULL };
	double *sb_ms, *plain_ms;
	long n;
	int i, j;

	if (argc < 2 || (n = strtol(argv[1], NULL, 10)) < 1 || n > 10000) {
		fprintf(stderr, "usage: sandbox_cost N DIR...\n");
		return 2;
	}
	sb_ms = calloc((size_t)n, sizeof(*sb_ms));
	plain_ms = calloc((size_t)n, sizeof(*plain_ms));
	if (!sb_ms || !plain_ms)
		return 2;
	for (i = 0; i < n; i++) {
		struct sandbox sb;
		double t0 = now_s();
		pid_t pid;
		int st;

		sandbox_init(&sb, NULL, t0 + 60);
		for (j = 2; j < argc; j++)
			sandbox_ro(&sb, argv[j]);
		if (sandbox_run(&sb, tru, NULL, NULL) != SANDBOX_OK) {
			fprintf(stderr, "sandbox_cost: %s\n", sb.why);
			return 1;
		}
		sb_ms[i] = (now_s() - t0) * 1000;
		t0 = now_s();
		pid = fork();
		if (pid == 0) {
			execvp(tru[0], (char *const *)tru);
			_exit(127);
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		plain_ms[i] = (now_s() - t0) * 1000;
	}
	qsort(sb_ms, (size_t)n, sizeof(*sb_ms), cmp);
	qsort(plain_ms, (size_t)n, sizeof(*plain_ms), cmp);
	printf("sandbox_ms=%.1f plain_ms=%.1f\n", sb_ms[n / 2], plain_ms[n / 2]);
	return 0;
}
