/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The checker's engine: the state of checkpatch.pl's process() and the
 * helpers the rule segments (seg_*.c) share.  Private to checker/.
 *
 * The segments are checkpatch.pl's per-line loop cut into consecutive
 * pieces, called in the original order so reports come out in the same
 * order.  A segment returns SEG_NEXT where the Perl says "next" (skip the
 * rest of this line) and SEG_GO otherwise.
 *
 * Strings: the input lines (rawlines, lines) live for the whole run.
 * Everything a segment computes for the current line comes from the
 * per-line arena (eng_*dup, eng_printf), which is emptied before the next
 * line: never keep an arena pointer across lines.
 *
 * A line may ask for more scratch memory than ENG_ARENA_MAX (checkpatch.pl's
 * work on some lines grows with the square of their length: an 8,500
 * argument #define asks for gigabytes).  Then eng_alloc() returns NULL and
 * marks the line failed (e->line_skip); so does every later eng_alloc() on
 * that line, and the string helpers return a writable empty string of
 * their own (never NULL, never read-only, but shorter than asked).  A
 * caller must therefore never index a helper's result with a length it
 * did not take from the result itself (strlen()), and must check NULL from
 * eng_alloc().  The engine skips the failed line's remaining segments,
 * drops the findings made after the failure and says so in the result
 * (CHK_LINE_SKIPPED); the other lines are checked as usual.
 */
#ifndef RB_ENG_H
#define RB_ENG_H

#include <stddef.h>
#include <stdint.h>

#include "../checker.h"
#include "re.h"
#include "re_lits.h"
#include "../sbuf.h"

#define ENG_ARENA_MAX	(256u << 20)	/* scratch bytes per line */
#define ENG_MAX_SUPPRESS 65536		/* entries in a suppression set */
#define ENG_MAX_RUNTIME_PATTERNS 2048	/* interned patterns kept compiled */

enum { SEG_GO = 0, SEG_NEXT = 1 };

struct arena_chunk;
struct line_chunk;
struct camelcase_set;
struct linksym_set;
struct sig_set;

struct lineset {		/* a set of line numbers (Perl's %suppress_*) */
	long *v;
	size_t n, alloc;
};

struct eng {
	const struct chk_opts *o;
	/*
	 * The checkpatch.pl version followed (o->cp_version, checked): a
	 * rule that differs between versions tests it where it differs,
	 * "if (e->cpv >= CP_6_12)".
	 */
	enum cp_version cpv;
	struct chk_result *res;
	struct re_ctx *rc;
	struct re_m m;		/* the last successful match: $1, $2, ... */
	const char *filename;

	/*
	 * the input: rawlines[i] and sanitised lines[i], 0-based.  A raw
	 * line points into the input's one buffer (rawbuf, or the caller's
	 * for chk_check_buf()), its newline overwritten by a NUL; a
	 * sanitised line is its raw line itself when sanitising changed
	 * nothing, else a copy in line_pool.  Both are read-only.
	 */
	const char **rawlines;
	const char **lines;
	size_t nlines;
	char *rawbuf;		/* owned copy of the input, or NULL */
	struct line_chunk *line_pool;

	/* per-line scratch */
	struct arena_chunk *arena;
	size_t arena_used;

	/* sanitise_line() */
	const char *sanitise_quote;
	/* annotate_values() */
	int av_preprocessor;
	char av_pending;
	struct sbuf av_paren_type;
	char av_pend_colon;

	/* process()'s variables, named as there */
	long linenr;
	const char *prevline, *prevrawline, *stashline, *stashrawline;
	int length, indent, previndent, stashindent;
	int signoff;
	struct sbuf author;
	int authorsignoff;
	struct sbuf author_sob;
	int is_patch;
	int is_binding_patch;
	int in_header_lines;
	int in_commit_log;
	int has_patch_separator;
	int has_commit_log;
	int commit_log_lines;
	int commit_log_possible_stack_dump;
	int commit_log_long_line;
	int commit_log_has_diff;
	/* 6.12: $fixes_tag, $is_revert, $needs_fixes_tag */
	int fixes_tag;
	int is_revert;
	struct sbuf needs_fixes_tag;
	int reported_maintainer_file;
	int non_utf8_charset;
	long last_git_commit_id_linenr;
	long last_blank_line;
	long last_coalesced_string_linenr;
	struct sbuf realfile;
	long realline;
	long realcnt;
	struct sbuf here;
	struct sbuf context_function;
	int has_context_function;
	int in_comment;
	int comment_edge;
	long first_line;
	struct sbuf p1_prefix;
	char prev_values;
	struct lineset suppress_ifbraces;
	struct lineset suppress_whiletrailers;
	struct lineset suppress_export;
	long suppress_statement;
	int setup_docs;
	int checklicenseline;
	int check;		/* CHECKs on for this file (strict or net/) */
	int rpt_cleaners;
	int clean;
	const char *prefix;	/* emacs/showfile report prefix (arena) */
	struct sbuf prefix_sb;

	/*
	 * The lengths of the current line's strings that most patterns run
	 * on (line, rawline, sline): set with them for each line, cleared
	 * when the loop ends, so M() need not strlen() them (a string is
	 * known by its address only while it lives).
	 */
	const char *known_s[3];
	size_t known_n[3];
	struct re_summary known_sum[3];	/* their summaries */

	/* the current line, valid inside the loop */
	const char *line;	/* sanitised */
	const char *rawline;
	const char *sline;	/* sanitised, comments as spaces (arena) */
	const char *raw_comment;
	int hunk_line;
	const char *herecurr;	/* "$here\n$rawline\n" (arena) */
	const char *hereprev;
	const char *hereline;
	int here_has_file;	/* $here names a file and line */

	/* statement context of the current line ("Check for potential
	 * 'bare' types" onwards) */
	const char *stat, *cond;
	long line_nr_next, remain_next, off_next, realline_next;
	int has_stat;

	/* seg_c_ops reads these; set per line where the Perl sets them
	 * ("Track the 'values'" and "Remove C99 comments", before
	 * seg_c_ops): $opline, and annotate_values()' $curr_values (with
	 * $prev_values prepended) and $curr_vars, all arena strings.  NULL
	 * when not set for this line. */
	const char *opline, *curr_values, *curr_vars;

	/* seg_c_macros: checkpatch.pl's %camelcase, the CamelCase words
	 * already seen (a hash set owned by seg_c_macros.c, created on first
	 * use; free it with seg_c_macros_release()) */
	struct camelcase_set *camelcase;

	/* 6.12's %maybe_linker_symbol (linksym.c), kept like camelcase */
	struct linksym_set *linksyms;

	/* seg_commit: checkpatch.pl's %signatures, the signature lines
	 * seen (a hash set owned by seg_commit.c, created on first use;
	 * free it with seg_commit_release()), and $emitted_corrupt */
	struct sig_set *sigs;
	int emitted_corrupt;

	int in_loop;		/* inside the per-line loop: reports carry #N */
	unsigned char explained[RULE__COUNT];	/* --verbose: type explained */
	struct rv_uapi *rv_uapi;		/* review.c modules' state */
	struct rv_security *rv_security;
	struct rv_process *rv_process;
	struct rv_code *rv_code;		/* the patch as C (rv_code.c) */
	struct rv_twin *rv_twin;		/* rv_twin.c's block cache */
	int rv_code_done;			/* built (or tried) */
	/* rv_process showed a MISSING_FIXES_TAG: checkpatch.pl 6.12's own
	 * (the same type, the same concern) is then left out */
	int fixes_said;
	int failed;		/* a limit was hit: stop */
	/*
	 * The current line ran out of scratch memory (or produced a report
	 * past CHK_MAX_REPORT): its remaining checks are skipped and its
	 * later findings dropped.  Cleared at the start of each line.
	 */
	int line_skip;
	unsigned char *prescan_skip;	/* lines[i] could not be sanitised */
	const char *failed_why;	/* what e->failed ran into, or NULL */
	uint64_t deadline;	/* opts.time_limit_ms as CLOCK_MONOTONIC ns, 0 */
	int timed_out;		/* ... and it passed: the check stopped */
	size_t findings_bytes;	/* text kept in res->f (CHK_MAX_FINDINGS_BYTES) */
	char oom_str[16];	/* what the string helpers return on failure */
};

/* ---- scratch strings ---- */
/* NULL when the line's scratch memory is used up (see the top) */
void *eng_alloc(struct eng *e, size_t n);
/* Marks the current line failed: later eng_alloc() calls on it fail too. */
void eng_fail_line(struct eng *e);
/*
 * e->deadline (set) has passed: marks the check timed out and the line
 * failed, and returns 1.  Looked at once per line, when the arena takes a
 * new chunk and when a pattern is built, never per match.
 */
int eng_late(struct eng *e);
/* The string helpers' result on failure: a writable "" of the engine's. */
char *eng_oom_str(struct eng *e);
/* sb's bytes as a scratch string; a failed line when sb hit its cap */
char *eng_sbuf_str(struct eng *e, const struct sbuf *sb);
char *eng_strndup(struct eng *e, const char *s, size_t n);
char *eng_strdup(struct eng *e, const char *s);
char *eng_printf(struct eng *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *eng_cat(struct eng *e, const char *a, const char *b);
void eng_arena_reset(struct eng *e);
void arena_free_all(struct eng *e);

/* ---- matching: M() sets e->m, the $1.. of the Perl ---- */
static inline int eng_match(struct eng *e, const char *pat, const char *s,
			    struct re_m *m)
{
	int i;

	if (!s)
		return 0;
	for (i = 0; i < 3; i++)
		if (s == e->known_s[i])
			return re_match_sum(e->rc, pat, s, e->known_n[i],
					    &e->known_sum[i], m);
	return re_match(e->rc, pat, s, m);
}
static inline int M(struct eng *e, const char *pat, const char *s)
{
	return eng_match(e, pat, s, &e->m);
}
/* match without touching $1.. */
static inline int MQ(struct eng *e, const char *pat, const char *s)
{
	return eng_match(e, pat, s, NULL);
}
/* e->line, e->rawline and e->sline were set: their lengths */
void eng_known_lines(struct eng *e);
/* $N of the last match as a scratch string ("" when unset) */
char *eng_cap(struct eng *e, int n);
int eng_cap_def(struct eng *e, int n);
/* group i of a match of one's own, as a scratch string ("" when unset) */
char *eng_mcap(struct eng *e, const struct re_m *m, int i);
/* Perl's ($s =~ tr@\n@@): the newlines in s */
long eng_count_nl(const char *s);
/* s =~ s/pat/repl/(g) on a scratch copy */
char *eng_subst(struct eng *e, const char *pat, const char *repl,
		const char *s, int global);
/*
 * Two substitutions every statement goes through, without pcre2:
 * s/\n./\n /g (a statement's lines lose the diff's first column) and
 * s/$;/ /g (comment bytes become spaces).
 */
char *eng_nl_blank(struct eng *e, const char *s);
char *eng_fs_blank(struct eng *e, const char *s);
/*
 * ($stat =~ s/;+\s*$//r) =~ /(?:\{|;)/: a brace or a semicolon before the
 * statement's closing run of semicolons and white space.
 */
int eng_has_boundary(const char *stat);
/* a pattern built at run time (interpolating a value): interned */
/*
 * Whether $Type may start in s after its first byte, white space, and any
 * run of storage, inline and typedef words (each followed by optional
 * white space): a necessary condition for the patterns shaped
 * ^.\s*(<those words>)*$Type (vocab_may_start_type(), re_learned_word_at()).
 */
int eng_may_type_after_first(struct eng *e, const char *s);
/* Whether $Type may start at some word of s (a necessary condition for
 * the patterns that look for a type anywhere in a line). */
int eng_may_hold_type(struct eng *e, const char *s);
const char *eng_pat(struct eng *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* \Q..\E of s */
char *eng_quote(struct eng *e, const char *s);

/* ---- reporting: checkpatch.pl's ERROR(), WARN(), CHK() ---- */
int eng_report(struct eng *e, enum rule_sev sev, enum rule_id id,
	       const char *msg);
int ERROR(struct eng *e, enum rule_id id, const char *msg);
int WARN(struct eng *e, enum rule_id id, const char *msg);
int CHK(struct eng *e, enum rule_id id, const char *msg);
int eng_show_type(struct eng *e, enum rule_id id);

/*
 * The current line becomes s (copied): $line and @lines' element, as a
 * substitution on checkpatch.pl's loop variable (an alias of the array
 * element) changes both.  The lines before and the copies made of it
 * ($prevline, $sline, ...) keep what they had.
 */
void eng_set_line(struct eng *e, const char *s);
/* the input's lines live in a pool of chunks freed with the input */
const char *eng_line_pool_strdup(struct eng *e, const char *s);
void eng_line_pool_free(struct eng *e);

/* linksym.c: 6.12's %maybe_linker_symbol */
/* $maybe_linker_symbol{$word}++ for w[0, n): the count before (0: new) */
long linksym_bump(struct eng *e, const char *w, size_t n);
/* whether a word of the set occurs in s */
int linksym_any_in(const struct eng *e, const char *s);
void linksym_free(struct linksym_set *ls);

/* ---- checkpatch.pl's helper subs ---- */
char *expand_tabs(struct eng *e, const char *s);
char *copy_spacing(struct eng *e, const char *s);
void line_stats(struct eng *e, const char *line, int *length, int *indent);
char *cat_vet(struct eng *e, const char *s);
char *trim(struct eng *e, const char *s);
char *ltrim(struct eng *e, const char *s);
char *rtrim(struct eng *e, const char *s);
char *tabify(struct eng *e, const char *leading);
int pos_last_openparen(struct eng *e, const char *line);
char *get_raw_comment(struct eng *e, const char *line, const char *rawline);
char *get_quoted_string(struct eng *e, const char *line, const char *rawline);
/* lines[n - 1] / rawlines[n - 1] with Perl's undef as NULL */
const char *eng_line(struct eng *e, long n1);
const char *eng_rawline(struct eng *e, long n1);

/* sanitise.c */
void sanitise_line_reset(struct eng *e, int in_comment);
/* NULL when the line is too long for the scratch memory */
char *sanitise_line(struct eng *e, const char *line);

/* ctx.c: the statement and block context of checkpatch.pl */
struct stmt_block {
	const char *statement, *condition;
	long linenr, remain, off;
	int level;
};
void ctx_statement_block(struct eng *e, long linenr, long remain, long off,
			 struct stmt_block *out);
/* $stat/$cond of the current line when the statement scan has not set
 * them yet (unsubstituted, as the Perl's own later calls get them) */
void stmt_ensure(struct eng *e);
int statement_lines(struct eng *e, const char *stmt);
int statement_rawlines(struct eng *e, const char *stmt);
int statement_block_size(struct eng *e, const char *stmt);
/* ctx_statement_full: chunks of (condition, statement) */
struct stmt_chunk {
	const char *condition, *statement;
};
int ctx_statement_full(struct eng *e, long linenr, long remain, long off,
		       struct stmt_chunk **chunks, size_t *nchunks,
		       long *linenr_out);
/* ctx_block_get and friends: lines as an arena array, count in *n */
const char **ctx_block_get(struct eng *e, long linenr, long remain,
			   int outer, char open, char close, long off,
			   int *level, size_t *n);
const char **ctx_block_outer(struct eng *e, long linenr, long remain,
			     size_t *n);
const char **ctx_block(struct eng *e, long linenr, long remain, size_t *n);
const char **ctx_statement(struct eng *e, long linenr, long remain, long off,
			   size_t *n);
const char **ctx_block_level(struct eng *e, long linenr, long remain,
			     int *level, size_t *n);
const char **ctx_statement_level(struct eng *e, long linenr, long remain,
				 long off, int *level, size_t *n);
char *ctx_locate_comment(struct eng *e, long first_line, long end_line);
int ctx_has_comment(struct eng *e, long first_line, long end_line);
const char *raw_line(struct eng *e, long linenr, long cnt);
char *get_stat_real(struct eng *e, long linenr, long lc);
char *get_stat_here(struct eng *e, long linenr, long cnt, const char *here);
void annotate_reset(struct eng *e);
/* annotate_values($stream, $type): *res and *var are scratch strings */
void annotate_values(struct eng *e, const char *stream, char type,
		     char **res, char **var);
void possible(struct eng *e, const char *possible, const char *line);

/* email.c: parse_email() and friends */
struct email_parts {
	char *name, *name_comment, *address, *comment;
};
void parse_email(struct eng *e, const char *formatted, struct email_parts *p);
char *format_email(struct eng *e, const struct email_parts *p);
char *reformat_email(struct eng *e, const char *email);
int same_email_addresses(struct eng *e, const char *a, const char *b);

/* lineset */
int lineset_has(const struct lineset *s, long v);
int lineset_add(struct lineset *s, long v);
void lineset_clear(struct lineset *s);
void lineset_release(struct lineset *s);

/*
 * reviewbot's own checks (review.c), with opts.extra: review_line() sees
 * every line right after seg_commit (commit message, every file type,
 * removed lines too: each module picks what it needs), review_final()
 * runs after the last line.  Each module keeps its state behind its
 * pointer below and frees it in review_release().
 */
struct rv_uapi;
struct rv_security;
struct rv_process;
struct rv_code;
struct rv_twin;
void review_line(struct eng *e);
void review_final(struct eng *e);
void review_release(struct eng *e);
void rv_uapi_line(struct eng *e);
void rv_uapi_final(struct eng *e);
void rv_uapi_release(struct eng *e);
void rv_security_line(struct eng *e);
void rv_security_final(struct eng *e);
void rv_security_release(struct eng *e);
void rv_process_line(struct eng *e);
void rv_process_final(struct eng *e);
void rv_process_release(struct eng *e);
/*
 * With opts.extra, checkpatch.pl's own checks see what reviewbot knows
 * better: the author of a mail b4's web relay sent (seg_commit's From:,
 * the From: header at line n1 with value), and a finding's type where
 * its subsystem makes it a style matter, with a message that says so
 * (*msg replaced; eng_report(); rv_style.c).
 */
const char *rv_relay_author(struct eng *e, long n1, const char *value);
enum rule_id rv_retype(struct eng *e, enum rule_id id, const char **msg);

/* The segments, in checkpatch.pl's order. */
int seg_commit(struct eng *e);		/* commit message and mail headers */
void seg_commit_release(struct eng *e);	/* frees e->sigs */
int seg_text(struct eng *e);		/* any added line: whitespace, Kconfig, ... */
int seg_source(struct eng *e);		/* C, perl, dts: indentation, comments */
int seg_c_lines(struct eng *e);		/* C: per-line checks before the statement scan */
int seg_c_stmt(struct eng *e);		/* C: statement scan, braces, indentation */
int seg_c_ops(struct eng *e);		/* C: spacing, operators, expressions */
int seg_c_macros(struct eng *e);	/* C: macros, blocks, declarations */
void seg_c_macros_release(struct eng *e);	/* frees e->camelcase */
int seg_c_api(struct eng *e);		/* C: kernel API usage */
void seg_final(struct eng *e);		/* after the last line */

#endif
