// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage's tools beside make: their versions (for the
 * review's details, so that a result can be reproduced) and the kernel's
 * coccinelle scripts the stage runs.
 */
#include "build_int.h"

#include <stdio.h>
#include <string.h>

#include "../../checker/banned.h"

/*
 * The scripts of scripts/coccinelle/ that speak of memory safety, NULL,
 * locking and API misuse (each run in report mode, on the files the
 * series touches).  Left out: what is style only (badzero, ifnullfree,
 * array_size, minmax, ...) or needs the whole tree (add_namespace).
 */
const char *const tools_cocci_scripts[] = {
	"null/deref_null", "null/eno", "null/kmerr",
	"locks/call_kern", "locks/double_lock", "locks/flags", "locks/mini_lock",
	"free/kfree", "free/kfreeaddr", "free/devm_free", "free/iounmap", "free/clk_put",
	"free/put_device", "free/pci_free_consistent",
	"iterators/for_each_child", "iterators/device_node_continue", "iterators/itnull",
	"iterators/list_entry_update", "iterators/use_after_iter",
	"api/kfree_mismatch", "api/atomic_as_refcounter", "api/d_find_alias",
	"api/resource_size", "api/pm_runtime",
	"misc/noderef", "misc/badty",
	"tests/odd_ptr_err", "tests/unsigned_lesser_than_zero",
	NULL,
};

size_t tools_cocci_count(void)
{
	size_t n = 0;

	while (tools_cocci_scripts[n])
		n++;
	return n;
}

/* The first word of out after skip words, printable, into v. */
static void word_of(const struct sbuf *out, int skip, char *v, size_t n)
{
	const char *p = out->buf, *end = out->buf + out->len;
	size_t k = 0;

	v[0] = '\0';
	if (!out->len)
		return;
	while (skip-- > 0) {
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	while (p < end && k + 1 < n && ((*p >= '0' && *p <= '9') || *p == '.' ||
					(*p >= 'a' && *p <= 'z') || *p == '-' || *p == '+'))
		v[k++] = *p++;
	v[k] = '\0';
}

void tools_versions(struct bctx *c, struct tool_versions *v)
{
	static struct tool_versions known;
	static int have;
	const char *const gcc[] = { "gcc", "-dumpfullversion", NULL };
	const char *const sparse[] = { "sparse", "--version", NULL };
	const char *const spatch[] = { "spatch", "--version", NULL };
	struct sbuf out;

	if (have) {
		*v = known;
		return;
	}
	memset(&known, 0, sizeof(known));
	sbuf_init(&out, 4096);
	if (build_run(c, 0, gcc, "/", &out) == RUN_OK)
		word_of(&out, 0, known.gcc, sizeof(known.gcc));
	sbuf_reset(&out);
	if (build_run(c, 0, sparse, "/", &out) == RUN_OK)
		word_of(&out, 0, known.sparse, sizeof(known.sparse));
	sbuf_reset(&out);
	/* "spatch version 1.1.1 compiled with OCaml ..." */
	if (build_run(c, 0, spatch, "/", &out) == RUN_OK)
		word_of(&out, 2, known.spatch, sizeof(known.spatch));
	sbuf_release(&out);
	have = known.gcc[0] != '\0';
	*v = known;
}
