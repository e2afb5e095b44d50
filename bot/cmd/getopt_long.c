// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing as Perl's Getopt::Long does it, for checkpatch.pl's
 * command line and reviewbot's own (getopt_long.h).
 */
#include "getopt_long.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/banned.h"

static int name_eq(const char *names, const char *name, size_t n, int prefix,
		   int *exact)
{
	const char *p = names;

	while (*p) {
		const char *q = strchr(p, '|');
		size_t len = q ? (size_t)(q - p) : strlen(p);

		if (len == n && !strncmp(p, name, n)) {
			*exact = 1;
			return 1;
		}
		if (prefix && n < len && !strncmp(p, name, n))
			return 1;
		if (!q)
			break;
		p = q + 1;
	}
	return 0;
}

/* Finds the option for name[0, n); *neg set when it is "no"+name. */
static const struct gl_opt *find(const struct gl_opt *opts, const char *name,
				 size_t n, int *neg, int *ambiguous)
{
	const struct gl_opt *hit = NULL;
	int hits = 0, pass, exact;

	*ambiguous = 0;
	/* exact names first, then negations, then abbreviations */
	for (pass = 0; pass < 2; pass++) {
		const struct gl_opt *o;

		for (o = opts; o->names; o++) {
			exact = 0;
			if (name_eq(o->names, name, n, 0, &exact)) {
				*neg = 0;
				return o;
			}
			if (o->kind == GL_FLAG) {
				if (n > 3 && !strncmp(name, "no-", 3) &&
				    name_eq(o->names, name + 3, n - 3, 0, &exact)) {
					*neg = 1;
					return o;
				}
				if (n > 2 && !strncmp(name, "no", 2) &&
				    name_eq(o->names, name + 2, n - 2, 0, &exact)) {
					*neg = 1;
					return o;
				}
			}
		}
		if (pass == 0)
			continue;
		for (o = opts; o->names; o++) {
			exact = 0;
			if (name_eq(o->names, name, n, 1, &exact)) {
				if (hit != o)
					hits++;
				hit = o;
				*neg = 0;
			} else if (o->kind == GL_FLAG &&
				   ((n > 3 && !strncmp(name, "no-", 3) &&
				     name_eq(o->names, name + 3, n - 3, 1, &exact)) ||
				    (n > 2 && !strncmp(name, "no", 2) &&
				     name_eq(o->names, name + 2, n - 2, 1, &exact)))) {
				if (hit != o)
					hits++;
				hit = o;
				*neg = 1;
			}
		}
	}
	if (hits > 1) {
		*ambiguous = 1;
		return NULL;
	}
	return hit;
}

static int list_add(struct gl_list *l, const char *s)
{
	if (l->n == l->alloc) {
		int na = l->alloc ? l->alloc * 2 : 8;
		char **nv = realloc(l->v, (size_t)na * sizeof(*nv));

		if (!nv)
			return -1;
		l->v = nv;
		l->alloc = na;
	}
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		return -1;
	l->n++;
	return 0;
}

void gl_list_free(struct gl_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

int gl_parse(const struct gl_opt *opts, int argc, char **argv,
	     char **args, int *nargs, char *err, unsigned errsz)
{
	int i, only_args = 0;

	*nargs = 0;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *name, *eq, *val = NULL;
		const struct gl_opt *o;
		size_t n;
		int neg = 0, amb = 0;

		if (only_args || a[0] != '-' || !a[1]) {
			args[(*nargs)++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		name = a + 1 + (a[1] == '-');
		eq = strchr(name, '=');
		n = eq ? (size_t)(eq - name) : strlen(name);
		if (eq)
			val = eq + 1;
		o = find(opts, name, n, &neg, &amb);
		if (!o) {
			snprintf(err, errsz, amb ? "option %.*s is ambiguous" :
				 "unknown option: %.*s", (int)n, name);
			return -1;
		}
		switch (o->kind) {
		case GL_FLAG:
		case GL_SET:
		case GL_COUNT:
			if (val) {
				snprintf(err, errsz, "option %.*s does not take an argument",
					 (int)n, name);
				return -1;
			}
			if (o->kind == GL_COUNT)
				(*o->num)++;
			else
				*o->num = !neg;
			break;
		case GL_STRING:
		case GL_LIST:
		case GL_INT:
			if (!val) {
				if (i + 1 >= argc) {
					snprintf(err, errsz, "option %.*s requires an argument",
						 (int)n, name);
					return -1;
				}
				val = argv[++i];
			}
			if (o->kind == GL_STRING) {
				free(*o->str);
				*o->str = strdup(val);
			} else if (o->kind == GL_LIST) {
				if (list_add(o->list, val)) {
					snprintf(err, errsz, "out of memory");
					return -1;
				}
			} else {
				char *end;
				long v;

				errno = 0;
				v = strtol(val, &end, 10);
				if (errno || end == val || *end || v < INT_MIN || v > INT_MAX) {
					snprintf(err, errsz, "value \"%s\" invalid for option %.*s (number expected)",
						 val, (int)n, name);
					return -1;
				}
				*o->num = (int)v;
			}
			break;
		}
	}
	return 0;
}
