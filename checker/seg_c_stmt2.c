// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment, second part: the checks on added C lines from "check for self
 * assignments used to avoid compiler warnings" to just before "check for
 * spacing round square brackets" (checkpatch.pl 6.1, process()):
 * declarations, typedefs, pointer placement, printk levels, braces after
 * function definitions and function pointer spacing.  Called by
 * seg_c_stmt() for lines being added.
 */
#include "eng.h"
#include "vocab.h"

#include <string.h>

#include "banned.h"

int seg_c_stmt2(struct eng *e);

/* Perl's  while ($s =~ /pat/g): the next match at or after *pos */
static int next_match(struct eng *e, const char *pat, const char *s,
		      size_t *pos, struct re_m *m)
{
	size_t n = strlen(s);

	if (e->line_skip || *pos > n || !re_find(e->rc, pat, s, n, *pos, m))
		return 0;
	*pos = re_end(m, 0) > re_start(m, 0) ? re_end(m, 0) : re_end(m, 0) + 1;
	return 1;
}

/*
 * %suppress_export holds 1 or 2 per line: kept in the lineset as
 * 2 * line + (value == 2), set at most once per line.
 */
static int export_defined(struct eng *e, long ln)
{
	return lineset_has(&e->suppress_export, 2 * ln) ||
	       lineset_has(&e->suppress_export, 2 * ln + 1);
}

static void export_set(struct eng *e, long ln, int v)
{
	if (lineset_add(&e->suppress_export, 2 * ln + (v == 2)) < 0)
		e->failed = 1;
}

/* EXPORT_SYMBOL should immediately follow the thing it is exporting,
 * consider the whole statement. */
static void export_symbol(struct eng *e)
{
	const char *next = e->realline_next ? eng_line(e, e->realline_next) : NULL;
	struct re_m m;

	if (next && !export_defined(e, e->realline_next) &&
	    re_match(e->rc, "EXPORT_SYMBOL.*\\((.*)\\)", next, &m)) {
		/*
		 * Handle definitions which produce identifiers with a prefix:
		 *   XXX(foo);
		 *   EXPORT_SYMBOL(something_foo);
		 */
		const char *name = eng_subst(e, "^\\s*($Ident).*", "$1", eng_mcap(e, &m, 1), 0);
		const char *stat = e->stat ? e->stat : "";
		const char *q = eng_quote(e, name);

		if (re_match(e->rc, "^(?:.\\s*}\\s*\\n)?.([A-Z_]+)\\s*\\(\\s*($Ident)", stat, &m) &&
		    MQ(e, eng_pat(e, "^${Ident}_%s", eng_mcap(e, &m, 2)), name)) {
			export_set(e, e->realline_next, 1);
		} else if (!MQ(e, eng_pat(e, "(?:\\n.}\\s*$|"
					  "^.DEFINE_$Ident\\(%s\\)|"
					  "^.DECLARE_$Ident\\(%s\\)|"
					  "^.LIST_HEAD\\(%s\\)|"
					  "^.(?:$Storage\\s+)?$Type\\s*\\(\\s*\\*\\s*%s\\s*\\)\\s*\\(|"
					  "\\b%s(?:\\s+$Attribute)*\\s*(?:;|=|\\[|\\())",
					  q, q, q, q, q), stat)) {
			export_set(e, e->realline_next, 2);
		} else {
			export_set(e, e->realline_next, 1);
		}
	}
	if (!export_defined(e, e->linenr) && MQ(e, "^.\\s*$", e->prevline) &&
	    MQ(e, "EXPORT_SYMBOL.*\\((.*)\\)", e->line))
		export_set(e, e->linenr, 2);
	if (lineset_has(&e->suppress_export, 2 * e->linenr + 1))
		WARN(e, R_EXPORT_SYMBOL,
		     eng_cat(e, "EXPORT_SYMBOL(foo); should immediately follow its function/variable\n",
			     e->herecurr));
}

/* A cheap necessary condition of /(?:\.|->)\s*$/ */
static int ends_in_deref(const char *s)
{
	size_t n = strlen(s);

	while (n && strchr(" \t\n\r\f\v", s[n - 1]))
		n--;
	return n && (s[n - 1] == '.' || (s[n - 1] == '>' && n > 1 && s[n - 2] == '-'));
}

/* "* goes on variable not on type" */
static void pointer_location(struct eng *e)
{
	const char *line = e->line;
	size_t pos = 0;
	struct re_m m;

	/* both patterns need a '*' or a modifier after the type, and a type */
	if (!strchr(line, '*') && !re_learned_modifiers(e->rc) &&
	    !vocab_may_hold_modifier(line))
		return;
	if (!eng_may_hold_type(e, line))
		return;
	/* (char*[ const]) */
	while (next_match(e, "(\\($NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)\\))",
			  line, &pos, &m)) {
		const char *from = eng_mcap(e, &m, 2), *to = from;

		/* Should start with a space. */
		to = eng_subst(e, "^(\\S)", " $1", to, 0);
		/* Should not end with a space. */
		to = eng_subst(e, "\\s+$", "", to, 0);
		/* '*'s should not have spaces between. */
		while (MQ(e, "\\*\\s+\\*", to))
			to = eng_subst(e, "\\*\\s+\\*", "**", to, 0);
		if (strcmp(from, to))
			ERROR(e, R_POINTER_LOCATION,
			      eng_printf(e, "\"(foo%s)\" should be \"(foo%s)\"\n%s",
					 from, to, e->herecurr));
	}
	pos = 0;
	while (next_match(e, "(\\b$NonptrType(\\s*(?:$Modifier\\b\\s*|\\*\\s*)+)($Ident))",
			  line, &pos, &m)) {
		const char *from = eng_mcap(e, &m, 2), *to = from;
		const char *ident = eng_mcap(e, &m, 3);

		/* Should start with a space. */
		to = eng_subst(e, "^(\\S)", " $1", to, 0);
		/* Should not end with a space. */
		to = eng_subst(e, "\\s+$", "", to, 0);
		/* '*'s should not have spaces between. */
		while (MQ(e, "\\*\\s+\\*", to))
			to = eng_subst(e, "\\*\\s+\\*", "**", to, 0);
		/* Modifiers should have spaces. */
		to = eng_subst(e, "(\\b$Modifier$)", "$1 ", to, 0);
		if (strcmp(from, to) && !MQ(e, "^$Modifier$", ident))
			ERROR(e, R_POINTER_LOCATION,
			      eng_printf(e, "\"foo%sbar\" should be \"foo%sbar\"\n%s",
					 from, to, e->herecurr));
	}
}

/* Function pointer declarations: check spacing between type, funcptr,
 * and args; canonical declaration is "type (*funcptr)(args...)" */
static void funcptr_spacing(struct eng *e)
{
	struct re_m m;
	const char *declare, *post_declare_space = "";

	if (!re_match(e->rc, "^.\\s*($Declare)\\((\\s*)\\*(\\s*)($Ident)(\\s*)\\)(\\s*)\\(",
		      e->line, &m))
		return;
	declare = eng_mcap(e, &m, 1);

	/*
	 * the $Declare variable will capture all spaces after the type so
	 * check it for a missing trailing missing space but pointer return
	 * types don't need a space so don't warn for those.
	 */
	{
		struct re_m m2;

		if (re_match(e->rc, "(\\s+)$", declare, &m2)) {
			post_declare_space = eng_mcap(e, &m2, 1);
			declare = rtrim(e, declare);
		}
	}
	if (!MQ(e, "\\*$", declare) && MQ(e, "^$", post_declare_space))
		WARN(e, R_SPACING,
		     eng_cat(e, "missing space after return type\n", e->herecurr));

	/* unnecessary space "type ( *funcptr)(args...)" */
	if (re_cap_defined(&m, 2) && MQ(e, "^\\s", eng_mcap(e, &m, 2)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space after function pointer open parenthesis\n",
			     e->herecurr));
	/* unnecessary space "type (* funcptr)(args...)" */
	if (re_cap_defined(&m, 3) && MQ(e, "^\\s", eng_mcap(e, &m, 3)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space before function pointer name\n",
			     e->herecurr));
	/* unnecessary space "type (*funcptr )(args...)" */
	if (re_cap_defined(&m, 5) && MQ(e, "^\\s", eng_mcap(e, &m, 5)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space after function pointer name\n",
			     e->herecurr));
	/* unnecessary space "type (*funcptr) (args...)" */
	if (re_cap_defined(&m, 6) && MQ(e, "^\\s", eng_mcap(e, &m, 6)))
		WARN(e, R_SPACING,
		     eng_cat(e, "Unnecessary space before function pointer arguments\n",
			     e->herecurr));
}

/* check for unnecessary <signed> int declarations of short/long/long long */
static void unnecessary_int(struct eng *e)
{
	size_t pos = 0;
	struct re_m m;

	/* every match holds one of those words (asked once, not per match) */
	if (!vocab_may_hold_misordered(e->sline, 1))
		return;
	while (next_match(e, "\\b($TypeMisordered(\\s*\\*)*|$C90_int_types)\\b",
			  e->sline, &pos, &m)) {
		const char *type = trim(e, eng_mcap(e, &m, 1));
		const char *new_type;

		if (!MQ(e, "\\bint\\b", type))
			continue;
		if (!MQ(e, "\\b(?:short|long\\s+long|long)\\b", type))
			continue;
		new_type = eng_subst(e, "\\b\\s*int\\s*\\b", " ", type, 0);
		new_type = eng_subst(e, "\\b\\s*(?:un)?signed\\b\\s*", " ", new_type, 0);
		new_type = eng_subst(e, "^const\\s+", "", new_type, 0);
		if (MQ(e, "\\bunsigned\\b", type))
			new_type = eng_cat(e, "unsigned ", new_type);
		if (MQ(e, "^const\\b", type))
			new_type = eng_cat(e, "const ", new_type);
		new_type = eng_subst(e, "\\s+", " ", new_type, 1);
		new_type = trim(e, new_type);
		WARN(e, R_UNNECESSARY_INT,
		     eng_printf(e, "Prefer '%s' over '%s' as the int is unnecessary\n%s",
				new_type, type, e->herecurr));
	}
}

/* prefer variants of (subsystem|netdev|dev|pr)_<level> to printk(KERN_<LEVEL> */
static void printk_levels(struct eng *e)
{
	const char *line = e->line;
	struct re_m m;

	if (re_match(e->rc, "\\b(printk(_once|_ratelimited)?)\\s*\\(\\s*KERN_([A-Z]+)", line, &m)) {
		const char *printk = eng_mcap(e, &m, 1);
		const char *modifier = eng_mcap(e, &m, 2);
		const char *orig = eng_mcap(e, &m, 3);
		char *level = eng_strdup(e, orig), *p;
		const char *level2;

		for (p = level; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if (!strcmp(level, "warning"))
			level = eng_strdup(e, "warn");
		level2 = level;
		if (!strcmp(level, "debug"))
			level2 = "dbg";
		level = eng_cat(e, level, modifier);
		level2 = eng_cat(e, level2, modifier);
		WARN(e, R_PREFER_PR_LEVEL,
		     eng_printf(e, "Prefer [subsystem eg: netdev]_%s([subsystem]dev, ... then dev_%s(dev, ... then pr_%s(...  to %s(KERN_%s ...\n%s",
				level2, level2, level, printk, orig, e->herecurr));
	}

	/* prefer dev_<level> to dev_printk(KERN_<LEVEL> */
	if (re_match(e->rc, "\\bdev_printk\\s*\\(\\s*KERN_([A-Z]+)", line, &m)) {
		const char *orig = eng_mcap(e, &m, 1);
		char *level = eng_strdup(e, orig), *p;

		for (p = level; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		if (!strcmp(level, "warning"))
			level = eng_strdup(e, "warn");
		if (!strcmp(level, "debug"))
			level = eng_strdup(e, "dbg");
		WARN(e, R_PREFER_DEV_LEVEL,
		     eng_printf(e, "Prefer dev_%s(... to dev_printk(KERN_%s, ...\n%s",
				level, orig, e->herecurr));
	}
}

/* line holds var, \s*=\s*, then var or '*' (see SELF_ASSIGNMENT) */
static int may_self_assign(const char *line, const char *var)
{
	size_t n = strlen(var);
	const char *p = line;

	if (!n)
		return 0;
	while ((p = strstr(p, var))) {
		const char *q = p + n;

		p++;
		while (vocab_is_space((unsigned char)*q))
			q++;
		if (*q++ != '=')
			continue;
		while (vocab_is_space((unsigned char)*q))
			q++;
		if (*q == '*' || !strncmp(q, var, n))
			return 1;
	}
	return 0;
}

int seg_c_stmt2(struct eng *e)
{
	const char *line = e->line, *sline = e->sline, *prevline = e->prevline;
	size_t pos;
	struct re_m m;

	/*
	 * check for self assignments used to avoid compiler warnings
	 * e.g.:	int foo = foo, *bar = NULL;
	 *	struct foo bar = *(&(bar));
	 */
	if (M(e, "^\\+\\s*(?:$Declare)?([A-Za-z_][A-Za-z\\d_]*)\\s*=", line)) {
		const char *var = eng_cap(e, 1);

		/*
		 * Every match holds "var\s*=\s*" then var or '*': without
		 * that, not the pattern (compiled anew for every name, with
		 * all of $Declare) but this says no.
		 */
		if (may_self_assign(line, var) &&
		    MQ(e, eng_pat(e, "^\\+\\s*(?:$Declare)?%s\\s*=\\s*(?:%s|\\*\\s*\\(?\\s*&\\s*\\(?\\s*%s\\s*\\)?\\s*\\)?)\\s*[;,]",
				  var, var, var), line))
			WARN(e, R_SELF_ASSIGNMENT,
			     eng_cat(e, "Do not use self-assignments to avoid compiler warnings\n",
				     e->herecurr));
	}

	/* check for dereferences that span multiple lines */
	if (ends_in_deref(prevline) &&
	    MQ(e, "^\\+.*$Lval\\s*(?:\\.|->)\\s*$", prevline) &&
	    MQ(e, "^\\+\\s*(?!\\#\\s*(?!define\\s+|if))\\s*$Lval", line)) {
		char *ref = "";

		if (M(e, "($Lval\\s*(?:\\.|->))\\s*$", prevline))
			ref = eng_cap(e, 1);
		if (M(e, "^.\\s*($Lval)", line))
			ref = eng_cat(e, ref, eng_cap(e, 1));
		ref = eng_subst(e, "\\s", "", ref, 1);
		WARN(e, R_MULTILINE_DEREFERENCE,
		     eng_printf(e, "Avoid multiple line dereference - prefer '%s'\n%s",
				ref, e->hereprev));
	}

	/* check for declarations of signed or unsigned without int */
	pos = 0;
	/* only a bare "signed"/"unsigned" is reported; the loop's matches
	 * are its own, so skipping it changes nothing else */
	while (strstr(line, "signed") &&
	       next_match(e, "\\b($Declare)\\s*(?!char\\b|short\\b|int\\b|long\\b)\\s*($Ident)?\\s*[=,;\\[\\)\\(]",
			  line, &pos, &m)) {
		const char *type = eng_mcap(e, &m, 1);
		struct re_m m2;

		if (re_match(e->rc, "^(?:(?:$Storage|$Inline|$Attribute)\\s+)*((?:un)?signed)((?:\\s*\\*)*)\\s*$",
			     type, &m2)) {
			const char *sign = eng_mcap(e, &m2, 1);
			const char *pointer = rtrim(e, eng_mcap(e, &m2, 2));

			WARN(e, R_UNSPECIFIED_INT,
			     eng_printf(e, "Prefer '%s int%s' to bare use of '%s%s'\n%s",
					trim(e, sign), pointer, sign, pointer,
					e->herecurr));
		}
	}

	/* TEST: allow direct testing of the type matcher (--debug type):
	 * reviewbot has no debug options. */

	/* check for initialisation to aggregates open brace on the next line */
	if (MQ(e, "^.\\s*\\{", line) && MQ(e, "(?:^|[^=])=\\s*$", prevline))
		ERROR(e, R_OPEN_BRACE,
		      eng_cat(e, "that open brace { should be on the previous line\n",
			      e->hereprev));

	/*
	 * Checks which are anchored on the added line.
	 */

	/* check for malformed paths in #include statements (uses RAW line) */
	if (re_match(e->rc, "^.\\s*\\#\\s*include\\s+[<\"](.*)[\">]", e->rawline, &m)) {
		const char *path = eng_mcap(e, &m, 1);

		if (strstr(path, "//"))
			ERROR(e, R_MALFORMED_INCLUDE,
			      eng_cat(e, "malformed #include filename\n", e->herecurr));
		if (MQ(e, "^uapi/", path) && MQ(e, "\\binclude/uapi/", e->realfile.buf))
			ERROR(e, R_UAPI_INCLUDE,
			      eng_cat(e, "No #include in ...include/uapi/... should use a uapi/ path prefix\n",
				      e->herecurr));
	}

	/* no C99 // comments */
	if (strstr(line, "//"))
		ERROR(e, R_C99_COMMENTS,
		      eng_cat(e, "do not use C99 // comments\n", e->herecurr));
	/* Remove C99 comments. */
	e->line = line = eng_subst(e, "//.*", "", line, 0);
	eng_known_lines(e);
	e->opline = eng_subst(e, "//.*", "", e->opline, 0);

	export_symbol(e);

	/* check for global initialisers. */
	if (M(e, "^\\+$Type\\s*$Ident(?:\\s+$Modifier)*\\s*=\\s*($zero_initializer)\\s*;", line) &&
	    !(MQ(e, "^tools/testing/selftests/bpf/progs/.*\\.c$", e->realfile.buf) ||
	      MQ(e, "^samples/bpf/.*_kern\\.c$", e->realfile.buf) ||
	      MQ(e, "/bpf/.*\\.bpf\\.c$", e->realfile.buf)))
		ERROR(e, R_GLOBAL_INITIALISERS,
		      eng_printf(e, "do not initialise globals to %s\n%s",
				 eng_cap(e, 1), e->herecurr));
	/* check for static initialisers. */
	if (M(e, "^\\+.*\\bstatic\\s.*=\\s*($zero_initializer)\\s*;", line))
		ERROR(e, R_INITIALISED_STATIC,
		      eng_printf(e, "do not initialise statics to %s\n%s",
				 eng_cap(e, 1), e->herecurr));

	/* check for misordered declarations of char/short/int/long with signed/unsigned */
	pos = 0;
	if (vocab_may_hold_misordered(sline, 0))
		while (next_match(e, "(\\b$TypeMisordered\\b)", sline, &pos, &m))
			WARN(e, R_MISORDERED_TYPE,
			     eng_printf(e, "type '%s' should be specified in [[un]signed] [short|int|long|long long] order\n%s",
					trim(e, eng_mcap(e, &m, 1)), e->herecurr));

	unnecessary_int(e);

	/* check for static const char * arrays. */
	if (MQ(e, "\\bstatic\\s+const\\s+char\\s*\\*\\s*(\\w+)\\s*\\[\\s*\\]\\s*=\\s*", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "static const char * array should probably be static const char * const\n",
			     e->herecurr));

	/* check for initialized const char arrays that should be static const */
	if (MQ(e, "^\\+\\s*const\\s+(char|unsigned\\s+char|_*u8|(?:[us]_)?int8_t)\\s+\\w+\\s*\\[\\s*(?:\\w+\\s*)?\\]\\s*=\\s*\"", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "const array should probably be static const\n", e->herecurr));

	/* check for static char foo[] = "bar" declarations. */
	if (MQ(e, "\\bstatic\\s+char\\s+(\\w+)\\s*\\[\\s*\\]\\s*=\\s*\"", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "static char array declaration should probably be static const char\n",
			     e->herecurr));

	/* check for const <foo> const where <foo> is not a pointer or array type */
	if (M(e, "\\bconst\\s+($BasicType)\\s+const\\b", sline)) {
		const char *found = eng_cap(e, 1);
		const char *q = eng_quote(e, found);

		if (MQ(e, eng_pat(e, "\\bconst\\s+%s\\s+const\\b\\s*\\*", q), sline))
			WARN(e, R_CONST_CONST,
			     eng_printf(e, "'const %s const *' should probably be 'const %s * const'\n%s",
					found, found, e->herecurr));
		else if (!MQ(e, eng_pat(e, "\\bconst\\s+%s\\s+const\\s+\\w+\\s*\\[", q), sline))
			WARN(e, R_CONST_CONST,
			     eng_printf(e, "'const %s const' should probably be 'const %s'\n%s",
					found, found, e->herecurr));
	}

	/*
	 * check for const static or static <non ptr type> const declarations
	 * prefer 'static const <foo>' over 'const static <foo>' and 'static <foo> const'
	 */
	if (M(e, "^\\+\\s*const\\s+static\\s+($Type)\\b", sline) ||
	    M(e, "^\\+\\s*static\\s+($BasicType)\\s+const\\b", sline))
		WARN(e, R_STATIC_CONST,
		     eng_printf(e, "Move const after static - use 'static const %s'\n%s",
				eng_cap(e, 1), e->herecurr));

	/* check for non-global char *foo[] = {"bar", ...} declarations. */
	if (MQ(e, "^.\\s+(?:static\\s+|const\\s+)?char\\s+\\*\\s*\\w+\\s*\\[\\s*\\]\\s*=\\s*\\{", line))
		WARN(e, R_STATIC_CONST_CHAR_ARRAY,
		     eng_cat(e, "char * array declaration might be better as static const\n",
			     e->herecurr));

	/* check for sizeof(foo)/sizeof(foo[0]) that could be ARRAY_SIZE(foo) */
	if (M(e, "\\bsizeof\\s*\\(\\s*($Lval)\\s*\\)", line)) {
		const char *array = eng_cap(e, 1);
		const char *q = eng_quote(e, array);

		if (MQ(e, eng_pat(e, "\\b(sizeof\\s*\\(\\s*%s\\s*\\)\\s*/\\s*sizeof\\s*\\(\\s*%s\\s*\\[\\s*0\\s*\\]\\s*\\))",
				  q, q), line))
			WARN(e, R_ARRAY_SIZE,
			     eng_printf(e, "Prefer ARRAY_SIZE(%s)\n%s", array, e->herecurr));
	}

	/* check for function declarations without arguments like "int foo()" */
	/* (a failed cheap test means the full match fails too) */
	if (MQ(e, "\\(\\s*\\)", line) &&
	    M(e, "(\\b$Type\\s*$Ident)\\s*\\(\\s*\\)", line)) {
		const char *f = eng_cap(e, 1);

		ERROR(e, R_FUNCTION_WITHOUT_ARGS,
		      eng_printf(e, "Bad function definition - %s() should probably be %s(void)\n%s",
				 f, f, e->herecurr));
	}

	/* check for new typedefs, only function parameters and sparse
	 * annotations make sense. */
	if (MQ(e, "\\btypedef\\s", line) &&
	    !MQ(e, "\\btypedef\\s+$Type\\s*\\(\\s*\\*?$Ident\\s*\\)\\s*\\(", line) &&
	    !MQ(e, "\\btypedef\\s+$Type\\s+$Ident\\s*\\(", line) &&
	    !MQ(e, "\\b$typeTypedefs\\b", line) &&
	    !MQ(e, "\\b__bitwise\\b", line))
		WARN(e, R_NEW_TYPEDEFS,
		     eng_cat(e, "do not add new typedefs\n", e->herecurr));

	pointer_location(e);

	/* do not use BUG() or variants */
	if (MQ(e, "\\b(?!AA_|BUILD_|DCCP_|IDA_|KVM_|RWLOCK_|snd_|SPIN_)(?:[a-zA-Z_]*_)?BUG(?:_ON)?(?:_[A-Z_]+)?\\s*\\(", line)) {
		const char *msg = eng_cat(e, "Do not crash the kernel unless it is absolutely unavoidable--use WARN_ON_ONCE() plus recovery code (if feasible) instead of BUG() or variants\n",
					  e->herecurr);

		if (e->o->file)
			CHK(e, R_AVOID_BUG, msg);
		else
			WARN(e, R_AVOID_BUG, msg);
	}

	/* avoid LINUX_VERSION_CODE */
	if (MQ(e, "\\bLINUX_VERSION_CODE\\b", line))
		WARN(e, R_LINUX_VERSION_CODE,
		     eng_cat(e, "LINUX_VERSION_CODE should be avoided, code should be for the version to which it is merged\n",
			     e->herecurr));

	/* check for uses of printk_ratelimit */
	if (MQ(e, "\\bprintk_ratelimit\\s*\\(", line))
		WARN(e, R_PRINTK_RATELIMITED,
		     eng_cat(e, "Prefer printk_ratelimited or pr_<level>_ratelimited to printk_ratelimit\n",
			     e->herecurr));

	/* printk should use KERN_* levels */
	if (MQ(e, "\\bprintk\\s*\\(\\s*(?!KERN_[A-Z]+\\b)", line))
		WARN(e, R_PRINTK_WITHOUT_KERN_LEVEL,
		     eng_cat(e, "printk() should include KERN_<LEVEL> facility level\n",
			     e->herecurr));

	printk_levels(e);

	/* trace_printk should not be used in production code. */
	if (M(e, "\\b(trace_printk|trace_puts|ftrace_vprintk)\\s*\\(", line))
		WARN(e, R_TRACE_PRINTK,
		     eng_printf(e, "Do not use %s() in production code (this can be ignored if built only with a debug config option)\n%s",
				eng_cap(e, 1), e->herecurr));

	/*
	 * ENOSYS means "bad syscall nr" and nothing else.  This will have a
	 * small number of false positives, but assembly files are not
	 * checked, so at least the arch entry code will not trigger this
	 * warning.
	 */
	if (MQ(e, "\\bENOSYS\\b", line))
		WARN(e, R_ENOSYS,
		     eng_cat(e, "ENOSYS means 'invalid syscall nr' and nothing else\n",
			     e->herecurr));

	/*
	 * ENOTSUPP is not a standard error code and should be avoided in new
	 * patches.  Folks usually mean EOPNOTSUPP (also called ENOTSUP), when
	 * they type ENOTSUPP.
	 */
	if (!e->o->file && MQ(e, "\\bENOTSUPP\\b", line))
		WARN(e, R_ENOTSUPP,
		     eng_cat(e, "ENOTSUPP is not a SUSV4 error code, prefer EOPNOTSUPP\n",
			     e->herecurr));

	/* function brace can't be on same line, except for #defines of do
	 * while, or if closed on same line */
	if (!strchr(sline, '}') && strchr(sline, '{') &&
	    MQ(e, "$Type\\s*$Ident\\s*$balanced_parens\\s*\\{", sline) &&
	    !MQ(e, "\\#\\s*define\\b.*do\\s*\\{", sline))
		ERROR(e, R_OPEN_BRACE,
		      eng_cat(e, "open brace '{' following function definitions go on the next line\n",
			      e->herecurr));

	/* open braces for enum, union and struct go on the same line. */
	if (MQ(e, "^.\\s*\\{", line) &&
	    M(e, "^.\\s*(?:typedef\\s+)?(enum|union|struct)(?:\\s+$Ident)?\\s*$", prevline))
		ERROR(e, R_OPEN_BRACE,
		      eng_printf(e, "open brace '{' following %s go on the same line\n%s",
				 eng_cap(e, 1), e->hereprev));

	/* missing space after union, struct or enum definition */
	if (M(e, "^.\\s*(?:typedef\\s+)?(enum|union|struct)(?:\\s+$Ident){1,2}[=\\{]", line))
		WARN(e, R_SPACING,
		     eng_printf(e, "missing space after %s definition\n%s",
				eng_cap(e, 1), e->herecurr));

	funcptr_spacing(e);
	return SEG_GO;
}
