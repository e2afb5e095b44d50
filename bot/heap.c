// SPDX-License-Identifier: GPL-2.0-only
#include <malloc.h>

#include "heap.h"

#define HEAP_TRIM_THRESHOLD	(64 << 20)	/* bytes free at the top kept */
#define HEAP_MMAP_THRESHOLD	(32 << 20)	/* smaller blocks from the heap */

void heap_setup(void)
{
	mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_THRESHOLD);
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD);
}
