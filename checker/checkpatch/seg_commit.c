// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: the commit message and mail headers (checkpatch.pl 6.1,
 * process(), from "Verify the existence of a commit log" to just before
 * "ignore non-hunk lines and lines being removed").
 *
 * reviewbot has no kernel tree and no git repository, so this behaves as
 * checkpatch.pl run with --no-tree outside a git work tree: git_commit_info()
 * hands back the caller's defaults (the placeholder id and the description
 * as written, or undef when asked with undef), and the absolute-path check
 * (USE_RELATIVE_PATH), which needs $tree, never runs.
 */
#include "eng.h"
#include "vocab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../rfc2047.h"
#include "../spelling.h"
#include "../banned.h"

/* ---- %signatures: a set of strings ---- */

#define SIG_MAX (1u << 20)	/* distinct signatures remembered */

struct sig_set {
	char **s;
	uint64_t *h;
	size_t n, alloc;
	uint32_t *slot;		/* index + 1 into s, 0 empty */
	size_t nslot;
};

static uint64_t sig_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int sig_grow(struct sig_set *ss)
{
	size_t ns = ss->nslot ? ss->nslot * 2 : 64, i, j;
	uint32_t *slot = calloc(ns, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < ss->n; i++) {
		for (j = (size_t)ss->h[i] & (ns - 1); slot[j]; j = (j + 1) & (ns - 1))
			;
		slot[j] = (uint32_t)(i + 1);
	}
	free(ss->slot);
	ss->slot = slot;
	ss->nslot = ns;
	return 0;
}

/* 1 when s was already in the set; else adds it (when there is room) */
static int sig_seen(struct eng *e, const char *s)
{
	struct sig_set *ss = e->sigs;
	uint64_t h = sig_hash(s);
	size_t j;

	if (!ss) {
		ss = e->sigs = calloc(1, sizeof(*ss));
		if (!ss)
			return 0;
	}
	if (ss->nslot) {
		for (j = (size_t)h & (ss->nslot - 1); ss->slot[j];
		     j = (j + 1) & (ss->nslot - 1)) {
			size_t i = ss->slot[j] - 1;

			if (ss->h[i] == h && !strcmp(ss->s[i], s))
				return 1;
		}
	}
	if (ss->n >= SIG_MAX)
		return 0;
	if ((ss->n + 1) * 2 > ss->nslot && sig_grow(ss))
		return 0;
	if (ss->n == ss->alloc) {
		size_t na = ss->alloc ? ss->alloc * 2 : 16;
		char **ns = realloc(ss->s, na * sizeof(*ns));
		uint64_t *nh;

		if (!ns)
			return 0;
		ss->s = ns;
		nh = realloc(ss->h, na * sizeof(*nh));
		if (!nh)
			return 0;
		ss->h = nh;
		ss->alloc = na;
	}
	ss->s[ss->n] = strdup(s);
	if (!ss->s[ss->n])
		return 0;
	ss->h[ss->n] = h;
	for (j = (size_t)h & (ss->nslot - 1); ss->slot[j]; j = (j + 1) & (ss->nslot - 1))
		;
	ss->slot[j] = (uint32_t)++ss->n;
	return 0;
}

void seg_commit_release(struct eng *e)
{
	struct sig_set *ss = e->sigs;
	size_t i;

	if (!ss)
		return;
	for (i = 0; i < ss->n; i++)
		free(ss->s[i]);
	free(ss->s);
	free(ss->h);
	free(ss->slot);
	free(ss);
	e->sigs = NULL;
}

/* ---- small helpers ---- */

/*
 * rawline =~ /^\+\s*\*\s*$word / for a word of letters: that pattern has
 * one way to match (\s takes no '*' and no letter), so it is walked here
 * instead of compiled once for every word a file ends a comment line with.
 */
static int comment_line_starts_with(const char *rawline, const char *word)
{
	const char *p = rawline;
	size_t n = strlen(word);

	if (*p++ != '+')
		return 0;
	while (vocab_is_space((unsigned char)*p))
		p++;
	if (*p++ != '*')
		return 0;
	while (vocab_is_space((unsigned char)*p))
		p++;
	return !strncmp(p, word, n) && p[n] == ' ';
}

static int lc(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int uc(int c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

/* ucfirst(lc($s)) */
static char *ucfirst_lc(struct eng *e, const char *s)
{
	size_t n = strlen(s), i;
	char *r = eng_alloc(e, n + 1);

	if (!r)
		return eng_strdup(e, "");
	for (i = 0; i < n; i++)
		r[i] = (char)lc((unsigned char)s[i]);
	r[n] = '\0';
	r[0] = (char)uc((unsigned char)r[0]);
	return r;
}

/*
 * copy_spacing($s) cut at n, then rep times c: the pointer line under a
 * report ("^" marks); NULL when out of scratch memory.
 */
static char *pointer_line(struct eng *e, const char *s, size_t n, char c,
			  size_t rep)
{
	char *r = eng_alloc(e, n + rep + 1);
	size_t i;

	if (!r)
		return NULL;
	for (i = 0; i < n; i++)
		r[i] = s[i] == '\t' ? '\t' : ' ';
	memset(r + n, c, rep);
	r[n + rep] = '\0';
	return r;
}

/* get_edit_distance(): lower-cased, '-' removed, Levenshtein */
static size_t edit_distance(struct eng *e, const char *a, const char *b)
{
	char *x = eng_alloc(e, strlen(a) + 1), *y = eng_alloc(e, strlen(b) + 1);
	size_t nx = 0, ny = 0, i, j, *row;

	if (!x || !y)
		return (size_t)-1;
	for (; *a; a++)
		if (*a != '-')
			x[nx++] = (char)lc((unsigned char)*a);
	for (; *b; b++)
		if (*b != '-')
			y[ny++] = (char)lc((unsigned char)*b);
	row = eng_alloc(e, (ny + 1) * sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (j = 0; j <= ny; j++)
		row[j] = j;
	for (i = 1; i <= nx; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= ny; j++) {
			size_t up = row[j], best;

			if (x[i - 1] == y[j - 1]) {
				best = diag;
			} else {
				best = row[j - 1] < up ? row[j - 1] : up;
				if (diag < best)
					best = diag;
				best++;
			}
			diag = up;
			row[j] = best;
		}
	}
	return row[ny];
}

/* find_standard_signature() */
static const char *find_standard_signature(struct eng *e, const char *sign_off)
{
	static const char *const std[] = {
		"Signed-off-by:", "Co-developed-by:", "Acked-by:", "Tested-by:",
		"Reviewed-by:", "Reported-by:", "Suggested-by:",
	};
	size_t i;

	for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (edit_distance(e, sign_off, std[i]) <= 2)
			return std[i];
	return "";
}

/* substr($s, 1, -1) of a string of at least two bytes */
static char *strip_ends(struct eng *e, const char *s)
{
	size_t n = strlen(s);

	return n < 2 ? eng_strdup(e, "") : eng_strndup(e, s + 1, n - 2);
}

/* length of the longest prefix matching /^$UTF8*$/'s $UTF8 */
static size_t utf8_prefix_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *p = s;

	for (;;) {
		unsigned char c = p[0];

		if (c == 0x09 || c == 0x0a || c == 0x0d || (c >= 0x20 && c <= 0x7e)) {
			p++;
		} else if (c >= 0xc2 && c <= 0xdf && (p[1] & 0xc0) == 0x80) {
			p += 2;
		} else if (c == 0xe0 && p[1] >= 0xa0 && p[1] <= 0xbf &&
			   (p[2] & 0xc0) == 0x80) {
			p += 3;
		} else if (((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) &&
			   (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80) {
			p += 3;
		} else if (c == 0xed && p[1] >= 0x80 && p[1] <= 0x9f &&
			   (p[2] & 0xc0) == 0x80) {
			p += 3;
		} else if (c == 0xf0 && p[1] >= 0x90 && p[1] <= 0xbf &&
			   (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80) {
			p += 4;
		} else if (c >= 0xf1 && c <= 0xf3 && (p[1] & 0xc0) == 0x80 &&
			   (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80) {
			p += 4;
		} else if (c == 0xf4 && p[1] >= 0x80 && p[1] <= 0x8f &&
			   (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80) {
			p += 4;
		} else {
			return (size_t)(p - s);
		}
	}
}

/* ---- the checks, in checkpatch.pl's order ---- */

/* Check the patch for a From: (decode("MIME-Header", $line) =~ /^From:/) */
static void check_from(struct eng *e)
{
	const char *line = e->line;
	int utf8 = MQ(e, "(?i)=\\?utf-8\\?", line), wide = utf8;
	struct sbuf dec, au;
	const char *dl = line;
	long cur = e->linenr;
	const char *r;
	char *author;

	sbuf_init(&dec, ENG_ARENA_MAX);
	/* decoding changes nothing without an encoded word or a CR */
	if (strstr(line, "=?") || strchr(line, '\r')) {
		int w = rfc2047_decode(line, strlen(line),
				       utf8 ? RFC2047_UTF8 : RFC2047_PRINT, &dec);

		if (w < 0) {
			sbuf_release(&dec);
			return;
		}
		wide = w;
		dl = dec.buf;
	}
	if (!M(e, "^From:\\s*(.*)", dl)) {
		sbuf_release(&dec);
		return;
	}
	sbuf_init(&au, ENG_ARENA_MAX);
	sbuf_addstr(&au, eng_cap(e, 1));
	sbuf_release(&dec);
	/* folded header lines, raw bytes: characters of their own in Perl's
	 * (encoded or wide) string */
	while ((r = eng_rawline(e, cur + 1)) && (cur++, M(e, "^[ \\t]\\s*(.*)", r))) {
		char *more = eng_cap(e, 1);

		if (wide)
			rfc2047_latin1_to_utf8(more, strlen(more), &au);
		else
			sbuf_addstr(&au, more);
	}
	author = eng_sbuf_str(e, &au);
	sbuf_release(&au);
	/* reviewbot (--extra): a mail from b4's web relay is its
	 * X-Original-From:'s (checkpatch.pl takes the relay's address) */
	if (e->o->extra)
		author = eng_strdup(e, rv_relay_author(e, e->linenr, author));
	author = eng_subst(e, "\"", "", author, 1);
	author = reformat_email(e, author);
	sbuf_reset(&e->author);
	sbuf_addstr(&e->author, author);
}

/* Check the patch for a signoff: */
static void check_signoff(struct eng *e)
{
	char *ctx;

	if (!M(e, "(?i)^\\s*signed-off-by:\\s*(.*)", e->line))
		return;
	ctx = eng_cap(e, 1);
	e->signoff++;
	e->in_commit_log = 0;
	if (e->author.len && e->authorsignoff != 1) {
		if (same_email_addresses(e, ctx, e->author.buf)) {
			e->authorsignoff = 1;
		} else {
			struct email_parts a, b;

			parse_email(e, ctx, &a);
			parse_email(e, e->author.buf, &b);
			if (!strcasecmp(a.address, b.address) &&
			    !strcmp(a.name, b.name)) {
				sbuf_reset(&e->author_sob);
				sbuf_addstr(&e->author_sob, ctx);
				e->authorsignoff = 2;
			} else if (!strcasecmp(a.address, b.address)) {
				sbuf_reset(&e->author_sob);
				sbuf_addstr(&e->author_sob, ctx);
				e->authorsignoff = 3;
			} else if (!strcmp(a.name, b.name)) {
				char *a1 = a.address, *a2 = b.address;

				sbuf_reset(&e->author_sob);
				sbuf_addstr(&e->author_sob, ctx);
				e->authorsignoff = 4;
				if (M(e, "(\\S+)\\+\\S+(\\@.*)", a1))
					a1 = eng_cat(e, eng_cap(e, 1), eng_cap(e, 2));
				if (M(e, "(\\S+)\\+\\S+(\\@.*)", a2))
					a2 = eng_cat(e, eng_cap(e, 1), eng_cap(e, 2));
				if (!strcmp(a1, a2))
					e->authorsignoff = 5;
			}
		}
	}
}

/* The email part of "Check signature styles". */
static void check_signature_email(struct eng *e, const char *email)
{
	struct email_parts p;
	char *suggested, *stripped;

	parse_email(e, email, &p);
	suggested = format_email(e, &p);
	if (!suggested[0]) {
		ERROR(e, R_BAD_SIGN_OFF,
		      eng_printf(e, "Unrecognized email address: '%s'\n%s", email,
				 e->herecurr));
		return;
	}
	/* Don't force email to have quotes; allow just an angle bracketed
	 * address */
	if (!same_email_addresses(e, email, suggested))
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "email address '%s' might be better as '%s'\n%s",
				email, suggested, e->herecurr));

	/* Address part shouldn't have comments */
	stripped = eng_subst(e, "\\([^\\(\\)]*\\)", "", p.address, 1);
	if (strcmp(p.address, stripped))
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "address part of email should not have comments: '%s'\n%s",
				p.address, e->herecurr));

	/* Only one name comment should be allowed */
	if (re_count(e->rc, "\\([^\\)]+\\)", p.name_comment,
		     strlen(p.name_comment)) > 1)
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "Use a single name comment in email: '%s'\n%s",
				email, e->herecurr));

	/* stable@vger.kernel.org or stable@kernel.org shouldn't have an email
	 * name.  In addition comments should strictly begin with a # */
	if (MQ(e, "(?i)^.*stable\\@(?:vger\\.)?kernel\\.org", email)) {
		if ((p.comment[0] && !MQ(e, "^#.+", p.comment)) || p.name[0]) {
			char *cur_name = eng_subst(e, "[a-zA-Z\\s\\-\\\"]+", "", p.name, 1);
			char *nc = p.comment;

			/* Remove brackets enclosing comment text and # from
			 * start of comments to get comment text */
			nc = eng_subst(e, "^\\((.*)\\)$", "$1", nc, 0);
			nc = eng_subst(e, "^\\[(.*)\\]$", "$1", nc, 0);
			nc = eng_subst(e, "^[\\s\\#]+|\\s+$", "", nc, 1);
			if (strcmp(cur_name, nc))
				nc = trim(e, eng_printf(e, "%s %s", nc, cur_name));
			if (nc[0])
				nc = eng_printf(e, " # %s", nc);
			WARN(e, R_BAD_STABLE_ADDRESS_STYLE,
			     eng_printf(e, "Invalid email format for stable: '%s', prefer '%s%s'\n%s",
					email, p.address, nc, e->herecurr));
		}
	} else if (p.comment[0] && !MQ(e, "^(?:#.+|\\(.+\\))$", p.comment)) {
		struct email_parts q = p;
		char *nc = p.comment;

		/* Extract comment text from within brackets or c89 style
		 * comments */
		nc = eng_subst(e, "^\\[(.*)\\]$", "$1", nc, 0);
		nc = eng_subst(e, "^\\/\\*(.*)\\*\\/$", "$1", nc, 0);
		nc = trim(e, nc);
		/* a single non-word character is usually a typo */
		nc = eng_subst(e, "^[^\\w]$", "", nc, 0);
		if (nc[0])
			nc = eng_printf(e, "(%s)", nc);
		q.comment = nc;
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "Unexpected content after email: '%s', should be: '%s'\n%s",
				email, format_email(e, &q), e->herecurr));
	}
}

/* Check signature styles; SEG_NEXT after an Assisted-by: line */
static int check_signature(struct eng *e)
{
	const char *line = e->line;
	char *space_before, *sign_off, *space_after, *email, *ucfirst_sign_off;
	char *sig, *p;

	if (e->in_header_lines ||
	    !M(e, "(?i)^(\\s*)([a-z0-9_-]+by:|$signature_tags)(\\s*)(.*)", line))
		return SEG_GO;
	space_before = eng_cap(e, 1);
	sign_off = eng_cap(e, 2);
	space_after = eng_cap(e, 3);
	email = eng_cap(e, 4);
	ucfirst_sign_off = ucfirst_lc(e, sign_off);

	if (!MQ(e, "$signature_tags", sign_off)) {
		const char *suggested = find_standard_signature(e, sign_off);

		if (!suggested[0])
			WARN(e, R_BAD_SIGN_OFF,
			     eng_printf(e, "Non-standard signature: %s\n%s", sign_off,
					e->herecurr));
		else
			WARN(e, R_BAD_SIGN_OFF,
			     eng_printf(e, "Non-standard signature: '%s' - perhaps '%s'?\n%s",
					sign_off, suggested, e->herecurr));
	}
	if (space_before[0])
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "Do not use whitespace before %s\n%s",
				ucfirst_sign_off, e->herecurr));
	if (MQ(e, "(?i)-by:$", sign_off) && strcmp(sign_off, ucfirst_sign_off))
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "'%s' is the preferred signature form\n%s",
				ucfirst_sign_off, e->herecurr));
	if (strcmp(space_after, " "))
		WARN(e, R_BAD_SIGN_OFF,
		     eng_printf(e, "Use a single space after %s\n%s",
				ucfirst_sign_off, e->herecurr));

	/* Assisted-by uses AGENT_NAME:MODEL_VERSION format, not email */
	if (MQ(e, "(?i)^Assisted-by:", sign_off)) {
		if (!MQ(e, "^\\S+:\\S+", email))
			WARN(e, R_BAD_SIGN_OFF,
			     eng_cat(e, "Assisted-by expects 'AGENT_NAME:MODEL_VERSION [TOOL1] [TOOL2]' format\n",
				     e->herecurr));
		return SEG_NEXT;
	}

	check_signature_email(e, email);

	/* Check for duplicate signatures */
	sig = eng_alloc(e, strlen(line) + 1);
	if (sig) {
		const char *q;

		for (p = sig, q = line; *q; q++)
			if (!vocab_is_space((unsigned char)*q))
				*p++ = (char)lc((unsigned char)*q);
		*p = '\0';
		if (sig_seen(e, sig))
			WARN(e, R_BAD_SIGN_OFF,
			     eng_cat(e, "Duplicate signature\n", e->herecurr));
	}

	/* Check Co-developed-by: immediately followed by Signed-off-by: with
	 * same name and email (6.12: the messages end in $herecurr, and the
	 * Signed-off-by: must start its line) */
	if (MQ(e, "(?i)^co-developed-by:$", sign_off)) {
		const char *next = eng_rawline(e, e->linenr + 1);

		if (e->cpv >= CP_6_12) {
			if (!strcmp(email, e->author.buf))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by: should not be used to attribute nominal patch author '%s'\n%s",
						e->author.buf, e->herecurr));
			if (!eng_line(e, e->linenr + 1))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_cat(e, "Co-developed-by: must be immediately followed by Signed-off-by:\n",
					     e->herecurr));
			else if (!M(e, "(?i)^signed-off-by:\\s*(.*)", next))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by: must be immediately followed by Signed-off-by:\n%s%s\n",
						e->herecurr, next));
			else if (strcmp(eng_cap(e, 1), email))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by and Signed-off-by: name/email do not match\n%s%s\n",
						e->herecurr, next));
		} else {
			if (!strcmp(email, e->author.buf))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by: should not be used to attribute nominal patch author '%s'\n%s\n%s",
						e->author.buf, e->here.buf, e->rawline));
			if (!eng_line(e, e->linenr + 1))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by: must be immediately followed by Signed-off-by:\n%s\n%s",
						e->here.buf, e->rawline));
			else if (!M(e, "(?i)^\\s*signed-off-by:\\s*(.*)", next))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by: must be immediately followed by Signed-off-by:\n%s\n%s\n%s",
						e->here.buf, e->rawline, next));
			else if (strcmp(eng_cap(e, 1), email))
				WARN(e, R_BAD_SIGN_OFF,
				     eng_printf(e, "Co-developed-by and Signed-off-by: name/email do not match \n%s\n%s\n%s",
						e->here.buf, e->rawline, next));
		}
	}

	/* 6.12: check if Reported-by: is followed by a Closes: tag */
	if (e->cpv >= CP_6_12 &&
	    MQ(e, "(?i)^reported(?:|-and-tested)-by:$", sign_off)) {
		const char *next = eng_rawline(e, e->linenr + 1);

		if (!eng_line(e, e->linenr + 1))
			WARN(e, R_BAD_REPORTED_BY_LINK,
			     eng_printf(e, "Reported-by: should be immediately followed by Closes: with a URL to the report\n%s\n",
					e->herecurr));
		else if (!MQ(e, "(?i)^closes:\\s*", next))
			WARN(e, R_BAD_REPORTED_BY_LINK,
			     eng_printf(e, "Reported-by: should be immediately followed by Closes: with a URL to the report\n%s%s\n",
					e->herecurr, next));
	}
	return SEG_GO;
}

/* 6.12: a reverted commit, or a message that quotes what a fix needs a
 * Fixes: tag for (seg_final() says so) */
static void check_bug_fix(struct eng *e)
{
	const char *line = e->line;

	if (e->in_header_lines || e->is_patch)
		return;
	if (MQ(e, "^This reverts commit", line))
		e->is_revert = 1;
	if (M(e, "((?:(?:BUG: K.|UB)SAN: |Call Trace:|stable\\@|syzkaller))", line)) {
		sbuf_reset(&e->needs_fixes_tag);
		re_cap_add(&e->m, 1, &e->needs_fixes_tag);
	}
}

/*
 * reviewbot (--extra): the id a Fixes: tag should carry, from the one it
 * has, never checkpatch.pl's placeholder 0123456789ab (which it prints
 * without git): its first 12 characters in lower case, or what to put
 * there when it has fewer.
 */
static const char *fixes_id(struct eng *e, const char *id)
{
	char *s;
	size_t i;

	if (strlen(id) < 12)
		return "<the first 12 characters of its sha1>";
	s = eng_strndup(e, id, 12);
	for (i = 0; s[i]; i++)
		if (s[i] >= 'A' && s[i] <= 'F')
			s[i] = (char)(s[i] + 32);
	return s;
}

/* reviewbot (--extra): the title a Fixes: line without parentheses
 * gives after its id, or what to put there */
static const char *fixes_title(struct eng *e, const char *line)
{
	if (M(e, "(?i)^\\s*fixes:?\\s*(?:commit\\s*)?[0-9a-f]{5,}\\s+[\"(]*(.*?)[\")]*\\s*$", line) &&
	    *eng_cap(e, 1))
		return eng_cap(e, 1);
	return "<its subject line>";
}

/* Check Fixes: styles is correct (6.12: any Fixes: line that names an
 * id, with or without a title) */
static void check_fixes_612(struct eng *e)
{
	const char *line = e->line;
	char *tag, *orig_commit, *title = "commit title";
	int tag_case, tag_space, id_length, id_case, title_has_quotes = 0, titled;

	if (e->in_header_lines ||
	    !M(e, "(?i)^\\s*(fixes:?)\\s*(?:commit\\s*)?([0-9a-f]{5,40})(?:\\s*($balanced_parens))?",
	       line))
		return;
	tag = eng_cap(e, 1);
	orig_commit = eng_cap(e, 2);
	e->fixes_tag = 1;
	titled = eng_cap_def(e, 3);
	if (titled) {
		/* Always strip leading/trailing parens then double quotes if
		 * existing */
		title = strip_ends(e, eng_cap(e, 3));
		if (MQ(e, "^\".*\"$", title)) {
			title = strip_ends(e, title);
			title_has_quotes = 1;
		}
	}
	tag_case = strcmp(tag, "Fixes:") != 0;
	tag_space = !MQ(e, "(?i)^fixes:? [0-9a-f]{5,40} ($balanced_parens)", line);
	id_length = !MQ(e, "(?i)^[0-9a-f]{12}$", orig_commit);
	id_case = MQ(e, "[A-F]", orig_commit);
	/* git_commit_info() without git: ($id, $title) as given */
	if (tag_case || tag_space || id_length || id_case || !title_has_quotes) {
		const char *id = "0123456789ab";

		/* reviewbot (--extra): the tag's own id and title */
		if (e->o->extra) {
			id = fixes_id(e, orig_commit);
			if (!titled)
				title = (char *)fixes_title(e, line);
		}
		WARN(e, R_BAD_FIXES_TAG,
		     eng_printf(e, "Please use correct Fixes: style 'Fixes: <12 chars of sha1> (\"<title line>\")' - ie: 'Fixes: %s (\"%s\")'\n%s",
				id, title, e->herecurr));
	}
}

/* Check Fixes: styles is correct */
static void check_fixes(struct eng *e)
{
	const char *line = e->line;
	const char *id = "0123456789ab";
	char *title = "commit title";
	int tag_case = 1, tag_space = 1, id_length = 1, id_case = 1;
	int title_has_quotes = 0, titled = 0;

	if (e->in_header_lines ||
	    !MQ(e, "(?i)^\\s*fixes:?\\s*(?:commit\\s*)?[0-9a-f]{5,}\\b", line))
		return;
	if (M(e, "(?i)(\\s*fixes:?)\\s+([0-9a-f]{5,})\\s+($balanced_parens)", line)) {
		char *tag = eng_cap(e, 1), *orig_commit = eng_cap(e, 2);

		/* reviewbot (--extra): the tag's own id, not a placeholder */
		if (e->o->extra)
			id = fixes_id(e, orig_commit);
		titled = 1;
		title = eng_cap(e, 3);
		if (!strcmp(tag, "Fixes:"))
			tag_case = 0;
		if (MQ(e, "(?i)^fixes:? [0-9a-f]{5,} ($balanced_parens)", line))
			tag_space = 0;
		if (MQ(e, "(?i)^[0-9a-f]{12}$", orig_commit))
			id_length = 0;
		if (!MQ(e, "[A-F]", orig_commit))
			id_case = 0;
		/* Always strip leading/trailing parens then double quotes if
		 * existing */
		title = strip_ends(e, title);
		if (MQ(e, "^\".*\"$", title)) {
			title = strip_ends(e, title);
			title_has_quotes = 1;
		}
	}
	/* git_commit_info() without git: ($id, $title) as given */
	if (tag_case || tag_space || id_length || id_case || !title_has_quotes) {
		/* reviewbot (--extra): the tag's own id and title */
		if (e->o->extra && !titled) {
			if (M(e, "(?i)^\\s*fixes:?\\s*(?:commit\\s*)?([0-9a-f]{5,})", line))
				id = fixes_id(e, eng_cap(e, 1));
			title = (char *)fixes_title(e, line);
		}
		WARN(e, R_BAD_FIXES_TAG,
		     eng_printf(e, "Please use correct Fixes: style 'Fixes: <12 chars of sha1> (\"<title line>\")' - ie: 'Fixes: %s (\"%s\")'\n%s",
				id, title, e->herecurr));
	}
}

/*
 * Check for git id commit length and improperly formed commit
 * descriptions.  A correctly formed commit description is
 *    commit <SHA-1 hash length 12+ chars> ("Complete commit subject")
 * and it can span up to 3 lines.
 */
static void check_git_commit_id(struct eng *e)
{
	const char *line = e->line;
	const char *next = eng_rawline(e, e->linenr + 1);
	char init_char = 'c';
	int is_short = 1, is_long = 0, bad_case = 1, space = 1;
	int has_parens = 0, has_quotes = 0;
	char *orig_desc = "commit description";
	const char *herectx = e->herecurr;
	char *input = (char *)line;

	if (!(e->in_commit_log && !e->commit_log_possible_stack_dump &&
	      !MQ(e, "(?i)^\\s*(?:Link|Patchwork|http|https|BugLink|base-commit):", line) &&
	      !MQ(e, "^This reverts commit [0-9a-f]{7,40}", line) &&
	      ((MQ(e, "(?i)\\bcommit\\s+[0-9a-f]{5,}\\b", line) ||
		(MQ(e, "(?i)\\bcommit\\s*$", line) && next &&
		 MQ(e, "(?i)^\\s*[0-9a-f]{5,}\\b", next))) ||
	       (MQ(e, "(?i)(?:\\s|^)[0-9a-f]{12,40}(?:[\\s\"'\\(\\[]|$)", line) &&
		!MQ(e, "(?i)[\\<\\[][0-9a-f]{12,40}[\\>\\]]", line) &&
		!MQ(e, "(?i)\\bfixes:\\s*[0-9a-f]{12,40}", line)))))
		return;

	if (MQ(e, "(?i)(?:\\bcommit\\s+[0-9a-f]{5,}|\\bcommit\\s*$)", line)) {
		long n;

		for (n = 0; n < 2; n++) {
			const char *r;

			if (M(e, "(?i)\\bcommit\\s+[0-9a-f]{5,}\\s*($balanced_parens)", input)) {
				orig_desc = eng_cap(e, 1);
				has_parens = 1;
				/* Always strip leading/trailing parens then
				 * double quotes if existing */
				orig_desc = strip_ends(e, orig_desc);
				if (MQ(e, "^\".*\"$", orig_desc)) {
					orig_desc = strip_ends(e, orig_desc);
					has_quotes = 1;
				}
				break;
			}
			/* last if ($#lines < $linenr + $n) */
			if ((long)e->nlines - 1 < e->linenr + n)
				break;
			r = eng_rawline(e, e->linenr + n + 1);
			input = eng_printf(e, "%s %s", input, trim(e, r));
			herectx = eng_printf(e, "%s%s\n", herectx, r);
		}
		if (!has_parens)
			herectx = e->herecurr;
	}

	if (M(e, "(?i)\\b(c)ommit\\s+([0-9a-f]{5,})\\b", input)) {
		init_char = eng_cap(e, 1)[0];
		if (MQ(e, "(?i)\\bcommit\\s+[0-9a-f]{12,40}", input))
			is_short = 0;
		if (MQ(e, "(?i)\\bcommit\\s+[0-9a-f]{41,}", input))
			is_long = 1;
		if (MQ(e, "(?i)\\bcommit [0-9a-f]", input))
			space = 0;
		if (MQ(e, "\\b[Cc]ommit\\s+[0-9a-f]{5,40}[^A-F]", input))
			bad_case = 0;
	}

	/* git_commit_info() without git: the id is the placeholder and the
	 * description the one given, so only the form is checked */
	if ((is_short || is_long || space || bad_case || !has_quotes) &&
	    e->last_git_commit_id_linenr != e->linenr - 1)
		ERROR(e, R_GIT_COMMIT_ID,
		      eng_printf(e, "Please use git commit description style 'commit <12+ chars of sha1> (\"<title line>\")' - ie: '%commit 0123456789ab (\"%s\")'\n%s",
				 init_char, orig_desc, herectx));
	/* don't report the next line if this line ends in commit and the
	 * sha1 hash is the next line */
	if (MQ(e, "(?i)\\bcommit\\s*$", line))
		e->last_git_commit_id_linenr = e->linenr;
}

/*
 * 6.12: Check for odd tags before a URI/URL, and for misuse of the link
 * tags (Link:, Closes:)
 */
static void check_link_tags(struct eng *e)
{
	const char *line = e->line;

	if (!e->in_commit_log)
		return;
	if (M(e, "^\\s*(\\w+:)\\s*http", line)) {
		char *tag = eng_cap(e, 1);

		if (!MQ(e, "^$link_tags_search$", tag)) {
			if (MQ(e, "(?i)^v(?:ersion)?\\d+", tag))
				WARN(e, R_COMMIT_LOG_VERSIONING,
				     eng_cat(e, "Patch version information should be after the --- line\n",
					     e->herecurr));
			else
				WARN(e, R_COMMIT_LOG_USE_LINK,
				     eng_printf(e, "Unknown link reference '%s', use 'Link:' or 'Closes:' instead\n%s",
						tag, e->herecurr));
		}
	}
	if (M(e, "^\\s*(\\w+:)\\s*(\\S+)", line)) {
		char *tag = eng_cap(e, 1), *value = eng_cap(e, 2);

		if (MQ(e, "^$link_tags_search$", tag) && !MQ(e, "^https?://", value))
			WARN(e, R_COMMIT_LOG_WRONG_LINK,
			     eng_printf(e, "'%s' should be followed by a public http(s) link\n%s",
					tag, e->herecurr));
	}
}

/* Check for various typo / spelling mistakes */
static void check_spelling(struct eng *e)
{
	const struct chk_spelling *sp = e->o->spelling;
	const char *rawline = e->rawline;
	size_t n = strlen(rawline), pos = 0, st, len;

	if (!sp || !chk_spelling_count(sp) ||
	    !(e->in_commit_log || MQ(e, "(?i)^(?:\\+|Subject:)", e->line)))
		return;
	while (!e->failed && !e->line_skip && chk_spelling_next(sp, rawline, n, &pos, &st, &len)) {
		char *typo = eng_strndup(e, rawline + st, len);
		const char *f = e->line_skip ? NULL :	/* typo is "" */
				chk_spelling_fix(sp, typo, len);
		size_t fl = f ? strlen(f) : 0, i;
		char *fix = eng_alloc(e, fl + 1);
		char *ptr = pointer_line(e, rawline, st, '^', len);
		char *msg;

		if (!fix || !ptr || e->line_skip)
			return;
		memcpy(fix, f ? f : "", fl + 1);
		if (MQ(e, "^[A-Z]", typo))
			fix[0] = (char)uc((unsigned char)fix[0]);
		if (MQ(e, "^[A-Z]+$", typo))
			for (i = 0; i < fl; i++)
				fix[i] = (char)uc((unsigned char)fix[i]);
		msg = eng_printf(e, "'%s' may be misspelled - perhaps '%s'?\n%s%s\n",
				 typo, fix, e->hereline, ptr);
		if (e->o->file)
			CHK(e, R_TYPO_SPELLING, msg);
		else
			WARN(e, R_TYPO_SPELLING, msg);
	}
}

/* check for repeated words separated by a single space */
static void check_repeated_words(struct eng *e)
{
	static const char *const allow[] = { "add", "added", "bad", "be" };
	const char *rawline = e->rawline;
	size_t n = strlen(rawline), pos;
	struct re_m m;

	/* avoid false positive from list command eg, '-rw-r--r-- 1 root root' */
	if (!((rawline[0] == '+' || e->in_commit_log) &&
	      !MQ(e, "[bcCdDlMnpPs\\?-][rwxsStT-]{9}", rawline)))
		return;
	pos = e->in_commit_log ? 0 : 1;
	while (!e->failed && !e->line_skip && pos <= n &&
	       re_find(e->rc, "\\b(\\b[A-Z]?[a-z]{2,}\\b) (?=(\\b[A-Z]?[a-z]{2,}\\b))",
		       rawline, n, pos, &m)) {
		size_t start_pos = re_start(&m, 1), end_pos = re_end(&m, 2);
		char *first = eng_strndup(e, rawline + start_pos, re_end(&m, 1) - start_pos);
		char *second = eng_strndup(e, rawline + re_start(&m, 2),
					   end_pos - re_start(&m, 2));
		char start_char = 0, end_char = 0;
		size_t i;
		int allowed = 0;

		pos = re_end(&m, 0);
		if (MQ(e, "(?:struct|union|enum)", first)) {
			pos += strlen(first) + strlen(second) + 1;
			if (pos > n)
				pos = n;
			continue;
		}
		if (strcasecmp(first, second) || !strcmp(first, "long"))
			continue;
		/* check for character before and after the word matches */
		if (start_pos > (e->in_commit_log ? 0u : 1u))
			start_char = rawline[start_pos - 1];
		if (end_pos < n)
			end_char = rawline[end_pos];
		if (start_char && !vocab_is_space((unsigned char)start_char))
			continue;
		/* index(" \t.,;?!", '') is 0: the end of the line passes */
		if (end_char && !strchr(" \t.,;?!", end_char))
			continue;
		/* avoid repeating hex occurrences like 'ff ff fe 09 ...' */
		if (MQ(e, "(?i)\\b[0-9a-f]{2,}\\b", first)) {
			for (i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
				if (!strcasecmp(first, allow[i]))
					allowed = 1;
			if (!allowed)
				continue;
		}
		WARN(e, R_REPEATED_WORD,
		     eng_printf(e, "Possible repeated word: '%s'\n%s", first,
				e->herecurr));
	}

	/* if it's a repeated word on consecutive lines in a comment block */
	if (MQ(e, "$;+\\s*$", e->prevline) &&
	    M(e, "(\\b[A-Z]?[a-z]{2,}\\b)\\s*$", e->prevrawline)) {
		char *last_word = eng_cap(e, 1);

		if (comment_line_starts_with(rawline, last_word))
			WARN(e, R_REPEATED_WORD,
			     eng_printf(e, "Possible repeated word: '%s'\n%s",
					last_word, e->hereprev));
	}
}

int seg_commit(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	/* Verify the existence of a commit log if appropriate; 2 is used
	 * because a $signature is counted in $commit_log_lines */
	if (e->in_commit_log) {
		if (!MQ(e, "^\\s*$", line))
			e->commit_log_lines++;
	} else if (e->has_commit_log && e->commit_log_lines < 2) {
		WARN(e, R_COMMIT_MESSAGE,
		     "Missing commit description - Add an appropriate one\n");
		e->commit_log_lines = 2;
	}

	/* Check if the commit log has what seems like a diff which can confuse patch */
	if (e->in_commit_log && !e->commit_log_has_diff &&
	    ((M(e, "^\\s+diff\\b.*a/([\\w/]+)", line) &&
	      MQ(e, eng_pat(e, "^\\s+diff\\b.*a/[\\w/]+\\s+b/%s\\b", eng_cap(e, 1)), line)) ||
	     MQ(e, "^\\s*(?:\\-\\-\\-\\s+a/|\\+\\+\\+\\s+b/)", line) ||
	     MQ(e, "^\\s*\\@\\@ \\-\\d+,\\d+ \\+\\d+,\\d+ \\@\\@", line))) {
		ERROR(e, R_DIFF_IN_COMMIT_MSG,
		      eng_cat(e, "Avoid using diff content in the commit message - patch(1) might not work\n",
			      e->herecurr));
		e->commit_log_has_diff = 1;
	}

	/* Check for incorrect file permissions */
	if (MQ(e, "^new (file )?mode.*[7531]\\d{0,2}$", line)) {
		char *permhere = eng_printf(e, "%sFILE: %s\n", e->here.buf, e->realfile.buf);

		if (!MQ(e, "scripts/", e->realfile.buf) &&
		    !MQ(e, "\\.(py|pl|awk|sh)$", e->realfile.buf))
			ERROR(e, R_EXECUTE_PERMISSIONS,
			      eng_cat(e, "do not set execute permissions for source files\n", permhere));
	}

	check_from(e);
	check_signoff(e);

	/* Check for patch separator */
	if (!strcmp(line, "---")) {
		e->has_patch_separator = 1;
		e->in_commit_log = 0;
	}

	/* Check if MAINTAINERS is being updated.  If so, there's probably no
	 * need to emit the "does MAINTAINERS need updating?" message on file
	 * add/move/delete */
	if (MQ(e, "^\\s*MAINTAINERS\\s*\\|", line))
		e->reported_maintainer_file = 1;

	if (check_signature(e) == SEG_NEXT)
		return SEG_NEXT;
	if (e->cpv >= CP_6_12) {
		check_bug_fix(e);
		check_fixes_612(e);
	} else {
		check_fixes(e);
	}

	/* Check email subject for common tools that don't need to be mentioned */
	if (e->in_header_lines &&
	    MQ(e, "(?i)^Subject:.*\\b(?:checkpatch|sparse|smatch)\\b[^:]", line))
		WARN(e, R_EMAIL_SUBJECT,
		     eng_cat(e, "A patch subject line should describe the change not the tool that found it\n",
			     e->herecurr));

	/* Check for Gerrit Change-Ids not in any patch context */
	if (!e->realfile.len && !e->has_patch_separator &&
	    MQ(e, "(?i)^\\s*change-id:", line))
		ERROR(e, R_GERRIT_CHANGE_ID,
		      eng_cat(e, "Remove Gerrit Change-Id's before submitting upstream\n",
			      e->herecurr));

	/* Check if the commit log is in a possible stack dump (the Perl's
	 * parentheses make the last two forms count outside the log too) */
	if ((e->in_commit_log && !e->commit_log_possible_stack_dump &&
	     (MQ(e, "^\\s*(?:WARNING:|BUG:)", line) ||
	      MQ(e, "^\\s*\\[\\s*\\d+\\.\\d{6,6}\\s*\\]", line) ||
	      MQ(e, "^\\s*\\[\\<[0-9a-fA-F]{8,}\\>\\]", line))) ||
	    MQ(e, "^(?:\\s+\\w+:\\s+[0-9a-fA-F]+){3,3}", line) ||
	    MQ(e, "^\\s*\\#\\d+\\s*\\[[0-9a-fA-F]+\\]\\s*\\w+ at [0-9a-fA-F]+", line))
		e->commit_log_possible_stack_dump = 1;

	/* Check for line lengths > 75 in commit log, warn once (6.12: a
	 * Closes: line may be long too, and the message changed) */
	if (e->in_commit_log && !e->commit_log_long_line && strlen(line) > 75 &&
	    !(MQ(e, "^\\s*[a-zA-Z0-9_\\/\\.]+\\s+\\|\\s+\\d+", line) ||
	      MQ(e, "^\\s*(?:[\\w\\.\\-\\+]*\\/)++[\\w\\.\\-\\+]+:", line) ||
	      (e->cpv >= CP_6_12 ?
	       MQ(e, "(?i)^\\s*(?:Fixes:|$link_tags_search|$signature_tags)", line) :
	       MQ(e, "(?i)^\\s*(?:Fixes:|Link:|$signature_tags)", line)) ||
	      e->commit_log_possible_stack_dump)) {
		WARN(e, R_COMMIT_LOG_LONG_LINE,
		     eng_cat(e, e->cpv >= CP_6_12 ?
			     "Prefer a maximum 75 chars per line (possible unwrapped commit description?)\n" :
			     "Possible unwrapped commit description (prefer a maximum 75 chars per line)\n",
			     e->herecurr));
		e->commit_log_long_line = 1;
	}

	/* Reset possible stack dump if a blank line is found */
	if (e->in_commit_log && e->commit_log_possible_stack_dump &&
	    MQ(e, "^\\s*$", line))
		e->commit_log_possible_stack_dump = 0;

	if (e->cpv >= CP_6_12)
		check_link_tags(e);

	/* Check for lines starting with a # */
	if (e->in_commit_log && line[0] == '#')
		WARN(e, R_COMMIT_COMMENT_SYMBOL,
		     eng_cat(e, "Commit log lines starting with '#' are dropped by git as comments\n",
			     e->herecurr));

	check_git_commit_id(e);

	/* 6.12: Check for mailing list archives other than lore.kernel.org
	 * (any line: header, commit log, added, removed or context) */
	if (e->cpv >= CP_6_12 && MQ(e, "http.*\\b$obsolete_archives", rawline))
		WARN(e, R_PREFER_LORE_ARCHIVE,
		     eng_cat(e, "Use lore.kernel.org archive links when possible - see https://lore.kernel.org/lists.html\n",
			     e->herecurr));

	/* Check for added, moved or deleted files */
	if (!e->reported_maintainer_file && !e->in_commit_log &&
	    (MQ(e, "^(?:new|deleted) file mode\\s*\\d+\\s*$", line) ||
	     MQ(e, "^rename (?:from|to) [\\w\\/\\.\\-]+\\s*$", line) ||
	     MQ(e, "\\{\\s*([\\w\\/\\.\\-]*)\\s*\\=\\>\\s*([\\w\\/\\.\\-]*)\\s*\\}", line))) {
		e->is_patch = 1;
		e->reported_maintainer_file = 1;
		WARN(e, R_FILE_PATH_CHANGES,
		     eng_cat(e, "added, moved or deleted file(s), does MAINTAINERS need updating?\n",
			     e->herecurr));
	}

	/* Check for adding new DT bindings not in schema format */
	if (!e->in_commit_log && MQ(e, "^new file mode\\s*\\d+\\s*$", line) &&
	    MQ(e, "^Documentation/devicetree/bindings/.*\\.txt$", e->realfile.buf))
		WARN(e, R_DT_SCHEMA_BINDING_PATCH,
		     "DT bindings should be in DT schema format. See: Documentation/devicetree/bindings/writing-schema.rst\n");

	/* Check for wrappage within a valid hunk of the file */
	if (e->realcnt != 0 && !MQ(e, "^(?:\\+|-| |\\\\ No newline|$)", line)) {
		if (!e->emitted_corrupt++)
			ERROR(e, R_CORRUPTED_PATCH,
			      eng_cat(e, "patch seems to be corrupt (line wrapped?)\n",
				      e->herecurr));
	}

	/* UTF-8 regex found at
	 * http://www.w3.org/International/questions/qa-forms-utf-8.en.php */
	if (!e->realfile.len || line[0] == '+') {
		size_t ok = utf8_prefix_len(rawline);

		char *ptr;

		if (rawline[ok] && (ptr = pointer_line(e, rawline, ok, '^', 1)))
			CHK(e, R_INVALID_UTF8,
			    eng_printf(e, "Invalid UTF-8, patch and commit message should be encoded in UTF-8\n%s%s\n",
				       e->hereline, ptr));
	}

	/* Check if it's the start of a commit log (not a header line and we
	 * haven't seen the patch filename) */
	if (e->in_header_lines && !e->realfile.len &&
	    !(MQ(e, "^\\s+(?:\\S|$)", rawline) ||
	      MQ(e, "(?i)^(?:commit\\b|from\\b|[\\w-]+:)", rawline))) {
		e->in_header_lines = 0;
		e->in_commit_log = 1;
		e->has_commit_log = 1;
	}

	/* Check if there is UTF-8 in a commit log when a mail header has
	 * explicitly declined it, i.e defined some charset where it is
	 * missing. */
	if (e->in_header_lines &&
	    M(e, "^Content-Type:.+charset=\"(.+)\".*$", rawline) &&
	    !MQ(e, "(?i)utf-8", eng_cap(e, 1)))
		e->non_utf8_charset = 1;

	if (e->in_commit_log && e->non_utf8_charset && !e->realfile.len &&
	    MQ(e, "$NON_ASCII_UTF8", rawline))
		WARN(e, R_UTF8_BEFORE_PATCH,
		     eng_cat(e, "8-bit UTF-8 used in possible commit log\n", e->herecurr));

	/* Check for absolute kernel paths in commit message: needs $tree,
	 * which reviewbot never has (checkpatch.pl --no-tree) */

	check_spelling(e);

	/* check for invalid commit id: git_commit_info() without git finds
	 * none, so every one is unknown */
	if (e->in_commit_log &&
	    M(e, "(?i)(^fixes:|\\bcommit)\\s+([0-9a-f]{6,40})\\b", line))
		WARN(e, R_UNKNOWN_COMMIT_ID,
		     eng_printf(e, "Unknown commit id '%s', maybe rebased or not pulled?\n%s",
				eng_cap(e, 2), e->herecurr));

	check_repeated_words(e);
	return SEG_GO;
}
