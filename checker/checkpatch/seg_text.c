// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: checks on any added or context line whatever the file type
 * (checkpatch.pl 6.1, process(), from "#trailing whitespace" to "check we
 * are in a valid source file C or perl if not then ignore this hunk"):
 * whitespace at line ends, the FSF address, Kconfig help texts,
 * MAINTAINERS entries, Makefile variables, SPDX tags, embedded file names,
 * line length, the missing newline at the end of a file and .L symbols in
 * assembly.
 *
 * reviewbot has no kernel tree: the DT compatible documentation check
 * (UNDOCUMENTED_DT_STRING) and the SPDX license validation behave as
 * checkpatch.pl --no-tree does, i.e. the first never fires and every
 * license is valid.
 */
#include "eng.h"

#include <string.h>

#include "../banned.h"

/* length(expand_tabs(substr($line, 1, length($line) - length($1) - 1))):
 * the width of the line before the capture caplen long at its end */
static size_t width_before(struct eng *e, const char *line, size_t caplen)
{
	size_t len = strlen(line);

	if (len < caplen + 1)
		return 0;
	return strlen(expand_tabs(e, eng_strndup(e, line + 1, len - caplen - 1)));
}

/* $1's length of the last successful match */
static size_t cap1_len(struct eng *e)
{
	size_t n = 0;

	if (!re_cap(&e->m, 1, &n))
		return 0;
	return n;
}

/* "$here\n" . cat_vet($rawline) . "\n" */
static char *herevet(struct eng *e)
{
	return eng_printf(e, "%s\n%s\n", e->here.buf, cat_vet(e, e->rawline));
}

/* check for Kconfig help text having a real description */
static void kconfig_description(struct eng *e)
{
	long ln = e->linenr;	/* Perl's $ln: an index into @lines */
	int needs_help = 0, has_help = 0, help_length = 0;
	const char *f, *p, *hash;
	struct re_m m;
	size_t n;

	while ((f = eng_line(e, ln + 1))) {
		ln++;
		if (f[0] == '-')
			continue;
		if (f[0] != '+' && f[0] != ' ')
			break;		/* !patch context */
		if (MQ(e, "^\\+\\s*(?:bool|tristate|prompt)\\s*[\"']", f)) {
			needs_help = 1;
			continue;
		}
		if (MQ(e, "^\\+\\s*help\\s*$", f)) {
			has_help = 1;
			continue;
		}
		/* The Perl strips the line with three s///; here a view
		 * [p, p + n) of it, so a long scan takes no scratch memory */
		p = f + 1;		/* strip patch context [+ ] */
		hash = strchr(p, '#');	/* strip # directives */
		n = hash ? (size_t)(hash - p) : strlen(p);
		if (re_find(e->rc, "^\\s+", p, n, 0, &m)) {	/* leading blanks */
			p += re_end(&m, 0);
			n -= re_end(&m, 0);
		}
		if (!n)
			continue;	/* skip blank lines */
		/* At the end of this Kconfig block (only context lines of the
		 * patch are looked at, so common words in help texts do not
		 * end it early) */
		if (re_find(e->rc, "^(?:config|menuconfig|choice|endchoice|if|endif|menu|endmenu|source)\\b",
			    p, n, 0, NULL))
			break;
		if (has_help)
			help_length++;
	}
	if (needs_help && help_length < e->o->min_conf_desc_length) {
		char *stat_real = get_stat_real(e, e->linenr, ln - 1);

		WARN(e, R_CONFIG_DESCRIPTION,
		     eng_printf(e, "please write a help paragraph that fully describes the config symbol\n%s\n%s\n",
				e->here.buf, stat_real));
	}
}

/* check MAINTAINERS entries */
static void maintainers_style(struct eng *e)
{
	static const char preferred_order[] = "MRLSWQBCPTFXNK";
	const char *rawline = e->rawline, *prevrawline = e->prevrawline;
	char *cur, *curval, *prev, *prevval;
	const char *ci, *pi;

	/* check MAINTAINERS entries for the right form */
	if (MQ(e, "^\\+[A-Z]:", rawline) && !MQ(e, "^\\+[A-Z]:\\t\\S", rawline))
		WARN(e, R_MAINTAINERS_STYLE,
		     eng_cat(e, "MAINTAINERS entries use one tab after TYPE:\n", e->herecurr));

	/* check MAINTAINERS entries for the right ordering too */
	if (!MQ(e, "^\\+[A-Z]:", rawline) || !MQ(e, "^[\\+ ][A-Z]:", prevrawline))
		return;
	M(e, "^\\+([A-Z]):\\s*(.*)", rawline);
	cur = eng_cap(e, 1);
	curval = eng_cap(e, 2);
	M(e, "^[\\+ ]([A-Z]):\\s*(.*)", prevrawline);
	prev = eng_cap(e, 1);
	prevval = eng_cap(e, 2);
	ci = strchr(preferred_order, cur[0]);
	pi = strchr(preferred_order, prev[0]);
	if (!ci) {
		WARN(e, R_MAINTAINERS_STYLE,
		     eng_printf(e, "Unknown MAINTAINERS entry type: '%s'\n%s", cur, e->herecurr));
	} else if (pi && ci < pi) {
		WARN(e, R_MAINTAINERS_STYLE,
		     eng_printf(e, "Misordered MAINTAINERS entry - list '%s:' before '%s:'\n%s",
				cur, prev, e->hereprev));
	} else if (((!strcmp(prev, "F") && !strcmp(cur, "F")) ||
		    (!strcmp(prev, "X") && !strcmp(cur, "X"))) &&
		   strcmp(prevval, curval) > 0) {
		WARN(e, R_MAINTAINERS_STYLE,
		     eng_cat(e, "Misordered MAINTAINERS entry - list file patterns in alphabetic order\n",
			     e->hereprev));
	}
}

/* check for using SPDX license tag at beginning of files */
static void spdx_first_line(struct eng *e)
{
	const char *rawline = e->rawline, *realfile = e->realfile.buf;
	const char *comment = "";

	if (MQ(e, "^[ \\+]\\s*\\#\\!\\s*\\/", rawline)) {
		e->checklicenseline = 2;
		return;
	}
	if (rawline[0] != '+')
		return;
	if (MQ(e, "\\.(h|s|S)$", realfile))
		comment = "/*";
	else if (MQ(e, "\\.(c|rs|dts|dtsi)$", realfile))
		comment = "//";
	else if (e->checklicenseline == 2 ||
		 MQ(e, "\\.(sh|pl|py|awk|tc|yaml)$", realfile))
		comment = "#";
	else if (MQ(e, "\\.rst$", realfile))
		comment = "..";

	/* check SPDX comment style for .[chsS] files */
	if (MQ(e, "\\.[chsS]$", realfile) &&
	    MQ(e, "SPDX-License-Identifier:", rawline) &&
	    !MQ(e, eng_pat(e, "^\\+\\s*%s\\s*", eng_quote(e, comment)), rawline))
		WARN(e, R_SPDX_LICENSE_TAG,
		     eng_printf(e, "Improper SPDX comment style for '%s', please use '%s' instead\n%s",
				realfile, comment, e->herecurr));

	if (*comment &&
	    !MQ(e, eng_pat(e, "^\\+%s SPDX-License-Identifier: ",
			   eng_quote(e, comment)), rawline)) {
		WARN(e, R_SPDX_LICENSE_TAG,
		     eng_printf(e, "Missing or malformed SPDX-License-Identifier tag in line %d\n%s",
				e->checklicenseline, e->herecurr));
	} else if (M(e, "(SPDX-License-Identifier: .*)", rawline)) {
		char *spdx_license = eng_cap(e, 1);

		/* is_SPDX_License_valid() is always true without a tree
		 * (6.12: "GPL-2.0[-only] OR BSD-2-Clause" exactly) */
		if (MQ(e, "^Documentation/devicetree/bindings/", realfile) &&
		    !(e->cpv >= CP_6_12 ?
		      MQ(e, "GPL-2\\.0(?:-only)? OR BSD-2-Clause", spdx_license) :
		      MQ(e, "GPL-2\\.0.*BSD-2-Clause", spdx_license))) {
			const char *msg = eng_cat(e, "DT binding documents should be licensed (GPL-2.0-only OR BSD-2-Clause)\n",
						  e->herecurr);

			if (e->o->file)
				CHK(e, R_SPDX_LICENSE_TAG, msg);
			else
				WARN(e, R_SPDX_LICENSE_TAG, msg);
		}
		/* 6.12: DT binding headers are dual licensed too */
		if (e->cpv >= CP_6_12 && MQ(e, "^include/dt-bindings/", realfile) &&
		    !MQ(e, "GPL-2\\.0(?:-only)? OR \\S+", spdx_license))
			WARN(e, R_SPDX_LICENSE_TAG,
			     eng_cat(e, "DT binding headers should be licensed (GPL-2.0-only OR .*)\n",
				     e->herecurr));
	}
}

/* Perl's \w on bytes */
static int word_byte(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Perl's \b between s[i - 1] and s[i] of s[0, n) */
static int word_boundary(const char *s, size_t n, size_t i)
{
	int before = i > 0 && word_byte((unsigned char)s[i - 1]);
	int after = i < n && word_byte((unsigned char)s[i]);

	return before != after;
}

/*
 * rawline =~ /^\+.*\Q$realfile\E/, and with bounded, /^\+.*\b\Q$realfile\E\b/:
 * the name at some place after the '+' (up to a newline, which '.' does
 * not cross), with a word boundary on each side when bounded.
 */
static int embedded_filename(const char *rawline, const char *name, int bounded)
{
	size_t n = strcspn(rawline + 1, "\n") + 1, nl = strlen(name), i;

	for (i = 1; i + nl <= n; i++) {
		if (memcmp(rawline + i, name, nl))
			continue;
		if (!bounded || (word_boundary(rawline, strlen(rawline), i) &&
				 word_boundary(rawline, strlen(rawline), i + nl)))
			return 1;
	}
	return 0;
}

/* line length limit (with some exclusions) */
static void long_line(struct eng *e)
{
	const char *line = e->line;
	enum rule_id msg_type = R_LONG_LINE;
	int exempt = 0;

	/*
	 * Lines allowed to be long: logging functions ending in a string
	 * that starts before $max_line_length, lines (and #defines) that
	 * are a single string, EFI_GUID and DEFINE_PER_CPU, URLs.  Otherwise
	 * a comment or a string that starts before the limit gives the
	 * LONG_LINE_COMMENT or LONG_LINE_STRING type.
	 */
	if (M(e, "^\\+\\s*$logFunctions\\s*\\(\\s*(?:(?:KERN_\\S+\\s*|[^\"]*))?($String\\s*(?:|,|\\)\\s*;)\\s*)$", line) &&
	    width_before(e, line, cap1_len(e)) <= (size_t)e->o->max_line_length) {
		exempt = 1;
	} else if (MQ(e, "^\\+\\s*$String\\s*(?:\\s*|,|\\)\\s*;)\\s*$", line) ||
		   MQ(e, "^\\+\\s*#\\s*define\\s+\\w+\\s+$String$", line)) {
		exempt = 1;
	} else if (MQ(e, "^\\+.*\\bEFI_GUID\\s*\\(", line) ||
		   MQ(e, "^\\+\\s*(?:\\w+)?\\s*DEFINE_PER_CPU", line)) {
		exempt = 1;
	} else if (MQ(e, "(?i)^\\+.*\\b[a-z][\\w\\.\\+\\-]*:\\/\\/\\S+", e->rawline)) {
		/* $rawline is used in case the URL is in a comment */
		exempt = 1;
	} else if (M(e, "($;[\\s$;]*)$", line) &&
		   width_before(e, line, cap1_len(e)) <= (size_t)e->o->max_line_length) {
		msg_type = R_LONG_LINE_COMMENT;
	} else if (M(e, "\\s*($String(?:\\s*(?:\\\\|,\\s*|\\)\\s*;\\s*))?)$", e->sline) &&
		   width_before(e, line, cap1_len(e)) <= (size_t)e->o->max_line_length) {
		msg_type = R_LONG_LINE_STRING;
	}

	/* if LONG_LINE is ignored, the other 2 types are also ignored (6.12;
	 * 6.1 said so but tested "or") */
	if (!exempt &&
	    (e->cpv >= CP_6_12 ?
	     eng_show_type(e, R_LONG_LINE) && eng_show_type(e, msg_type) :
	     eng_show_type(e, R_LONG_LINE) || eng_show_type(e, msg_type))) {
		char *msg = eng_printf(e, "line length of %d exceeds %d columns\n%s",
				       e->length, e->o->max_line_length, e->herecurr);

		if (e->o->file)
			CHK(e, msg_type, msg);
		else
			WARN(e, msg_type, msg);
	}
}

int seg_text(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	const char *realfile = e->realfile.buf;
	const char *next;

	/* trailing whitespace */
	if (MQ(e, "^\\+.*\\015", line)) {
		ERROR(e, R_DOS_LINE_ENDINGS, eng_cat(e, "DOS line endings\n", herevet(e)));
	} else if (MQ(e, "^\\+.*\\S\\s+$", rawline) || MQ(e, "^\\+\\s+$", rawline)) {
		ERROR(e, R_TRAILING_WHITESPACE, eng_cat(e, "trailing whitespace\n", herevet(e)));
		e->rpt_cleaners = 1;
	}

	/* Check for FSF mailing addresses. */
	if (MQ(e, "(?i)\\bwrite to the Free", rawline) ||
	    MQ(e, "(?i)\\b675\\s+Mass\\s+Ave", rawline) ||
	    MQ(e, "(?i)\\b59\\s+Temple\\s+Pl", rawline) ||
	    MQ(e, "(?i)\\b51\\s+Franklin\\s+St", rawline)) {
		char *msg = eng_cat(e, "Do not include the paragraph about writing to the Free Software Foundation's mailing address from the sample GPL notice. The FSF has changed addresses in the past, and may do so again. Linux already includes a copy of the GPL.\n",
				    herevet(e));

		if (e->o->file)
			CHK(e, R_FSF_MAILING_ADDRESS, msg);
		else
			ERROR(e, R_FSF_MAILING_ADDRESS, msg);
	}

	/* check for Kconfig help text having a real description: only when
	 * the entry is added, after that there is not enough context.
	 * 'choice' may be followed by a name, hence \b rather than \s */
	if (MQ(e, "Kconfig", realfile) &&
	    MQ(e, "^\\+\\s*(?:config|menuconfig|choice)\\b", line))
		kconfig_description(e);

	/* check MAINTAINERS entries */
	if (!strcmp(realfile, "MAINTAINERS"))
		maintainers_style(e);

	if ((MQ(e, "Makefile.*", realfile) || MQ(e, "Kbuild.*", realfile)) &&
	    M(e, "\\+(EXTRA_[A-Z]+FLAGS).*", line)) {
		static const char *const replacement[][2] = {
			{ "EXTRA_AFLAGS", "asflags-y" },
			{ "EXTRA_CFLAGS", "ccflags-y" },
			{ "EXTRA_CPPFLAGS", "cppflags-y" },
			{ "EXTRA_LDFLAGS", "ldflags-y" },
		};
		char *flag = eng_cap(e, 1);
		size_t i;

		for (i = 0; i < sizeof(replacement) / sizeof(replacement[0]); i++)
			if (!strcmp(flag, replacement[i][0]))
				WARN(e, R_DEPRECATED_VARIABLE,
				     eng_printf(e, "Use of %s is deprecated, please use `%s instead.\n%s",
						flag, replacement[i][1], e->herecurr));
	}

	/* check for DT compatible documentation: needs $root, which is
	 * undefined without a tree, so UNDOCUMENTED_DT_STRING never fires */

	/* check for using SPDX license tag at beginning of files */
	if (e->realline == e->checklicenseline)
		spdx_first_line(e);

	/*
	 * check for embedded filenames: /^\+.*\Q$realfile\E/, the file's
	 * name anywhere in the added line (6.12: between word boundaries,
	 * /^\+.*\b\Q$realfile\E\b/); no pattern compiled a file
	 */
	if (rawline && rawline[0] == '+' &&
	    embedded_filename(rawline, realfile, e->cpv >= CP_6_12))
		WARN(e, R_EMBEDDED_FILENAME,
		     eng_cat(e, "It's generally not useful to have the filename in the file\n",
			     e->herecurr));

	/* check we are in a valid source file if not then ignore this hunk */
	if (!MQ(e, "\\.(h|c|rs|s|S|sh|dtsi|dts)$", realfile))
		return SEG_NEXT;

	/*
	 * check for using SPDX-License-Identifier on the wrong line number.
	 * The Perl also tests substr($line, @-, @+ - @-) eq "$;" x (@+ - @-),
	 * meant to require the tag inside a comment; but @- and @+ are
	 * counted there (1 each), so that test is substr($line, 1, 0) eq ""
	 * and always true.
	 */
	if (e->realline != e->checklicenseline &&
	    MQ(e, "\\bSPDX-License-Identifier:", rawline))
		WARN(e, R_SPDX_LICENSE_TAG,
		     eng_printf(e, "Misplaced SPDX-License-Identifier tag - use line %d instead\n%s",
				e->checklicenseline, e->herecurr));

	/* line length limit (with some exclusions) */
	if (line[0] == '+' && e->length > e->o->max_line_length)
		long_line(e);

	/* check for adding lines without a newline. */
	next = eng_line(e, e->linenr + 1);
	if (line[0] == '+' && next && MQ(e, "^\\\\ No newline at end of file", next))
		WARN(e, R_MISSING_EOF_NEWLINE,
		     eng_cat(e, "adding a line without newline at end of file\n", e->herecurr));

	/* check for .L prefix local symbols in .S files */
	if (MQ(e, "\\.S$", realfile) &&
	    MQ(e, "^\\+\\s*(?:[A-Z]+_)?SYM_[A-Z]+_(?:START|END)(?:_[A-Z_]+)?\\s*\\(\\s*\\.L", line))
		WARN(e, R_AVOID_L_PREFIX,
		     eng_cat(e, "Avoid using '.L' prefixed local symbol names for denoting a range of code via 'SYM_*_START/END' annotations; see Documentation/core-api/asm-annotations.rst\n",
			     e->herecurr));

	/* check we are in a valid source file C or perl if not then ignore
	 * this hunk */
	if (!MQ(e, "\\.(h|c|pl|dtsi|dts)$", realfile))
		return SEG_NEXT;
	return SEG_GO;
}
