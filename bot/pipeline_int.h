/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pipeline's insides, shared by its files, each calling only those
 * below it:
 *
 *   pipeline_review.c  one review per series version, and delivery
 *   pipeline_stage.c   the compile and load stages, their follow-ups
 *   pipeline_reply.c   a mail about a series: recipients, queued
 *   pipeline.c         mail coming in: stored, classified, checked
 *   pipeline_mail.c    a mail parsed or read again; a series' view
 *
 * The review asks the stages (pipe_stages_*, pipe_followups), never the
 * other way round; both make their mail through pipeline_reply.c.  The
 * commands (command*.c) and pipeline_rcpt.c read mail here too.
 */
#ifndef RB_PIPELINE_INT_H
#define RB_PIPELINE_INT_H

#include <signal.h>
#include <stdint.h>

#include "pipeline.h"
#include "mail/compose.h"
#include "mail/mime.h"
#include "secret.h"
#include "../checker/checker.h"

#define PIPE_DEFAULT_ADDRESS	"reviewbot@localhost"	/* a dry run's own address */
#define PIPE_INVALID_DOMAIN	"reviewbot.invalid"	/* of the Message-IDs made up */
#define PIPE_FAIL_SLOTS		64
#define PIPE_MAX_PROCESS_FAILS	3
/* seconds the check of a suspect message may take in its child
 * process (check_isolated) before it counts as not finished */
#define PIPE_ISOLATED_TIMEOUT	300

struct pipeline {
	struct store *st;
	const struct config *cfg;
	const struct template_set *tpl;
	enum pipeline_mode mode;
	struct chk_opts opts;
	struct chk_spelling *spelling;
	struct pipeline_stats stats;
	const volatile sig_atomic_t *stop;	/* set: finish what is in hand */
	const char *claim;	/* this process's name on what it works on (claim.h) */
	/* the installation's key of the bot's own Message-IDs (secret.h):
	 * nobody outside can work one out before it is mailed */
	struct secret_key idkey;
	/* test hooks (check_compute), from the environment: NULL unless
	 * a test sets them */
	char *test_crash_on, *test_unfinished_on;
	/* messages whose processing failed while others went through
	 * (pipeline_process_pending): after PIPE_MAX_PROCESS_FAILS they are
	 * marked bad, so one cannot hold up the rest for ever */
	struct pipe_fail {
		int64_t id;
		int n;
	} fails[PIPE_FAIL_SLOTS];
	/* the parts offered so far (pipeline_repeat_part): a set of
	 * nonzero hashes, open addressing, at most PIPE_MAX_PARTS_SEEN */
	uint64_t *parts;
	size_t nparts, partcap;
};

/* The bot's own address: a dry run needs none of its own. */
static inline const char *pipe_bot_address(const struct pipeline *p)
{
	return p->cfg->address ? p->cfg->address : PIPE_DEFAULT_ADDRESS;
}

/* ---- pipeline_mail.c: reading mail --------------------------------------- */

#define PIPE_FNV_INIT 0xcbf29ce484222325ULL

/* FNV-1a 64, for names made from bytes and quick sets (not security). */
uint64_t pipe_fnv1a(uint64_t h, const void *buf, size_t n);

/* raw parsed within lim (pipeline_parse() within the ceilings); a mail
 * without a Message-ID gets one named from its bytes, which does not
 * count against lim->max_mail. */
int pipe_parse_within(const char *raw, size_t len, const struct mime_limits *lim,
		      struct mime_mail *m);
/* The stored message msg_id, parsed; 0 or -1. */
int pipe_load_mail(struct store *st, int64_t msg_id, struct mime_mail *m);

/*
 * Findings a later part of the series settles are not the author's
 * problem: a line a later patch removes again, and the "no MAINTAINERS
 * entry" / "undocumented sysfs" findings when the series adds the entry
 * or the documentation in another patch.
 */
struct removed {
	uint64_t hash;		/* of file + '\0' + line text */
	int part;
};

/*
 * The function (or other top-level block) each added line of a series
 * is in, as a number (compose_finding.scope): from the line that opens
 * it (a line of C at column 0 that is no label) or the hunk's section
 * (the function git names after "@@"), until a '}' at column 0.
 */
struct scope_line {
	uint64_t key;		/* part, file and line hashed */
	uint64_t scope;		/* never 0 */
};

#define PIPE_MAX_SCOPE_LINES	(1u << 20)	/* then scopes are unknown */

struct view {
	struct store_patch *patches;
	size_t npatches;
	struct store_finding *f;
	size_t nf;
	struct compose_finding *cf;	/* the findings kept, pointing into f */
	size_t ncf;
	struct removed *rm;
	size_t nrm, rm_alloc;
	struct scope_line *sc;
	size_t nsc, sc_alloc;
	uint64_t sc_next;	/* makes the scopes of no known function */
	int touches_maintainers;
	int adds_abi_doc;
	struct mime_mail first;		/* the lowest part's mail (threading) */
	int have_first;
};

/* Loads a series' patches and findings, keeping those the series does
 * not settle itself; only_part > 0 keeps that part's findings only. */
int pipe_view_load(struct store *st, int64_t series_id, int only_part, struct view *v);
void pipe_view_release(struct view *v);

/*
 * Keeps of v's findings those of parts that may be published under
 * publish (bot/web/publish.c's rule, store_web_msg_published): what a
 * mail to a list may say.  A part mailed to the bot alone stays out of
 * the review the list gets (issue 33).  Returns how many of v's parts
 * may be published, or a negative store error.
 */
int pipe_view_publishable(struct store *st, const char *publish, struct view *v);

/* ---- pipeline_rcpt.c: who a mail was sent to, and how it came ----------- */

/*
 * The mail came through list: its List-Id (RFC 2919, the part inside
 * <>) is the list's address with '@' as '.' (vger's, mailman's and
 * public-inbox's "linux-leds.vger.kernel.org" for
 * linux-leds@vger.kernel.org), or the address itself.
 */
int pipe_list_id_is(const char *list_id, const char *list);
/* addr is the posting address of a list the bot reads (a source's
 * `list`): that one, as configured, or NULL. */
const char *pipe_known_list(const struct config *cfg, const char *addr);

#define PIPE_MAX_VIA_LISTS	1024	/* bytes of a copy's via_lists */

/*
 * How a copy read from src (NULL: handed in, as by `reviewbot review`)
 * came (schema 11, enum store_msg_via): from a public-inbox or NNTP
 * source, the list's archive, through the source's list; into a mailbox
 * with the source's list's List-Id, through that list; else directly
 * (another list's List-Id in this list's mailbox says nothing: that
 * list's copy comes through its own source); handed in (no src), with
 * the List-Id of a list the configuration reads.  *lists (initialised)
 * gets the list, lowercase.
 */
int pipe_copy_way(const struct config *cfg, const struct config_source *src,
		  const struct mime_mail *m, struct sbuf *lists);

/* ---- pipeline_reply.c: a mail about a series ------------------------------ */

/* pipe_recipients(): who a mail about a series goes to. */
struct pipe_rcpt {
	struct compose_addr cc[MIME_MAX_RCPTS + 1];
	size_t ncc;
	struct sbuf rcpt;	/* the envelope: addresses, comma separated */
	const char *suppress;	/* set: made but not sent, and why */
	const char *list;	/* the list, when the mail goes to it */
	const struct config_source *src;	/* the mail's source, or NULL */
	char author[256];	/* the author's address, lowercased */
};
int pipe_recipients(struct pipeline *p, const struct store_series *s,
		    const struct mime_mail *to_mail, int64_t now, struct pipe_rcpt *r);
/*
 * 1 while series s waits for a list's own copy of one of its mails
 * ([policy] list_wait): a mail that came to the bot directly, less than
 * list_wait seconds ago, naming in its To or Cc a list the bot reads.
 */
int pipe_awaits_list(struct pipeline *p, const struct store_series *s, int64_t now);
void pipe_rcpt_release(struct pipe_rcpt *r);
/* r for a mail about series s (v its view, rc its recipients) replying
 * to to_mail: what the review and the follow-up share; the caller sets
 * the rest (and may change In-Reply-To and References). */
void pipe_review_init(struct compose_review *r, const struct pipeline *p,
		      const struct store_series *s, const struct view *v,
		      const struct mime_mail *to_mail, const struct pipe_rcpt *rc);
/* Puts a mail (kind "review", "followup") in the outbox, pending, or
 * suppressed with rc->suppress; STORE_DUP when its Message-ID is there. */
int pipe_reply_add(struct pipeline *p, const struct store_series *s, const char *kind,
		   const char *msgid, const char *bot_addr, const struct pipe_rcpt *rc,
		   const char *body, int64_t now, int64_t *id);

/*
 * The findings a review or follow-up (reply_id, 0: none made) covers,
 * with their numbers (compose_review.cover), so that an answer
 * "false-positive TYPE" or "#N" finds them (bot/command.h).
 */
int pipe_cover_add(struct pipeline *p, int64_t reply_id, const struct compose_cover *cover,
		   size_t n);

/* ---- pipeline_stage.c: what the review asks of the stages ---------------- */

/*
 * The compile and load stages.  A series to review
 * queues the stages the configuration enables (the store's stage
 * queue: they survive a restart, run one at a time, and their result is
 * kept per series version); its review waits for them up to [policy]
 * stage_wait seconds after they were queued, then goes without them,
 * their lines saying "pending", and the results follow in a reply.
 */
struct pipe_stages {
	int state[2];		/* 0 not run, else 1 + enum chk_ready */
	int pending[2];		/* queued or running */
	char note[2][200];
	char details[4096];	/* the compile stage's (build.h), or "" */
};
/* 1 when the review of s waits for its stages (queued now if need be),
 * 0 when it can go, negative on a store error. */
int pipe_stages_wait(struct pipeline *p, const struct store_series *s, int64_t now);
/* The stages' results for s's review; a stage still pending is marked
 * as owing a follow-up.  Call inside the review's transaction. */
int pipe_stages_gather(struct pipeline *p, const struct store_series *s,
		       struct pipe_stages *sg);
void pipe_stages_to_compose(const struct pipe_stages *sg, struct compose_review *r);
/* The follow-ups owed whose stages are all done: one mail each. */
int pipe_followups(struct pipeline *p, int64_t now);

#endif
