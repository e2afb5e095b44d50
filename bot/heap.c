// SPDX-License-Identifier: GPL-2.0-only
/* The programs' heap settings, set first thing in main() (heap.h). */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "heap.h"

#define HEAP_TRIM_THRESHOLD	(64 << 20)	/* bytes free at the top kept */
#define HEAP_MMAP_THRESHOLD	(32 << 20)	/* smaller blocks from the heap */
#define HEAP_PREFAULT		(1 << 20)	/* the heap a small check uses */

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23		/* Linux 5.14 */
#endif

void heap_setup(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_THRESHOLD);
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD);
	/*
	 * The heap's first pages in one call: a block from the heap's top,
	 * its pages populated, then freed back to the top, which is kept
	 * (the trim threshold).  An older kernel refuses the advice, and the
	 * pages fault in one by one as before.
	 */
	if (page <= 0 || !(p = malloc(HEAP_PREFAULT)))
		return;
	{
		uintptr_t a = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
		uintptr_t e = ((uintptr_t)p + HEAP_PREFAULT) & ~((uintptr_t)page - 1);

		if (e > a)
			(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
	}
	free(p);
}
