/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * seg_c_ops is split in two files: seg_c_ops.c (square brackets, function
 * name spacing, operator spacing) calls seg_c_ops2.c for the rest of the
 * segment.  Private to those two files.
 */
#ifndef RB_SEG_C_OPS_H
#define RB_SEG_C_OPS_H

struct eng;

int seg_c_ops2(struct eng *e);

#endif
