/* SPDX-License-Identifier: GPL-2.0-only */
/* The pipeline's insides, shared by pipeline.c and pipeline_review.c. */
#ifndef RB_PIPELINE_INT_H
#define RB_PIPELINE_INT_H

#include <signal.h>
#include <stdint.h>

#include "pipeline.h"
#include "../checker/checker.h"

#define PIPE_FAIL_SLOTS		64
#define PIPE_MAX_PROCESS_FAILS	3

struct pipeline {
	struct store *st;
	const struct config *cfg;
	const struct template_set *tpl;
	enum pipeline_mode mode;
	struct chk_opts opts;
	struct chk_spelling *spelling;
	struct pipeline_stats stats;
	const volatile sig_atomic_t *stop;	/* set: finish what is in hand */
	/* messages whose processing failed while others went through
	 * (pipeline_process_pending): after PIPE_MAX_PROCESS_FAILS they are
	 * marked bad, so one cannot hold up the rest for ever */
	struct pipe_fail {
		int64_t id;
		int n;
	} fails[PIPE_FAIL_SLOTS];
};

#define PIPE_FNV_INIT 0xcbf29ce484222325ULL

/* FNV-1a 64, for names made from bytes and quick sets (not security). */
uint64_t pipe_fnv1a(uint64_t h, const void *buf, size_t n);

#endif
