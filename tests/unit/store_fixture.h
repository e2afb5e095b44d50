/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The store tests' fixture: a fresh database in a temporary folder per
 * test (setup), or only the folder (setup_dir), removed by teardown.
 * Define STORE_FIXTURE_DIR ("/tmp/test_NAME.XXXXXX") before including.
 */
#ifndef RB_TEST_STORE_FIXTURE_H
#define RB_TEST_STORE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../store/store.h"

struct fx {
	char dir[64];
	char path[128];
	struct store *st;
};

static int setup_dir(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), STORE_FIXTURE_DIR);
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/rb.db", fx->dir);
	*state = fx;
	return 0;
}

static int setup(void **state)
{
	struct fx *fx;
	char err[256];

	if (setup_dir(state))
		return -1;
	fx = *state;
	if (store_open(fx->path, &fx->st, err, sizeof(err)) != STORE_OK) {
		fprintf(stderr, "store_open: %s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char p[160];
	size_t i;

	store_close(fx->st);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", fx->path, sfx[i]);
		unlink(p);
	}
	rmdir(fx->dir);
	free(fx);
	return 0;
}


#endif
