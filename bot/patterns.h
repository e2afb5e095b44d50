/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checker's patterns compiled at build time (build/gen/patterns.c),
 * and each checkpatch.pl version's data files (build/gen/cpdata.c).
 */
#ifndef RB_PATTERNS_H
#define RB_PATTERNS_H

#include "../checker/checker.h"
#include "../checker/checkpatch/re.h"

extern const struct re_precompiled_set reviewbot_patterns;
extern const struct chk_cp_data reviewbot_cp_data[CP__COUNT];

#endif
