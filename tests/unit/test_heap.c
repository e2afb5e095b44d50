// SPDX-License-Identifier: GPL-2.0-only
/*
 * heap_setup(): the heap's first MiB is populated up front, so the
 * blocks a small check allocates fault in no page one by one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "../../bot/heap.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static long minor_faults(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_minflt;
}

/* Whether this kernel populates on advice (5.14 and later). */
static int kernel_populates(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	assert_true(p != MAP_FAILED);
	ok = madvise(p, 4096, MADV_POPULATE_WRITE) == 0;
	munmap(p, 4096);
	return ok;
}

static void test_heap__first_blocks_need_no_page_faults(void **state)
{
	const size_t n = 512 << 10;	/* half of what is populated */
	long before, after;
	char *p;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip();	/* ASan's allocator is not glibc's heap */
#endif
	if (!kernel_populates())
		skip();
	heap_setup();
	before = minor_faults();
	p = malloc(n);
	assert_non_null(p);
	memset(p, 1, n);	/* 128 pages */
	after = minor_faults();
	free(p);
	/* one page by one would be 128 faults; allow a few for the
	 * bookkeeping's own pages */
	assert_true(after - before < 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_heap__first_blocks_need_no_page_faults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
