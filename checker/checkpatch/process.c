// SPDX-License-Identifier: GPL-2.0-only
/*
 * checkpatch.pl's process(): split the input into lines, sanitise them in a
 * pre-scan, then walk them tracking files, hunks and line numbers, calling
 * the rule segments for each line; the whole-patch checks come last.
 */
#include "eng.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../banned.h"

void chk_opts_init(struct chk_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cp_version = CP_LATEST;
	o->fixes_tag = 1;
	o->max_line_length = 100;
	o->tabsize = 8;
	o->min_conf_desc_length = 4;
	o->summary = 1;
	o->signoff = 1;
	o->patch = 1;
	o->kconfig_prefix = "CONFIG_";
}

void chk_opts_types(struct chk_opts *o, const char *list, int use)
{
	const char *p = list;

	/* hash_save_array_words(): split on ',', trim, upper-case */
	while (*p) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		const char *s = p;
		int id;

		while (n && strchr(" \t\n", *s)) {
			s++;
			n--;
		}
		while (n && strchr(" \t\n", s[n - 1]))
			n--;
		if (n && *s != '#') {
			id = rule_find(s, n);
			if (id >= 0) {
				if (use) {
					o->use[id] = 1;
				} else {
					o->ignore[id] = 1;
				}
			}
			if (n == 21 && !strncasecmp(s, "C99_COMMENT_TOLERANCE", n) && !use)
				o->ignore_c99_comment_tolerance = 1;
			if (use)
				o->use_any = 1;
		}
		if (!q)
			break;
		p = q + 1;
	}
}

int chk_opts_categories(struct chk_opts *o, const char *list)
{
	const char *p = list;

	while (*p) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		int c;

		if (n) {
			c = rule_cat_find(p, n);
			if (c < 0)
				return -1;
			o->categories |= 1u << c;
		}
		if (!q)
			break;
		p = q + 1;
	}
	return 0;
}

void chk_result_release(struct chk_result *res)
{
	size_t i;

	/* a finding's msg and file live in its text's allocation */
	for (i = 0; i < res->n; i++)
		free(res->f[i].text);
	free(res->f);
	free(res->error);
	memset(res, 0, sizeof(*res));
}

/* Splits buf into lines as Perl's "while (<$FILE>) { chomp; ... }". */
/*
 * A number of a hunk header, clamped: Perl reads "@@ -1 +99999999999999999999
 * @@" as a float and goes on; far past any real file is as good, and the
 * line counters can then never overflow.
 */
#define HUNK_NUM_MAX	1000000000000000L	/* 1e15 */

static long hunk_num(const char *s)
{
	long v = strtol(s, NULL, 10);

	return v > HUNK_NUM_MAX ? HUNK_NUM_MAX : v;
}

/*
 * buf[0, len) split in place: each newline becomes a NUL and rawlines[i]
 * points at line i; buf[len] must be writable.  A NUL byte inside a line
 * ends it for the rules, as a copy of the line up to its newline would.
 */
static int split_lines(struct eng *e, char *buf, size_t len)
{
	size_t n = 0, i, start;

	for (i = 0; i < len; i++)
		if (buf[i] == '\n')
			n++;
	if (len && buf[len - 1] != '\n')
		n++;
	if (n > CHK_MAX_LINES)
		return -1;
	e->rawlines = calloc(n ? n : 1, sizeof(char *));
	e->lines = calloc(n ? n : 1, sizeof(char *));
	if (!e->rawlines || !e->lines)
		return -1;
	if (len && buf[len - 1] != '\n')
		buf[len] = '\0';
	start = 0;
	for (i = 0; i <= len && e->nlines < n; i++) {
		if (i == len || buf[i] == '\n') {
			buf[i] = '\0';
			e->rawlines[e->nlines++] = buf + start;
			start = i + 1;
		}
	}
	return 0;
}

/* -f: what "diff -u /dev/null FILE" prints, as checkpatch.pl reads it. */
static int file_as_diff(struct eng *e, const char *name, const char *buf,
			size_t len, struct sbuf *out)
{
	size_t nl = 0, i;

	(void)e;
	for (i = 0; i < len; i++)
		if (buf[i] == '\n')
			nl++;
	if (len && buf[len - 1] != '\n')
		nl++;
	if (!len)
		return 0;
	sbuf_addstr(out, "--- /dev/null\n");
	sbuf_addf(out, "+++ %s\n", name);
	if (nl == 1)
		sbuf_addstr(out, "@@ -0,0 +1 @@\n");
	else
		sbuf_addf(out, "@@ -0,0 +1,%zu @@\n", nl);
	for (i = 0; i < len; ) {
		const char *q = memchr(buf + i, '\n', len - i);
		size_t l = q ? (size_t)(q - (buf + i)) : len - i;

		sbuf_addch(out, '+');
		sbuf_add(out, buf + i, l);
		sbuf_addch(out, '\n');
		if (!q) {
			sbuf_addstr(out, "\\ No newline at end of file\n");
			break;
		}
		i += l + 1;
	}
	return out->err ? -1 : 0;
}

static void sb_set(struct sbuf *sb, const char *s, size_t n)
{
	sbuf_reset(sb);
	sbuf_add(sb, s, n);
}

/*
 * Line i could not be sanitised (too long for the scratch memory): it
 * stays raw for the lines that look at it, and is skipped when its turn
 * comes.  0, or -1 when out of memory (e->failed).
 */
static int prescan_mark(struct eng *e, size_t i)
{
	if (!e->prescan_skip) {
		e->prescan_skip = calloc(e->nlines, 1);
		if (!e->prescan_skip) {
			e->failed = 1;
			return -1;
		}
	}
	e->prescan_skip[i] = 1;
	return 0;
}

/* The pre-scan: sanitise lines, guess comment state at hunk starts. */
static void prescan(struct eng *e)
{
	long linenr = 0, realcnt = 0;
	size_t i;
	struct re_m m;

	sanitise_line_reset(e, 0);
	for (i = 0; i < e->nlines; i++) {
		const char *rawline = e->rawlines[i];
		char *line = NULL;

		if (e->deadline && eng_late(e))
			return;
		linenr++;
		eng_arena_reset(e);
		e->line_skip = 0;
		if (re_match(e->rc, "^\\@\\@ -\\d+(?:,\\d+)? \\+(\\d+)(,(\\d+))? \\@\\@",
			     rawline, &m)) {
			const char *edge = NULL;
			long cnt, ln;
			int in_comment = 0;

			realcnt = re_cap_defined(&m, 2) ?
				  hunk_num(re_cap(&m, 3, NULL)) + 1 : 2;
			cnt = realcnt;
			for (ln = linenr + 1; cnt > 0; ln++) {
				const char *r = eng_rawline(e, ln);
				struct re_m m2;

				if (r && r[0] == '-')
					continue;
				cnt--;
				if (!r)
					break;
				if (re_match(e->rc, "(/\\*|\\*/)", r, &m2) &&
				    !re_match(e->rc, "\"[^\"]*(?:/\\*|\\*/)[^\"]*\"", r, NULL)) {
					edge = r + re_start(&m2, 1);
					break;
				}
			}
			if (edge && !strncmp(edge, "*/", 2))
				in_comment = 1;
			if (!edge && eng_rawline(e, linenr + 1) &&
			    re_match(e->rc, "^.\\s*(?:\\*\\*+| \\*)(?:\\s|$)",
				     eng_rawline(e, linenr + 1), NULL))
				in_comment = 1;
			sanitise_line_reset(e, in_comment);
		} else if (realcnt && e->o->max_line_bytes && rawline[0] &&
			   strlen(rawline) > e->o->max_line_bytes &&
			   re_match(e->rc, "^(?:\\+| )", rawline, NULL)) {
			/* too long to look at: an empty line of its kind for the
			 * others, skipped at its turn */
			line = rawline[0] == '+' ? "+" : " ";
			if (prescan_mark(e, i))
				return;
		} else if (realcnt && re_match(e->rc, "^(?:\\+| |$)", rawline, NULL)) {
			line = sanitise_line(e, rawline);
			if (!line && prescan_mark(e, i))
				return;
		}
		/* the same text either way: share the raw line when equal */
		e->lines[i] = line && strcmp(line, rawline) ?
			      eng_line_pool_strdup(e, line) : rawline;
		if (!e->lines[i]) {
			e->failed = 1;
			return;
		}
		if (realcnt > 1) {
			if (re_match(e->rc, "^(?:\\+| |$)", e->lines[i], NULL))
				realcnt--;
		} else {
			realcnt = 0;
		}
	}
}

typedef int (*segment_fn)(struct eng *e);

static const segment_fn segments[] = {
	seg_text,
	seg_source,
	seg_c_lines,
	seg_c_stmt,
	seg_c_ops,
	seg_c_macros,
	seg_c_api,
};

/*
 * The start of the per-line loop: patch detection, hunk headers, line
 * tracking, file names.  Returns SEG_NEXT for lines that end here.
 */
/* sbuf_addf(sb, "#%ld: ", n), without the formatting (once per line) */
static void here_num(struct sbuf *sb, long n)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	*--p = ' ';
	*--p = ':';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (n < 0)
		*--p = '-';
	*--p = '#';
	sbuf_add(sb, p, (size_t)(tmp + sizeof(tmp) - p));
}

static int loop_head(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	int found_file = 0;
	struct re_m m;

	if (!e->in_commit_log &&
	    (re_match(e->rc, "^ mode change [0-7]+ => [0-7]+ \\S+\\s*$", line, NULL) ||
	     re_match(e->rc, "^rename (?:from|to) \\S+\\s*$", line, NULL) ||
	     re_match(e->rc, "^diff --git a\\/[\\w\\/\\.\\_\\-]+ b\\/\\S+\\s*$", line, NULL)))
		e->is_patch = 1;

	if (!e->in_commit_log &&
	    re_match(e->rc, "^\\@\\@ -\\d+(?:,\\d+)? \\+(\\d+)(,(\\d+))? \\@\\@(.*)", line, &m)) {
		const char *context = re_cap(&m, 4, NULL);
		struct re_m m2;

		e->is_patch = 1;
		e->first_line = e->linenr + 1;
		e->realline = hunk_num(re_cap(&m, 1, NULL)) - 1;
		if (re_cap_defined(&m, 2))
			e->realcnt = hunk_num(re_cap(&m, 3, NULL)) + 1;
		else
			e->realcnt = 1 + 1;
		annotate_reset(e);
		e->prev_values = 'E';
		lineset_clear(&e->suppress_ifbraces);
		lineset_clear(&e->suppress_whiletrailers);
		lineset_clear(&e->suppress_export);
		e->suppress_statement = 0;
		if (context && re_match(e->rc, "\\b(\\w+)\\s*\\(", context, &m2)) {
			size_t n;
			const char *p = re_cap(&m2, 1, &n);

			sb_set(&e->context_function, p, n);
			e->has_context_function = 1;
		} else {
			e->has_context_function = 0;
		}
		return SEG_NEXT;
	} else if (line[0] == ' ' || line[0] == '+' || line[0] == '\0') {
		e->realline++;
		if (e->realcnt != 0)
			e->realcnt--;
		line_stats(e, rawline, &e->length, &e->indent);
		e->prevline = e->stashline;
		e->stashline = line;
		e->previndent = e->stashindent;
		e->stashindent = e->indent;
		e->prevrawline = e->stashrawline;
		e->stashrawline = rawline;
	} else if (e->realcnt == 1) {
		e->realcnt--;
	}

	e->hunk_line = e->realcnt != 0;

	sbuf_reset(&e->here);
	here_num(&e->here, !e->o->file ? e->linenr : e->realline);
	e->here_has_file = 0;

	if (re_match(e->rc, "^diff --git.*?(\\S+)$", line, &m)) {
		size_t n;
		const char *p = re_cap(&m, 1, &n);

		sb_set(&e->realfile, p, n);
		if (!e->o->file) {
			const char *s = memchr(e->realfile.buf, '/', e->realfile.len);

			if (s) {
				size_t cut = (size_t)(s - e->realfile.buf) + 1;

				memmove(e->realfile.buf, e->realfile.buf + cut,
					e->realfile.len - cut + 1);
				e->realfile.len -= cut;
			}
		}
		e->in_commit_log = 0;
		found_file = 1;
	} else if (re_match(e->rc, "^\\+\\+\\+\\s+(\\S+)", line, &m)) {
		size_t n;
		const char *p = re_cap(&m, 1, &n);

		sb_set(&e->realfile, p, n);
		sb_set(&e->p1_prefix, "", 0);
		if (!e->o->file) {
			const char *s = memchr(e->realfile.buf, '/', e->realfile.len);

			if (s) {
				size_t cut = (size_t)(s - e->realfile.buf) + 1;

				/* $p1_prefix is $1 of that s@^([^/]*)/@@ */
				sb_set(&e->p1_prefix, e->realfile.buf, cut - 1);
				memmove(e->realfile.buf, e->realfile.buf + cut,
					e->realfile.len - cut + 1);
				e->realfile.len -= cut;
			}
		}
		e->in_commit_log = 0;
		/* PATCH_PREFIX needs a kernel tree: reviewbot has none */
		if (re_match(e->rc, "^include/asm/", e->realfile.buf, NULL))
			ERROR(e, R_MODIFIED_INCLUDE_ASM,
			      eng_printf(e, "do not modify files in include/asm, change architecture specific files in include/asm-<architecture>\n%s%s\n",
					 e->here.buf, rawline));
		found_file = 1;
	}

	/* make up the handle for any error we report on this line */
	if (e->o->showfile) {
		sbuf_reset(&e->prefix_sb);
		sbuf_addf(&e->prefix_sb, "%s:%ld: ", e->realfile.buf, e->realline);
		e->prefix = e->prefix_sb.buf;
	} else if (e->o->emacs) {
		sbuf_reset(&e->prefix_sb);
		sbuf_addf(&e->prefix_sb, "%s:%ld: ", e->filename,
			  e->o->file ? e->realline : e->linenr);
		e->prefix = e->prefix_sb.buf;
	}

	if (found_file) {
		/* OBSOLETE needs the tree's MAINTAINERS: not checked */
		if (re_match(e->rc, "^(?:drivers/net/|net/|drivers/staging/)", e->realfile.buf, NULL))
			e->check = 1;
		else
			e->check = e->o->strict;
		e->checklicenseline = 1;
		if (!re_match(e->rc, "^MAINTAINERS", e->realfile.buf, NULL)) {
			int last = e->is_binding_patch;

			e->is_binding_patch = re_match(e->rc,
				"^(?:Documentation/devicetree/|include/dt-bindings/)",
				e->realfile.buf, NULL);
			if (last != -1 && (last ^ e->is_binding_patch))
				WARN(e, R_DT_SPLIT_BINDING_PATCH,
				     "DT binding docs and includes should be a separate patch. See: Documentation/devicetree/bindings/submitting-patches.rst\n");
		}
		return SEG_NEXT;
	}

	if (e->realcnt != 0) {
		sbuf_addf(&e->here, "FILE: %s:%ld:", e->realfile.buf, e->realline);
		e->here_has_file = 1;
	}
	{
		/* "$here\n$rawline\n" and "$here\n$prevrawline\n$rawline\n"
		 * (what eng_printf() would give, without the formatting) */
		const char *prev = e->prevrawline ? e->prevrawline : "";
		size_t nh = strlen(e->here.buf), nr = strlen(rawline);
		size_t np = strlen(prev);
		char *hl = eng_alloc(e, nh + nr + 3);
		char *hp = eng_alloc(e, nh + np + nr + 4);

		if (!hl || !hp) {
			e->hereline = e->hereprev = eng_strdup(e, "");
		} else {
			memcpy(hl, e->here.buf, nh);
			hl[nh] = '\n';
			memcpy(hl + nh + 1, rawline, nr);
			memcpy(hl + nh + 1 + nr, "\n", 2);
			memcpy(hp, hl, nh + 1);
			memcpy(hp + nh + 1, prev, np);
			hp[nh + 1 + np] = '\n';
			memcpy(hp + nh + 2 + np, rawline, nr);
			memcpy(hp + nh + 2 + np + nr, "\n", 2);
			e->hereline = hl;
			e->hereprev = hp;
		}
		e->herecurr = e->hereline;
	}
	if (e->realcnt != 0)
		e->res->lines_checked++;
	return SEG_GO;
}

/* The end of a line's turn: count it when its checks were cut short. */
static void line_done(struct eng *e)
{
	if (!e->line_skip || e->timed_out)
		return;
	if (!e->res->lines_skipped++)
		e->res->first_skipped = e->linenr;
}

static void process_lines(struct eng *e)
{
	size_t i, s;

	e->realcnt = 0;
	e->linenr = 0;
	e->in_loop = 1;
	for (i = 0; i < e->nlines && !e->failed; i++) {
		if (e->deadline) {
			/* the line the deadline passed in was cut short */
			int cut = e->timed_out || re_expired(e->rc);

			if (cut || eng_late(e)) {
				e->res->stopped_at = cut ? e->linenr : e->linenr + 1;
				break;
			}
		}
		eng_arena_reset(e);
		e->line_skip = 0;
		if (e->prescan_skip && e->prescan_skip[i])
			eng_fail_line(e);	/* too long to sanitise */
		/* patterns built from the patch's own words: keep a bound */
		re_intern_trim(e->rc, ENG_MAX_RUNTIME_PATTERNS);
		e->linenr++;
		e->line = e->lines[i];
		e->rawline = e->rawlines[i];
		{
			/* $sline = $line with s/$;/ /g */
			char *sl = eng_strdup(e, e->line), *q;

			for (q = sl; (q = strchr(q, '\x1c')); q++)
				*q = ' ';
			e->sline = sl;
		}
		eng_known_lines(e);
		e->raw_comment = get_raw_comment(e, e->line, e->rawline);
		e->has_stat = 0;

		/* (a line that failed goes no further than its bookkeeping in
		 * loop_head: files, hunks and line numbers) */
		if (loop_head(e) == SEG_NEXT || e->line_skip) {
			line_done(e);
			continue;
		}
		if (seg_commit(e) == SEG_NEXT || e->line_skip) {
			if (e->o->extra && !e->line_skip)
				review_line(e);
			line_done(e);
			continue;
		}
		if (e->o->extra)
			review_line(e);
		/* ignore non-hunk lines and lines being removed */
		if (e->line_skip || !e->hunk_line || e->line[0] == '-') {
			line_done(e);
			continue;
		}
		for (s = 0; s < sizeof(segments) / sizeof(segments[0]); s++)
			if (segments[s](e) == SEG_NEXT || e->line_skip)
				break;
		line_done(e);
	}
	e->in_loop = 0;
	memset(e->known_s, 0, sizeof(e->known_s));
	eng_arena_reset(e);
	e->line_skip = 0;
}

/* The checks after the last line. */
static void process_end(struct eng *e)
{
	const struct chk_opts *o = e->o;

	if (e->nlines == 0) {
		e->res->empty = 1;
		return;
	}
	if (!o->patch && !e->is_patch) {
		e->res->silent = 1;
		return;
	}
	if (!e->is_patch && !re_match(e->rc, "cover-letter\\.patch$", e->filename, NULL))
		ERROR(e, R_NOT_UNIFIED_DIFF,
		      "Does not appear to be a unified-diff format patch\n");
	/*
	 * 6.12: a message that quotes a crash report, syzkaller or stable@
	 * should say what it fixes (not with -f, as checkpatch.pl).  With
	 * --extra, reviewbot's MISSING_FIXES_TAG may have said so already,
	 * on the line that shows the fix: then not twice.
	 */
	if (e->cpv >= CP_6_12 && e->is_patch && e->has_commit_log &&
	    o->fixes_tag && !o->file && !(o->extra && e->fixes_said)) {
		if (e->needs_fixes_tag.len && !e->is_revert && !e->fixes_tag)
			WARN(e, R_MISSING_FIXES_TAG,
			     eng_printf(e, "The commit message has '%s', perhaps it also needs a 'Fixes:' tag?\n",
					e->needs_fixes_tag.buf));
	}
	if (e->is_patch && e->has_commit_log && o->signoff) {
		if (e->signoff == 0) {
			ERROR(e, R_MISSING_SIGN_OFF, "Missing Signed-off-by: line(s)\n");
		} else if (e->authorsignoff != 1) {
			char *sob_msg = eng_printf(e, "'From: %s' != 'Signed-off-by: %s'",
						   e->author.buf, e->author_sob.buf);

			if (e->authorsignoff == 0)
				ERROR(e, R_NO_AUTHOR_SIGN_OFF,
				      eng_printf(e, "Missing Signed-off-by: line by nominal patch author '%s'\n",
						 e->author.buf));
			else if (e->authorsignoff == 2)
				CHK(e, R_FROM_SIGN_OFF_MISMATCH,
				    eng_printf(e, "From:/Signed-off-by: email comments mismatch: %s\n", sob_msg));
			else if (e->authorsignoff == 3)
				WARN(e, R_FROM_SIGN_OFF_MISMATCH,
				     eng_printf(e, "From:/Signed-off-by: email name mismatch: %s\n", sob_msg));
			else if (e->authorsignoff == 4)
				WARN(e, R_FROM_SIGN_OFF_MISMATCH,
				     eng_printf(e, "From:/Signed-off-by: email address mismatch: %s\n", sob_msg));
			else if (e->authorsignoff == 5)
				WARN(e, R_FROM_SIGN_OFF_MISMATCH,
				     eng_printf(e, "From:/Signed-off-by: email subaddress mismatch: %s\n", sob_msg));
		}
	}
	seg_final(e);
	if (o->extra)
		review_final(e);
}

static void eng_release(struct eng *e)
{
	free(e->prescan_skip);
	free(e->rawlines);
	free(e->lines);
	free(e->rawbuf);
	eng_line_pool_free(e);
	arena_free_all(e);
	sbuf_release(&e->av_paren_type);
	sbuf_release(&e->author);
	sbuf_release(&e->author_sob);
	sbuf_release(&e->needs_fixes_tag);
	sbuf_release(&e->realfile);
	sbuf_release(&e->here);
	sbuf_release(&e->context_function);
	sbuf_release(&e->p1_prefix);
	sbuf_release(&e->prefix_sb);
	lineset_release(&e->suppress_ifbraces);
	lineset_release(&e->suppress_whiletrailers);
	lineset_release(&e->suppress_export);
	seg_commit_release(e);
	review_release(e);
}

struct chk_checker {
	const struct chk_opts *o;
	struct re_ctx *rc;	/* compiled patterns live across inputs */
	int check;		/* checkpatch.pl's $check outlives one file */
	/* so do %camelcase and $emitted_corrupt (globals of the script) */
	struct camelcase_set *camelcase;
	struct linksym_set *linksyms;	/* and %maybe_linker_symbol (6.12) */
	int emitted_corrupt;
};

struct chk_checker *chk_new(const struct chk_opts *o)
{
	struct chk_checker *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->o = o;
	c->check = o->strict;
	c->rc = re_ctx_new();
	if (!c->rc || re_set_typedefs(c->rc, o->typedefs)) {
		chk_free(c);
		return NULL;
	}
	re_use_precompiled(c->rc, o->patterns);
	return c;
}

int chk_export_patterns(struct chk_checker *c,
			int (*cb)(void *arg, const char *text, int dyn,
				  unsigned cpv, const unsigned char *bytes,
				  size_t len),
			void *arg)
{
	return re_export(c->rc, cb, arg);
}

unsigned long chk_pattern_compiles(const struct chk_checker *c)
{
	return re_compiles(c->rc);
}

void chk_free(struct chk_checker *c)
{
	if (!c)
		return;
	if (c->camelcase) {
		struct eng e;

		memset(&e, 0, sizeof(e));
		e.camelcase = c->camelcase;
		seg_c_macros_release(&e);
	}
	linksym_free(c->linksyms);
	re_ctx_free(c->rc);
	free(c);
}

int chk_run(const struct chk_opts *o, const char *name, const char *buf,
	    size_t len, struct chk_result *res)
{
	struct chk_checker *c = chk_new(o);
	int ret;

	if (!c) {
		memset(res, 0, sizeof(*res));
		res->error = strdup("out of memory");
		res->flags = CHK_LIMIT;
		return -1;
	}
	ret = chk_check(c, name, buf, len, res);
	chk_free(c);
	return ret;
}

int chk_reset(struct chk_checker *c)
{
	const struct chk_opts *o = c->o;

	/* what chk_new() sets, and checkpatch.pl's globals that outlive
	 * one file (see struct chk_checker) */
	c->check = o->strict;
	if (c->camelcase) {
		struct eng e;

		memset(&e, 0, sizeof(e));
		e.camelcase = c->camelcase;
		seg_c_macros_release(&e);
		c->camelcase = NULL;
	}
	linksym_free(c->linksyms);
	c->linksyms = NULL;
	c->emitted_corrupt = 0;
	re_ctx_reset(c->rc);
	/* o->typedefs may have changed since chk_new(): as chk_new() does */
	if (re_set_typedefs(c->rc, o->typedefs))
		return -1;
	re_use_precompiled(c->rc, o->patterns);
	return 0;
}

/*
 * The thread's checker for chk_run_reuse(): the pointer lives in the
 * thread's own storage; the key only frees it when the thread exits.
 */
static _Thread_local struct chk_checker *thread_checker;
static pthread_key_t thread_key;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static int thread_key_ok;

static void thread_checker_free(void *p)
{
	chk_free(p);
	thread_checker = NULL;
}

static void thread_key_init(void)
{
	thread_key_ok = !pthread_key_create(&thread_key, thread_checker_free);
}

void chk_thread_release(void)
{
	chk_free(thread_checker);
	thread_checker = NULL;
	if (thread_key_ok)
		pthread_setspecific(thread_key, NULL);
}

int chk_run_reuse(const struct chk_opts *o, const char *name, const char *buf,
		  size_t len, struct chk_result *res)
{
	struct chk_checker *c = thread_checker;

	pthread_once(&thread_once, thread_key_init);
	if (c && (c->o != o || chk_reset(c))) {
		chk_thread_release();
		c = NULL;
	}
	if (!c) {
		c = chk_new(o);
		if (!c)
			return chk_run(o, name, buf, len, res);
		thread_checker = c;
		if (thread_key_ok)
			pthread_setspecific(thread_key, c);
	}
	return chk_check(c, name, buf, len, res);
}

/*
 * res->flags and res->error for what cut the check short, if anything:
 * 0, or -1 when something did.  One sentence for people, the most
 * important reason first; the flags keep all of them.
 */
static int incomplete(struct eng *e, struct chk_result *res)
{
	struct sbuf why;

	if (e->timed_out)
		res->flags |= CHK_TIMED_OUT;
	if (e->failed)
		res->flags |= CHK_LIMIT;
	if (res->lines_skipped)
		res->flags |= CHK_LINE_SKIPPED;
	if (!res->flags)
		return 0;
	if (res->error)
		return -1;
	sbuf_init(&why, 1024);
	if (e->timed_out && res->stopped_at > e->linenr)
		sbuf_addf(&why, "check timed out after %lu ms in the checks after the last line",
			  e->o->time_limit_ms);
	else if (e->timed_out)
		sbuf_addf(&why, "check timed out after %lu ms: lines from #%ld on not fully checked",
			  e->o->time_limit_ms, res->stopped_at);
	else if (e->failed)
		sbuf_addf(&why, "%s; the check is incomplete",
			  e->failed_why ? e->failed_why : "a limit was reached");
	else if (res->lines_skipped == 1)
		sbuf_addf(&why, "line #%ld too complex to check (scratch memory limit): its remaining checks were skipped",
			  res->first_skipped);
	else
		sbuf_addf(&why, "%ld lines too complex to check (scratch memory limit), the first #%ld: their remaining checks were skipped",
			  res->lines_skipped, res->first_skipped);
	res->error = why.err ? NULL : sbuf_detach(&why, NULL);
	sbuf_release(&why);
	return -1;
}

/*
 * One input: buf[0, len) when wbuf is NULL (copied before it is split),
 * else wbuf[0, len), split in place (see chk_check_buf()).
 */
/* Bytes of JIT code (re_jit_budget_add()) per byte of input */
#define CHK_JIT_PER_BYTE	4

static int check_input(struct chk_checker *c, const char *name,
		       const char *buf, char *wbuf, size_t len,
		       struct chk_result *res)
{
	const struct chk_opts *o = c->o;
	struct eng e;
	struct sbuf diff;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	memset(&e, 0, sizeof(e));
	e.o = o;
	e.res = res;
	e.filename = name;
	e.rc = c->rc;
	/* the version's rules and vocabulary (a value out of range: the
	 * newest, as the default) */
	e.cpv = (unsigned)o->cp_version < CP__COUNT ? o->cp_version : CP_LATEST;
	re_set_version(e.rc, (int)e.cpv);
	/* @typeListFile and @modifierListFile start empty for each file */
	re_types_reset(e.rc);
	/* JIT code in proportion to the text it serves: a large input may
	 * JIT-compile more, and a checker reused over many, all it wants */
	re_jit_budget_add(e.rc, len * CHK_JIT_PER_BYTE);
	sbuf_init(&e.av_paren_type, 1u << 20);
	sbuf_init(&e.author, 1u << 16);
	sbuf_init(&e.author_sob, 1u << 16);
	sbuf_init(&e.needs_fixes_tag, 1u << 16);
	sbuf_init(&e.realfile, 1u << 16);
	sbuf_init(&e.here, 1u << 17);
	sbuf_init(&e.context_function, 1u << 16);
	sbuf_init(&e.p1_prefix, 1u << 16);
	sbuf_init(&e.prefix_sb, 1u << 17);
	sbuf_init(&diff, CHK_MAX_INPUT + (CHK_MAX_INPUT / 2));
	e.is_binding_patch = -1;
	e.in_header_lines = o->file ? 0 : 1;
	e.last_git_commit_id_linenr = -1;
	e.last_coalesced_string_linenr = -1;
	e.prev_values = 'E';
	e.checklicenseline = 1;
	e.check = c->check;
	e.camelcase = c->camelcase;
	e.linksyms = c->linksyms;
	e.emitted_corrupt = c->emitted_corrupt;
	e.clean = 1;
	e.prevline = e.prevrawline = e.stashline = e.stashrawline = "";
	e.prefix = "";

	if (len > CHK_MAX_INPUT) {
		res->error = strdup("input too large");
		res->flags |= CHK_LIMIT;
		ret = -1;
		goto out;
	}
	if (o->file) {
		if (file_as_diff(&e, name, buf, len, &diff)) {
			res->error = strdup("input too large");
			res->flags |= CHK_LIMIT;
			ret = -1;
			goto out;
		}
		/* diff is ours: split it in place */
		wbuf = diff.buf;
		len = diff.len;
	} else if (!wbuf) {
		e.rawbuf = malloc(len + 1);
		if (!e.rawbuf) {
			res->error = strdup("too many lines or out of memory");
			res->flags |= CHK_LIMIT;
			ret = -1;
			goto out;
		}
		if (len)
			memcpy(e.rawbuf, buf, len);
		e.rawbuf[len] = '\0';
		wbuf = e.rawbuf;
	}
	if (split_lines(&e, wbuf, len)) {
		res->error = strdup("too many lines or out of memory");
		res->flags |= CHK_LIMIT;
		ret = -1;
		goto out;
	}
	if (o->time_limit_ms) {
		/* (a limit past CHK_TIME_LIMIT_MAX_MS is as good as none) */
		uint64_t ms = o->time_limit_ms < CHK_TIME_LIMIT_MAX_MS ?
			      o->time_limit_ms : CHK_TIME_LIMIT_MAX_MS;

		e.deadline = re_now_ns() + ms * 1000000u;
	}
	re_set_deadline(e.rc, e.deadline);
	prescan(&e);
	if (e.timed_out)
		res->stopped_at = 1;	/* no line was checked */
	if (!e.failed && !e.timed_out)
		process_lines(&e);
	if (!e.failed && !e.timed_out) {
		process_end(&e);
		/* the whole-patch checks ran out of scratch memory or time */
		if (e.timed_out)
			res->stopped_at = e.linenr + 1;
		else if (e.line_skip && !e.failed) {
			e.failed = 1;
			e.failed_why = "the checks after the last line ran out of scratch memory";
		}
	}
	ret = incomplete(&e, res);
	re_set_deadline(e.rc, 0);
	if (re_error(e.rc) && !res->error) {
		size_t n = strlen(re_error(e.rc));

		res->error = malloc(n + 32);
		if (res->error) {
			memcpy(res->error, "pattern error: ", 15);
			memcpy(res->error + 15, re_error(e.rc), n + 1);
		}
		ret = -1;
	}
out:
	res->clean = e.clean;
	res->is_patch = e.is_patch;
	res->rpt_cleaners = e.rpt_cleaners;
	res->show_checks = e.check;
	c->check = e.check;
	c->camelcase = e.camelcase;
	c->linksyms = e.linksyms;
	c->emitted_corrupt = e.emitted_corrupt;
	sbuf_release(&diff);
	eng_release(&e);
	return ret;
}

int chk_check(struct chk_checker *c, const char *name, const char *buf,
	      size_t len, struct chk_result *res)
{
	return check_input(c, name, buf, NULL, len, res);
}

int chk_check_buf(struct chk_checker *c, const char *name, char *buf,
		  size_t len, struct chk_result *res)
{
	return check_input(c, name, buf, buf, len, res);
}
