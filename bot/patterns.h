/* SPDX-License-Identifier: GPL-2.0-only */
/* The checker's patterns compiled at build time (build/gen/patterns.c). */
#ifndef RB_PATTERNS_H
#define RB_PATTERNS_H

#include "../checker/re.h"

extern const struct re_precompiled_set reviewbot_patterns;

#endif
