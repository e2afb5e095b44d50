// SPDX-License-Identifier: GPL-2.0-only
/*
 * SECURITY_FIX: a patch that fixes a security bug, recognised from what
 * its commit message says and what its diff adds.
 *
 * The message must name a memory-safety, permission or information-leak
 * bug: a quoted KASAN/KMSAN/UBSAN/KFENCE report, a syzbot report, or the
 * words (out-of-bounds, overflow of a buffer, use-after-free, double free,
 * uninitialised memory, an info leak to user space, a missing capability
 * or security check, an integer overflow in a size that defeats a bound).
 * It must not say the opposite: a false positive, a compiler warning
 * worked around, no functional change; a shift out of bounds or a signed
 * overflow in arithmetic is undefined behaviour, not a memory-safety bug.
 *
 * The diff must add the guard, read as C on the new side (cview.h,
 * cfunc.h): a bound or length check (a comparison of a length, size,
 * count, index or offset, an overflow helper), a clamp, a zeroing (memset,
 * "= {}", a zeroing allocator), a capability or security check, a free
 * moved after its last use or a pointer cleared after it, a jump that no
 * longer frees.  Each added line that carries such a guard gets the
 * finding (at most RVF_MAX_GUARDS per mail, the likeliest first), naming
 * the bug, who controls the input (the device, the USB host, a remote
 * peer, user space, as the message or the code says) and whether the
 * Fixes: and Cc: stable tags are there.  Without a guard (a whitespace or
 * comment change, a message that only claims), nothing is said.
 *
 * When Fixes: is missing and the process rules have not said so already,
 * MISSING_FIXES_TAG is reported as a warning, which the review shows.
 */
#include "rv.h"

#include <stdlib.h>
#include <string.h>

#include "cfunc.h"
#include "cview.h"

#include "../banned.h"

#define RVF_MAX_GUARDS	5

enum fix_kind {
	FK_OOB = 1 << 0,
	FK_UAF = 1 << 1,
	FK_DF = 1 << 2,
	FK_LEAK = 1 << 3,
	FK_UNINIT = 1 << 4,
	FK_PERM = 1 << 5,
	FK_SECCHECK = 1 << 6,
	FK_INT = 1 << 7,
};

struct fix_msg {
	unsigned kinds;
	int write, read;	/* an out-of-bounds write / read is named */
	const char *evidence;	/* "a KASAN report", "syzbot", ... */
	const char *input;	/* who controls the input, from the message */
};

struct guard {
	size_t tok;		/* the first changed token carrying it */
	int score;
	unsigned kinds;		/* the bugs it guards against */
	const char *what;	/* "this check", "this memset()", ... */
};

struct guards {
	struct guard g[64];
	size_t n;
};

/* ---- the message ---- */

static int msg_says(struct eng *e, const char *text, const char *pat)
{
	return MQ(e, pat, text);
}

/* Whether the message talks the bug away. */
static int negated(struct eng *e, const struct rv_msg *m)
{
	if (msg_says(e, m->text, "(?i)\\bfalse[- ]positives?\\b|\\bfalse (?:alarm|report|warning|splat)s?\\b"))
		return 1;
	/* a compiler or checker warning worked around */
	if (msg_says(e, m->subject, "(?i)\\bwarn(?:s|ings?)?\\b|\\bW=[12]\\b|\\bclang\\b|\\bgcc\\b|\\bsparse\\b|\\bsmatch\\b|\\bcoverity\\b") &&
	    !msg_says(e, m->text, "(?i)\\b(?:KASAN|KMSAN|KFENCE):|\\bsyzbot\\b|\\bout[- ]of[- ]bounds (?:read|write|access)"))
		return 1;
	if (msg_says(e, m->text, "\\[-W[a-z][\\w-]*(?:,-W[a-z][\\w-]*)*\\]|(?i)\\b(?:clang|gcc|the compiler)\\b[^.\\n]{0,40}\\b(?:incorrectly|wrongly|falsely|is not happy|complains)|\\bbogus (?:\\w+ )?(?:warning|report)s?\\b|\\bspurious (?:\\w+ )?(?:warning|report)s?\\b"))
		return 1;
	if (msg_says(e, m->text, "(?i)\\bno functional changes?\\b|\\bNFC\\b|\\bnot a (?:real )?(?:bug|problem|issue)\\b|\\b(?:can|could|will) never happen\\b|\\bcannot happen\\b|\\bpurely theoretical\\b|\\b(?:mechanical|cosmetic) change\\b"))
		return 1;
	return 0;
}

/* What a message says, first match wins: (pattern, what the review says). */
struct said {
	const char *re;
	const char *what;
};

static const struct said evidence[] = {
	{ "(?i)\\bKASAN:", "the message quotes a KASAN report" },
	{ "(?i)\\bKMSAN:", "the message quotes a KMSAN report" },
	{ "(?i)\\bUBSAN:", "the message quotes a UBSAN report" },
	{ "(?i)\\bKFENCE:", "the message quotes a KFENCE report" },
	{ "(?i)\\bsyzbot\\b|\\bsyzkaller\\b", "syzbot reported it" },
	{ "\\bCVE-\\d{4}-\\d+", "the message names a CVE" },
};

static const struct said inputs[] = {
	{ "(?i)\\b(?:malicious|rogue|evil|hostile|compromised)\\s+(?:\\w+\\s+)?(?:usb\\s+)?host\\b|\\bthe\\s+host\\s+(?:can|could|may|sends?|controls?|chooses?)\\b",
	  "the USB host" },
	{ "(?i)\\b(?:malicious|crafted|malformed|rogue|evil|hostile|fake|bogus|emulated|broken|buggy|misbehaving)\\s+(?:\\w+\\s+){0,2}(?:device|descriptor|report|peripheral|printer|controller|firmware|dongle|hardware|adapter|gadget|eeprom)s?\\b|\\bdevice[- ](?:controlled|supplied|provided)\\b|\\bthe device (?:can|could|may|sends?|reports?|controls?)\\b",
	  "the device" },
	{ "(?i)\\b(?:remote|malicious|crafted|rogue)\\s+(?:\\w+\\s+)?(?:peer|packet|frame|server|client|attacker|side|end)s?\\b|\\bover the air\\b|\\bfrom the network\\b",
	  "a remote peer" },
	{ "(?i)\\buser[- ]?space\\b|\\buserland\\b|\\bunprivileged\\b|\\bany user\\b|\\blocal (?:user|attacker)\\b|\\bioctl\\b|\\bsyscall\\b|\\bsystem call\\b",
	  "user space" },
};

#define first_said(e, text, table, none) first_said_n(e, text, table, sizeof(table) / sizeof((table)[0]), none)

static const char *first_said_n(struct eng *e, const char *text, const struct said *table,
				size_t n, const char *none)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (msg_says(e, text, table[i].re))
			return table[i].what;
	return none;
}

static void read_message(struct eng *e, const struct rv_msg *m, struct fix_msg *fm)
{
	const char *t;

	memset(fm, 0, sizeof(*fm));
	if (!m || !m->text || negated(e, m))
		return;
	/* a shift out of bounds and signed overflow are arithmetic */
	/* prose: line breaks are spaces */
	t = eng_subst(e, "\\s+", " ", m->text, 1);
	t = eng_subst(e, "(?i)\\bshift[- ](?:out[- ]of[- ]bounds|oob|exponent|count|overflow)\\b|\\bUBSAN: shift-out-of-bounds\\b|\\bsigned[- ]integer[- ]overflow\\b", " ", t, 1);
	if (msg_says(e, t, "(?i)\\bout[- ]of[- ]bounds?\\b|\\bOOB\\b|\\b(?:slab|stack|global|vmalloc|heap|buffer|array|memory)[- ](?:out[- ]of[- ]bounds|overflow|overrun|over-?read|underflow|corruption)s?\\b|\\bover-?reads?\\b|\\boverruns?\\b|\\b(?:reads?|writes?|accesses|access|copies|copy|copying|reading|writing)\\s+(?:\\w+\\s+){0,3}(?:past|beyond|outside)\\s+(?:of\\s+)?(?:the\\s+)?(?:\\w+\\s+)?(?:end|bounds?|buffer|array|allocation|object)\\b|\\boverflows?\\s+(?:the|a|its)\\s+(?:\\S+\\s+){0,2}(?:buffer|array|stack|heap)\\b|\\barray-index-out-of-bounds\\b|\\[\\]\\s+overflow\\b|\\bindex(?:es|ing)?\\s+(?:off|past|beyond|outside)\\b|\\boverwrit\\w*\\s+(?:\\w+\\s+){0,3}(?:memory|heap|stack)\\b"))
		fm->kinds |= FK_OOB;
	if (msg_says(e, t, "(?i)\\bWrite of size\\b|\\bout[- ]of[- ]bounds[- ]write|\\boob[- ]write|\\b(?:heap|stack|buffer|slab)[- ](?:buffer[- ])?overflow|\\boverwrit|\\bmemory corruption\\b"))
		fm->write = 1;
	if (msg_says(e, t, "(?i)\\bRead of size\\b|\\bout[- ]of[- ]bounds[- ]read|\\boob[- ]read|\\bover-?read|\\bread(?:s|ing)?\\s+(?:\\w+\\s+){0,3}(?:past|beyond)"))
		fm->read = 1;
	if (msg_says(e, t, "(?i)\\buse[- ]after[- ]free\\b|\\bUAF\\b"))
		fm->kinds |= FK_UAF;
	if (msg_says(e, t, "(?i)\\bdouble[- ]free\\b|\\binvalid[- ]free\\b|\\bfreed twice\\b"))
		fm->kinds |= FK_DF;
	if (msg_says(e, t, "(?i)\\binfo(?:rmation)?[- ]?leak|\\b(?:kernel|usb)-infoleak\\b|\\bleak(?:s|ing|ed)?\\s+(?:of\\s+)?(?:\\w+\\s+){0,2}(?:kernel|stack|heap|uninitiali[sz]ed|padding|stale)\\s+(?:\\w+\\s+)?(?:memory|data|bytes|contents|information|pointers?|addresses)\\b|\\b(?:uninitiali[sz]ed|stale|kernel|stack|heap)\\s+(?:\\w+\\s+){0,3}(?:memory|data|bytes|padding|contents|fields?|values?)\\s+(?:\\w+\\s+){0,4}(?:to|into|reach(?:es)?)\\s+(?:the\\s+)?(?:user[- ]?space|userland|user|host|wire|network)\\b|\\bleak(?:s|ing|ed)?\\s+(?:\\w+\\s+){0,3}to\\s+(?:user[- ]?space|userland|user)\\b"))
		fm->kinds |= FK_LEAK;
	if (msg_says(e, t, "(?i)\\bKMSAN\\b|\\buninit-value\\b|\\bun-?init(?:iali[sz]ed)?\\s+(?:memory|value|data|bytes|heap|stack)\\b|\\buninitiali[sz]ed\\s+(?:\\w+\\s+)?(?:value|memory|variable|data|bytes|field|read|use|stack|heap|buffer)s?\\b|\\buse of uninitiali[sz]ed\\b"))
		fm->kinds |= FK_UNINIT;
	if (msg_says(e, t, "(?i)\\bmissing\\s+(?:\\w+\\s+)?(?:capability|permission|privilege|access|authori[sz]ation)\\s+checks?\\b|\\bwithout\\s+(?:a\\s+|any\\s+)?(?:capability|permission|privilege)\\s+checks?\\b|\\bunprivileged\\s+(?:user|process|caller|attacker|task|opener)s?\\b|\\bprivilege escalation\\b|\\bbypass(?:es|ed|ing)?\\s+(?:the\\s+)?(?:\\w+\\s+)?(?:permission|capability|access|lsm)\\b|\\bconfused[- ]deputy\\b|\\bCAP_[A-Z_]+\\b[^.\\n]{0,60}\\bcheck|\\bcheck\\w*\\b[^.\\n]{0,40}\\bCAP_[A-Z_]+"))
		fm->kinds |= FK_PERM;
	if (msg_says(e, t, "(?i)\\bmissing\\s+(?:\\w+\\s+)?security\\s+checks?\\b|\\bKNOB\\b|\\b(?:encryption\\s+)?key[- ]size\\b[^.\\n]{0,60}\\b(?:check|short|minimum|shorter)|\\bdowngrade attack\\b|\\bcheck\\w*\\s+(?:the\\s+)?(?:\\w+\\s+)?(?:encryption\\s+)?key[- ]size\\b"))
		fm->kinds |= FK_SECCHECK;
	/* an integer overflow counts where it defeats a bound or sizes a
	 * buffer: the message says so too; one that ends in a shift out of
	 * bounds is arithmetic */
	if (msg_says(e, t, "(?i)\\b(?:integer|arithmetic|size|length|count|unsigned)\\s+(?:overflow|underflow|wrap(?:-?around)?)s?\\b|\\bwrap(?:s|ped|ping)?[- ]around\\b|\\b(?:underflow|overflow)s?\\s+(?:of\\s+)?(?:the\\s+)?(?:\\w+\\s+)?(?:size|length|len|count|offset)\\b|\\b(?:size|length|len|count|offset)\\s+(?:\\w+\\s+)?(?:underflows?|overflows?|wraps?)\\b|\\b(?:underflow|wrap)s?\\b") &&
	    msg_says(e, t, "(?i)\\bbounds?\\b|\\bbuffer\\b|\\bmemcpy\\b|\\bmemory\\b|\\bslab\\b|\\bheap\\b|\\bskb\\b|\\bread past\\b|\\bcopy\\b|\\balloc"))
		fm->kinds |= FK_INT;
	if (fm->kinds == FK_INT && msg_says(e, m->text, "(?i)\\bshift[- ](?:out[- ]of[- ]bounds|oob|exponent)"))
		fm->kinds = 0;

	fm->evidence = first_said(e, t, evidence, "the commit message says so");
	fm->input = first_said(e, t, inputs, NULL);
}

/* Who controls the input of code in path, when the message did not say. */
static const char *path_input(const char *path)
{
	if (strstr(path, "/usbip/"))
		return "the remote USB/IP peer";
	if (!strncmp(path, "drivers/usb/gadget/", 19))
		return "the USB host";
	if (!strncmp(path, "drivers/thunderbolt/", 20))
		return "the remote host";
	if (!strncmp(path, "net/bluetooth/", 14))
		return "the remote device or the controller";
	if (!strncmp(path, "drivers/bluetooth/", 18))
		return "the controller";
	if (!strncmp(path, "drivers/hid/", 12) || !strncmp(path, "drivers/input/", 14) ||
	    !strncmp(path, "drivers/usb/", 12) || !strncmp(path, "drivers/net/usb/", 16) ||
	    !strncmp(path, "sound/usb/", 10) || !strncmp(path, "drivers/media/usb/", 18))
		return "the device";
	if (!strncmp(path, "net/", 4) || !strncmp(path, "drivers/net/", 12))
		return "the network";
	if (!strncmp(path, "fs/", 3))
		return "a crafted file system image";
	return NULL;
}

static const char *kind_name(const struct fix_msg *fm, unsigned kinds)
{
	if (kinds & FK_OOB)
		return fm->write ? "an out-of-bounds write" :
		       fm->read ? "an out-of-bounds read" : "an out-of-bounds access";
	if (kinds & FK_INT)
		return "an integer overflow in a size or bound";
	if (kinds & FK_UAF)
		return "a use-after-free";
	if (kinds & FK_DF)
		return "a double free";
	if (kinds & FK_LEAK)
		return "an information leak (uninitialised memory sent out)";
	if (kinds & FK_UNINIT)
		return "a read of uninitialised memory";
	if (kinds & FK_PERM)
		return "a missing permission check";
	if (kinds & FK_SECCHECK)
		return "a missing security check";
	return "a security bug";
}

/* ---- the guards ---- */

static int punct(const struct ctok *t, char c)
{
	return t->kind == CTK_PUNCT && t->len == 1 && t->s[0] == c;
}

static int is_relop(const struct ctok *t)
{
	return t->kind == CTK_PUNCT &&
	       (ctok_is(t, "<") || ctok_is(t, ">") || ctok_is(t, "<=") ||
		ctok_is(t, ">=") || ctok_is(t, "==") || ctok_is(t, "!="));
}

/* A name that says length, size, count, index or offset. */
static int lengthish(struct eng *e, const struct ctok *t)
{
	return rv_ident_says(e, t, "(?i)len|size|sz$|^sz|count|cnt|num|^nr|_nr|nr_|idx|index|offset|^off$|_off$|pos$|^pos|max|min|limit|bytes|actual|remain|left|avail|space|capac|total|depth|entries|elems|frags|packets|^n$|_n$|^n_") ||
	       rv_ident_says(e, t, "^(?:sizeof|ARRAY_SIZE|U8_MAX|U16_MAX|U32_MAX|U64_MAX|S32_MAX|INT_MAX|UINT_MAX|SIZE_MAX|PAGE_SIZE)$");
}

/* Calls that check for overflow or bound an index. */
static int bound_helper(const struct ctok *t)
{
	static const char *const names[] = {
		"check_add_overflow*", "check_sub_overflow*", "check_mul_overflow*",
		"check_shl_overflow*", "size_add", "size_sub", "size_mul",
		"array_size", "array3_size", "struct_size", "flex_array_size",
		"__builtin_add_overflow*", "__builtin_mul_overflow*",
		"__builtin_sub_overflow*", "array_index_nospec", "pskb_may_pull",
		"skb_tailroom", "skb_headlen", "in_range", "ARRAY_SIZE", NULL,
	};

	return ctok_ident_in(t, names);
}

static int clamp_helper(const struct ctok *t)
{
	static const char *const names[] = {
		"min", "min_t", "umin", "clamp", "clamp_t", "clamp_val", "min3",
		"min_not_zero", NULL,
	};

	return ctok_ident_in(t, names);
}

static int zeroing_call(const struct ctok *t)
{
	static const char *const names[] = {
		"memset", "memzero_explicit", "kzalloc*", "devm_kzalloc*", "kvzalloc*",
		"vzalloc*", "kcalloc*", "devm_kcalloc*", "__GFP_ZERO", "bzero",
		"skb_put_zero", "get_zeroed_page", NULL,
	};

	return ctok_ident_in(t, names);
}

static int perm_call(const struct ctok *t)
{
	static const char *const names[] = {
		"capable", "ns_capable", "sk_capable", "file_ns_capable",
		"sockopt_ns_capable", "netlink_capable", "netlink_ns_capable",
		"bpf_capable", "perfmon_capable", "has_capability*",
		"inode_owner_or_capable", "capable_wrt_inode_uidgid",
		"ptrace_may_access", "may_open", "inode_permission", "file_permission",
		"security_*", "nonseekable_open", "stream_open", "devcgroup_*", NULL,
	};

	return ctok_ident_in(t, names);
}

/* A function name that says it checks: *_check_*, *valid*, *verify*... */
static int checking_call(struct eng *e, const struct ctok *t)
{
	return rv_ident_says(e, t, "(?i)check|valid|verify|sufficient|allowed|permit|trusted|sec_level|enc_key");
}

static int free_call(struct eng *e, const struct ctok *t)
{
	return rv_ident_says(e, t, "^(?:k|kv|v|devm_k)free\\w*$|_free$|_free_\\w+$|^free_|_put$|^put_|_release$|_destroy$|^consume_skb$|^dev_kfree_skb\\w*$|_unref$|^dev_coredump[vm]\\w*$");
}

/* Whether condition [a, b) only tests an error code or a pointer just
 * allocated: "ret", "!p", "err < 0", "IS_ERR(x)". */
static int trivial_cond(struct eng *e, const struct cfunc *f, size_t a, size_t b)
{
	const struct ctok *t;

	while (a < b && (ctok_is_ident(cf_tok(f, a), "unlikely") ||
			 ctok_is_ident(cf_tok(f, a), "likely")) &&
	       a + 1 < b && punct(cf_tok(f, a + 1), '(')) {
		a += 2;
		b--;
	}
	if (a < b && ctok_ident_prefix(cf_tok(f, a), "IS_ERR"))
		return 1;
	if (a < b && punct(cf_tok(f, a), '!'))
		a++;
	if (a >= b)
		return 1;
	t = cf_tok(f, a);
	if (t->kind != CTK_IDENT)
		return 0;
	if (!rv_ident_says(e, t, "^(?:ret|err|rc|error|status|result|retval|res|rv|r)$")) {
		/* "!p" alone: a pointer test, not a bound */
		return b == a + 1 && !lengthish(e, t);
	}
	if (b == a + 1)
		return 1;
	return b == a + 3 && is_relop(cf_tok(f, a + 1)) &&
	       ctok_is(cf_tok(f, a + 2), "0");
}

/* The last identifier of the member path that starts at i ("skb->len"). */
static size_t path_last(const struct cfunc *f, size_t i, size_t b)
{
	while (i + 2 < b && (ctok_is(cf_tok(f, i + 1), "->") || ctok_is(cf_tok(f, i + 1), ".")) &&
	       cf_tok(f, i + 2)->kind == CTK_IDENT)
		i += 2;
	return i;
}

/*
 * How much condition [a, b) looks like a bound check, 0 when it is none
 * or none of it changed: 3 for an order comparison with a length-like
 * operand, an overflow helper or a test that a length is zero, 2 for
 * another order comparison, an equality test of a length or a checking
 * call, 1 for any other test.  *tok is the first changed token.
 */
static int bound_score(struct eng *e, const struct cfunc *f, size_t a, size_t b,
		       size_t *tok)
{
	size_t i;
	int order = 0, equal = 0, len = 0, helper = 0, zero = 0, checking = 0;

	*tok = SIZE_MAX;
	for (i = a; i < b && *tok == SIZE_MAX; i++)
		if (cf_tok(f, i)->flags & CVF_CHANGED)
			*tok = i;
	if (*tok == SIZE_MAX || trivial_cond(e, f, a, b))
		return 0;
	for (i = a; i < b; i++) {
		const struct ctok *t = cf_tok(f, i);

		if (ctok_is(t, "<") || ctok_is(t, ">") || ctok_is(t, "<=") || ctok_is(t, ">="))
			order = 1;
		else if (ctok_is(t, "==") || ctok_is(t, "!="))
			equal = 1;
		else if (lengthish(e, t))
			len = 1;
		if (bound_helper(t))
			helper = 1;
		if (punct(t, '!') && i + 1 < b && cf_tok(f, i + 1)->kind == CTK_IDENT &&
		    lengthish(e, cf_tok(f, path_last(f, i + 1, b))))
			zero = 1;
		if (t->kind == CTK_IDENT && i + 1 < b && punct(cf_tok(f, i + 1), '(') &&
		    (perm_call(t) || checking_call(e, t)))
			checking = 1;
	}
	if ((order && len) || helper || zero)
		return 3;
	if (order || (equal && len) || checking)
		return 2;
	return 1;
}

/* Whether statement s only logs: a print, or a block of prints. */
static int only_logs(struct eng *e, const struct cfunc *f, int s)
{
	char w[64];
	const struct ctok *t;
	int c;

	if (s < 0)
		return 0;
	if (f->st[s].kind == CS_BLOCK) {
		for (c = f->st[s].a; c >= 0; c = f->st[c].next)
			if (!only_logs(e, f, c))
				return 0;
		return f->st[s].a >= 0;
	}
	if (f->st[s].kind != CS_EXPR || f->st[s].e0 >= f->st[s].e1)
		return 0;
	t = cf_tok(f, f->st[s].e0);
	if (t->kind != CTK_IDENT || t->len >= sizeof(w))
		return 0;
	memcpy(w, t->s, t->len);
	w[t->len] = '\0';
	return MQ(e, "(?i)warn|info|dbg|debug|notice|printk|print|_err$|_err_|_crit", w) &&
	       !MQ(e, "^WARN_ON", w);
}

static void add_guard(struct guards *gs, size_t tok, int score, unsigned kinds,
		      const char *what)
{
	size_t i;

	if (!score || tok == SIZE_MAX)
		return;
	for (i = 0; i < gs->n; i++)
		if (gs->g[i].tok == tok || gs->g[i].what == what) {
			/* one finding a line */
			if (gs->g[i].tok == tok) {
				if (score > gs->g[i].score)
					gs->g[i].score = score;
				gs->g[i].kinds |= kinds;
				return;
			}
		}
	if (gs->n >= sizeof(gs->g) / sizeof(gs->g[0]))
		return;
	gs->g[gs->n].tok = tok;
	gs->g[gs->n].score = score;
	gs->g[gs->n].kinds = kinds;
	gs->g[gs->n].what = what;
	gs->n++;
}

/* The first changed token of [a, b), or SIZE_MAX. */
static size_t first_changed(const struct cfunc *f, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (cf_tok(f, i)->flags & CVF_CHANGED)
			return i;
	return SIZE_MAX;
}

/* Whether the text of statement s (white space aside) is a removed line
 * of the same file: the line moved. */
static int moved(struct eng *e, const struct cfunc *f, int s)
{
	char now[512], old[512];
	size_t i, k, n = 0;
	const struct rv_code *c = rv_code_get(e);
	const struct cv_line *l = cview_line(f->v, f->st[s].t0);

	cf_text(f, f->st[s].t0, f->st[s].t1, now, sizeof(now));
	for (i = 0; now[i]; i++)
		if (now[i] != ' ' && now[i] != '\t')
			now[n++] = now[i];
	now[n] = '\0';
	if (n < 6 || !c)
		return 0;
	for (i = 0; i < c->d.nlines; i++) {
		const struct diff_line *dl = &c->d.lines[i];

		if (dl->kind != '-' || labs(dl->patch_line - l->pline) > 400)
			continue;
		n = 0;
		for (k = 0; k < dl->len && n + 1 < sizeof(old); k++)
			if (dl->text[k] != ' ' && dl->text[k] != '\t')
				old[n++] = dl->text[k];
		old[n] = '\0';
		if (!strcmp(old, now))
			return 1;
	}
	return 0;
}

/* The guards that changed statements of function f add. */
static void function_guards(struct eng *e, const struct cfunc *f,
			    const struct fix_msg *fm, struct guards *gs)
{
	size_t i;

	for (i = 0; i < f->nst; i++) {
		const struct cstmt *s = &f->st[i];
		size_t tok, k;
		int score;

		if (s->kind == CS_BLOCK || !cf_changed(f, s->t0, s->t1))
			continue;
		switch (s->kind) {
		case CS_IF:
		case CS_WHILE:
		case CS_FOR:
		case CS_DO:
			score = bound_score(e, f, s->e0, s->e1, &tok);
			if (!score)
				break;
			/* a test that only logs guards nothing */
			if (s->kind == CS_IF && s->b < 0 && only_logs(e, f, s->a))
				break;
			/* a test of a length: an out-of-bounds or overflow
			 * fix; any changed test in a lifetime or
			 * permission fix */
			if (score >= 2 && (fm->kinds & (FK_OOB | FK_INT | FK_UNINIT | FK_LEAK)))
				add_guard(gs, tok, score, FK_OOB | FK_INT | FK_UNINIT | FK_LEAK, "this check");
			if (fm->kinds & (FK_PERM | FK_SECCHECK)) {
				for (k = s->e0; k < s->e1; k++)
					if ((cf_tok(f, k)->flags & CVF_CHANGED) &&
					    (perm_call(cf_tok(f, k)) || checking_call(e, cf_tok(f, k)))) {
						add_guard(gs, first_changed(f, s->e0, s->e1), 3,
							  FK_PERM | FK_SECCHECK, "this check");
						break;
					}
			}
			if (fm->kinds & (FK_UAF | FK_DF))
				add_guard(gs, tok, score >= 2 ? 2 : 1, FK_UAF | FK_DF, "this check");
			break;
		case CS_EXPR:
		case CS_DECL:
		case CS_RETURN:
			for (k = s->e0; k < s->e1; k++) {
				const struct ctok *t = cf_tok(f, k);

				if (!(t->flags & CVF_CHANGED))
					continue;
				if ((fm->kinds & (FK_LEAK | FK_UNINIT)) && zeroing_call(t))
					add_guard(gs, k, 3, FK_LEAK | FK_UNINIT, "this zeroing");
				if ((fm->kinds & (FK_OOB | FK_INT)) && bound_helper(t) &&
				    k + 1 < s->e1 && punct(cf_tok(f, k + 1), '('))
					add_guard(gs, k, 3, FK_OOB | FK_INT, "this overflow check");
				if ((fm->kinds & (FK_OOB | FK_INT)) && clamp_helper(t) &&
				    k + 1 < s->e1 && punct(cf_tok(f, k + 1), '('))
					add_guard(gs, k, 3, FK_OOB | FK_INT, "this clamp");
				if ((fm->kinds & (FK_PERM | FK_SECCHECK)) && perm_call(t) &&
				    k + 1 < s->e1 && punct(cf_tok(f, k + 1), '('))
					add_guard(gs, k, 3, FK_PERM | FK_SECCHECK, "this check");
			}
			/* "= {}" / "= { 0 }" / "= {a, 0}" on a changed declaration */
			if (s->kind == CS_DECL) {
				size_t v;

				for (v = 0; v < f->nvars; v++) {
					const struct cvar *cv = &f->vars[v];

					if (cv->stmt != (int)i || cv->init0 == SIZE_MAX ||
					    !punct(cf_tok(f, cv->init0), '{') ||
					    !cf_changed(f, cv->init0, cv->init1))
						continue;
					if (fm->kinds & (FK_LEAK | FK_UNINIT))
						add_guard(gs, first_changed(f, cv->init0, cv->init1), 3,
							  FK_LEAK | FK_UNINIT, "this initialiser");
					else if ((fm->kinds & FK_OOB) && cv->ndims)
						add_guard(gs, first_changed(f, cv->init0, cv->init1), 2,
							  FK_OOB, "this initialiser");
				}
			}
			/* an assignment of a length under an added check */
			if ((fm->kinds & (FK_OOB | FK_INT)) && s->kind == CS_EXPR &&
			    s->e0 < s->e1 && (cf_tok(f, s->e0)->flags & CVF_CHANGED)) {
				size_t eq;

				for (eq = s->e0; eq < s->e1 && !ctok_is(cf_tok(f, eq), "="); eq++)
					;
				/* not a reset to 0 (an error path's clean-up) */
				if (eq < s->e1 && eq > s->e0 && lengthish(e, cf_tok(f, eq - 1)) &&
				    !(eq + 2 == s->e1 && (ctok_is(cf_tok(f, eq + 1), "0") ||
							  ctok_is_ident(cf_tok(f, eq + 1), "false") ||
							  ctok_is_ident(cf_tok(f, eq + 1), "NULL"))) &&
				    s->parent >= 0) {
					int p = s->parent;

					if (f->st[p].kind == CS_BLOCK)
						p = f->st[p].parent;
					size_t pt;

					if (p >= 0 && f->st[p].kind == CS_IF &&
					    bound_score(e, f, f->st[p].e0, f->st[p].e1, &pt) >= 2)
						add_guard(gs, s->e0, 2, FK_OOB | FK_INT, "this assignment");
				}
			}
			/* a free moved after the last use, a pointer cleared */
			if ((fm->kinds & (FK_UAF | FK_DF | FK_OOB)) && s->kind == CS_EXPR) {
				const struct ctok *t0 = cf_tok(f, s->e0);

				if (s->e0 + 1 < s->e1 && free_call(e, t0) &&
				    punct(cf_tok(f, s->e0 + 1), '(') && moved(e, f, (int)i))
					add_guard(gs, first_changed(f, s->t0, s->t1), 3,
						  FK_UAF | FK_DF, "this moved free");
				else if (!(fm->kinds & (FK_UAF | FK_DF)))
					;
				else if (s->e1 >= s->e0 + 3 && ctok_is_ident(cf_tok(f, s->e1 - 1), "NULL") &&
					 ctok_is(cf_tok(f, s->e1 - 2), "="))
					add_guard(gs, first_changed(f, s->t0, s->t1), 2,
						  FK_UAF | FK_DF, "clearing the pointer");
				else if (moved(e, f, (int)i) && s->e0 + 1 < s->e1 &&
					 t0->kind == CTK_IDENT && punct(cf_tok(f, s->e0 + 1), '('))
					add_guard(gs, first_changed(f, s->t0, s->t1), 2,
						  FK_UAF | FK_DF, "this moved call");
				else if (s->e0 + 1 < s->e1 && free_call(e, t0) &&
					 punct(cf_tok(f, s->e0 + 1), '('))
					add_guard(gs, first_changed(f, s->t0, s->t1), 1,
						  FK_UAF | FK_DF, "this release");
			}
			break;
		case CS_GOTO:
			if (fm->kinds & (FK_UAF | FK_DF))
				add_guard(gs, first_changed(f, s->t0, s->t1), 2, FK_UAF | FK_DF,
					  "this jump");
			break;
		default:
			break;
		}
	}
}

static int guard_cmp(const void *a, const void *b)
{
	const struct guard *x = a, *y = b;

	if (x->score != y->score)
		return y->score - x->score;
	return x->tok < y->tok ? -1 : x->tok > y->tok;
}

static int tok_cmp(const void *a, const void *b)
{
	const struct guard *x = a, *y = b;

	return x->tok < y->tok ? -1 : x->tok > y->tok;
}

/* The fix of one mail. */
static void check_mail(struct eng *e, const struct rv_code *c, const struct rv_msg *m)
{
	struct fix_msg fm;
	struct guards *gs;
	const struct cview *v = c->nv;
	const char *path = NULL;
	size_t it, i, keep;
	int best = 0;

	read_message(e, m, &fm);
	if (!fm.kinds)
		return;
	gs = calloc(1, sizeof(*gs));
	if (!gs) {
		e->failed = 1;
		return;
	}
	for (it = 0; it < rv_code_funcs(e, (struct rv_code *)c); it++) {
		const struct cfunc *f = &c->funcs[it];
		const struct cv_line *l = &v->lines[v->frags[f->it->frag].line0];
		size_t before = gs->n;

		if (l->pline < m->line0 || l->pline >= m->line1)
			continue;
		function_guards(e, f, &fm, gs);
		if (gs->n > before && !path)
			path = v->files[v->frags[f->it->frag].file].path;
	}
	if (!gs->n) {
		free(gs);
		return;
	}
	qsort(gs->g, gs->n, sizeof(gs->g[0]), guard_cmp);
	best = gs->g[0].score;
	/* the likeliest: the best score, and 2 where the best is 3 */
	for (keep = 0; keep < gs->n && keep < RVF_MAX_GUARDS &&
	     gs->g[keep].score >= (best >= 3 ? 2 : best); keep++)
		;
	/* a lone weak test of a small fix still carries it; many weak
	 * ones say nothing about which */
	if (best == 1 && keep > 2)
		keep = 0;
	qsort(gs->g, keep, sizeof(gs->g[0]), tok_cmp);
	for (i = 0; i < keep; i++) {
		const struct guard *g = &gs->g[i];
		const struct cv_line *l = cview_line(v, g->tok);
		const char *input = fm.input;
		const char *tags;
		size_t fr;

		(void)l;
		for (fr = 0; fr < v->nfrags; fr++)
			if (g->tok >= v->frags[fr].tok0 &&
			    g->tok < v->frags[fr].tok0 + v->frags[fr].ntok)
				break;
		if (fr == v->nfrags)
			continue;
		if (!input)
			input = path_input(v->files[v->frags[fr].file].path);
		tags = m->has_fixes && m->has_stable ? "Fixes: and Cc: stable are there" :
		       e->fixes_said ? (m->has_fixes ? "Fixes: is there, Cc: stable is not" :
					m->has_stable ? "Cc: stable is there, Fixes: is not" :
					"neither Fixes: nor Cc: stable is there") :
		       m->has_fixes ? "Fixes: is there, Cc: stable@vger.kernel.org is not: add it so the fix reaches the stable trees" :
		       m->has_stable ? "Cc: stable is there, Fixes: is not: name the commit that brought the bug" :
		       "neither Fixes: nor Cc: stable@vger.kernel.org is there: add both so the fix reaches the stable trees";
		{
			unsigned k = g->kinds & fm.kinds ? g->kinds & fm.kinds : fm.kinds;
			int reach = (k & (FK_PERM | FK_SECCHECK)) && !(k & ~(FK_PERM | FK_SECCHECK));

			rv_report_tok(e, SEV_WARNING, R_SECURITY_FIX, v, g->tok,
				      eng_printf(e, "security fix: %s is what fixes %s%s (%s); %s",
						 g->what, kind_name(&fm, k),
						 !input ? "" : reach ? eng_printf(e, " reachable from %s", input) :
						 eng_printf(e, " that %s can trigger", input),
						 fm.evidence, tags));
		}
	}
	if (keep && !m->has_fixes && !e->fixes_said && e->cpv >= CP_6_12) {
		e->fixes_said |= 1;
		rv_report_line(e, SEV_WARNING, R_MISSING_FIXES_TAG, NULL, m->body0, 0,
			       eng_printf(e, "The commit message describes a security fix (%s) but has no Fixes: tag: name the commit that introduced the bug, 'Fixes: <12 chars of sha1> (\"<title line>\")', and Cc stable so the fix reaches every tree that has it",
					  kind_name(&fm, fm.kinds)));
	}
	free(gs);
}

void rv_fix_final(struct eng *e)
{
	const struct rv_code *c = rv_code_get(e);
	size_t i;

	if (!c || !c->nv)
		return;
	for (i = 0; i < c->nmsgs; i++)
		check_mail(e, c, &c->msgs[i]);
}
