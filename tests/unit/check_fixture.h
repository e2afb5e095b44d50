/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the checker's unit tests that read inputs and compare
 * results: a file's bytes, and everything a caller can see of a result
 * as one string.  (checker.h, sbuf.h, stdio.h and string.h before it.)
 */
#ifndef RB_TEST_CHECK_FIXTURE_H
#define RB_TEST_CHECK_FIXTURE_H

static inline char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct sbuf sb;
	char tmp[4096];
	size_t got;
	char *p;

	*n = 0;
	if (!f)
		return NULL;
	sbuf_init(&sb, 1u << 24);
	while ((got = fread(tmp, 1, sizeof(tmp), f)) > 0)
		sbuf_add(&sb, tmp, got);
	fclose(f);
	p = malloc(sb.len + 1);
	if (p) {
		memcpy(p, sb.buf, sb.len);
		p[sb.len] = '\0';
		*n = sb.len;
	}
	sbuf_release(&sb);
	return p;
}

/* Everything a caller can see of a result, as one string. */
static inline char *render(const struct chk_opts *o, int ret, const struct chk_result *r)
{
	struct sbuf sb;
	size_t i;
	char *p;

	sbuf_init(&sb, 1u << 26);
	sbuf_addf(&sb, "%d %zu %ld %ld %ld %ld %d %d %d %d %d %d %s\n", ret,
		  r->n, r->errors, r->warnings, r->checks, r->lines_checked,
		  r->clean, r->is_patch, r->empty, r->silent, r->rpt_cleaners,
		  r->show_checks, r->error ? r->error : "-");
	for (i = 0; i < r->n; i++)
		sbuf_addf(&sb, "%d %d %ld %ld %s %s\n%s", (int)r->f[i].rule,
			  (int)r->f[i].sev, r->f[i].line, r->f[i].patch_line,
			  r->f[i].file ? r->f[i].file : "-", r->f[i].msg,
			  r->f[i].text);
	chk_format_text(o, r, "in.patch", "in.patch", &sb);
	chk_format_json(o, r, "in.patch", &sb);
	p = strndup(sb.buf, sb.len);
	sbuf_release(&sb);
	return p;
}

#endif
