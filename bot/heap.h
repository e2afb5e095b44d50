/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The programs' heap settings, set first thing in main().
 */
#ifndef RB_HEAP_H
#define RB_HEAP_H

/*
 * glibc gives the top of the heap back to the kernel whenever 128 KiB of
 * it is free, and serves blocks of 128 KiB and more with mmap(): the
 * checker's per-line scratch memory grows and shrinks all the time, so
 * the same pages were unmapped and faulted in again (brk's TLB flushes
 * and page faults: about 5% of a check of the corpus).  Kept instead: the
 * peak is the same, only not handed back between lines.
 *
 * And the heap's first MiB is populated in one call (MADV_POPULATE_WRITE)
 * rather than a page fault at a time: on a virtual machine a fault costs
 * about 10 us, and a check of a small patch touched 160 heap pages, about
 * a fifth of its run.
 */
void heap_setup(void);

#endif
