// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: kernel API usage (checkpatch.pl 6.1, process(), from "check for
 * bad placement of section $InitAttribute" to the end of the per-line
 * loop): section markings, delays, barriers, storage class and inline
 * placement, attributes, types, sizeof, vsprintf, memset, min/max,
 * usleep_range, sscanf, externs and function definitions; then, from
 * "check for pointless casting of alloc functions" (seg_c_api_rest()),
 * allocation calls, BIT() and IS_ENABLED(), fallthrough comments, obsolete
 * and deprecated calls, const structs, NR_CPUS, likely(), sysfs_emit(),
 * in_atomic(), lockdep, file permissions, MODULE_LICENSE and sysctl
 * constants.  6.12's differences sit behind e->cpv where they differ.
 */
#include "eng.h"

#include <stdlib.h>
#include <string.h>

#include "../banned.h"

static int seg_c_api_rest(struct eng *e);

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

	return seg_c_api_rest(e);
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

/* ---- the rest of the segment ---- */
	/* seg_c_api.c */

/* %mode_permission_string_types */
static const struct {
	const char *name;
	unsigned mode;
} perm_types[] = {
	{ "S_IRWXU", 0700 }, { "S_IRUSR", 0400 }, { "S_IWUSR", 0200 },
	{ "S_IXUSR", 0100 }, { "S_IRWXG", 0070 }, { "S_IRGRP", 0040 },
	{ "S_IWGRP", 0020 }, { "S_IXGRP", 0010 }, { "S_IRWXO", 0007 },
	{ "S_IROTH", 0004 }, { "S_IWOTH", 0002 }, { "S_IXOTH", 0001 },
	{ "S_IRWXUGO", 0777 }, { "S_IRUGO", 0444 }, { "S_IWUGO", 0222 },
	{ "S_IXUGO", 0111 },
};

/* checkpatch.pl's perms_to_octal() */
static char *perms_to_octal(struct eng *e, const char *string)
{
	unsigned to = 0;
	size_t pos = 0, len = strlen(string), curpos, lastpos = 0;
	struct re_m m;

	if (MQ(e, "^\\s*0[0-7]{3,3}\\s*$", string))
		return trim(e, string);
	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "\\b(($single_mode_perms_string_search)\\b(?:\\s*\\|\\s*)?\\s*)",
		       string, len, pos, &m)) {
		size_t n, ol, i;
		const char *match = re_cap(&m, 2, &n);

		re_cap(&m, 1, &ol);
		curpos = re_end(&m, 0);
		pos = curpos > pos ? curpos : pos + 1;
		if (lastpos > 0 && curpos - ol != lastpos)
			break;
		lastpos = curpos;
		for (i = 0; i < sizeof(perm_types) / sizeof(perm_types[0]); i++)
			if (strlen(perm_types[i].name) == n &&
			    !memcmp(perm_types[i].name, match, n))
				to |= perm_types[i].mode;
	}
	return eng_printf(e, "%04o", to);
}

/* @mode_permission_funcs: function pattern, permission argument position */
static const struct {
	const char *func;
	int arg_pos;
} mode_permission_funcs[] = {
	{ "module_param", 3 },
	{ "module_param_(?:array|named|string)", 4 },
	{ "module_param_array_named", 5 },
	{ "debugfs_create_(?:file|u8|u16|u32|u64|x8|x16|x32|x64|size_t|atomic_t|bool|blob|regset32|u32_array)", 2 },
	{ "proc_create(?:_data|)", 2 },
	{ "(?:CLASS|DEVICE|SENSOR|SENSOR_DEVICE|IIO_DEVICE)_ATTR", 2 },
	{ "IIO_DEV_ATTR_[A-Z_]+", 1 },
	{ "SENSOR_(?:DEVICE_|)ATTR_2", 2 },
	{ "SENSOR_TEMPLATE(?:_2|)", 3 },
	{ "__ATTR", 2 },
};

/* %deprecated_apis */
static const char *const deprecated_apis[][2] = {
	{ "synchronize_rcu_bh", "synchronize_rcu" },
	{ "synchronize_rcu_bh_expedited", "synchronize_rcu_expedited" },
	{ "call_rcu_bh", "call_rcu" },
	{ "rcu_barrier_bh", "rcu_barrier" },
	{ "synchronize_sched", "synchronize_rcu" },
	{ "synchronize_sched_expedited", "synchronize_rcu_expedited" },
	{ "call_rcu_sched", "call_rcu" },
	{ "rcu_barrier_sched", "rcu_barrier" },
	{ "get_state_synchronize_sched", "get_state_synchronize_rcu" },
	{ "cond_synchronize_sched", "cond_synchronize_rcu" },
	{ "kmap", "kmap_local_page" },
	{ "kmap_atomic", "kmap_local_page" },
	/* 6.12 */
	{ "kunmap", "kunmap_local" },
	{ "kunmap_atomic", "kunmap_local" },
};

/* @fallthroughs */
static const char *const fallthroughs[] = {
	"fallthrough",
	"@fallthrough@",
	"lint -fallthrough[ \\t]*",
	"intentional(?:ly)?[ \\t]*fall(?:(?:s | |-)[Tt]|t)hr(?:ough|u|ew)",
	"(?:else,?\\s*)?FALL(?:S | |-)?THR(?:OUGH|U|EW)[ \\t.!]*(?:-[^\\n\\r]*)?",
	"Fall(?:(?:s | |-)[Tt]|t)hr(?:ough|u|ew)[ \\t.!]*(?:-[^\\n\\r]*)?",
	"fall(?:s | |-)?thr(?:ough|u|ew)[ \\t.!]*(?:-[^\\n\\r]*)?",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* check for DEVICE_ATTR uses that could be DEVICE_ATTR_<FOO> */
static void check_device_attr(struct eng *e)
{
	char *var, *perms, *show, *store, *octal_perms;
	int show_is_var, store_is_var;

	if (!e->has_stat ||
	    !M(e, "\\bDEVICE_ATTR\\s*\\(\\s*(\\w+)\\s*,\\s*\\(?\\s*(\\s*(?:${multi_mode_perms_string_search}|0[0-7]{3,3})\\s*)\\s*\\)?\\s*,\\s*(\\w+)\\s*,\\s*(\\w+)\\s*\\)",
	       e->stat))
		return;
	var = eng_cap(e, 1);
	perms = eng_cap(e, 2);
	show = eng_cap(e, 3);
	store = eng_cap(e, 4);
	octal_perms = perms_to_octal(e, perms);
	/* /^${var}_show$/: $var is \w+, so a plain comparison */
	show_is_var = !strcmp(show, eng_cat(e, var, "_show"));
	store_is_var = !strcmp(store, eng_cat(e, var, "_store"));
	if (show_is_var && store_is_var && !strcmp(octal_perms, "0644")) {
		WARN(e, R_DEVICE_ATTR_RW, eng_cat(e, "Use DEVICE_ATTR_RW\n", e->herecurr));
	} else if (show_is_var && !strcmp(store, "NULL") &&
		   !strcmp(octal_perms, "0444")) {
		WARN(e, R_DEVICE_ATTR_RO, eng_cat(e, "Use DEVICE_ATTR_RO\n", e->herecurr));
	} else if (!strcmp(show, "NULL") && store_is_var &&
		   !strcmp(octal_perms, "0200")) {
		WARN(e, R_DEVICE_ATTR_WO, eng_cat(e, "Use DEVICE_ATTR_WO\n", e->herecurr));
	} else if (!strcmp(octal_perms, "0644") || !strcmp(octal_perms, "0444") ||
		   !strcmp(octal_perms, "0200")) {
		const char *newshow = show, *newstore = store, *rename = "";

		if (strcmp(show, "NULL") && !show_is_var)
			newshow = eng_cat(e, var, "_show");
		if (strcmp(store, "NULL") && !store_is_var)
			newstore = eng_cat(e, var, "_store");
		if (strcmp(show, newshow))
			rename = eng_printf(e, "%s '%s' to '%s'", rename, show, newshow);
		if (strcmp(store, newstore))
			rename = eng_printf(e, "%s '%s' to '%s'", rename, store, newstore);
		WARN(e, R_DEVICE_ATTR_FUNCTIONS,
		     eng_printf(e, "Consider renaming function(s)%s\n%s", rename, e->herecurr));
	} else {
		WARN(e, R_DEVICE_ATTR_PERMS,
		     eng_printf(e, "DEVICE_ATTR unusual permissions '%s' used\n%s",
				perms, e->herecurr));
	}
}

/*
 * Mode permission misuses where it seems decimal should be octal; the
 * shortcut match on $mode_perms_search avoids the slow loop.
 */
static void check_mode_perms(struct eng *e)
{
	const char *stat = e->stat;
	const char *stat_real = NULL;
	size_t i;

	if (!e->has_stat || !MQ(e, "$mode_perms_search", e->line))
		return;
	for (i = 0; i < ARRAY_SIZE(mode_permission_funcs); i++) {
		const char *func = mode_permission_funcs[i].func;
		int arg_pos = mode_permission_funcs[i].arg_pos;
		const char *skip_args = "", *test;
		char *val;

		if (arg_pos > 1) {
			arg_pos--;
			skip_args = eng_printf(e, "(?:\\s*$FuncArg\\s*,\\s*){%d,%d}",
					       arg_pos, arg_pos);
		}
		test = eng_pat(e, "\\b%s\\s*\\(%s($FuncArg(?:\\|\\s*$FuncArg)*)\\s*[,\\)]",
			       func, skip_args);
		if (!M(e, test, stat))
			continue;
		val = eng_cap(e, skip_args[0] ? 6 : 1);
		if (!stat_real)
			stat_real = get_stat_real(e, e->linenr, eng_count_nl(stat) + e->linenr);
		if (!(MQ(e, "^(?:module_param|proc_create)", func) && !strcmp(val, "0")) &&
		    ((MQ(e, "^$Int$", val) && !MQ(e, "^$Octal$", val)) ||
		     (MQ(e, "^$Octal$", val) && strlen(val) != 4)))
			ERROR(e, R_NON_OCTAL_PERMISSIONS,
			      eng_printf(e, "Use 4 digit octal (0777) not decimal permissions\n%s\n%s",
					 e->here.buf, stat_real));
		/* oct($val) & 02: oct() reads the leading octal digits */
		if (MQ(e, "^$Octal$", val) && (strtoul(val, NULL, 8) & 02))
			ERROR(e, R_EXPORTED_WORLD_WRITABLE,
			      eng_printf(e, "Exporting writable files is usually an error. Consider more restrictive permissions.\n%s\n%s",
					 e->here.buf, stat_real));
	}
}

static void check_alloc(struct eng *e)
{
	const char *line = e->line, *stat = e->stat;

	/* check for pointless casting of alloc functions */
	if (MQ(e, "\\*\\s*\\)\\s*$allocFunctions\\b", line))
		WARN(e, R_UNNECESSARY_CASTS,
		     eng_cat(e, "unnecessary cast may hide bugs, see http://c-faq.com/malloc/mallocnocast.html\n",
			     e->herecurr));

	/* alloc style
	 * p = alloc(sizeof(struct foo), ...) should be p = alloc(sizeof(*p), ...) */
	if (M(e, "\\b($Lval)\\s*\\=\\s*(?:$balanced_parens)?\\s*((?:kv|k|v)[mz]alloc(?:_node)?)\\s*\\(\\s*(sizeof\\s*\\(\\s*struct\\s+$Lval\\s*\\))", line)) {
		char *c3 = eng_cap(e, 3);

		CHK(e, R_ALLOC_SIZEOF_STRUCT,
		    eng_printf(e, "Prefer %s(sizeof(*%s)...) over %s(%s...)\n%s",
			       c3, eng_cap(e, 1), c3, eng_cap(e, 4), e->herecurr));
	}

	/* check for (kv|k)[mz]alloc with multiplies that could be
	 * kmalloc_array/kvmalloc_array/kvcalloc/kcalloc */
	if (e->has_stat &&
	    M(e, "^\\+\\s*($Lval)\\s*\\=\\s*(?:$balanced_parens)?\\s*((?:kv|k)[mz]alloc)\\s*\\(\\s*($FuncArg)\\s*\\*\\s*($FuncArg)\\s*,", stat)) {
		char *oldfunc = eng_cap(e, 3), *a1 = eng_cap(e, 4), *a2 = eng_cap(e, 10);
		const char *newfunc = "kmalloc_array", *r1 = a1, *r2 = a2;

		if (!strcmp(oldfunc, "kvmalloc"))
			newfunc = "kvmalloc_array";
		if (!strcmp(oldfunc, "kvzalloc"))
			newfunc = "kvcalloc";
		if (!strcmp(oldfunc, "kzalloc"))
			newfunc = "kcalloc";
		if (MQ(e, "^sizeof\\s*\\S", a1)) {
			r1 = a2;
			r2 = a1;
		}
		if (!MQ(e, "^sizeof\\b", r1) && MQ(e, "^sizeof\\s*\\S", r2) &&
		    !(MQ(e, "^$Constant$", r1) || MQ(e, "^[A-Z_][A-Z0-9_]*$", r1))) {
			int cnt = statement_rawlines(e, stat);

			WARN(e, R_ALLOC_WITH_MULTIPLY,
			     eng_printf(e, "Prefer %s over %s with multiply\n%s", newfunc, oldfunc,
					get_stat_here(e, e->linenr, cnt, e->here.buf)));
		}
	}

	/* check for krealloc arg reuse */
	if (M(e, "\\b($Lval)\\s*\\=\\s*(?:$balanced_parens)?\\s*krealloc\\s*\\(\\s*($Lval)\\s*,", line) &&
	    !strcmp(eng_cap(e, 1), eng_cap(e, 3)))
		WARN(e, R_KREALLOC_ARG_REUSE,
		     eng_cat(e, "Reusing the krealloc arg is almost always a bug\n", e->herecurr));

	/* check for alloc argument mismatch (6.12: kv and _node variants,
	 * calloc and malloc_array) */
	if (e->cpv >= CP_6_12 ?
	    M(e, "\\b((?:devm_)?((?:k|kv)?(calloc|malloc_array)(?:_node)?))\\s*\\(\\s*sizeof\\b", line) :
	    M(e, "\\b((?:devm_)?(?:kcalloc|kmalloc_array))\\s*\\(\\s*sizeof\\b", line))
		WARN(e, R_ALLOC_ARRAY_ARGS,
		     eng_printf(e, "%s uses number as first arg, sizeof is generally wrong\n%s",
				eng_cap(e, 1), e->herecurr));
}

static int seg_c_api_rest(struct eng *e)
{
	const char *line = e->line, *rawline = e->rawline;
	const char *realfile = e->realfile.buf;
	const char *stat = e->stat;
	const char *cfg = e->o->kconfig_prefix ? e->o->kconfig_prefix : "";
	const char *cfg_rx = api_rx_text(e, cfg);
	size_t pos, len, i;
	struct re_m m;

	check_alloc(e);

	/* check for multiple semicolons */
	if (MQ(e, ";\\s*;\\s*$", line))
		WARN(e, R_ONE_SEMICOLON,
		     eng_cat(e, "Statements terminations use 1 semicolon\n", e->herecurr));

	/* check for #defines like: 1 << <digit> that could be BIT(digit), it
	 * is not exported to uapi */
	if (!MQ(e, "^include/uapi/", realfile) &&
	    M(e, "#\\s*define\\s+\\w+\\s+\\(?\\s*1\\s*([ulUL]*)\\s*\\<\\<\\s*(?:\\d+|$Ident)\\s*\\)?", line)) {
		const char *ull = "";

		if (eng_cap_def(e, 1) && MQ(e, "(?i)ll", eng_cap(e, 1)))
			ull = "_ULL";
		CHK(e, R_BIT_MACRO,
		    eng_printf(e, "Prefer using the BIT%s macro\n%s", ull, e->herecurr));
	}

	/* check for IS_ENABLED() without CONFIG_<FOO> ($rawline for comments too);
	 * ${CONFIG_} is interpolated as a pattern, as in the Perl */
	if (M(e, "\\bIS_ENABLED\\s*\\(\\s*(\\w+)\\s*\\)", rawline)) {
		char *c1 = eng_cap(e, 1);

		if (!MQ(e, eng_pat(e, "^%s", cfg_rx), c1))
			WARN(e, R_IS_ENABLED_CONFIG,
			     eng_printf(e, "IS_ENABLED(%s) is normally used as IS_ENABLED(%s%s)\n%s",
					c1, cfg, c1, e->herecurr));
	}

	/* check for #if defined CONFIG_<FOO> || defined CONFIG_<FOO>_MODULE */
	if (MQ(e, eng_pat(e, "^\\+\\s*#\\s*if\\s+defined(?:\\s*\\(?\\s*|\\s+)(%s[A-Z_]+)\\s*\\)?\\s*\\|\\|\\s*defined(?:\\s*\\(?\\s*|\\s+)\\1_MODULE\\s*\\)?\\s*$",
			  cfg_rx), line))
		WARN(e, R_PREFER_IS_ENABLED,
		     eng_printf(e, "Prefer IS_ENABLED(<FOO>) to %s<FOO> || %s<FOO>_MODULE\n%s",
				cfg, cfg, e->herecurr));

	/* check for /\* fallthrough *\/ like comment, prefer fallthrough; */
	if (e->raw_comment[0]) {
		for (i = 0; i < ARRAY_SIZE(fallthroughs); i++) {
			if (MQ(e, fallthroughs[i], e->raw_comment)) {
				(e->o->file ? CHK : WARN)(e, R_PREFER_FALLTHROUGH,
					eng_cat(e, "Prefer 'fallthrough;' over fallthrough comment\n",
						e->herecurr));
				break;
			}
		}
	}

	/* check for switch/default statements without a break; */
	if (e->has_stat &&
	    MQ(e, "^\\+[$;\\s]*(?:case[$;\\s]+\\w+[$;\\s]*:[$;\\s]*|)*[$;\\s]*\\bdefault[$;\\s]*:[$;\\s]*;", stat)) {
		int cnt = statement_rawlines(e, stat);

		WARN(e, R_DEFAULT_NO_BREAK,
		     eng_cat(e, "switch default: should use break\n",
			     get_stat_here(e, e->linenr, cnt, e->here.buf)));
	}

	/* check for gcc specific __FUNCTION__ */
	if (MQ(e, "\\b__FUNCTION__\\b", line))
		WARN(e, R_USE_FUNC,
		     eng_cat(e, "__func__ should be used instead of gcc specific __FUNCTION__\n",
			     e->herecurr));

	/* check for uses of __DATE__, __TIME__, __TIMESTAMP__ */
	len = strlen(line);
	pos = 0;
	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "\\b(__(?:DATE|TIME|TIMESTAMP)__)\\b", line, len, pos, &m)) {
		size_t n;
		const char *p = re_cap(&m, 1, &n);

		ERROR(e, R_DATE_TIME,
		      eng_printf(e, "Use of the '%s' macro makes the build non-deterministic\n%s",
				 eng_strndup(e, p, n), e->herecurr));
		pos = re_end(&m, 0) > pos ? re_end(&m, 0) : pos + 1;
	}

	/* check for use of yield() */
	if (MQ(e, "\\byield\\s*\\(\\s*\\)", line))
		WARN(e, R_YIELD,
		     eng_cat(e, "Using yield() is generally wrong. See yield() kernel-doc (sched/core.c)\n",
			     e->herecurr));

	/* check for comparisons against true and false */
	if (M(e, "(?i)\\+\\s*(.*?)\\b(true|false|$Lval)\\s*(==|\\!=)\\s*(true|false|$Lval)\\b(.*)$", line)) {
		char *arg = eng_cap(e, 2), *otype = eng_cap(e, 4);

		if (MQ(e, "(?i)^(?:true|false)$", arg))
			otype = arg;
		/* lc($otype) =~ /^(?:true|false)$/ */
		if (MQ(e, "(?i)^(?:true|false)$", otype))
			CHK(e, R_BOOL_COMPARISON,
			    eng_printf(e, "Using comparison to %s is error prone\n%s",
				       otype, e->herecurr));
	}

	/* check for semaphores initialized locked */
	if (MQ(e, "^.\\s*sema_init.+,\\W?0\\W?\\)", line))
		WARN(e, R_CONSIDER_COMPLETION,
		     eng_cat(e, "consider using a completion\n", e->herecurr));

	/* recommend kstrto* over simple_strto* and strict_strto* */
	if (M(e, "\\b((simple|strict)_(strto(l|ll|ul|ull)))\\s*\\(", line))
		WARN(e, R_CONSIDER_KSTRTO,
		     eng_printf(e, "%s is obsolete, use k%s instead\n%s",
				eng_cap(e, 1), eng_cap(e, 3), e->herecurr));

	/* check for __initcall(), use device_initcall() explicitly or more
	 * appropriate function please */
	if (MQ(e, "^.\\s*__initcall\\s*\\(", line))
		WARN(e, R_USE_DEVICE_INITCALL,
		     eng_cat(e, "please use device_initcall() or more appropriate function instead of __initcall() (see include/linux/init.h)\n",
			     e->herecurr));

	/* check for spin_is_locked(), suggest lockdep instead */
	if (MQ(e, "\\bspin_is_locked\\(", line))
		WARN(e, R_USE_LOCKDEP,
		     eng_cat(e, "Where possible, use lockdep_assert_held instead of assertions based on spin_is_locked\n",
			     e->herecurr));

	/* check for deprecated apis; the alternation's order (Perl's hash
	 * order) does not matter with the \b after it (6.12: kunmap too) */
	if (e->cpv >= CP_6_12 ?
	    M(e, "\\b((?:synchronize_rcu_bh|synchronize_rcu_bh_expedited|call_rcu_bh|rcu_barrier_bh|synchronize_sched|synchronize_sched_expedited|call_rcu_sched|rcu_barrier_sched|get_state_synchronize_sched|cond_synchronize_sched|kmap|kunmap|kmap_atomic|kunmap_atomic))\\b\\s*\\(", line) :
	    M(e, "\\b((?:synchronize_rcu_bh|synchronize_rcu_bh_expedited|call_rcu_bh|rcu_barrier_bh|synchronize_sched|synchronize_sched_expedited|call_rcu_sched|rcu_barrier_sched|get_state_synchronize_sched|cond_synchronize_sched|kmap|kmap_atomic))\\b\\s*\\(", line)) {
		char *api = eng_cap(e, 1);
		const char *new_api = "";

		for (i = 0; i < ARRAY_SIZE(deprecated_apis); i++)
			if (!strcmp(deprecated_apis[i][0], api))
				new_api = deprecated_apis[i][1];
		WARN(e, R_DEPRECATED_API,
		     eng_printf(e, "Deprecated use of '%s', prefer '%s' instead\n%s",
				api, new_api, e->herecurr));
	}

	/* check for various structs that are normally const (ops, kgdb,
	 * device_tree) and avoid what seem like struct definitions 'struct foo {' */
	if (e->o->const_structs &&
	    !MQ(e, "\\bconst\\b", line) && MQ(e, "\\bstruct\\s", line) &&
	    M(e, eng_pat(e, "\\bstruct\\s+(%s)\\b(?!\\s*\\{)", api_rx_text(e, e->o->const_structs)), line))
		WARN(e, R_CONST_STRUCT,
		     eng_printf(e, "struct %s should normally be const\n%s",
				eng_cap(e, 1), e->herecurr));

	/* use of NR_CPUS is usually wrong; ignore definitions of NR_CPUS and
	 * usage to define arrays as likely right; ignore designated
	 * initializers using NR_CPUS */
	if (MQ(e, "\\bNR_CPUS\\b", line) &&
	    !MQ(e, "^.\\s*\\s*#\\s*if\\b.*\\bNR_CPUS\\b", line) &&
	    !MQ(e, "^.\\s*\\s*#\\s*define\\b.*\\bNR_CPUS\\b", line) &&
	    !MQ(e, "^.\\s*$Declare\\s.*\\[[^\\]]*NR_CPUS[^\\]]*\\]", line) &&
	    !MQ(e, "\\[[^\\]]*\\.\\.\\.[^\\]]*NR_CPUS[^\\]]*\\]", line) &&
	    !MQ(e, "\\[[^\\]]*NR_CPUS[^\\]]*\\.\\.\\.[^\\]]*\\]", line) &&
	    !MQ(e, "^.\\s*\\.\\w+\\s*=\\s*.*\\bNR_CPUS\\b", line))
		WARN(e, R_NR_CPUS,
		     eng_cat(e, "usage of NR_CPUS is often wrong - consider using cpu_possible(), num_possible_cpus(), for_each_possible_cpu(), etc\n",
			     e->herecurr));

	/* Use of __ARCH_HAS_<FOO> or ARCH_HAVE_<BAR> is wrong. */
	if (M(e, "\\+\\s*#\\s*define\\s+((?:__)?ARCH_(?:HAS|HAVE)\\w*)\\b", line))
		ERROR(e, R_DEFINE_ARCH_HAS,
		      eng_printf(e, "#define of '%s' is wrong - use Kconfig variables or standard guards instead\n%s",
				 eng_cap(e, 1), e->herecurr));

	/* likely/unlikely comparisons similar to "(likely(foo) > 0)" */
	if (M(e, "\\b((?:un)?likely)\\s*\\(\\s*$FuncArg\\s*\\)\\s*$Compare", line))
		WARN(e, R_LIKELY_MISUSE,
		     eng_printf(e, "Using %s should generally have parentheses around the comparison\n%s",
				eng_cap(e, 1), e->herecurr));

	/* return sysfs_emit(foo, fmt, ...) fmt without newline */
	if (M(e, "\\breturn\\s+sysfs_emit\\s*\\(\\s*$FuncArg\\s*,\\s*($String)", line)) {
		size_t s0 = re_start(&e->m, 6), e0 = re_end(&e->m, 6);
		size_t rl = strlen(rawline);
		/* substr($rawline, $-[6], $+[6] - $-[6]) */
		const char *fmt = s0 < rl ?
			eng_strndup(e, rawline + s0, (e0 < rl ? e0 : rl) - s0) : "";

		if (!MQ(e, "\\\\n\"$", fmt))
			WARN(e, R_SYSFS_EMIT,
			     eng_cat(e, "return sysfs_emit(...) formats should include a terminating newline\n",
				     e->herecurr));
	}

	/* 6.12: check for array definition/declarations that should use
	 * flexible arrays instead */
	if (e->cpv >= CP_6_12 &&
	    MQ(e, "^[\\+ ]\\s*\\}(?:\\s*__packed)?\\s*;\\s*$", e->sline) &&
	    MQ(e, "^\\+\\s*(?:\\}(?:\\s*__packed\\s*)?|$Type)\\s*$Ident\\s*\\[\\s*(0|1)\\s*\\]\\s*;\\s*$",
	       e->prevline))
		ERROR(e, R_FLEXIBLE_ARRAY,
		      eng_cat(e, "Use C99 flexible arrays - see https://docs.kernel.org/process/deprecated.html#zero-length-and-one-element-arrays\n",
			      e->hereprev));

	/* nested likely/unlikely calls */
	if (M(e, "\\b(?:(?:un)?likely)\\s*\\(\\s*!?\\s*(IS_ERR(?:_OR_NULL|_VALUE)?|WARN)", line))
		WARN(e, R_LIKELY_MISUSE,
		     eng_printf(e, "nested (un)?likely() calls, %s already uses unlikely() internally\n%s",
				eng_cap(e, 1), e->herecurr));

	/* whine mightly about in_atomic */
	if (MQ(e, "\\bin_atomic\\s*\\(", line)) {
		if (MQ(e, "^drivers/", realfile))
			ERROR(e, R_IN_ATOMIC,
			      eng_cat(e, "do not use in_atomic in drivers\n", e->herecurr));
		else if (!MQ(e, "^kernel/", realfile))
			WARN(e, R_IN_ATOMIC,
			     eng_cat(e, "use of in_atomic() is incorrect outside core kernel code\n",
				     e->herecurr));
	}

	/* 6.12: Complain about RCU Tasks Trace used outside of BPF (and of
	 * course, RCU) */
	if (e->cpv >= CP_6_12 && MQ(e, "\\b($rcu_trace_funcs)\\s*\\(", line) &&
	    !MQ(e, "^$rcu_trace_paths", realfile))
		WARN(e, R_RCU_TASKS_TRACE,
		     eng_cat(e, "use of RCU tasks trace is incorrect outside BPF or core RCU code\n",
			     e->herecurr));

	/* check for lockdep_set_novalidate_class */
	if ((MQ(e, "^.\\s*lockdep_set_novalidate_class\\s*\\(", line) ||
	     MQ(e, "__lockdep_no_validate__\\s*\\)", line)) &&
	    !MQ(e, "^kernel/lockdep", realfile) &&
	    !MQ(e, "^include/linux/lockdep", realfile) &&
	    !MQ(e, "^drivers/base/core", realfile))
		ERROR(e, R_LOCKDEP,
		      eng_cat(e, "lockdep_no_validate class is reserved for device->mutex.\n",
			      e->herecurr));

	if (MQ(e, "debugfs_create_\\w+.*\\b$mode_perms_world_writable\\b", line) ||
	    MQ(e, "DEVICE_ATTR.*\\b$mode_perms_world_writable\\b", line))
		WARN(e, R_EXPORTED_WORLD_WRITABLE,
		     eng_cat(e, "Exporting world writable files is usually an error. Consider more restrictive permissions.\n",
			     e->herecurr));

	/* check for DEVICE_ATTR uses that could be DEVICE_ATTR_<FOO> and
	 * whether or not function naming is typical and if DEVICE_ATTR
	 * permissions uses are unusual too */
	check_device_attr(e);

	check_mode_perms(e);

	/* check for uses of S_<PERMS> that could be octal for readability */
	len = strlen(line);
	pos = 0;
	while (!e->line_skip && pos <= len &&
	       re_find(e->rc, "\\b($multi_mode_perms_string_search)\\b", line, len, pos, &m)) {
		size_t n;
		const char *p = re_cap(&m, 1, &n);
		char *oval = eng_strndup(e, p, n);

		WARN(e, R_SYMBOLIC_PERMS,
		     eng_printf(e, "Symbolic permissions '%s' are not preferred. Consider using octal permissions '%s'.\n%s",
				oval, perms_to_octal(e, oval), e->herecurr));
		pos = re_end(&m, 0) > pos ? re_end(&m, 0) : pos + 1;
	}

	/* validate content of MODULE_LICENSE against list from include/linux/module.h */
	if (MQ(e, "\\bMODULE_LICENSE\\s*\\(\\s*($String)\\s*\\)", line)) {
		char *extracted_string = get_quoted_string(e, line, rawline);

		if (!MQ(e, "^\"(?:GPL|GPL v2|GPL and additional rights|Dual BSD/GPL|Dual MIT/GPL|Dual MPL/GPL|Proprietary)\"$",
			extracted_string))
			WARN(e, R_MODULE_LICENSE,
			     eng_printf(e, "unknown module license %s\n%s",
					extracted_string, e->herecurr));
		if (!e->o->file && !strcmp(extracted_string, "\"GPL v2\""))
			WARN(e, R_MODULE_LICENSE,
			     eng_cat(e, "Prefer \"GPL\" over \"GPL v2\" - see commit bf7fbeeae6db (\"module: Cure the MODULE_LICENSE \"GPL\" vs. \"GPL v2\" bogosity\")\n",
				     e->herecurr));
	}

	/* check for sysctl duplicate constants */
	if (M(e, "\\.extra[12]\\s*=\\s*&(zero|one|int_max)\\b", line))
		WARN(e, R_DUPLICATED_SYSCTL_CONST,
		     eng_printf(e, "duplicated sysctl range checking value '%s', consider using the shared one in include/linux/sysctl.h\n%s",
				eng_cap(e, 1), e->herecurr));

	return SEG_GO;
}
