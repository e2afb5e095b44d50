// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment: kernel API usage, second half (checkpatch.pl 6.1, process(),
 * from "check for pointless casting of alloc functions" to the end of the
 * per-line loop): allocation calls, BIT() and IS_ENABLED(), fallthrough
 * comments, obsolete and deprecated calls, const structs, NR_CPUS,
 * likely(), sysfs_emit(), in_atomic(), lockdep, file permissions,
 * MODULE_LICENSE and sysctl constants.  Called by seg_c_api() (seg_c_api.c).
 */
#include "eng.h"

#include <stdlib.h>
#include <string.h>

#include "banned.h"

int seg_c_api2(struct eng *e);
const char *api_rx_text(struct eng *e, const char *s);	/* seg_c_api.c */

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

int seg_c_api2(struct eng *e)
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
