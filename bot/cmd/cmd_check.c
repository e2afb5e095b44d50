// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot check: checkpatch.pl's command line on the checker library.
 * Same options that matter, same output, same exit status; plus --json
 * and --category.  Options files (.checkpatch.conf) are read from the
 * same places and in the same order as checkpatch.pl reads them.
 */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../../checker/checker.h"
#include "../../checker/spelling.h"
#include "../fileio.h"
#include "getopt_long.h"
#include "../patterns.h"
#include "../spell_cache.h"
#include "../version.h"
#include "../../checker/banned.h"

#define CONF_MAX_ARGS 4096
/* bytes of a tree's MAINTAINERS or .mailmap read (--root) */
#define CHECK_MAX_TREE_FILE	(16u << 20)
/* Debian's codespell package */
#define CODESPELL_DICT "/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt"

/* Progress on a terminal: only for more inputs than this, at most this
 * often (seconds). */
#define PROGRESS_MIN_FILES	20
#define PROGRESS_INTERVAL	0.2

static void check_usage(FILE *f)
{
	fputs("Usage: reviewbot check [OPTION]... [FILE]...\n"
	      "Check patches (or with -f, source files) the way the kernel's\n"
	      "scripts/checkpatch.pl does.  With no FILE, or when FILE is -, read\n"
	      "standard input.\n"
	      "\n"
	      "Options:\n"
	      "  -q, --quiet                quiet\n"
	      "  -v, --verbose              explain each message type once\n"
	      "  --no-tree                  accepted; reviewbot never needs a kernel tree\n"
	      "  --root=DIR                 a kernel tree: with --extra, its MAINTAINERS and\n"
	      "                             .mailmap inform the process checks\n"
	      "  --no-signoff               do not check for 'Signed-off-by' line\n"
	      "  --no-fixes-tag             do not check for 'Fixes:' tag (6.12)\n"
	      "  --checkpatch-version=VER   follow the checkpatch.pl of kernel VER: its rules,\n"
	      "                             messages, spelling list and const structs\n"
	      "                             (6.1 or 6.12; default 6.12)\n"
	      "  --patch                    treat FILE as patchfile (default)\n"
	      "  --emacs                    emacs compile window format\n"
	      "  --terse                    one line per report\n"
	      "  --showfile                 emit diffed file position, not input file position\n"
	      "  -f, --file                 treat FILE as a regular source file\n"
	      "  --subjective, --strict     enable more subjective tests (CHECK)\n"
	      "  --list-types               list the message types: name, severity, category,\n"
	      "                             confidence (certain, or a question to check),\n"
	      "                             the checkpatch.pl versions that have it\n"
	      "  --types TYPE(,TYPE2...)    show only these comma separated message types\n"
	      "  --ignore TYPE(,TYPE2...)   ignore various comma separated message types\n"
	      "  --show-types               show the specific message type in the output\n"
	      "  --max-line-length=n        set the maximum line length (default 100)\n"
	      "  --min-conf-desc-length=n   minimum Kconfig help lines (default 4)\n"
	      "  --tab-size=n               set the number of spaces for tab (default 8)\n"
	      "  --no-summary               suppress the per-file summary\n"
	      "  --mailback                 only produce a report in case of warnings/errors\n"
	      "  --summary-file             include the filename in summary\n"
	      "  --test-only=WORD           report only messages containing WORD\n"
	      "  --color[=WHEN]             use colors 'always', 'never', or 'auto' (default)\n"
	      "  --no-color                 same as --color=never\n"
	      "  --spelling-file=FILE       misspellings, checkpatch.pl's spelling.txt format\n"
	      "                             (default: the version's spelling.txt, built in)\n"
	      "  --codespell                also use codespell's dictionary\n"
	      "  --codespellfile=FILE       codespell dictionary to use\n"
	      "  --no-cache                 build the misspelling list from its files, without\n"
	      "                             reading or writing its cache ($REVIEWBOT_CACHE_DIR,\n"
	      "                             else $XDG_CACHE_HOME/reviewbot or ~/.cache/reviewbot)\n"
	      "  --const-structs-file=FILE  structs that should be const, one per line\n"
	      "                             (default: the version's const_structs.checkpatch,\n"
	      "                             built in)\n"
	      "  --typedefsfile=FILE        more type names, one per line\n"
	      "  --kconfig-prefix=WORD      Kconfig symbol prefix (default CONFIG_)\n"
	      "  --json                     one JSON object per input, one per line\n"
	      "  --extra, --no-extra        reviewbot's own security, user-space interface\n"
	      "                             and process checks (default: on with --json\n"
	      "                             or --category, off otherwise)\n"
	      "  --category LIST            only these categories: security, uapi,\n"
	      "                             correctness, process, style\n"
	      "  -h, --help                 display this help and exit\n"
	      "  --version                  display the version and exit\n"
	      "\n"
	      "Options are also read from .checkpatch.conf in the current directory,\n"
	      "$HOME and .scripts (the first found), as checkpatch.pl does.\n"
	      "Exit status: 0 when every input is clean, 1 otherwise, 2 on error.\n",
	      f);
}

/*
 * The versions column of --list-types: the checkpatch.pl versions that
 * have the type ("6.1,6.12"), and "extra" when it is reviewbot's own
 * (reported with --extra, in every version).
 */
static void type_versions(const struct rule *r, char *buf, size_t sz)
{
	size_t used = 0;
	int v, n;

	buf[0] = '\0';
	for (v = 0; v < CP__COUNT; v++) {
		if (!(r->cpv & (1u << v)))
			continue;
		n = snprintf(buf + used, sz - used, "%s%s", used ? "," : "",
			     cp_version_name((enum cp_version)v));
		if (n < 0 || (size_t)n >= sz - used)
			return;
		used += (size_t)n;
	}
	if (r->own)
		snprintf(buf + used, sz - used, "%sextra", used ? "," : "");
}

static void list_types(int verbose)
{
	int i;

	printf("#\tMessage type\tSeverity\tCategory\tConfidence\tVersions\tDescription\n\n");
	for (i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rule_table[i];
		char sev[32] = "", vers[128];
		int s, first = 1;

		for (s = SEV_ERROR; s <= SEV_CHECK; s++) {
			if (!(r->sevs & (1u << s)))
				continue;
			snprintf(sev + strlen(sev), sizeof(sev) - strlen(sev), "%s%s",
				 first ? "" : ",", rule_sev_name((enum rule_sev)s));
			first = 0;
		}
		type_versions(r, vers, sizeof(vers));
		printf("%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i + 1, r->name, sev,
		       rule_cat_name(r->cat), rule_conf_name(r->conf), vers, r->desc);
		(void)verbose;
	}
}

/* which_conf(): ".", $HOME, ".scripts", the first that has the file. */
static int read_conf(struct sbuf *sb, char *path, size_t pathsz)
{
	const char *home = getenv("HOME");
	const char *dirs[3] = { ".", home ? home : "", ".scripts" };
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(path, pathsz, "%s/.checkpatch.conf", dirs[i]);
		if (access(path, F_OK) == 0) {
			if (fileio_read(path, sb)) {
				fprintf(stderr, "reviewbot check: Can't find a readable .checkpatch.conf file %s\n",
					strerror(errno));
				sbuf_reset(sb);
			}
			return 1;
		}
	}
	return 0;
}

/* The words of the options file: comments (#...) end a line. */
static int conf_words(char *text, char **words, int max)
{
	int n = 0;
	char *line = text;

	while (line && *line) {
		char *next = strchr(line, '\n');
		char *p = line;

		if (next)
			*next++ = '\0';
		for (;;) {
			char *w;

			while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
				p++;
			if (!*p || *p == '#')
				break;
			w = p;
			while (*p && !strchr(" \t\r\f\v", *p))
				p++;
			if (*p)
				*p++ = '\0';
			if (n < max)
				words[n++] = w;
		}
		line = next;
	}
	return n;
}

/*
 * checkpatch.pl's read_words(): one word per line, '#' comments and blank
 * lines skipped, a line with spaces is reported and ignored.  Returns the
 * words joined by '|' (malloc'd), or NULL when the file can't be read.
 */
static char *read_words(const char *path)
{
	struct sbuf in, out;
	char *p, *line;

	sbuf_init(&in, 16u << 20);
	sbuf_init(&out, 16u << 20);
	if (fileio_read(path, &in)) {
		sbuf_release(&in);
		return NULL;
	}
	for (line = in.buf; line && *line; line = p) {
		char *s = line, *e;

		p = strchr(line, '\n');
		if (p)
			*p++ = '\0';
		while (*s && strchr(" \t\r\f\v", *s))
			s++;
		e = s + strlen(s);
		while (e > s && strchr(" \t\r\f\v", e[-1]))
			*--e = '\0';
		if (!*s || *s == '#')
			continue;
		if (strpbrk(s, " \t\r\f\v")) {
			printf("%s: '%s' invalid - ignored\n", path, s);
			continue;
		}
		if (out.len)
			sbuf_addch(&out, '|');
		sbuf_addstr(&out, s);
	}
	sbuf_release(&in);
	return sbuf_detach(&out, NULL);
}

static char *join_list(const struct gl_list *l)
{
	struct sbuf sb;
	int i;

	sbuf_init(&sb, 1u << 20);
	for (i = 0; i < l->n; i++) {
		if (i)
			sbuf_addch(&sb, ',');
		sbuf_addstr(&sb, l->v[i]);
	}
	return sbuf_detach(&sb, NULL);
}

/* Whether a type can be reported at all, so its data is worth loading. */
static int eng_words_wanted(const struct chk_opts *o, enum rule_id id)
{
	if (o->use_any)
		return o->use[id];
	return !o->ignore[id];
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* hash_show_words(): the user's words, upper-cased, sorted, unique. */
static void show_words(const struct gl_list *l, const char *prefix)
{
	char *all = join_list(l), *p, **words;
	int n = 0, i, max = 1;

	for (p = all; *p; p++)
		if (*p == ',')
			max++;
	words = calloc((size_t)max, sizeof(*words));
	if (!words) {
		free(all);
		return;
	}
	for (p = strtok(all, ","); p; p = strtok(NULL, ",")) {
		char *q;
		size_t len;

		while (*p && strchr(" \t\n", *p))
			p++;
		len = strlen(p);
		while (len && strchr(" \t\n", p[len - 1]))
			p[--len] = '\0';
		if (!len || *p == '#')
			continue;
		for (q = p; *q; q++)
			if (*q >= 'a' && *q <= 'z')
				*q = (char)(*q - 32);
		words[n++] = p;
	}
	if (n) {
		qsort(words, (size_t)n, sizeof(*words), cmp_str);
		printf("\nNOTE: %s message types:", prefix);
		for (i = 0; i < n; i++)
			if (!i || strcmp(words[i], words[i - 1]))
				printf(" %s", words[i]);
		printf("\n");
	}
	free(words);
	free(all);
}

/*
 * One progress line on stderr when it is a terminal, rewritten with \r
 * and wiped before anything else is printed, so stdout (checkpatch.pl's
 * output) is the same with or without it.
 */
struct progress {
	int on;
	int out_tty;		/* stdout is a terminal too: wipe before output */
	int shown;		/* characters on the line now */
	double t0, last;
};

static double mono_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_init(struct progress *pr, int nfiles)
{
	memset(pr, 0, sizeof(*pr));
	pr->on = nfiles > PROGRESS_MIN_FILES && isatty(STDERR_FILENO);
	pr->out_tty = isatty(STDOUT_FILENO);
	pr->t0 = mono_secs();
}

static void progress_clear(struct progress *pr)
{
	if (!pr->on || !pr->shown)
		return;
	fflush(stdout);
	fprintf(stderr, "\r%*s\r", pr->shown, "");
	fflush(stderr);
	pr->shown = 0;
}

/* done of total inputs checked so far */
static void progress_show(struct progress *pr, int done, int total)
{
	double now, el, rate;
	char line[160];
	int n;

	if (!pr->on)
		return;
	now = mono_secs();
	if (pr->shown && now - pr->last < PROGRESS_INTERVAL)
		return;
	pr->last = now;
	el = now - pr->t0;
	rate = el > 0 ? done / el : 0;
	if (done && rate > 0)
		n = snprintf(line, sizeof(line),
			     "reviewbot check: %d/%d files, %.1f files/s, about %.0f s left",
			     done, total, rate, (total - done) / rate);
	else
		n = snprintf(line, sizeof(line), "reviewbot check: %d/%d files", done, total);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	fflush(stdout);
	/* pad over a longer previous line */
	fprintf(stderr, "\r%s%*s", line, pr->shown > n ? pr->shown - n : 0, "");
	fflush(stderr);
	pr->shown = n > pr->shown ? n : pr->shown;
}

/*
 * Misspellings, as checkpatch.pl of the version reads them: its
 * spelling.txt (the version's, built in, or --spelling-file), then with
 * --codespell (or --codespellfile) codespell's dictionary, whose entries
 * replace those of the same typo.  The built-in list alone is an image
 * already; a list built from files comes from the cache (spell_cache.h)
 * when they are unchanged, and goes into it when it had to be built.
 */
static struct chk_spelling *load_spelling(const char *spellingfile, int codespell,
					  const char *codespellfile, int use_cache,
					  struct spell_cache *cache,
					  const struct chk_cp_data *builtin)
{
	const char *dict = codespellfile ? codespellfile : CODESPELL_DICT;
	const char *lists[2];
	struct chk_spelling *sp = NULL;
	struct sbuf words;
	int nlists = 0, loaded = 0, failed = 0, want_dict = codespell || codespellfile;
	const void *key = NULL;
	size_t keylen = 0;

	if (!spellingfile) {
		sp = chk_spelling_from_image(builtin->spelling_image,
					     builtin->spelling_image_len);
		if (!sp || !want_dict)
			return sp;
		/* the built-in list is part of the key: its bytes */
		key = builtin->spelling_image;
		keylen = builtin->spelling_image_len;
	}
	if (spellingfile)
		lists[nlists++] = spellingfile;
	if (want_dict)
		lists[nlists++] = dict;
	if (use_cache && !spell_cache_init(cache, key, keylen, lists, nlists)) {
		struct chk_spelling *cached = spell_cache_load(cache);

		if (cached) {
			chk_spelling_free(sp);
			return cached;
		}
	}
	sbuf_init(&words, CHK_SPELLING_MAX_INPUT);
	if (spellingfile) {
		if (fileio_read(spellingfile, &words)) {
			fprintf(stderr, "reviewbot check: No typos will be found - file '%s': %s\n",
				spellingfile, strerror(errno));
			failed = 1;
		} else {
			loaded = 1;
		}
		sbuf_addch(&words, '\n');
	}
	if (want_dict) {
		if (fileio_read(dict, &words)) {
			fprintf(stderr, "reviewbot check: No codespell typos will be found - file '%s': %s\n",
				dict, strerror(errno));
			failed = 1;
		} else {
			loaded = 1;
		}
	}
	if (sp) {
		/* the built-in list, then the dictionary's entries */
		if (loaded && chk_spelling_add(sp, words.buf, words.len))
			failed = 1;
	} else if (loaded) {
		sp = chk_spelling_new(words.buf, words.len);
	}
	sbuf_release(&words);
	if (sp && !failed && use_cache)
		spell_cache_store(cache, sp);
	return sp;
}

/*
 * chk_format_text() written to stdout as it goes: each finding's text as
 * the checker makes it (chk_opts.sink), not kept, then copied into one
 * buffer with all the others (a patch with many findings held its
 * report twice).  The same bytes: the findings stop, and nothing
 * follows, where that buffer would have reached its cap (sbuf_add()'s
 * test).
 */
struct text_out {
	size_t used;	/* bytes written for this input */
	int full;	/* the cap was reached: nothing more is written */
};

static void text_finding(void *arg, const struct chk_finding *f)
{
	struct text_out *to = arg;
	size_t l = strlen(f->text);

	if (to->full || l > CHK_MAX_REPORT || to->used > CHK_MAX_REPORT - l) {
		to->full = 1;
		return;
	}
	fwrite(f->text, 1, l, stdout);
	to->used += l;
}

/* The findings res kept (none when they went to text_finding()), then
 * the total line, notes and verdict. */
static void print_text(const struct chk_opts *o, const struct chk_result *res,
		       const char *filename, const char *vname,
		       struct text_out *to)
{
	struct chk_result tail = *res;
	struct sbuf out;
	size_t i;

	if (res->empty || res->silent)
		return;
	for (i = 0; i < res->n; i++)
		text_finding(to, &res->f[i]);
	if (to->full)
		return;
	/* the rest: total line, notes, verdict, in what is left of the cap */
	tail.n = 0;
	sbuf_init(&out, CHK_MAX_REPORT - to->used);
	chk_format_text(o, &tail, filename, vname, &out);
	fwrite(out.buf, 1, out.len, stdout);
	sbuf_release(&out);
}

/*
 * root/name into sb; 0 also when the tree has no such file (sb stays
 * empty), -1 with a message when it cannot be read.
 */
static int read_tree_file(const char *root, const char *name, struct sbuf *sb)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/%s", root, name);

	if (n < 0 || (size_t)n >= sizeof(path)) {
		fprintf(stderr, "reviewbot check: --root: path too long\n");
		return -1;
	}
	if (!fileio_read(path, sb))
		return 0;
	if (errno == ENOENT || errno == ENOTDIR) {
		sbuf_reset(sb);
		return 0;
	}
	fprintf(stderr, "reviewbot check: %s: %s\n", path, strerror(errno));
	return -1;
}

int cmd_check(int argc, char **argv)
{
	struct chk_opts o;
	int quiet = 0, verbose = 0, tree = 1, signoff = 1, fixes_tag = 1, patch = 1, emacs = 0;
	int terse = 0, showfile = 0, file = 0, strict = 0, show_types = 0;
	int list = 0, mll = 100, mcdl = 4, tabsize = 8, summary = 1;
	int mailback = 0, summary_file = 0, help = 0, version = 0, json = 0, fix = 0;
	int nocolor = 0, git = 0, codespell = 0, debug_patterns = 0, extra = -1;
	char *color = NULL, *test_only = NULL, *category = NULL, *root = NULL;
	char *codespellfile = NULL, *typedefsfile = NULL, *kconfig_prefix = NULL;
	char *spellingfile = NULL, *conststructsfile = NULL, *cpversion = NULL;
	char *const_structs = NULL, *typedefs = NULL;
	struct chk_spelling *spelling = NULL;
	struct spell_cache cache = { .path = "" };
	int no_cache = 0;
	struct gl_list ignore = { 0 }, use = { 0 };
	struct sbuf tree_maint, tree_mailmap;
	const struct gl_opt opts[] = {
		{ "q|quiet", GL_COUNT, &quiet, NULL, NULL },
		{ "v|verbose", GL_FLAG, &verbose, NULL, NULL },
		{ "tree", GL_FLAG, &tree, NULL, NULL },
		{ "signoff", GL_FLAG, &signoff, NULL, NULL },
		{ "fixes-tag", GL_FLAG, &fixes_tag, NULL, NULL },
		{ "checkpatch-version", GL_STRING, NULL, &cpversion, NULL },
		{ "patch", GL_FLAG, &patch, NULL, NULL },
		{ "emacs", GL_FLAG, &emacs, NULL, NULL },
		{ "terse", GL_FLAG, &terse, NULL, NULL },
		{ "showfile", GL_FLAG, &showfile, NULL, NULL },
		{ "f|file", GL_FLAG, &file, NULL, NULL },
		{ "g|git", GL_FLAG, &git, NULL, NULL },
		{ "subjective", GL_FLAG, &strict, NULL, NULL },
		{ "strict", GL_FLAG, &strict, NULL, NULL },
		{ "ignore", GL_LIST, NULL, NULL, &ignore },
		{ "types", GL_LIST, NULL, NULL, &use },
		{ "show-types", GL_FLAG, &show_types, NULL, NULL },
		{ "list-types", GL_FLAG, &list, NULL, NULL },
		{ "max-line-length", GL_INT, &mll, NULL, NULL },
		{ "min-conf-desc-length", GL_INT, &mcdl, NULL, NULL },
		{ "tab-size", GL_INT, &tabsize, NULL, NULL },
		{ "root", GL_STRING, NULL, &root, NULL },
		{ "summary", GL_FLAG, &summary, NULL, NULL },
		{ "mailback", GL_FLAG, &mailback, NULL, NULL },
		{ "summary-file", GL_FLAG, &summary_file, NULL, NULL },
		{ "fix", GL_FLAG, &fix, NULL, NULL },
		{ "fix-inplace", GL_FLAG, &fix, NULL, NULL },
		{ "test-only", GL_STRING, NULL, &test_only, NULL },
		{ "codespell", GL_FLAG, &codespell, NULL, NULL },
		{ "codespellfile", GL_STRING, NULL, &codespellfile, NULL },
		{ "typedefsfile", GL_STRING, NULL, &typedefsfile, NULL },
		{ "color", GL_STRING, NULL, &color, NULL },
		{ "no-color|nocolor", GL_SET, &nocolor, NULL, NULL },
		{ "no-cache|nocache", GL_SET, &no_cache, NULL, NULL },
		{ "kconfig-prefix", GL_STRING, NULL, &kconfig_prefix, NULL },
		{ "spelling-file", GL_STRING, NULL, &spellingfile, NULL },
		{ "const-structs-file", GL_STRING, NULL, &conststructsfile, NULL },
		{ "json", GL_FLAG, &json, NULL, NULL },
		{ "extra", GL_FLAG, &extra, NULL, NULL },
		{ "category", GL_STRING, NULL, &category, NULL },
		{ "h|help", GL_SET, &help, NULL, NULL },
		{ "version", GL_SET, &version, NULL, NULL },
		{ "debug-patterns", GL_SET, &debug_patterns, NULL, NULL },
		{ NULL, 0, NULL, NULL, NULL },
	};
	struct sbuf conf;
	char confpath[4096];
	char *conf_argv[CONF_MAX_ARGS];
	char **all_argv = NULL, **files = NULL;
	int nconf = 0, nall, nfiles = 0, i, exit_code = 0, ret = 0;
	char err[256];
	struct chk_checker *checker = NULL;
	struct progress pr = { 0 };
	struct text_out to = { 0 };

	sbuf_init(&conf, 1u << 20);
	sbuf_init(&tree_maint, CHECK_MAX_TREE_FILE);
	sbuf_init(&tree_mailmap, CHECK_MAX_TREE_FILE);
	if (read_conf(&conf, confpath, sizeof(confpath)))
		nconf = conf_words(conf.buf, conf_argv, CONF_MAX_ARGS);

	/* checkpatch.pl turns a bare --color into --color=auto */
	nall = nconf + argc;
	all_argv = calloc((size_t)nall + 1, sizeof(char *));
	files = calloc((size_t)nall + 1, sizeof(char *));
	if (!all_argv || !files) {
		fprintf(stderr, "reviewbot check: out of memory\n");
		ret = 2;
		goto out;
	}
	for (i = 0; i < nconf; i++)
		all_argv[i] = conf_argv[i];
	for (i = 0; i < argc; i++)
		all_argv[nconf + i] = argv[i];
	for (i = 0; i < nall; i++)
		if (!strcmp(all_argv[i], "--color") || !strcmp(all_argv[i], "-color"))
			all_argv[i] = "--color=auto";

	if (gl_parse(opts, nall, all_argv, files, &nfiles, err, sizeof(err))) {
		fprintf(stderr, "reviewbot check: %s\n", err);
		check_usage(stderr);
		ret = 1;
		goto out;
	}
	if (help) {
		check_usage(stdout);
		goto out;
	}
	if (version) {
		char vlist[64];

		cp_version_list(vlist, sizeof(vlist), ", ");
		printf("reviewbot %s (checkpatch.pl %s; default %s)\n", REVIEWBOT_VERSION,
		       vlist, cp_version_name(CP_LATEST));
		goto out;
	}
	if (git) {
		fprintf(stderr, "reviewbot check: --git is not supported: run git format-patch and check its output\n");
		ret = 2;
		goto out;
	}
	if (fix) {
		fprintf(stderr, "reviewbot check: --fix is not supported\n");
		ret = 2;
		goto out;
	}
	if (verbose && terse) {
		fprintf(stderr, "reviewbot check: --verbose cannot be used with --terse\n");
		ret = 2;
		goto out;
	}

	chk_opts_init(&o);
	o.patterns = &reviewbot_patterns;
	if (cpversion) {
		int v = cp_version_find(cpversion, strlen(cpversion));

		if (v < 0) {
			char vlist[64];

			cp_version_list(vlist, sizeof(vlist), ", ");
			fprintf(stderr, "reviewbot check: unknown checkpatch.pl version '%s' (%s)\n",
				cpversion, vlist);
			ret = 2;
			goto out;
		}
		o.cp_version = (enum cp_version)v;
	}
	if (nocolor)
		o.color = 0;
	if (!color || !strcasecmp(color, "auto"))
		o.color = nocolor ? 0 : isatty(1);
	else if (!strcmp(color, "0") || !strcasecmp(color, "never"))
		o.color = !strcmp(color, "0");	/* Perl: --color=0 means on */
	else if (!strcmp(color, "1"))
		o.color = 0;
	else if (!strcasecmp(color, "always"))
		o.color = 1;
	else {
		fprintf(stderr, "reviewbot check: Invalid color mode: %s\n", color);
		ret = 2;
		goto out;
	}
	if (nocolor)
		o.color = 0;
	if (list) {
		list_types(verbose);
		goto out;
	}
	if (tabsize < 2) {
		fprintf(stderr, "reviewbot check: Invalid TAB size: %d\n", tabsize);
		ret = 2;
		goto out;
	}
	if (mll < 1 || mll > 100000) {
		fprintf(stderr, "reviewbot check: --max-line-length must be 1 to 100000\n");
		ret = 2;
		goto out;
	}
	(void)tree;
	/* --root: the tree's MAINTAINERS and .mailmap, for --extra's
	 * process checks (a file the tree does not have: none) */
	if (root && (read_tree_file(root, "MAINTAINERS", &tree_maint) ||
		     read_tree_file(root, ".mailmap", &tree_mailmap))) {
		ret = 2;
		goto out;
	}
	if (tree_maint.len) {
		o.tree_maintainers = tree_maint.buf;
		o.tree_maintainers_len = tree_maint.len;
	}
	if (tree_mailmap.len) {
		o.tree_mailmap = tree_mailmap.buf;
		o.tree_mailmap_len = tree_mailmap.len;
	}
	(void)codespell;
	(void)codespellfile;
	for (i = 0; i < ignore.n; i++)
		chk_opts_types(&o, ignore.v[i], 0);
	for (i = 0; i < use.n; i++)
		chk_opts_types(&o, use.v[i], 1);
	if (eng_words_wanted(&o, R_TYPO_SPELLING)) {
		spelling = load_spelling(spellingfile, codespell, codespellfile, !no_cache,
					 &cache, &reviewbot_cp_data[o.cp_version]);
		o.spelling = spelling;
	}
	/* the version's const_structs.checkpatch, or the file given */
	if (conststructsfile && eng_words_wanted(&o, R_CONST_STRUCT)) {
		const_structs = read_words(conststructsfile);
		if (!const_structs)
			fprintf(stderr, "reviewbot check: No structs that should be const will be found - file '%s': %s\n",
				conststructsfile, strerror(errno));
		o.const_structs = const_structs;
	} else if (!conststructsfile) {
		o.const_structs = reviewbot_cp_data[o.cp_version].const_structs;
	}
	if (typedefsfile) {
		typedefs = read_words(typedefsfile);
		if (!typedefs)
			fprintf(stderr, "reviewbot check: No additional types will be considered - file '%s': %s\n",
				typedefsfile, strerror(errno));
		o.typedefs = typedefs;
	}
	if (kconfig_prefix)
		o.kconfig_prefix = kconfig_prefix;
	o.strict = strict;
	o.verbose = verbose;
	/* reviewbot's own checks: on for the machine formats, where no
	 * checkpatch.pl output is being imitated */
	o.extra = extra >= 0 ? extra : (json || category != NULL);
	o.file = file;
	o.max_line_length = mll;
	o.min_conf_desc_length = mcdl;
	o.tabsize = tabsize;
	o.quiet = quiet;
	o.terse = terse;
	o.emacs = emacs || terse;
	o.showfile = showfile;
	o.show_types = show_types;
	o.summary = summary;
	o.summary_file = summary_file;
	o.signoff = signoff;
	o.fixes_tag = fixes_tag;
	o.patch = patch;
	if (category && chk_opts_categories(&o, category)) {
		fprintf(stderr, "reviewbot check: unknown category in '%s' (security, uapi, correctness, process, style)\n",
			category);
		ret = 2;
		goto out;
	}
	if (terse)
		quiet++;

	if (nfiles == 0)
		files[nfiles++] = "-";
	progress_init(&pr, nfiles);
	/* text reports are written as the findings are made, unless what
	 * is printed depends on the end (--mailback, --no-patch) */
	if (!json && !mailback && patch) {
		o.sink = text_finding;
		o.sink_arg = &to;
	}

	for (i = 0; i < nfiles; i++) {
		struct sbuf in, out;
		struct chk_result res;
		const char *name = files[i];
		char *vname;

		progress_show(&pr, i, nfiles);
		sbuf_init(&in, CHK_MAX_INPUT);
		if (fileio_read(name, &in)) {
			progress_clear(&pr);
			fprintf(stderr, "reviewbot check: %s: open failed - %s\n", name,
				strerror(errno));
			sbuf_release(&in);
			ret = 2;
			goto out;
		}
		if (!strcmp(name, "-")) {
			/* $vname = qq("$1") if m/^Subject:\s+(.+)/i, the last one */
			const char *p = in.buf, *subj = NULL;
			size_t subjlen = 0;

			while (p < in.buf + in.len) {
				const char *nl = memchr(p, '\n', (size_t)(in.buf + in.len - p));
				size_t l = nl ? (size_t)(nl - p) : (size_t)(in.buf + in.len - p);

				if (l > 8 && !strncasecmp(p, "Subject:", 8)) {
					const char *s = p + 8;
					const char *end = p + l;

					if (s < end && strchr(" \t\r\f\v", *s)) {
						while (s < end && strchr(" \t\r\f\v", *s))
							s++;
						/* \s+ backtracks to leave (.+) one char */
						if (s == end && s > p + 9)
							s--;
						if (s < end) {
							subj = s;
							subjlen = (size_t)(end - s);
						}
					}
				}
				p = nl ? nl + 1 : in.buf + in.len;
			}
			if (subj) {
				vname = malloc(subjlen + 3);
				if (vname) {
					vname[0] = '"';
					memcpy(vname + 1, subj, subjlen);
					vname[subjlen + 1] = '"';
					vname[subjlen + 2] = '\0';
				}
			} else {
				vname = strdup("Your patch");
			}
		} else {
			vname = strdup(name);
		}
		if (!vname) {
			sbuf_release(&in);
			ret = 2;
			goto out;
		}
		if (pr.out_tty)
			progress_clear(&pr);
		if (nfiles > 1 && quiet == 0 && !json) {
			size_t k, vl = strlen(vname);

			for (k = 0; k < vl; k++)
				putchar('-');
			printf("\n%s\n", vname);
			for (k = 0; k < vl; k++)
				putchar('-');
			putchar('\n');
		}
		if (test_only)
			o.test_only = test_only;
		if (!checker) {
			checker = chk_new(&o);
			if (!checker) {
				fprintf(stderr, "reviewbot check: out of memory\n");
				sbuf_release(&in);
				free(vname);
				ret = 2;
				goto out;
			}
		}
		/* in is ours to give up: the lines are split in place */
		to.used = 0;
		to.full = 0;
		chk_check_buf(checker, name, in.buf, in.len, &res);
		sbuf_release(&in);
		if (res.error) {
			progress_clear(&pr);
			fprintf(stderr, "reviewbot check: %s: %s\n", name, res.error);
		}
		if (res.empty) {
			/* checkpatch.pl exits at once on an empty input */
			chk_result_release(&res);
			free(vname);
			ret = 0;
			exit_code = 0;
			fflush(stdout);
			goto out_noexit;
		}
		if (mailback && (res.clean || !res.is_patch)) {
			chk_result_release(&res);
			free(vname);
			ret = 0;
			exit_code = 0;
			goto out_noexit;
		}
		if (!patch && !res.is_patch) {
			chk_result_release(&res);
			free(vname);
			ret = 0;
			exit_code = 0;
			goto out_noexit;
		}
		if (json) {
			sbuf_init(&out, CHK_MAX_REPORT);
			chk_format_json(&o, &res, name, &out);
			fwrite(out.buf, 1, out.len, stdout);
			sbuf_release(&out);
		} else {
			struct chk_opts o2 = o;

			o2.quiet = quiet;
			o2.terse = 0;
			print_text(&o2, &res, name, vname, &to);
		}
		if (!res.clean)
			exit_code = 1;
		if (res.error && !exit_code)
			exit_code = 2;
		chk_result_release(&res);
		free(vname);
	}
	progress_clear(&pr);
	if (!quiet && !json) {
		show_words(&use, "Used");
		show_words(&ignore, "Ignored");
		if (exit_code == 1)
			printf("\nNOTE: If any of the errors are false positives, please report\n"
			       "      them to the maintainer, see CHECKPATCH in MAINTAINERS.\n");
	}
	ret = exit_code;
	if (debug_patterns && checker)
		fprintf(stderr, "reviewbot check: %lu patterns compiled at run time\n",
			chk_pattern_compiles(checker));
out:
out_noexit:
	progress_clear(&pr);
	fflush(stdout);
	chk_free(checker);
	gl_list_free(&ignore);
	gl_list_free(&use);
	free(color);
	free(test_only);
	free(category);
	free(root);
	sbuf_release(&tree_maint);
	sbuf_release(&tree_mailmap);
	free(codespellfile);
	free(typedefsfile);
	free(kconfig_prefix);
	free(spellingfile);
	free(conststructsfile);
	free(cpversion);
	free(const_structs);
	free(typedefs);
	chk_spelling_free(spelling);
	spell_cache_release(&cache);
	free(all_argv);
	free(files);
	sbuf_release(&conf);
	return ret;
}
