// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: kernel API usage (checkpatch.pl 6.1, process(), from "check for
 * bad placement of section $InitAttribute" to the end of the per-line
 * loop), first half: section markings, delays, barriers, storage class and
 * inline placement, attributes, types, sizeof, vsprintf, memset, min/max,
 * usleep_range, sscanf, externs and function definitions.  The second half
 * is seg_c_api2.c.
 */
#include "eng.h"

#include <stdlib.h>
#include <string.h>

#include "banned.h"

int seg_c_api2(struct eng *e);
const char *api_rx_text(struct eng *e, const char *s);

/*
 * A string Perl interpolates into a pattern ("/$var/"): its text is the
 * pattern.  Our pattern layer would read "$name" in it as a vocabulary
 * name, so write each bare '$' (Perl's end anchor there) as "(?:$)".
 */
const char *api_rx_text(struct eng *e, const char *s)
{
	struct sbuf sb;
	char *r;

	sbuf_init(&sb, ENG_ARENA_MAX / 4);
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			sbuf_add(&sb, s, 2);
			s++;
		} else if (*s == '$') {
			sbuf_addstr(&sb, "(?:$)");
		} else {
			sbuf_addch(&sb, *s);
		}
	}
	r = eng_sbuf_str(e, &sb);
	sbuf_release(&sb);
	return r;
}

/* Perl's numeric value of a string of digits (possibly huge) */
static double num(const char *s)
{
	return strtod(s, NULL);
}

/* checkpatch.pl's deparenthesize(); "" for undef */
static char *deparenthesize(struct eng *e, const char *s)
{
	char *r;
	int guard = 0;

	if (!s)
		return eng_strdup(e, "");
	r = eng_strdup(e, s);
	while (MQ(e, "^\\s*\\(.*\\)\\s*$", r) && guard++ < 100000) {
		r = eng_subst(e, "^\\s*\\(\\s*", "", r, 0);
		r = eng_subst(e, "\\s*\\)\\s*$", "", r, 0);
	}
	return eng_subst(e, "\\s+", " ", r, 1);
}

/* grep(/$name/, @setup_docs): the added lines of kernel-parameters.txt */
static int setup_documented(struct eng *e, const char *pat)
{
	int docs = 0;
	size_t i;
	struct re_m m;

	for (i = 0; i < e->nlines; i++) {
		const char *raw = e->rawlines[i];

		if (re_match(e->rc, "^\\+\\+\\+\\s+(\\S+)", raw, &m)) {
			size_t n;
			const char *p = re_cap(&m, 1, &n);

			docs = re_match(e->rc, "Documentation/admin-guide/kernel-parameters.txt$",
					eng_strndup(e, p, n), NULL);
		}
		if (docs && e->lines[i][0] == '+' &&
		    re_match(e->rc, pat, e->lines[i], NULL))
			return 1;
	}
	return 0;
}

/* "alias" => "__alias", ... of "Check for compiler attributes" */
static const char *const attr_list[][2] = {
	{ "alias", "__alias" },
	{ "aligned", "__aligned" },
	{ "always_inline", "__always_inline" },
	{ "assume_aligned", "__assume_aligned" },
	{ "cold", "__cold" },
	{ "const", "__attribute_const__" },
	{ "copy", "__copy" },
	{ "designated_init", "__designated_init" },
	{ "externally_visible", "__visible" },
	{ "format", "printf|scanf" },
	{ "gnu_inline", "__gnu_inline" },
	{ "malloc", "__malloc" },
	{ "mode", "__mode" },
	{ "no_caller_saved_registers", "__no_caller_saved_registers" },
	{ "noclone", "__noclone" },
	{ "noinline", "noinline" },
	{ "nonstring", "__nonstring" },
	{ "noreturn", "__noreturn" },
	{ "packed", "__packed" },
	{ "pure", "__pure" },
	{ "section", "__section" },
	{ "used", "__used" },
	{ "weak", "__weak" },
};

static const char *attr_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(attr_list) / sizeof(attr_list[0]); i++)
		if (!strcmp(attr_list[i][0], name))
			return attr_list[i][1];
	return NULL;
}

static void check_attributes(struct eng *e)
{
	const char *rawline = e->rawline;
	char *attr;
	size_t pos = 0, len;
	struct re_m m;

	if (MQ(e, "\\binclude/uapi/", e->realfile.buf) ||
	    !M(e, "\\b__attribute__\\s*\\(\\s*($balanced_parens)\\s*\\)", rawline))
		return;
	attr = eng_cap(e, 1);
	attr = eng_subst(e, "\\s*\\(\\s*(.*)\\)\\s*", "$1", attr, 0);
	len = strlen(attr);

	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "\\s*(\\w+)\\s*(${balanced_parens})?", attr, len, pos, &m)) {
		size_t n;
		const char *p = re_cap(&m, 1, &n);
		char *orig_attr = eng_strndup(e, p, n);
		const char *params = "", *new;
		char *curr_attr;
		int stripped;

		if (re_cap_defined(&m, 2)) {
			p = re_cap(&m, 2, &n);
			params = eng_strndup(e, p, n);
		}
		curr_attr = eng_subst(e, "^[\\s_]+|[\\s_]+$", "", orig_attr, 1);
		stripped = strcmp(curr_attr, orig_attr) != 0;
		new = attr_lookup(curr_attr);
		if (new) {
			if (!strcmp(curr_attr, "format") && params[0]) {
				struct re_m pm;
				const char *c1 = "", *c2 = "";

				/*
				 * On a failed match $1 and $2 are those of the
				 * last successful one: the s/// above (no
				 * groups) or else the loop's match.
				 */
				if (re_match(e->rc, "^\\s*\\(\\s*(\\w+)\\s*,\\s*(.*)", params, &pm)) {
					p = re_cap(&pm, 1, &n);
					c1 = eng_strndup(e, p, n);
					p = re_cap(&pm, 2, &n);
					c2 = eng_strndup(e, p, n);
				} else if (!stripped) {
					c1 = orig_attr;
					c2 = params;
				}
				new = eng_printf(e, "__%s(%s", c1, c2);
			} else {
				new = eng_cat(e, new, params);
			}
			WARN(e, R_PREFER_DEFINED_ATTRIBUTE_MACRO,
			     eng_printf(e, "Prefer %s over __attribute__((%s%s))\n%s",
					new, orig_attr, params, e->herecurr));
		}
		pos = re_end(&m, 0) > pos ? re_end(&m, 0) : pos + 1;
	}

	/* Check for __attribute__ unused, prefer __always_unused or __maybe_unused */
	if (MQ(e, "^_*unused", attr))
		WARN(e, R_PREFER_DEFINED_ATTRIBUTE_MACRO,
		     eng_cat(e, "__always_unused or __maybe_unused is preferred over __attribute__((__unused__))\n",
			     e->herecurr));
}

static void check_vsprintf(struct eng *e)
{
	const char *stat = e->stat;
	const char *stat_real = NULL;
	long lc, count;

	if (!e->has_stat ||
	    !M(e, "(?s)^\\+(?![^\\{]*\\{\\s*).*\\b(\\w+)\\s*\\(.*$String\\s*,", stat) ||
	    MQ(e, "^_*volatile_*$", eng_cap(e, 1)))
		return;
	lc = eng_count_nl(stat) + e->linenr;
	for (count = e->linenr; count <= lc; count++) {
		const char *bad_specifier = "";
		char *fmt = get_quoted_string(e, eng_line(e, count),
					      raw_line(e, count, 0));
		size_t pos = 0, len;
		struct re_m m;

		fmt = eng_subst(e, "%%", "", fmt, 1);
		len = strlen(fmt);
		while (!e->line_skip && pos <= len &&
		       re_find(e->rc, "(\\%[\\*\\d\\.]*p(\\w)(\\w*))", fmt, len, pos, &m)) {
			size_t n;
			const char *p = re_cap(&m, 1, &n);
			char *specifier = eng_strndup(e, p, n), *extension, *qualifier;

			p = re_cap(&m, 2, &n);
			extension = eng_strndup(e, p, n);
			p = re_cap(&m, 3, &n);
			qualifier = eng_strndup(e, p, n);
			pos = re_end(&m, 0) > pos ? re_end(&m, 0) : pos + 1;
			if (!MQ(e, "[4SsBKRraEehMmIiUDdgVCbGNOxtf]", extension) ||
			    (!strcmp(extension, "f") && !MQ(e, "^w", qualifier)) ||
			    (!strcmp(extension, "4") && !MQ(e, "^cc", qualifier))) {
				bad_specifier = specifier;
				break;
			}
			if (!strcmp(extension, "x") && !stat_real) {
				stat_real = get_stat_real(e, e->linenr, lc);
				WARN(e, R_VSPRINTF_SPECIFIER_PX,
				     eng_printf(e, "Using vsprintf specifier '%%px' potentially exposes the kernel memory layout, if you don't really need the address please consider using '%%p'.\n%s\n%s\n",
						e->here.buf, stat_real));
			}
		}
		if (bad_specifier[0]) {
			char *sr = get_stat_real(e, e->linenr, lc);
			const char *use = "";
			int err = 0;

			if (MQ(e, "p[Ff]", bad_specifier)) {
				use = MQ(e, "pf", bad_specifier) ?
				      " - use %ps instead" : " - use %pS instead";
			} else if (MQ(e, "pA", bad_specifier)) {
				use = " - '%pA' is only intended to be used from Rust code";
				err = 1;
			}
			(err ? ERROR : WARN)(e, R_VSPRINTF_POINTER_EXTENSION,
				eng_printf(e, "Invalid vsprintf pointer extension '%s'%s\n%s\n%s\n",
					   bad_specifier, use, e->here.buf, sr));
		}
	}
}

static void check_externs_and_functions(struct eng *e)
{
	const char *stat = e->stat, *line = e->line;
	const char *realfile = e->realfile.buf;

	/* check for new externs in .h files. */
	if (MQ(e, "\\.h$", realfile) &&
	    MQ(e, "(?s)^\\+\\s*(extern\\s+)$Type\\s*$Ident\\s*\\(", line))
		CHK(e, R_AVOID_EXTERNS,
		    eng_cat(e, "extern prototypes should be avoided in .h files\n", e->herecurr));

	/* check for new externs in .c files. */
	if (MQ(e, "\\.c$", realfile) && e->has_stat &&
	    eng_may_type_after_first(e, stat) &&
	    M(e, "(?s)^.\\s*(?:extern\\s+)?$Type\\s+($Ident)(\\s*)\\(", stat)) {
		char *paren_space = eng_cap(e, 2);
		const char *s = stat;
		size_t cl = strlen(e->cond ? e->cond : "");

		/* substr($s, 0, length($cond), '') */
		s = strlen(s) > cl ? s + cl : "";
		if (MQ(e, "^\\s*;", s))
			WARN(e, R_AVOID_EXTERNS,
			     eng_cat(e, "externs should be avoided in .c files\n", e->herecurr));
		if (strchr(paren_space, '\n'))
			WARN(e, R_FUNCTION_ARGUMENTS,
			     eng_cat(e, "arguments for function declarations should follow identifier\n",
				     e->herecurr));
	} else if (e->cpv >= CP_6_12 && MQ(e, "\\.c$", realfile) && e->has_stat &&
		   M(e, "^\\+extern struct\\s+(\\w+)\\s+(\\w+)\\[\\];", stat)) {
		/* 6.12: an extern array of structs may be a linker symbol:
		 * one when a word of a vmlinux.lds.h line is in its name */
		char *st_type = eng_cap(e, 1), *st_name = eng_cap(e, 2);

		if (!linksym_any_in(e, st_name))
			WARN(e, R_AVOID_EXTERNS,
			     eng_printf(e, "found a file-scoped extern type:%s name:%s in .c file\nis this a linker symbol ?\n%s",
					st_type, st_name, e->herecurr));
	} else if (MQ(e, "\\.c$", realfile) && e->has_stat &&
		   MQ(e, "^.\\s*extern\\s+", stat)) {
		WARN(e, R_AVOID_EXTERNS,
		     eng_cat(e, "externs should be avoided in .c files\n", e->herecurr));
	}

	/* check for function declarations that have arguments without identifier names */
	if (e->has_stat && eng_may_type_after_first(e, stat) &&
	    M(e, "(?s)^.\\s*(?:extern\\s+)?$Type\\s*(?:$Ident|\\(\\s*\\*\\s*$Ident\\s*\\))\\s*\\(\\s*([^{]+)\\s*\\)\\s*;", stat) &&
	    strcmp(eng_cap(e, 1), "void")) {
		char *args = trim(e, eng_cap(e, 1));
		size_t pos = 0, len = strlen(args);
		struct re_m m;

		while (!e->line_skip && pos <= len &&
		       re_find(e->rc, "\\s*($Type\\s*(?:$Ident|\\(\\s*\\*\\s*$Ident?\\s*\\)\\s*$balanced_parens)?)",
			       args, len, pos, &m)) {
			size_t n;
			const char *p = re_cap(&m, 1, &n);
			char *arg = trim(e, eng_strndup(e, p, n));

			pos = re_end(&m, 0) > pos ? re_end(&m, 0) : pos + 1;
			if (MQ(e, "^$Type$", arg) && !MQ(e, "enum\\s+$Ident$", arg))
				WARN(e, R_FUNCTION_ARGUMENTS,
				     eng_printf(e, "function definition argument '%s' should also have an identifier name\n%s",
						arg, e->herecurr));
		}
	}

	/* check for function definitions */
	if (e->has_stat && eng_may_type_after_first(e, stat) &&
	    M(e, "(?s)^.\\s*(?:$Storage\\s+)?$Type\\s*($Ident)\\s*$balanced_parens\\s*{", stat)) {
		int ok = 0, cnt, n;
		struct sbuf herectx;
		size_t fl;
		const char *fp = re_cap(&e->m, 1, &fl);

		sbuf_reset(&e->context_function);
		sbuf_add(&e->context_function, fp, fl);
		e->has_context_function = 1;

		/* check for multiline function definition with misplaced open brace */
		cnt = statement_rawlines(e, stat);
		sbuf_init(&herectx, ENG_ARENA_MAX / 4);
		sbuf_addstr(&herectx, e->here.buf);
		sbuf_addch(&herectx, '\n');
		for (n = 0; n < cnt; n++) {
			const char *rl = raw_line(e, e->linenr, n);

			if (!rl)
				rl = "";
			sbuf_addstr(&herectx, rl);
			sbuf_addch(&herectx, '\n');
			if (MQ(e, "^[ \\+]\\{", rl))
				ok = 1;
			if (strchr(rl, '{') && n == 0)
				ok = 1;
			if (MQ(e, "^[ \\+].*\\{", rl))
				break;
		}
		if (!ok)
			ERROR(e, R_OPEN_BRACE,
			      eng_cat(e, "open brace '{' following function definitions go on the next line\n",
				      eng_sbuf_str(e, &herectx)));
		sbuf_release(&herectx);
	}
}

int seg_c_api(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	const char *realfile = e->realfile.buf;
	const char *stat = e->stat;

	/* check for bad placement of section $InitAttribute (e.g.: __initdata) */
	if (M(e, "(\\b$InitAttribute\\b)", line)) {
		char *attr = eng_cap(e, 1);
		const char *qa = api_rx_text(e, attr);

		if (M(e, eng_pat(e, "^\\+\\s*static\\s+(?:const\\s+)?(?:%s\\s+)?($NonptrTypeWithAttr)\\s+(?:%s\\s+)?($Ident(?:\\[[^]]*\\])?)\\s*[=;]",
				 qa, qa), line)) {
			char *ptr = eng_cap(e, 1), *var = eng_cap(e, 2);
			const char *su = eng_pat(e, "\\b(union|struct)\\s+%s\\b", qa);
			char *msg = eng_printf(e, "%s should be placed after %s\n%s",
					       attr, var, e->herecurr);

			if (MQ(e, su, ptr))
				ERROR(e, R_MISPLACED_INIT, msg);
			else
				WARN(e, R_MISPLACED_INIT, msg);
		}
	}

	/* check for $InitAttributeData (ie: __initdata) with const */
	if (MQ(e, "\\bconst\\b", line) && M(e, "($InitAttributeData)", line)) {
		char *attr = eng_cap(e, 1);

		/* always matches: $InitAttributeData starts with the prefix */
		M(e, "($InitAttributePrefix)(.*)", attr);
		ERROR(e, R_INIT_ATTRIBUTE,
		      eng_printf(e, "Use of const init definition must use %sinitconst\n%s",
				 eng_cap(e, 1), e->herecurr));
	}

	/* check for $InitAttributeConst (ie: __initconst) without const */
	if (!MQ(e, "\\bconst\\b", line) && M(e, "($InitAttributeConst)", line))
		ERROR(e, R_INIT_ATTRIBUTE,
		      eng_printf(e, "Use of %s requires a separate use of const\n%s",
				 eng_cap(e, 1), e->herecurr));

	/* check for __read_mostly with const non-pointer (should just be const) */
	if (MQ(e, "\\b__read_mostly\\b", line) &&
	    M(e, "($Type)\\s*$Ident", line) && !MQ(e, "\\*\\s*$", eng_cap(e, 1)) &&
	    MQ(e, "\\bconst\\b", eng_cap(e, 1)))
		ERROR(e, R_CONST_READ_MOSTLY,
		      eng_cat(e, "Invalid use of __read_mostly with const type\n", e->herecurr));

	/* don't use __constant_<foo> functions outside of include/uapi/ */
	if (!MQ(e, "^include/uapi/", realfile) &&
	    M(e, "(__constant_(?:htons|ntohs|[bl]e(?:16|32|64)_to_cpu|cpu_to_[bl]e(?:16|32|64)))\\s*\\(", line)) {
		char *constant_func = eng_cap(e, 1);

		WARN(e, R_CONSTANT_CONVERSION,
		     eng_printf(e, "%s should be %s\n%s", constant_func,
				constant_func + strlen("__constant_"), e->herecurr));
	}

	/* prefer usleep_range over udelay */
	if (M(e, "\\budelay\\s*\\(\\s*(\\d+)\\s*\\)", line)) {
		double delay = num(eng_cap(e, 1));

		/* ignore udelay's < 10, however */
		if (!(delay < 10))
			CHK(e, R_USLEEP_RANGE,
			    eng_cat(e, "usleep_range is preferred over udelay; see Documentation/timers/timers-howto.rst\n",
				    e->herecurr));
		if (delay > 2000)
			WARN(e, R_LONG_UDELAY,
			     eng_cat(e, "long udelay - prefer mdelay; see arch/arm/include/asm/delay.h\n",
				     e->herecurr));
	}

	/* warn about unexpectedly long msleep's */
	if (M(e, "\\bmsleep\\s*\\((\\d+)\\);", line) && num(eng_cap(e, 1)) < 20)
		WARN(e, R_MSLEEP,
		     eng_cat(e, "msleep < 20ms can sleep for up to 20ms; see Documentation/timers/timers-howto.rst\n",
			     e->herecurr));

	/* check for comparisons of jiffies */
	if (MQ(e, "\\bjiffies\\s*$Compare|$Compare\\s*jiffies\\b", line))
		WARN(e, R_JIFFIES_COMPARISON,
		     eng_cat(e, "Comparing jiffies is almost always wrong; prefer time_after, time_before and friends\n",
			     e->herecurr));

	/* check for comparisons of get_jiffies_64() */
	if (MQ(e, "\\bget_jiffies_64\\s*\\(\\s*\\)\\s*$Compare|$Compare\\s*get_jiffies_64\\s*\\(\\s*\\)", line))
		WARN(e, R_JIFFIES_COMPARISON,
		     eng_cat(e, "Comparing get_jiffies_64() is almost always wrong; prefer time_after64, time_before64 and friends\n",
			     e->herecurr));

	/* warn about spacing in #ifdefs */
	if (M(e, "^.\\s*\\#\\s*(ifdef|ifndef|elif)\\s\\s+", line))
		ERROR(e, R_SPACING,
		      eng_printf(e, "exactly one space required after that #%s\n%s",
				 eng_cap(e, 1), e->herecurr));

	/* check for spinlock_t definitions without a comment. */
	if (M(e, "^.\\s*(struct\\s+mutex|spinlock_t)\\s+\\S+;", line) ||
	    M(e, "^.\\s*(DEFINE_MUTEX)\\s*\\(", line)) {
		char *which = eng_cap(e, 1);

		/* ctx_has_comment()'s matches don't change the caller's $1 */
		if (!ctx_has_comment(e, e->first_line, e->linenr))
			CHK(e, R_UNCOMMENTED_DEFINITION,
			    eng_printf(e, "%s definition without comment\n%s",
				       which, e->herecurr));
	}

	/* check for memory barriers without a comment. */
	if (MQ(e, "\\b(?:(?:mb|rmb|wmb)|smp_(?:mb__before_atomic|mb__after_atomic|store_release|load_acquire|store_mb|(?:mb|rmb|wmb))|virt_(?:mb__before_atomic|mb__after_atomic|store_release|load_acquire|store_mb|(?:mb|rmb|wmb)))\\s*\\(", line) &&
	    !ctx_has_comment(e, e->first_line, e->linenr))
		WARN(e, R_MEMORY_BARRIER,
		     eng_cat(e, "memory barrier without comment\n", e->herecurr));

	if (!MQ(e, "^include/asm-generic/", realfile) &&
	    !MQ(e, "/barrier\\.h$", realfile) &&
	    MQ(e, "\\b(?:__smp_(?:mb__before_atomic|mb__after_atomic|store_release|load_acquire|store_mb|(?:mb|rmb|wmb)))\\s*\\(", line) &&
	    !MQ(e, "^.\\s*\\#\\s*define\\s+(?:__smp_(?:mb__before_atomic|mb__after_atomic|store_release|load_acquire|store_mb|(?:mb|rmb|wmb)))\\s*\\(", line))
		WARN(e, R_MEMORY_BARRIER,
		     eng_cat(e, "__smp memory barriers shouldn't be used outside barrier.h and asm-generic\n",
			     e->herecurr));

	/* check for waitqueue_active without a comment. */
	if (MQ(e, "\\bwaitqueue_active\\s*\\(", line) &&
	    !ctx_has_comment(e, e->first_line, e->linenr))
		WARN(e, R_WAITQUEUE_ACTIVE,
		     eng_cat(e, "waitqueue_active without comment\n", e->herecurr));

	/* check for data_race without a comment. */
	if (MQ(e, "\\bdata_race\\s*\\(", line) &&
	    !ctx_has_comment(e, e->first_line, e->linenr))
		WARN(e, R_DATA_RACE, eng_cat(e, "data_race without comment\n", e->herecurr));

	/* check of hardware specific defines */
	if (MQ(e, "^.\\s*\\#\\s*if.*\\b(__i386__|__powerpc64__|__sun__|__s390x__)\\b", line) &&
	    !MQ(e, "include/asm-", realfile))
		CHK(e, R_ARCH_DEFINES,
		    eng_cat(e, "architecture specific defines should be avoided\n", e->herecurr));

	/* check that the storage class is not after a type */
	/* (cheap test first: $Storage must be there literally) */
	if ((strstr(line, "extern") || strstr(line, "static") ||
	     strstr(line, "asmlinkage")) &&
	    M(e, "\\b($Type)\\s+($Storage)\\b", line))
		WARN(e, R_STORAGE_CLASS,
		     eng_printf(e, "storage class '%s' should be located before type '%s'\n%s",
				eng_cap(e, 2), eng_cap(e, 1), e->herecurr));
	/* Check that the storage class is at the beginning of a declaration;
	 * "\$Storage" is a literal "$Storage" in the Perl too */
	if (MQ(e, "\\b$Storage\\b", line) &&
	    !MQ(e, "^.\\s*$Storage", line) &&
	    M(e, "^.\\s*(.+?)\\$Storage\\s", line) &&
	    !MQ(e, "[\\,\\)]\\s*$", eng_cap(e, 1)))
		WARN(e, R_STORAGE_CLASS,
		     eng_cat(e, "storage class should be at the beginning of the declaration\n",
			     e->herecurr));

	/* check the location of the inline attribute, that it is between
	 * storage class and type. */
	if (strstr(line, "inline") &&	/* every $Inline spells it */
	    (MQ(e, "\\b$Type\\s+$Inline\\b", line) ||
	     MQ(e, "\\b$Inline\\s+$Storage\\b", line)))
		ERROR(e, R_INLINE_LOCATION,
		      eng_cat(e, "inline keyword should sit between storage class and type\n",
			      e->herecurr));

	/* Check for __inline__ and __inline, prefer inline */
	if (!MQ(e, "\\binclude/uapi/", realfile) &&
	    M(e, "\\b(__inline__|__inline)\\b", line))
		WARN(e, R_INLINE,
		     eng_printf(e, "plain inline is preferred over %s\n%s",
				eng_cap(e, 1), e->herecurr));

	/* Check for compiler attributes */
	check_attributes(e);

	/* Check for __attribute__ weak, or __weak declarations (may have link issues) */
	/* (the cheap tests first: no side effects, same result) */
	if ((MQ(e, "\\b__attribute__\\s*\\(\\s*\\(.*\\bweak\\b", line) ||
	     MQ(e, "\\b__weak\\b", line)) &&
	    MQ(e, "(?:$Declare|$DeclareMisordered)\\s*$Ident\\s*$balanced_parens\\s*(?:$Attribute)?\\s*;", line))
		ERROR(e, R_WEAK_DECLARATION,
		      eng_cat(e, "Using weak declarations can have unintended link defects\n",
			      e->herecurr));

	/* check for c99 types like uint8_t used outside of uapi/ and tools/ */
	/*
	 * Only a CHECK, and only for a $typeC99Typedefs word (every one has
	 * "int" and "_t"): without those the match can change nothing but
	 * $1, and no later check reads $1 before matching on its own.
	 */
	if (e->check && strstr(line, "int") && strstr(line, "_t") &&
	    !MQ(e, "\\binclude/uapi/", realfile) &&
	    !MQ(e, "\\btools/", realfile) &&
	    M(e, "\\b($Declare)\\s*$Ident\\s*[=;,\\[]", line)) {
		char *type = eng_cap(e, 1);

		if (M(e, "\\b($typeC99Typedefs)\\b", type)) {
			char *kernel_type;

			type = eng_cap(e, 1);
			kernel_type = MQ(e, "^_*[si]", type) ? "s" : "u";
			M(e, "(\\d+)", type);
			kernel_type = eng_cat(e, kernel_type, eng_cap(e, 1));
			CHK(e, R_PREFER_KERNEL_TYPES,
			    eng_printf(e, "Prefer kernel type '%s' over '%s'\n%s",
				       kernel_type, type, e->herecurr));
		}
	}

	/* check for cast of C90 native int or longer types constants */
	if (M(e, "(\\(\\s*$C90_int_types\\s*\\)\\s*)($Constant)\\b", line)) {
		char *cast = eng_cap(e, 1), *cnst = eng_cap(e, 2);
		const char *suffix = "";

		if (MQ(e, "\\bunsigned\\b", cast))
			suffix = "U";
		if (MQ(e, "\\blong\\s+long\\b", cast))
			suffix = eng_cat(e, suffix, "LL");
		else if (MQ(e, "\\blong\\b", cast))
			suffix = eng_cat(e, suffix, "L");
		WARN(e, R_TYPECAST_INT_CONSTANT,
		     eng_printf(e, "Unnecessary typecast of c90 int constant - '%s%s' could be '%s%s'\n%s",
				cast, cnst, cnst, suffix, e->herecurr));
	}

	/* check for sizeof(&) */
	if (MQ(e, "\\bsizeof\\s*\\(\\s*\\&", line))
		WARN(e, R_SIZEOF_ADDRESS, eng_cat(e, "sizeof(& should be avoided\n", e->herecurr));

	/* check for sizeof without parenthesis */
	if (M(e, "\\bsizeof\\s+((?:\\*\\s*|)$Lval|$Type(?:\\s+$Lval|))", line)) {
		char *c1 = eng_cap(e, 1);

		WARN(e, R_SIZEOF_PARENTHESIS,
		     eng_printf(e, "sizeof %s should be sizeof(%s)\n%s", c1, c1, e->herecurr));
	}

	/* check for struct spinlock declarations */
	if (MQ(e, "^.\\s*\\bstruct\\s+spinlock\\s+\\w+\\s*;", line))
		WARN(e, R_USE_SPINLOCK_T,
		     eng_cat(e, "struct spinlock should be spinlock_t\n", e->herecurr));

	/* check for seq_printf uses that could be seq_puts */
	if (MQ(e, "\\bseq_printf\\s*\\(.*\"\\s*\\)\\s*;\\s*$", e->sline)) {
		char *fmt = get_quoted_string(e, line, rawline);

		fmt = eng_subst(e, "%%", "", fmt, 1);
		if (!strchr(fmt, '%'))
			WARN(e, R_PREFER_SEQ_PUTS,
			     eng_cat(e, "Prefer seq_puts to seq_printf\n", e->herecurr));
	}

	/* check for vsprintf extension %p<foo> misuses */
	check_vsprintf(e);

	/* Check for misused memsets */
	if (e->has_stat &&
	    M(e, "^\\+(?:.*?)\\bmemset\\s*\\(\\s*$FuncArg\\s*,\\s*$FuncArg\\s*\\,\\s*$FuncArg\\s*\\)", stat)) {
		char *ms_size = eng_cap(e, 12);

		if (MQ(e, "(?i)^(0x|)0$", ms_size))
			ERROR(e, R_MEMSET,
			      eng_printf(e, "memset to 0's uses 0 as the 2nd argument, not the 3rd\n%s\n%s\n",
					 e->here.buf, stat));
		else if (MQ(e, "(?i)^(0x|)1$", ms_size))
			WARN(e, R_MEMSET,
			     eng_printf(e, "single byte memset is suspicious. Swapped 2nd/3rd argument?\n%s\n%s\n",
					e->here.buf, stat));
	}

	/* 6.12: strcpy uses that should likely be strscpy */
	if (e->cpv >= CP_6_12 && MQ(e, "\\bstrcpy\\s*\\(", line))
		WARN(e, R_STRCPY,
		     eng_cat(e, "Prefer strscpy over strcpy - see: https://github.com/KSPP/linux/issues/88\n",
			     e->herecurr));

	/* strlcpy uses that should likely be strscpy */
	if (MQ(e, "\\bstrlcpy\\s*\\(", line))
		WARN(e, R_STRLCPY,
		     eng_cat(e, e->cpv >= CP_6_12 ?
			     "Prefer strscpy over strlcpy - see: https://github.com/KSPP/linux/issues/89\n" :
			     "Prefer strscpy over strlcpy - see: https://lore.kernel.org/r/CAHk-=wgfRnXz0W3D37d01q3JFkr_i_uTL=V6A6G1oUZcprmknw@mail.gmail.com/\n",
			     e->herecurr));

	if (e->cpv >= CP_6_12) {
		/* strncpy uses that should likely be strscpy or strscpy_pad */
		if (MQ(e, "\\bstrncpy\\s*\\(", line))
			WARN(e, R_STRNCPY,
			     eng_cat(e, "Prefer strscpy, strscpy_pad, or __nonstring over strncpy - see: https://github.com/KSPP/linux/issues/90\n",
				     e->herecurr));
		/* ethtool_sprintf uses that should likely be ethtool_puts */
		if (MQ(e, "\\bethtool_sprintf\\s*\\(\\s*$FuncArg\\s*,\\s*$FuncArg\\s*\\)", line))
			WARN(e, R_PREFER_ETHTOOL_PUTS,
			     eng_cat(e, "Prefer ethtool_puts over ethtool_sprintf with only two arguments\n",
				     e->herecurr));
		/* $rawline: $line lost the %s to sanitising */
		if (MQ(e, "\\bethtool_sprintf\\s*\\(\\s*$FuncArg\\s*,\\s*\\\"\\%s\\\"\\s*,\\s*$FuncArg\\s*\\)",
		       e->rawline))
			WARN(e, R_PREFER_ETHTOOL_PUTS,
			     eng_cat(e, "Prefer ethtool_puts over ethtool_sprintf with standalone \"%s\" specifier\n",
				     e->herecurr));
	}

	/* typecasts on min/max could be min_t/max_t */
	if (e->has_stat &&
	    M(e, "^\\+(?:.*?)\\b(min|max)\\s*\\(\\s*$FuncArg\\s*,\\s*$FuncArg\\s*\\)", stat) &&
	    (eng_cap_def(e, 2) || eng_cap_def(e, 7))) {
		char *call = eng_cap(e, 1);
		char *cast1 = deparenthesize(e, eng_cap_def(e, 2) ? eng_cap(e, 2) : NULL);
		char *arg1 = eng_cap(e, 3);
		char *cast2 = deparenthesize(e, eng_cap_def(e, 7) ? eng_cap(e, 7) : NULL);
		char *arg2 = eng_cap(e, 8);
		const char *cast;

		if (cast1[0] && cast2[0] && strcmp(cast1, cast2))
			cast = eng_printf(e, "%s or %s", cast1, cast2);
		else if (cast1[0])
			cast = cast1;
		else
			cast = cast2;
		WARN(e, R_MINMAX,
		     eng_printf(e, "%s() should probably be %s_t(%s, %s, %s)\n%s\n%s\n",
				call, call, cast, arg1, arg2, e->here.buf, stat));
	}

	/* check usleep_range arguments */
	if (e->has_stat &&
	    M(e, "^\\+(?:.*?)\\busleep_range\\s*\\(\\s*($FuncArg)\\s*,\\s*($FuncArg)\\s*\\)", stat)) {
		char *min = eng_cap(e, 1), *max = eng_cap(e, 7);

		if (!strcmp(min, max))
			WARN(e, R_USLEEP_RANGE,
			     eng_printf(e, "usleep_range should not use min == max args; see Documentation/timers/timers-howto.rst\n%s\n%s\n",
					e->here.buf, stat));
		else if (MQ(e, "^\\d+$", min) && MQ(e, "^\\d+$", max) &&
			 num(min) > num(max))
			WARN(e, R_USLEEP_RANGE,
			     eng_printf(e, "usleep_range args reversed, use min then max; see Documentation/timers/timers-howto.rst\n%s\n%s\n",
					e->here.buf, stat));
	}

	/* check for naked sscanf */
	if (e->has_stat && MQ(e, "\\bsscanf\\b", line) &&
	    (!MQ(e, "$Ident\\s*=\\s*sscanf\\s*$balanced_parens", stat) &&
	     !MQ(e, "\\bsscanf\\s*$balanced_parens\\s*(?:$Compare)", stat) &&
	     !MQ(e, "(?:$Compare)\\s*\\bsscanf\\s*$balanced_parens", stat))) {
		long lc = eng_count_nl(stat) + e->linenr;

		WARN(e, R_NAKED_SSCANF,
		     eng_printf(e, "unchecked sscanf return value\n%s\n%s\n", e->here.buf,
				get_stat_real(e, e->linenr, lc)));
	}

	/* check for simple sscanf that should be kstrto<foo> */
	if (e->has_stat && MQ(e, "\\bsscanf\\b", line)) {
		long lc = eng_count_nl(stat) + e->linenr;
		char *stat_real = get_stat_real(e, e->linenr, lc);

		if (M(e, "\\bsscanf\\b\\s*\\(\\s*$FuncArg\\s*,\\s*(\"[^\"]+\")", stat_real)) {
			char *format = eng_cap(e, 6);
			const char *p;
			int count = 0;

			for (p = format; *p; p++)
				if (*p == '%')
					count++;
			if (count == 1 &&
			    MQ(e, "^\"\\%(?i:ll[udxi]|[udxi]ll|ll|[hl]h?[udxi]|[udxi][hl]h?|[hl]h?|[udxi])\"$", format))
				WARN(e, R_SSCANF_TO_KSTRTO,
				     eng_printf(e, "Prefer kstrto<type> to single variable sscanf\n%s\n%s\n",
						e->here.buf, stat_real));
		}
	}

	check_externs_and_functions(e);

	/* checks for new __setup's */
	if (M(e, "\\b__setup\\(\"([^\"]*)\"", rawline)) {
		char *name = eng_cap(e, 1);
		/* an empty pattern is Perl's last successful one: this */
		const char *pat = name[0] ? eng_pat(e, "%s", api_rx_text(e, name)) :
			"\\b__setup\\(\"([^\"]*)\"";

		if (!setup_documented(e, pat))
			CHK(e, R_UNDOCUMENTED_SETUP,
			    eng_cat(e, "__setup appears un-documented -- check Documentation/admin-guide/kernel-parameters.txt\n",
				    e->herecurr));
	}

	return seg_c_api2(e);
}

/*
 * After the per-line loop checkpatch.pl only makes the whole-patch checks
 * that process_end() already makes (empty input, --no-patch, the unified
 * diff and sign-off checks): nothing is left for here.
 */
void seg_final(struct eng *e)
{
	(void)e;
}
