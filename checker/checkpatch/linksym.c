// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpatch.pl 6.12's %maybe_linker_symbol: every word of the
 * vmlinux.lds.h lines a run has seen, with how often it was seen.  An
 * extern array of structs declared in a .c file whose name holds one of
 * them is likely a linker symbol, and no AVOID_EXTERNS finding.  Like
 * %camelcase it outlives one input: the checker keeps it (process.c).
 */
#include "eng.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

#define LINKSYM_MAX_WORDS	(1u << 20)	/* distinct words remembered */

struct linksym {
	char *w;
	long count;
};

struct linksym_set {
	struct linksym *slot;
	size_t size, used;	/* size: a power of two */
};

static size_t ls_hash(const char *s, size_t n)
{
	size_t h = (size_t)14695981039346656037ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (size_t)1099511628211ULL;
	return h;
}

static int ls_grow(struct linksym_set *ls)
{
	size_t nsize = ls->size ? ls->size * 2 : 256, i;
	struct linksym *ns = calloc(nsize, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < ls->size; i++) {
		size_t h;

		if (!ls->slot[i].w)
			continue;
		h = ls_hash(ls->slot[i].w, strlen(ls->slot[i].w)) & (nsize - 1);
		while (ns[h].w)
			h = (h + 1) & (nsize - 1);
		ns[h] = ls->slot[i];
	}
	free(ls->slot);
	ls->slot = ns;
	ls->size = nsize;
	return 0;
}

long linksym_bump(struct eng *e, const char *w, size_t n)
{
	struct linksym_set *ls = e->linksyms;
	size_t h;
	char *p;

	if (!ls) {
		ls = calloc(1, sizeof(*ls));
		if (!ls)
			return 0;
		e->linksyms = ls;
	}
	if (ls->size) {
		for (h = ls_hash(w, n) & (ls->size - 1); ls->slot[h].w;
		     h = (h + 1) & (ls->size - 1))
			if (strlen(ls->slot[h].w) == n && !memcmp(ls->slot[h].w, w, n))
				return ls->slot[h].count++;
	}
	/* a new word (past the cap: not remembered, as if seen once more) */
	if (ls->used >= LINKSYM_MAX_WORDS ||
	    ((ls->used + 1) * 2 > ls->size && ls_grow(ls)))
		return 0;
	p = malloc(n + 1);
	if (!p)
		return 0;
	memcpy(p, w, n);
	p[n] = '\0';
	for (h = ls_hash(w, n) & (ls->size - 1); ls->slot[h].w; h = (h + 1) & (ls->size - 1))
		;
	ls->slot[h].w = p;
	ls->slot[h].count = 1;
	ls->used++;
	return 0;
}

int linksym_any_in(const struct eng *e, const char *s)
{
	const struct linksym_set *ls = e->linksyms;
	size_t i;

	/* for my $s (keys %maybe_linker_symbol) { ... if $st_name =~ /$s/ }:
	 * the keys are words, so a match is a substring */
	for (i = 0; ls && i < ls->size; i++)
		if (ls->slot[i].w && strstr(s, ls->slot[i].w))
			return 1;
	return 0;
}

void linksym_free(struct linksym_set *ls)
{
	size_t i;

	if (!ls)
		return;
	for (i = 0; i < ls->size; i++)
		free(ls->slot[i].w);
	free(ls->slot);
	free(ls);
}
