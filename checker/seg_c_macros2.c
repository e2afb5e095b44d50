// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: C macros and blocks, second half (checkpatch.pl 6.1, process(),
 * from "check for redundant bracing round if etc" to just before "check
 * for bad placement of section $InitAttribute"): braces, volatile, strings
 * and printf formats, #if 0/1, needless ifs, logging, NULL comparisons.
 * Also reviewbot's own DEPRECATED_SPINLOCK_INIT, after VOLATILE.
 */
#include "eng.h"

#include <string.h>

#include "banned.h"

/* substr($block, 0, length($cond), '') */
static const char *after_prefix(const char *s, size_t n)
{
	size_t l = strlen(s);

	return s + (n < l ? n : l);
}

/* check for redundant bracing round if etc */
static void braces_if_chain(struct eng *e)
{
	struct stmt_chunk *chunks;
	size_t nchunks, i;
	long endln, ln;
	int level, allow = 0, seen = 0, sum_allowed = 0;
	char *herectx;

	if (!M(e, "(^.*)\\bif\\b", e->line) ||
	    MQ(e, "else\\s*$", eng_cap(e, 1)))
		return;
	level = ctx_statement_full(e, e->linenr, e->realcnt, 1, &chunks,
				   &nchunks, &endln);
	if (!(nchunks > 1 && level == 0))
		return;

	herectx = eng_cat(e, e->here.buf, "\n");
	ln = e->linenr - 1;
	for (i = 0; i < nchunks; i++) {
		const char *cond = chunks[i].condition;
		const char *block = chunks[i].statement;
		const char *ws = "", *raw;
		struct re_m m;
		long offset;
		int allowed = 0;

		/* If the condition carries leading newlines, then count
		 * those as offsets. */
		if (re_match(e->rc, "(?s)^((?:\\s*\\n[+-])*\\s*)", cond, &m))
			ws = eng_strndup(e, cond + re_start(&m, 1),
					 re_end(&m, 1) - re_start(&m, 1));
		offset = statement_rawlines(e, ws) - 1;

		/* We have looked at and allowed this specific line. */
		lineset_add(&e->suppress_ifbraces, ln + offset);

		raw = eng_rawline(e, ln + offset + 1);	/* $rawlines[$ln + $offset] */
		herectx = eng_printf(e, "%s%s\n[...]\n", herectx, raw ? raw : "");
		ln += statement_rawlines(e, block) - 1;

		block = after_prefix(block, strlen(cond));
		if (MQ(e, "^\\s*{", block))
			seen++;
		if (statement_lines(e, cond) > 1)
			allowed = 1;
		if (MQ(e, "\\b(?:if|for|while)\\b", block))
			allowed = 1;
		if (statement_block_size(e, block) > 1)
			allowed = 1;
		sum_allowed += allowed;
		allow++;
	}
	if (!seen)
		return;
	if (sum_allowed == 0)
		WARN(e, R_BRACES,
		     eng_cat(e, "braces {} are not necessary for any arm of this statement\n",
			     herectx));
	else if (sum_allowed != allow && seen != allow)
		CHK(e, R_BRACES,
		    eng_cat(e, "braces {} should be used on all arms of this statement\n",
			    herectx));
}

static void braces_single(struct eng *e)
{
	struct stmt_chunk *chunks;
	size_t nchunks;
	long endln, off;
	int level, allowed = 0;
	const char *cond, *block;

	if (lineset_has(&e->suppress_ifbraces, e->linenr - 1) ||
	    !M(e, "\\b(if|while|for|else)\\b", e->line))
		return;
	off = (long)re_start(&e->m, 0);

	/* Check the pre-context.  A match here moves $-[0] to the '}',
	 * and that is the offset the Perl then hands ctx_statement_full. */
	if (M(e, "(\\}\\s*)$", eng_strndup(e, e->line, (size_t)off))) {
		allowed = 1;
		off = (long)re_start(&e->m, 0);
	}

	level = ctx_statement_full(e, e->linenr, e->realcnt, off, &chunks,
				   &nchunks, &endln);
	if (!nchunks)
		return;

	/* Check the condition. */
	cond = chunks[0].condition;
	block = after_prefix(chunks[0].statement, strlen(cond));
	if (statement_lines(e, cond) > 1)
		allowed = 1;
	if (MQ(e, "\\b(?:if|for|while)\\b", block))
		allowed = 1;
	if (statement_block_size(e, block) > 1)
		allowed = 1;
	/* Check the post-context. */
	if (nchunks > 1) {
		const char *b1 = after_prefix(chunks[1].statement,
					      strlen(chunks[1].condition));

		if (MQ(e, "^\\s*\\{", b1))
			allowed = 1;
	}
	if (level == 0 && MQ(e, "^\\s*\\{", block) && !allowed) {
		char *herectx = get_stat_here(e, e->linenr,
					      statement_rawlines(e, block),
					      e->here.buf);

		WARN(e, R_BRACES,
		     eng_cat(e, "braces {} are not necessary for single statement blocks\n",
			     herectx));
	}
}

/* check for user-visible strings broken across lines, and friends */
static void strings(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	/*
	 * Check for user-visible strings broken across lines, which breaks
	 * the ability to grep for the string.  Make exceptions when the
	 * previous string ends in a newline (multiple lines in one string
	 * constant) or '\t', '\r', ';', or '{' (common in inline assembly) or
	 * is a octal \123 or hexadecimal \xaf value
	 */
	if (MQ(e, "^\\+\\s*$String", line) &&
	    MQ(e, "\"\\s*$", e->prevline) &&
	    !MQ(e, "(?:\\\\(?:[ntr]|[0-7]{1,3}|x[0-9a-fA-F]{1,2})|;\\s*|\\{\\s*)\"\\s*$",
		e->prevrawline))
		WARN(e, R_SPLIT_STRING,
		     eng_cat(e, "quoted string split across lines\n", e->hereprev));

	/* check for missing a space in a string concatenation */
	if (MQ(e, "[^\\\\]\\w\"$", e->prevrawline) &&
	    MQ(e, "^\\+[\\t ]+\"\\w", rawline))
		WARN(e, R_MISSING_SPACE,
		     eng_cat(e, "break quoted strings at a space character\n", e->hereprev));

	/*
	 * check for an embedded function name in a string when the function
	 * is known.  This does not work very well for -f --file checking as
	 * it depends on patch context providing the function name or a
	 * single line form for in-file function declarations
	 */
	if (MQ(e, "^\\+.*$String", line) && e->has_context_function) {
		const char *cf = e->context_function.buf;
		char *qs = get_quoted_string(e, line, rawline);

		/* $context_function is interpolated as a pattern; the
		 * strstr() only spares compiling one that cannot match */
		if (strstr(qs, cf) && MQ(e, eng_pat(e, "\\b%s\\b", cf), qs) &&
		    strlen(qs) != strlen(cf) + 2)
			WARN(e, R_EMBEDDED_FUNCTION_NAME,
			     eng_printf(e, "Prefer using '\"%%s...\", __func__' to using '%s', this function's name, in a string\n%s",
					cf, e->herecurr));
	}

	/*
	 * check for unnecessary function tracing like uses.  This does not
	 * use $logFunctions because there are many instances like
	 * 'dprintk(FOO, "%s()\n", __func__);' which do not match
	 * $logFunctions
	 */
	if (MQ(e, "^\\+.*\\([^\"]*\"$tracing_logging_tags{0,3}%s(?:\\s*\\(\\s*\\)\\s*)?"
	       "$tracing_logging_tags{0,3}(?:\\\\n)?\"\\s*,\\s*__func__\\s*\\)\\s*;",
	       rawline))
		WARN(e, R_TRACING_LOGGING,
		     eng_cat(e, "Unnecessary ftrace-like logging - prefer using ftrace\n",
			     e->herecurr));

	/* check for spaces before a quoted newline */
	if (MQ(e, "^.*\\\".*\\s\\\\n", rawline))
		WARN(e, R_QUOTED_WHITESPACE_BEFORE_NEWLINE,
		     eng_cat(e, "unnecessary whitespace before a quoted newline\n",
			     e->herecurr));

	/* concatenated string without spaces between elements */
	if (MQ(e, "$String[A-Z_]", line) ||
	    (M(e, "([A-Za-z0-9_]+)$String", line) &&
	     !MQ(e, "^[Lu]$", eng_cap(e, 1))))
		CHK(e, R_CONCATENATED_STRING,
		    eng_cat(e, "Concatenated strings should use spaces between elements\n",
			    e->herecurr));

	/* uncoalesced string fragments */
	if (MQ(e, "$String\\s*[Lu]?\"", line))
		WARN(e, R_STRING_FRAGMENTS,
		     eng_cat(e, "Consecutive strings are generally better as a single string\n",
			     e->herecurr));
}

/* check for non-standard and hex prefixed decimal printf formats */
static void printf_formats(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	size_t len = strlen(line), rlen = strlen(rawline), pos = 0;
	int show_L = 1, show_Z = 1;	/* don't show the same defect twice */
	struct re_m m;

	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "(?:^|\")([X\\t]*)(?:\"|$)", line, len, pos, &m)) {
		size_t s1 = re_start(&m, 1), e1 = re_end(&m, 1);
		char *string;

		pos = re_end(&m, 0) > re_start(&m, 0) ? re_end(&m, 0) : re_end(&m, 0) + 1;
		/* substr($rawline, $-[1], $+[1] - $-[1]) */
		if (s1 > rlen)
			s1 = rlen;
		if (e1 > rlen)
			e1 = rlen;
		string = eng_strndup(e, rawline + s1, e1 - s1);
		string = eng_subst(e, "%%", "__", string, 1);
		/* check for %L */
		if (show_L && M(e, "%[\\*\\d\\.\\$]*L([diouxX])", string)) {
			char *c = eng_cap(e, 1);

			WARN(e, R_PRINTF_L,
			     eng_printf(e, "%%L%s is non-standard C, use %%ll%s\n%s",
					c, c, e->herecurr));
			show_L = 0;
		}
		/* check for %Z */
		if (show_Z && M(e, "%[\\*\\d\\.\\$]*Z([diouxX])", string)) {
			char *c = eng_cap(e, 1);

			WARN(e, R_PRINTF_Z,
			     eng_printf(e, "%%Z%s is non-standard C, use %%z%s\n%s",
					c, c, e->herecurr));
			show_Z = 0;
		}
		/* check for 0x<decimal> */
		/* the Perl's [\*\d\.\$\Llzth]: \L is its lower-case
		 * escape, so the class holds no 'L' */
		if (MQ(e, "0x%[\\*\\d\\.\\$lzth]*[diou]", string))
			ERROR(e, R_PRINTF_0XDECIMAL,
			      eng_cat(e, "Prefixing 0x with decimal output is defective\n",
				      e->herecurr));
	}
}

/* from "check for needless "if (<foo>) fn(<foo>)" uses" on */
static void logging(struct eng *e)
{
	const char *line = e->line;

	/* check for needless "if (<foo>) fn(<foo>)" uses */
	if (M(e, "\\bif\\s*\\(\\s*($Lval)\\s*\\)", e->prevline) &&
	    /* (the pattern below needs the tested text as is: don't
	     * compile one per name that cannot match) */
	    strstr(line, eng_cap(e, 1))) {
		char *tested = eng_quote(e, eng_cap(e, 1));
		const char *pat = eng_pat(e,
			"\\b(kfree|usb_free_urb|debugfs_remove(?:_recursive)?|"
			"(?:kmem_cache|mempool|dma_pool)_destroy)\\s*\\(\\s*%s\\s*\\)\\s*;",
			tested);

		if (M(e, pat, line))
			WARN(e, R_NEEDLESS_IF,
			     eng_printf(e, "%s(NULL) is safe and this check is probably not required\n%s",
					eng_cap(e, 1), e->hereprev));
	}

	/* check for unnecessary "Out of Memory" messages */
	if (MQ(e, "^\\+.*\\b$logFunctions\\s*\\(", line) &&
	    M(e, "^[ \\+]\\s*if\\s*\\(\\s*(\\!\\s*|NULL\\s*==\\s*)?($Lval)(\\s*==\\s*NULL\\s*)?\\s*\\)",
	      e->prevline) &&
	    (eng_cap_def(e, 1) || eng_cap_def(e, 3)) &&
	    e->linenr > 3) {
		char *testval = eng_cap(e, 2);
		struct stmt_block b;

		ctx_statement_block(e, e->linenr - 3, e->realcnt, 0, &b);
		/* (strstr: the pattern needs testval as is) */
		if (strstr(b.statement, testval) &&
		    MQ(e, eng_pat(e, "(?:^|\\n)[ \\+]\\s*(?:$Type\\s*)?%s\\s*=\\s*"
				  "(?:\\([^\\)]*\\)\\s*)?\\s*$allocFunctions\\s*\\(",
				  eng_quote(e, testval)), b.statement) &&
		    !MQ(e, "\\b__GFP_NOWARN\\b", b.statement))
			WARN(e, R_OOM_MESSAGE,
			     eng_cat(e, "Possible unnecessary 'out of memory' message\n",
				     e->hereprev));
	}

	/* check for logging functions with KERN_<LEVEL> */
	if (!MQ(e, "printk(?:_ratelimited|_once)?\\s*\\(", line) &&
	    M(e, "\\b$logFunctions\\s*\\(.*\\b(KERN_[A-Z]+)\\b", line))
		WARN(e, R_UNNECESSARY_KERN_LEVEL,
		     eng_printf(e, "Possible unnecessary %s\n%s", eng_cap(e, 1),
				e->herecurr));

	/* check for logging continuations */
	if (MQ(e, "\\bprintk\\s*\\(\\s*KERN_CONT\\b|\\bpr_cont\\s*\\(", line))
		WARN(e, R_LOGGING_CONTINUATION,
		     eng_cat(e, "Avoid logging continuation uses where feasible\n",
			     e->herecurr));

	/* check for unnecessary use of %h[xudi] and %hh[xudi] in logging
	 * functions */
	if (e->has_stat && e->stat &&
	    MQ(e, "\\b$logFunctions\\s*\\(", line) && strchr(e->stat, '"')) {
		long lc = e->linenr;
		const char *p, *q;
		char *stat_real;
		size_t slen, pos;
		struct re_m m;

		for (p = e->stat; *p; p++)
			if (*p == '\n')
				lc++;
		stat_real = get_stat_real(e, e->linenr, lc);
		slen = strlen(stat_real);
		/* pos($stat_real) = index($stat_real, '"'): -1 counts
		 * from the end */
		q = strchr(stat_real, '"');
		pos = q ? (size_t)(q - stat_real) : (slen ? slen - 1 : 0);
		while (!e->line_skip && pos <= slen &&
		       re_find(e->rc, "[^\\\"%]*(%[\\#\\d\\.\\*\\-]*(h+)[idux])",
			       stat_real, slen, pos, &m)) {
			char *pspec = eng_strndup(e, stat_real + re_start(&m, 1),
						  re_end(&m, 1) - re_start(&m, 1));
			char *h = eng_strndup(e, stat_real + re_start(&m, 2),
					      re_end(&m, 2) - re_start(&m, 2));

			pos = re_end(&m, 0) > re_start(&m, 0) ?
			      re_end(&m, 0) : re_end(&m, 0) + 1;
			WARN(e, R_UNNECESSARY_MODIFIER,
			     eng_printf(e, "Integer promotion: Using '%s' in '%s' is unnecessary\n%s\n%s\n",
					h, pspec, e->here.buf, stat_real));
		}
	}

	/* check for mask then right shift without a parentheses */
	if (strstr(line, ">>") && strchr(line, '&') &&	/* needed to match */
	    M(e, "$LvalOrFunc\\s*\\&\\s*($LvalOrFunc)\\s*>>", line) &&
	    !MQ(e, "^\\&", eng_cap(e, 4)))	/* $LvalOrFunc may be &foo, ignore if so */
		WARN(e, R_MASK_THEN_SHIFT,
		     eng_cat(e, "Possible precedence defect with mask then right shift - may need parentheses\n",
			     e->herecurr));

	/* check for pointer comparisons to NULL */
	{
		size_t len = strlen(line), pos = 0;
		struct re_m m;

		while (!e->line_skip && pos <= len && strstr(line, "NULL") &&	/* needed to match */
		       re_find(e->rc, "\\b$LvalOrFunc\\s*(==|\\!=)\\s*NULL\\b",
			       line, len, pos, &m)) {
			size_t n4;
			const char *op = re_cap(&m, 4, &n4);
			char *val = eng_strndup(e, line + re_start(&m, 1),
						re_end(&m, 1) - re_start(&m, 1));
			const char *equal = op && n4 == 2 && !memcmp(op, "!=", 2) ? "" : "!";

			pos = re_end(&m, 0) > re_start(&m, 0) ?
			      re_end(&m, 0) : re_end(&m, 0) + 1;
			CHK(e, R_COMPARISON_TO_NULL,
			    eng_printf(e, "Comparison to NULL could be written \"%s%s\"\n%s",
				       equal, val, e->herecurr));
		}
	}
}

int seg_c_macros2(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;

	braces_if_chain(e);
	braces_single(e);

	/* check for single line unbalanced braces */
	if (MQ(e, "^.\\s*\\}\\s*else\\s*$", e->sline) ||
	    MQ(e, "^.\\s*else\\s*\\{\\s*$", e->sline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Unbalanced braces around else statement\n", e->herecurr));

	/* check for unnecessary blank lines around braces */
	if (MQ(e, "^.\\s*}\\s*$", line) && MQ(e, "^.\\s*$", e->prevrawline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Blank lines aren't necessary before a close brace '}'\n",
			    e->hereprev));
	if (MQ(e, "^.\\s*$", rawline) && MQ(e, "^..*{\\s*$", e->prevline))
		CHK(e, R_BRACES,
		    eng_cat(e, "Blank lines aren't necessary after an open brace '{'\n",
			    e->hereprev));

	/* no volatiles please */
	if (MQ(e, "\\bvolatile\\b", line) &&
	    !MQ(e, "\\b(__asm__|asm)\\s+(__volatile__|volatile)\\b", line))
		WARN(e, R_VOLATILE,
		     eng_cat(e, "Use of volatile is usually wrong: see Documentation/process/volatile-considered-harmful.rst\n",
			     e->herecurr));

	/*
	 * reviewbot: SPIN_LOCK_UNLOCKED and RW_LOCK_UNLOCKED were removed
	 * from the kernel, so code using them no longer builds (the seed
	 * checkpatch reported them; checkpatch.pl 6.1 does not).  Checked on
	 * the sanitised line: not in strings or comments.
	 */
	if (line[0] == '+' && MQ(e, "\\.(?:c|h)$", e->realfile.buf)) {
		if (MQ(e, "\\bSPIN_LOCK_UNLOCKED\\b", line))
			ERROR(e, R_DEPRECATED_SPINLOCK_INIT,
			      eng_cat(e, "SPIN_LOCK_UNLOCKED is deprecated: use DEFINE_SPINLOCK() or __SPIN_LOCK_UNLOCKED(lock)\n",
				      e->herecurr));
		if (MQ(e, "\\bRW_LOCK_UNLOCKED\\b", line))
			ERROR(e, R_DEPRECATED_SPINLOCK_INIT,
			      eng_cat(e, "RW_LOCK_UNLOCKED is deprecated: use DEFINE_RWLOCK() or __RW_LOCK_UNLOCKED(lock)\n",
				      e->herecurr));
	}

	strings(e);
	printf_formats(e);

	/* check for line continuations in quoted strings with odd counts
	 * of " */
	if (MQ(e, "\\\\$", rawline)) {
		size_t nq = 0;
		const char *p;

		for (p = e->sline; *p; p++)
			if (*p == '"')
				nq++;
		if (nq % 2)
			WARN(e, R_LINE_CONTINUATIONS,
			     eng_cat(e, "Avoid line continuations in quoted strings\n",
				     e->herecurr));
	}

	/* warn about #if 0 */
	if (MQ(e, "^.\\s*\\#\\s*if\\s+0\\b", line))
		WARN(e, R_IF_0,
		     eng_cat(e, "Consider removing the code enclosed by this #if 0 and its #endif\n",
			     e->herecurr));

	/* warn about #if 1 */
	if (MQ(e, "^.\\s*\\#\\s*if\\s+1\\b", line))
		WARN(e, R_IF_1,
		     eng_cat(e, "Consider removing the #if 1 and its #endif\n",
			     e->herecurr));

	logging(e);
	return SEG_GO;
}
