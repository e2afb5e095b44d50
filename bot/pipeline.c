// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline: the bot's main job (pipeline.h): a raw mail stored, parsed,
 * classified, placed in its series and checked (in a child process, so a
 * mail that crashes the checker cannot crash the bot), its findings
 * stored.  Reviews and delivery are in pipeline_review.c, the compile and
 * load stages' queue in pipeline_stage.c, a reply's recipients and its
 * place in the outbox in pipeline_reply.c, stored mail read again in
 * pipeline_mail.c, who a message was sent to in pipeline_rcpt.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pipeline.h"
#include "pipeline_int.h"
#include "backport.h"
#include "stage/build.h"
#include "stage/boot.h"
#include "claim.h"
#include "command.h"
#include "mail/compose.h"
#include "mail/deliver.h"
#include "mail/maildate.h"
#include "mail/digest.h"
#include "fileio.h"
#include "kversion.h"
#include "log.h"
#include "patterns.h"
#include "series.h"
#include "spell_list.h"
#include "mail/subject.h"
#include "mail/template.h"
#include "version.h"
#include "../store/store_web.h"
#include "../checker/checker.h"
#include "../checker/diff.h"
#include "../checker/spelling.h"
#include "../checker/banned.h"

#define PIPE_MAX_CHECK_TEXT	(64u << 20)	/* bytes handed to the checker */
#define PIPE_MAX_FINDINGS	10000		/* findings stored per patch */
#define PIPE_MAX_THREADS	16		/* checker threads */
#define PIPE_DEFER_RATE		300		/* seconds: over the hourly cap */
#define PIPE_RETRY_MIN		60		/* seconds: first retry of a delivery */
#define PIPE_RETRY_MAX		3600
#define PIPE_MAX_ATTEMPTS	20		/* then failed for good */
#define PIPE_MAX_PARTS_SEEN	(1u << 20)	/* parts pipeline_repeat_part keeps */


/*
 * Test hooks, for tests/bot/test_poison.sh: with REVIEWBOT_TEST_CRASH_ON
 * set, the check of a mail holding its text kills the process (SIGKILL,
 * as the OOM killer would; no core, no handler); with
 * REVIEWBOT_TEST_UNFINISHED_ON, the check of such a mail says it did not
 * finish (as the checker's time budget will).  Unset, as anywhere but in
 * a test, they cost a NULL test per check.
 */
static void test_hooks(struct pipeline *p)
{
	const char *v;

	v = getenv("REVIEWBOT_TEST_CRASH_ON");
	if (v && *v)
		p->test_crash_on = strdup(v);
	v = getenv("REVIEWBOT_TEST_UNFINISHED_ON");
	if (v && *v)
		p->test_unfinished_on = strdup(v);
}

static void test_hooks_check(const struct pipeline *p, const struct sbuf *text,
			     struct pipeline_check *pc)
{
	if (p->test_crash_on && memmem(text->buf, text->len, p->test_crash_on,
				       strlen(p->test_crash_on)))
		kill(getpid(), SIGKILL);
	if (p->test_unfinished_on && memmem(text->buf, text->len, p->test_unfinished_on,
					    strlen(p->test_unfinished_on)))
		snprintf(pc->unfinished, sizeof(pc->unfinished),
			 "the check's time budget ran out (REVIEWBOT_TEST_UNFINISHED_ON)");
}

int pipeline_new(struct store *st, const struct config *cfg,
		 const struct template_set *t, enum pipeline_mode mode,
		 struct pipeline **out, char *err, size_t errlen)
{
	struct pipeline *p;
	const struct chk_cp_data *data;
	char path[PATH_MAX], why[PATH_MAX + 128], note[256];

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->st = st;
	p->cfg = cfg;
	p->tpl = t;
	p->mode = mode;
	chk_opts_init(&p->opts);
	p->opts.extra = 1;
	/* a mail is hostile: one check may not hold the bot for ever */
	p->opts.time_limit_ms = (unsigned long)(cfg->check_seconds > 0 ? cfg->check_seconds : 60) *
				1000ul;
	p->opts.max_line_bytes = CHK_BOT_MAX_LINE_BYTES;
	p->opts.patterns = &reviewbot_patterns;
	/* the checkpatch.pl the reviews follow ([checker] checkpatch_version,
	 * or the tree's), with its const structs, as `reviewbot check
	 * --checkpatch-version` uses them; misspellings: that version's own
	 * list unless [checker] spelling or the tree says otherwise
	 * (spell_list.h); none when it cannot be read (the checker works
	 * without) */
	p->opts.cp_version = kversion_checkpatch(cfg->checkpatch_version, cfg->build_tree,
						 note, sizeof(note));
	data = &reviewbot_cp_data[p->opts.cp_version];
	p->spelling = spell_list_load(cfg, data->spelling_image, data->spelling_image_len,
				      path, sizeof(path), why, sizeof(why));
	if (p->spelling)
		log_event(LOG_DEBUG, "spelling", "file", path, NULL);
	else
		log_event(LOG_WARN, "no-spelling-list", "spelling", cfg->spelling,
			  "error", why, NULL);
	p->opts.spelling = p->spelling;
	p->opts.const_structs = data->const_structs;
	log_event(LOG_INFO, "checkpatch-version", "version",
		  cp_version_name(p->opts.cp_version), "from", note, NULL);
	p->claim = claim_self();
	if (secret_installation_key(st, "message-id", &p->idkey, err, errlen)) {
		chk_spelling_free(p->spelling);
		free(p);
		return -1;
	}
	test_hooks(p);
	*out = p;
	return 0;
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	chk_spelling_free(p->spelling);
	free(p->parts);
	free(p->test_crash_on);
	free(p->test_unfinished_on);
	free(p);
}

const char *pipeline_claim(const struct pipeline *p)
{
	return p->claim;
}

void pipeline_set_stop(struct pipeline *p, const volatile sig_atomic_t *stop)
{
	/* a stage in hand ends at a stop too (pipeline_run_stage drops it) */
	build_set_stop(stop);
	boot_set_stop(stop);
	p->stop = stop;
}

int pipeline_stopping(const struct pipeline *p)
{
	return p->stop && *p->stop;
}

int pipeline_history_only(const struct pipeline *p)
{
	return p->mode == PIPE_IMPORT;
}

void pipeline_set_config(struct pipeline *p, const struct config *cfg,
			 const struct template_set *t)
{
	p->cfg = cfg;
	p->tpl = t;
}

const struct pipeline_stats *pipeline_stats(const struct pipeline *p)
{
	return &p->stats;
}

void pipeline_stats_restore(struct pipeline *p, const struct pipeline_stats *saved)
{
	p->stats = *saved;
}

int pipeline_too_old(const struct config *cfg, const struct mime_mail *m, int64_t now)
{
	int64_t date = maildate_effective(m->date, m->received, now);

	return cfg->max_age > 0 && now - date > (int64_t)cfg->max_age;
}

static char *join_refs(char **refs, size_t n)
{
	struct sbuf sb;
	size_t i;

	if (!n)
		return NULL;
	/* the ids come from one header field (MIME_MAX_HEADER), plus spaces */
	sbuf_init(&sb, MIME_MAX_HEADER + MIME_CEIL_REFS);
	for (i = 0; i < n; i++) {
		if (i)
			sbuf_addch(&sb, ' ');
		sbuf_addstr(&sb, refs[i]);
	}
	return sbuf_detach(&sb, NULL);
}

/*
 * A mail as it comes, within the configured [limits].  reason (when the
 * mail cannot be read) gets why, naming the option for an oversized mail.
 */
static int parse_configured(const struct pipeline *p, const char *raw, size_t len,
			    struct mime_mail *m, char *reason, size_t reasonlen)
{
	struct mime_limits lim;
	int ret;

	config_mime_limits(p->cfg, &lim);
	ret = pipe_parse_within(raw, len, &lim, m);
	if (ret == MIME_OK)
		return ret;
	if (ret == MIME_ERR_LIMIT && len > lim.max_mail)
		snprintf(reason, reasonlen, "mail of %zu bytes over [limits] max_message_bytes %zu",
			 len, lim.max_mail);
	else
		snprintf(reason, reasonlen, "%s", mime_strerror(ret));
	return ret;
}

/*
 * How a copy of a message stored before the copies were told apart
 * (schema 11: its via_lists NULL) came: its source's kind and its
 * List-Id, as pipe_copy_way() would have said.
 */
static int legacy_way(const struct pipeline *p, const struct store_msg *old)
{
	const struct config *cfg = p->cfg;
	char *rcpt = NULL, *list_id = NULL;
	size_t i;
	int via = VIA_DIRECT;

	const struct config_source *src = NULL;

	for (i = 0; old->source && i < cfg->nsources; i++)
		if (!strcmp(cfg->sources[i].name, old->source))
			src = &cfg->sources[i];
	if (src && (src->type == SRC_PUBLIC_INBOX || src->type == SRC_NNTP))
		via = VIA_ARCHIVE;
	else if (src && src->list &&
		 store_msg_get_rcpt(p->st, old->id, &rcpt, &list_id) == STORE_OK &&
		 pipe_list_id_is(list_id, src->list))
		via = VIA_LIST_ID;
	free(rcpt);
	free(list_id);
	return via;
}

/*
 * Another copy of message id came (the same Message-ID): copy, the
 * mail m in raw[0, len).  The same mail (the same digest) is one
 * message, as it always was, which gains the way this copy came (a
 * list's copy after one mailed to the bot: its review may answer the
 * list now).  One that differs is a claim on the Message-ID: it takes
 * the message's place when it came a better way (the list's copy after
 * one mailed to the bot, store_msg_replace: what the other made is
 * undone and this one is processed as new), else it is kept aside, never
 * reviewed or shown.  STORE_OK when it took the place, STORE_DUP when
 * not, or a store error.
 */
static int another_copy(struct pipeline *p, int64_t id, const struct store_msg *copy,
			const char *raw, size_t len, const struct mime_mail *m)
{
	struct store_msg old;
	char old_hash[MAIL_DIGEST_HEX + 1], reason[200], via[8];
	void *old_raw = NULL;
	size_t old_len = 0;
	int ret, old_via;

	ret = store_msg_get(p->st, id, &old);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_DUP;
	if (old.hash) {
		snprintf(old_hash, sizeof(old_hash), "%s", old.hash);
	} else {
		ret = store_msg_raw(p->st, id, &old_raw, &old_len);
		if (ret != STORE_OK)
			goto out;
		mail_digest(old_raw, old_len, old_hash);
		free(old_raw);
	}
	old_via = old.via_lists ? old.via : legacy_way(p, &old);
	snprintf(via, sizeof(via), "%d", copy->via);
	if (!strcmp(old_hash, copy->hash)) {
		ret = store_msg_merge_copy(p->st, id, copy, m->list_id);
		if (ret == STORE_OK)
			ret = STORE_DUP;
		if (copy->via > old_via)
			log_event(LOG_INFO, "message-copy", "msgid", m->message_id,
				  "source", copy->source, "via", via,
				  "result", "the same mail, now through its list", NULL);
		goto out;
	}
	if (copy->via > old_via) {
		snprintf(reason, sizeof(reason),
			 "replaced by the copy from %.64s, which came through its list",
			 copy->source ? copy->source : "the command line");
		ret = store_msg_replace(p->st, id, old_hash, copy, raw, len, reason);
		if (ret == STORE_OK) {
			p->stats.replaced++;
			log_event(LOG_WARN, "message-replaced", "msgid", m->message_id,
				  "source", copy->source, "via", via, "was_from", old.source,
				  "reason", "another copy of this Message-ID came first, not "
				  "through the list", NULL);
		}
		goto out;
	}
	snprintf(reason, sizeof(reason), "%s",
		 old_via > copy->via ? "the copy that came through its list is the message" :
		 "another copy of this Message-ID came first");
	ret = store_msg_copy_add(p->st, id, copy, raw, len, reason);
	if (ret >= 0) {
		if (ret == STORE_OK) {
			p->stats.copies++;
			log_event(LOG_WARN, "message-copy-kept", "msgid", m->message_id,
				  "source", copy->source, "via", via, "reason", reason, NULL);
		}
		ret = STORE_DUP;
	}
out:
	store_msg_release(&old);
	return ret;
}

int pipeline_add(struct pipeline *p, const struct config_source *src,
		 const char *raw, size_t len, int64_t now, int64_t *id,
		 struct mime_mail *parsed)
{
	struct store_msg row;
	struct mime_mail m;
	struct sbuf lists;
	char fake_id[64], reason[128], digest[MAIL_DIGEST_HEX + 1];
	int ret, mret;

	memset(&row, 0, sizeof(row));
	memset(&m, 0, sizeof(m));
	sbuf_init(&lists, PIPE_MAX_VIA_LISTS);
	if (parsed)
		memset(parsed, 0, sizeof(*parsed));
	mret = parse_configured(p, raw, len, &m, reason, sizeof(reason));
	row.source = src ? src->name : NULL;
	row.list = src ? src->list : NULL;
	row.received = now;
	if (mret == MIME_OK) {
		row.message_id = m.message_id;
		row.from_addr = m.from.addr;
		row.from_name = m.from.name;
		row.subject = m.subject;
		row.date = m.date;
		row.in_reply_to = m.in_reply_to;
		row.refs = join_refs(m.refs, m.nrefs);
	} else {
		/* kept under a name made from its bytes: the same junk twice
		 * is one row, and nothing is lost */
		snprintf(fake_id, sizeof(fake_id), "bad-%016" PRIx64 "@" PIPE_INVALID_DOMAIN,
			 pipe_fnv1a(PIPE_FNV_INIT, raw, len));
		row.message_id = fake_id;
	}
	if (len > STORE_MAX_RAW)
		len = STORE_MAX_RAW;	/* the reason above says why */
	/* which copy of its Message-ID this is, and how it came */
	mail_digest(raw, len, digest);
	row.hash = digest;
	row.via = mret == MIME_OK ? pipe_copy_way(p->cfg, src, &m, &lists) : VIA_DIRECT;
	row.via_lists = lists.buf;
	ret = store_msg_add(p->st, &row, raw, len, id);
	if (ret == STORE_DUP && mret == MIME_OK)
		ret = another_copy(p, *id, &row, raw, len, &m);
	free(row.refs);
	sbuf_release(&lists);
	if (ret == STORE_DUP) {
		p->stats.duplicates++;
		if (mret == MIME_OK)
			mime_release(&m);
		return ret;
	}
	if (ret != STORE_OK) {
		if (mret == MIME_OK)
			mime_release(&m);
		return ret;
	}
	p->stats.stored++;
	if (mret != MIME_OK) {
		p->stats.bad++;
		log_event(LOG_WARN, "bad-message", "msgid", fake_id, "reason", reason, NULL);
		return store_msg_set_state(p->st, *id, MSG_BAD, reason);
	}
	ret = pipeline_record_rcpt(p->st, *id, &m);
	if (ret < 0) {
		mime_release(&m);
		return ret;
	}
	/* its first attempt: committed with it, before any check of it */
	ret = store_msg_claim(p->st, *id, p->claim, NULL, now);
	if (ret < 0) {
		mime_release(&m);
		return ret;
	}
	if (parsed)
		*parsed = m;
	else
		mime_release(&m);
	return STORE_OK;
}

/* ---- checking one patch ------------------------------------------------ */

/*
 * The mail as git am would see it: From, Subject, then the body; and the
 * Message-ID it came with (none is made up for a git format-patch file),
 * which tells the checker that From: is who sent it (SIGN_OFF_NOT_SENDER,
 * as `reviewbot check` of the mail says).
 */
/* "Name: a, b, ..." of addresses (their address part only: names are
 * untrusted text the checker need not read), folded to keep lines short */
static void add_addrs(struct sbuf *out, const char *name, const struct mime_addr *a,
		      size_t n)
{
	size_t i, col;

	if (!n)
		return;
	sbuf_addf(out, "%s:", name);
	col = strlen(name) + 1;
	for (i = 0; i < n && i < 256; i++) {
		size_t len;

		if (!a[i].addr || !*a[i].addr || strpbrk(a[i].addr, "\r\n"))
			continue;
		len = strlen(a[i].addr);
		if (col + len > 76 && i) {
			sbuf_addstr(out, "\n");
			col = 0;
		}
		sbuf_addf(out, " %s%s", a[i].addr, i + 1 < n ? "," : "");
		col += len + 2;
	}
	sbuf_addstr(out, "\n");
}

static void check_text(const struct mime_mail *m, struct sbuf *out)
{
	static const char made_up[] = "@" PIPE_INVALID_DOMAIN;
	size_t n = m->message_id ? strlen(m->message_id) : 0;

	sbuf_reset(out);
	if (m->from.name && *m->from.name)
		sbuf_addf(out, "From: %s <%s>\n", m->from.name, m->from.addr);
	else
		sbuf_addf(out, "From: %s\n", m->from.addr);
	sbuf_addf(out, "Subject: %s\n", m->subject);
	/* who it went to: the checker's rules ask (a system call's patch
	 * already sent to linux-api needs no advice to send it there) */
	add_addrs(out, "To", m->to, m->nto);
	add_addrs(out, "Cc", m->cc, m->ncc);
	if (n && (n < sizeof(made_up) ||
		  strcmp(m->message_id + n - (sizeof(made_up) - 1), made_up)))
		sbuf_addf(out, "Message-ID: <%s>\n", m->message_id);
	sbuf_addstr(out, "\n");
	sbuf_add(out, m->body, m->body_len);
}

static int cmp_added(const void *a, const void *b)
{
	const struct added_line *x = a, *y = b;

	if (x->path_hash != y->path_hash)
		return x->path_hash < y->path_hash ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The offending line quoted in a report: the first line after "#N: ". */
static char *report_line(const char *text)
{
	const char *p = strstr(text, "\n#");
	const char *e;

	if (!p)
		return NULL;
	p = strchr(p + 1, '\n');
	if (!p || p[1] != '+')
		return NULL;
	p += 2;
	e = strchr(p, '\n');
	return e ? strndup(p, (size_t)(e - p)) : strdup(p);
}

void pipeline_check_release(struct pipeline_check *pc)
{
	if (!pc)
		return;
	free(pc->added);
	free(pc->corrupt);
	chk_result_release(&pc->res);
	sbuf_release(&pc->text);
	memset(pc, 0, sizeof(*pc));
}

/*
 * Why a diff was read only in part ([limits]), malloc'd (NULL: out of
 * memory), for the log line "check-incomplete".
 */
static char *diff_cut_reason(const struct diff *d, const struct diff_limits *lim)
{
	char buf[160];

	if (d->nfiles >= lim->max_files)
		snprintf(buf, sizeof(buf), "patch over [limits] max_files_per_patch %zu: "
			 "findings in the first %zu files only", lim->max_files, lim->max_files);
	else if (d->nlines >= lim->max_lines)
		snprintf(buf, sizeof(buf), "patch over [limits] max_lines_per_patch %zu: "
			 "findings in the first %zu diff lines only", lim->max_lines,
			 lim->max_lines);
	else
		snprintf(buf, sizeof(buf), "patch over a diff limit (hunks or path length): "
			 "findings in the part before it only");
	return strdup(buf);
}

/*
 * The CPU half of checking a patch: the checker's result and the lines
 * the patch adds.  Touches nothing shared but read-only options, so
 * several run at once (struct pipeline_pool).
 */
static int check_compute(const struct pipeline *p, const struct mime_mail *m,
			 struct pipeline_check *pc)
{
	struct diff_limits lim;
	struct diff d;
	size_t i, j, k;
	int ret = 0;

	memset(pc, 0, sizeof(*pc));
	memset(&d, 0, sizeof(d));
	sbuf_init(&pc->text, PIPE_MAX_CHECK_TEXT);
	check_text(m, &pc->text);
	pc->done = 1;
	if (pc->text.err) {
		pc->too_large = 1;
		return 0;
	}
	test_hooks_check(p, &pc->text, pc);
	chk_run_reuse(&p->opts, "patch", pc->text.buf, pc->text.len, &pc->res);
	if ((pc->res.flags & CHK_TIMED_OUT) && !pc->unfinished[0])
		snprintf(pc->unfinished, sizeof(pc->unfinished),
			 "the check ran past its time budget ([limits] check_seconds) at line %ld",
			 pc->res.stopped_at);
	/* only findings on lines the patch adds (and on its message) */
	config_diff_limits(p->cfg, &lim);
	if (diff_parse(pc->text.buf, pc->text.len, &lim, &d) == DIFF_ERR_LIMIT &&
	    !pc->res.error)
		pc->res.error = diff_cut_reason(&d, &lim);
	if (d.nlines) {
		pc->added = calloc(d.nlines, sizeof(*pc->added));
		if (!pc->added) {
			ret = -1;
			goto out;
		}
	}
	for (i = 0; i < d.nfiles; i++) {
		const struct diff_file *df = &d.files[i];
		const char *path = diff_file_path(df);

		for (j = df->first_hunk; path && j < df->first_hunk + df->nhunks; j++) {
			const struct diff_hunk *h = &d.hunks[j];

			if (h->err != DIFF_HUNK_OK && !pc->corrupt &&
			    !(pc->corrupt = strdup(path))) {
				ret = -1;
				goto out;
			}

			for (k = h->first_line; k < h->first_line + h->nlines; k++)
				if (d.lines[k].kind == '+') {
					pc->added[pc->nadded].path_hash =
						pipe_fnv1a(PIPE_FNV_INIT, path, strlen(path));
					pc->added[pc->nadded].line = d.lines[k].new_line;
					pc->nadded++;
				}
		}
	}
	if (pc->nadded)
		qsort(pc->added, pc->nadded, sizeof(*pc->added), cmp_added);
out:
	diff_release(&d);
	return ret;
}

/* Stores the findings of the check pc (done) of patch mail m. */
static int store_findings(struct pipeline *p, int64_t series_id, int64_t patch_id,
			  int part, const struct mime_mail *m, const struct pipeline_check *pc,
			  long *counts)
{
	struct added_line key;
	struct store_finding f;
	const char *corrupt = NULL;
	char fp[17];
	int64_t fid;
	size_t i;
	int ret = STORE_OK;
	long kept = 0;

	if (pc->too_large) {
		log_event(LOG_WARN, "check-skipped", "msgid", m->message_id,
			  "reason", "patch too large", NULL);
		goto out;
	}
	if (pc->res.error)
		log_event(LOG_WARN, "check-incomplete", "msgid", m->message_id,
			  "reason", pc->res.error, NULL);
	counts[0] = pc->res.errors;
	counts[1] = pc->res.warnings;
	counts[2] = pc->res.checks;
	for (i = 0; i < pc->res.n && kept < PIPE_MAX_FINDINGS; i++) {
		const struct chk_finding *cf = &pc->res.f[i];
		const struct rule *r = &rule_table[cf->rule];

		/* a stable backport's "[ Upstream commit SHA ]" line is no
		 * commit reference to reword (bot/backport.h): never blamed,
		 * whether its review is mailed or not */
		if (cf->rule == R_GIT_COMMIT_ID && !cf->file &&
		    backport_report_on_upstream_line(cf->text))
			continue;
		/* a corrupt patch is said once, whatever its line */
		if (cf->rule == R_CORRUPTED_PATCH) {
			if (!corrupt)
				corrupt = cf->file ? cf->file : pc->corrupt ? pc->corrupt : "";
			continue;
		}
		if (cf->file && cf->line > 0) {
			key.path_hash = pipe_fnv1a(PIPE_FNV_INIT, cf->file, strlen(cf->file));
			key.line = cf->line;
			if (!pc->nadded ||
			    !bsearch(&key, pc->added, pc->nadded, sizeof(key), cmp_added))
				continue;
		}
		memset(&f, 0, sizeof(f));
		f.patch_id = patch_id;
		f.series_id = series_id;
		f.part = part;
		f.type = (char *)r->name;
		f.severity = (char *)rule_sev_name(cf->sev);
		f.category = (char *)rule_cat_name(r->cat);
		f.file = cf->file;
		f.line = cf->file ? cf->line : 0;
		f.message = cf->msg;
		f.line_text = cf->file ? report_line(cf->text) : NULL;
		compose_fingerprint(f.type, f.file, f.line_text, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
		free(f.line_text);
		if (ret < 0)
			goto out;
		kept++;
	}
	if (!corrupt)
		corrupt = pc->corrupt;
	if (corrupt) {
		/* git am and git apply refuse it: nothing else matters as much
		 * (checkpatch.pl's CORRUPTED_PATCH is on a line the patch does
		 * not add, and it misses a hunk cut short) */
		memset(&f, 0, sizeof(f));
		f.patch_id = patch_id;
		f.series_id = series_id;
		f.part = part;
		f.type = (char *)rule_table[R_CORRUPTED_PATCH].name;
		f.severity = "ERROR";
		f.category = "correctness";
		f.file = *corrupt ? (char *)corrupt : NULL;
		f.message = "the patch is corrupt: git am and git apply refuse it (a line wrapped, cut or with its white space changed by the mail program?)";
		compose_fingerprint(f.type, f.file, NULL, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
		if (ret < 0)
			goto out;
		kept++;
	}
	if (pc->res.flags & CHK_LINE_SKIPPED) {
		/* say so: a line nobody checked is not a clean line */
		char msg[200];

		snprintf(msg, sizeof(msg),
			 "%ld line%s of this patch %s too long or too complex to check (the "
			 "first is line %ld of the mail); %s not checked",
			 pc->res.lines_skipped, pc->res.lines_skipped == 1 ? "" : "s",
			 pc->res.lines_skipped == 1 ? "is" : "are", pc->res.first_skipped,
			 pc->res.lines_skipped == 1 ? "it was" : "they were");
		memset(&f, 0, sizeof(f));
		f.patch_id = patch_id;
		f.series_id = series_id;
		f.part = part;
		f.type = "LINE_NOT_CHECKED";
		f.severity = "WARNING";
		f.category = "correctness";
		f.message = msg;
		compose_fingerprint(f.type, NULL, NULL, fp, sizeof(fp));
		f.fingerprint = fp;
		ret = store_finding_add(p->st, &f, &fid);
		if (ret < 0)
			goto out;
		kept++;
	}
	p->stats.findings += kept;
out:
	return ret < 0 ? ret : STORE_OK;
}

/* RFC 3834 section 5: "no" (with optional parameters or a comment) is
 * the one value that says a person wrote the mail; "notify-me" is not it */
static int auto_submitted_no(const char *v)
{
	v += strspn(v, " \t");
	if (strncasecmp(v, "no", 2))
		return 0;
	v += 2;
	return !*v || *v == ' ' || *v == '\t' || *v == ';' || *v == '(';
}

static int is_bot_mail(const struct pipeline *p, const struct mime_mail *m,
		       const char **why)
{
	if (m->auto_submitted && !auto_submitted_no(m->auto_submitted)) {
		*why = "auto-submitted mail";
		return 1;
	}
	if (m->x_reviewbot) {
		*why = "mail from a reviewbot";
		return 1;
	}
	if (p->cfg->address && !strcasecmp(m->from.addr, p->cfg->address)) {
		*why = "mail from the bot's own address";
		return 1;
	}
	return 0;
}

/*
 * A diff in the mail's text: a "--- " line, a "+++ " line and a hunk
 * header "@@ -", one after the other at the start of their lines (a
 * quoted diff, "> --- a/foo", is not one).
 */
static int carries_diff(const char *b, size_t len)
{
	const char *end = b + len, *nl;
	int seen = 0;	/* 1: a "--- " line just before, 2: and "+++ " */

	while (b < end) {
		nl = memchr(b, '\n', (size_t)(end - b));
		if (!nl)
			nl = end;
		if ((size_t)(nl - b) >= 4 && !memcmp(b, "--- ", 4))
			seen = 1;
		else if (seen == 1 && (size_t)(nl - b) >= 4 && !memcmp(b, "+++ ", 4))
			seen = 2;
		else if (seen == 2 && (size_t)(nl - b) >= 4 && !memcmp(b, "@@ -", 4))
			return 1;
		else
			seen = 0;
		b = nl + 1;
	}
	return 0;
}

/* A git pull request ("[GIT PULL]", git request-pull's text), which
 * may carry the whole diff (request-pull -p): not a patch to review. */
static int pull_request(const struct subject *sj, const struct mime_mail *m)
{
	const char *p = sj->prefix;

	for (; (p = strcasestr(p, "PULL")); p += 4)
		if ((p == sj->prefix || p[-1] == ' ') && (!p[4] || p[4] == ' '))
			return 1;
	return m->body && strstr(m->body, "\nThe following changes since commit ") != NULL;
}

/*
 * What a mail is, from its subject, and from its text when the subject
 * names no patch: a mail that carries a diff is a patch (one of one)
 * whatever its subject says, as quilt-style patches ("Subject: net:
 * foo: bar", no [PATCH]) and Patchwork have it; a reply ("Re:") that
 * quotes or suggests a diff stays a reply, and a pull request is none.
 */
static void classify(const struct pipeline *p, const struct mime_mail *m,
		     struct subject *sj)
{
	subject_parse_max(m->subject, strlen(m->subject), p->cfg->max_series_parts, sj);
	if (sj->kind == SUBJ_OTHER && !sj->bad_numbers && m->body &&
	    carries_diff(m->body, m->body_len) && !pull_request(sj, m))
		sj->kind = SUBJ_PATCH;
}

/* A mail the checker will see: a patch not from a bot. */
static int wants_check(const struct pipeline *p, const struct mime_mail *m)
{
	struct subject sj;
	const char *why;

	if (!m->message_id || is_bot_mail(p, m, &why))
		return 0;
	classify(p, m, &sj);
	return sj.kind == SUBJ_PATCH;
}

static uint64_t part_key(const char *list, const char *addr, const char *root,
			 const struct subject *sj)
{
	int v[4] = { sj->version, sj->version_minor, sj->total, sj->part };
	uint64_t h = PIPE_FNV_INIT;

	h = pipe_fnv1a(h, list ? list : "", list ? strlen(list) + 1 : 1);
	h = pipe_fnv1a(h, addr, strlen(addr) + 1);
	h = pipe_fnv1a(h, root, strlen(root) + 1);
	h = pipe_fnv1a(h, v, sizeof(v));
	return h ? h : 1;
}

/* Adds key to p's set of parts: 1 when it was there, 0 when added or
 * when the set is full or out of memory (then nothing is guessed). */
static int parts_add(struct pipeline *p, uint64_t key)
{
	size_t h, i;

	if ((p->nparts + 1) * 2 > p->partcap) {
		size_t ncap = p->partcap ? p->partcap * 2 : 1024;
		uint64_t *n;

		if (p->nparts >= PIPE_MAX_PARTS_SEEN || !(n = calloc(ncap, sizeof(*n))))
			return 0;
		for (i = 0; i < p->partcap; i++) {
			if (!p->parts[i])
				continue;
			for (h = p->parts[i] & (ncap - 1); n[h]; h = (h + 1) & (ncap - 1))
				;
			n[h] = p->parts[i];
		}
		free(p->parts);
		p->parts = n;
		p->partcap = ncap;
	}
	for (h = key & (p->partcap - 1); p->parts[h]; h = (h + 1) & (p->partcap - 1))
		if (p->parts[h] == key)
			return 1;
	p->parts[h] = key;
	p->nparts++;
	return 0;
}

int pipeline_repeat_part(struct pipeline *p, const struct config_source *src,
			 const struct mime_mail *m)
{
	struct subject sj;

	if (!m->message_id || !m->subject || !m->from.addr)
		return 0;
	subject_parse_max(m->subject, strlen(m->subject), p->cfg->max_series_parts, &sj);
	/*
	 * Only a numbered part in a thread can repeat one (series_place):
	 * a plain [PATCH] and a part without a thread start a series of
	 * their own, or join one that lacks their number.
	 */
	if (sj.kind != SUBJ_PATCH || !sj.has_numbers || (!m->nrefs && !m->in_reply_to))
		return 0;
	return parts_add(p, part_key(src ? src->list : NULL, m->from.addr,
				     m->nrefs ? m->refs[0] : m->in_reply_to, &sj));
}

/*
 * The checker threads: workers wait for mails offered (m[0, avail)),
 * check them in order of index, and mark each ready; the calling thread
 * stores the results in order (pipeline_pool_finish), checking mails
 * itself while the next one is not ready.
 */
struct pipeline_pool {
	const struct pipeline *p;
	const struct mime_mail *m;
	struct pipeline_check *pc;
	size_t cap;
	size_t avail;		/* offered: m[0, avail) may be checked */
	size_t next;		/* the next one nobody checks yet */
	size_t busy;		/* checks under way */
	int stop;		/* the workers end */
	unsigned char *ready;	/* pc[i] may be read */
	pthread_mutex_t mu;
	pthread_cond_t work;	/* avail grew, or stop */
	pthread_cond_t done;	/* a check is done */
	pthread_t tid[PIPE_MAX_THREADS];
	int nthreads;
};

/* Checks mail i into pc[i] and says it is ready. */
static void check_one(struct pipeline_pool *pp, size_t i)
{
	if (!pp->pc[i].skip && wants_check(pp->p, &pp->m[i]) &&
	    check_compute(pp->p, &pp->m[i], &pp->pc[i]))
		pipeline_check_release(&pp->pc[i]);	/* done later, serially */
	pthread_mutex_lock(&pp->mu);
	pp->ready[i] = 1;
	pp->busy--;
	pthread_cond_broadcast(&pp->done);
	pthread_mutex_unlock(&pp->mu);
}

static void *check_worker(void *arg)
{
	struct pipeline_pool *pp = arg;
	size_t i;

	pthread_mutex_lock(&pp->mu);
	for (;;) {
		while (!pp->stop && pp->next >= pp->avail)
			pthread_cond_wait(&pp->work, &pp->mu);
		if (pp->stop)
			break;
		i = pp->next++;
		pp->busy++;
		pthread_mutex_unlock(&pp->mu);
		check_one(pp, i);
		pthread_mutex_lock(&pp->mu);
	}
	pthread_mutex_unlock(&pp->mu);
	return NULL;
}

struct pipeline_pool *pipeline_pool_new(const struct pipeline *p, const struct mime_mail *m,
					struct pipeline_check *pc, size_t cap, int threads)
{
	struct pipeline_pool *pp;
	long cores;

	if (threads <= 0) {
		cores = sysconf(_SC_NPROCESSORS_ONLN);
		threads = cores > 0 ? (int)cores : 1;
	}
	if (threads > PIPE_MAX_THREADS)
		threads = PIPE_MAX_THREADS;
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return NULL;
	pp->ready = calloc(cap ? cap : 1, 1);
	if (!pp->ready)
		goto fail;
	if (pthread_mutex_init(&pp->mu, NULL))
		goto fail;
	if (pthread_cond_init(&pp->work, NULL)) {
		pthread_mutex_destroy(&pp->mu);
		goto fail;
	}
	if (pthread_cond_init(&pp->done, NULL)) {
		pthread_cond_destroy(&pp->work);
		pthread_mutex_destroy(&pp->mu);
		goto fail;
	}
	pp->p = p;
	pp->m = m;
	pp->pc = pc;
	pp->cap = cap;
	memset(pc, 0, cap * sizeof(*pc));
	/* the calling thread is one of them (pipeline_pool_finish) */
	while (pp->nthreads < threads - 1 &&
	       !pthread_create(&pp->tid[pp->nthreads], NULL, check_worker, pp))
		pp->nthreads++;
	return pp;
fail:
	free(pp->ready);
	free(pp);
	return NULL;
}

void pipeline_pool_offer(struct pipeline_pool *pp, size_t n)
{
	if (n > pp->cap)
		n = pp->cap;
	pthread_mutex_lock(&pp->mu);
	if (n > pp->avail) {
		pp->avail = n;
		pthread_cond_broadcast(&pp->work);
	}
	pthread_mutex_unlock(&pp->mu);
}

/* No more is handed out; returns once no check is under way.  Locked. */
static void pool_quiesce(struct pipeline_pool *pp)
{
	pp->next = pp->avail;
	while (pp->busy)
		pthread_cond_wait(&pp->done, &pp->mu);
}

/* Empty again: offers start at 0.  Locked, quiet. */
static void pool_empty(struct pipeline_pool *pp)
{
	memset(pp->ready, 0, pp->avail);
	pp->avail = pp->next = 0;
}

int pipeline_pool_finish(struct pipeline_pool *pp, size_t n,
			 int (*done)(void *arg, size_t i), void *arg)
{
	size_t k = 0, i;
	int stopped = 0;

	pipeline_pool_offer(pp, n);
	pthread_mutex_lock(&pp->mu);
	n = pp->avail;
	while (k < n) {
		if (pp->ready[k]) {
			pthread_mutex_unlock(&pp->mu);
			stopped = done(arg, k++);
			pthread_mutex_lock(&pp->mu);
			if (stopped)
				break;
			continue;
		}
		if (pp->next < n) {
			i = pp->next++;
			pp->busy++;
			pthread_mutex_unlock(&pp->mu);
			check_one(pp, i);
			pthread_mutex_lock(&pp->mu);
			continue;
		}
		while (!pp->ready[k])
			pthread_cond_wait(&pp->done, &pp->mu);
	}
	pool_quiesce(pp);
	pool_empty(pp);
	pthread_mutex_unlock(&pp->mu);
	return stopped;
}

void pipeline_pool_drain(struct pipeline_pool *pp)
{
	if (!pp)
		return;
	pthread_mutex_lock(&pp->mu);
	pool_quiesce(pp);
	pool_empty(pp);
	pthread_mutex_unlock(&pp->mu);
}

void pipeline_pool_free(struct pipeline_pool *pp)
{
	int i;

	if (!pp)
		return;
	pthread_mutex_lock(&pp->mu);
	pool_quiesce(pp);
	pp->stop = 1;
	pthread_cond_broadcast(&pp->work);
	pthread_mutex_unlock(&pp->mu);
	for (i = 0; i < pp->nthreads; i++)
		pthread_join(pp->tid[i], NULL);
	pthread_cond_destroy(&pp->done);
	pthread_cond_destroy(&pp->work);
	pthread_mutex_destroy(&pp->mu);
	free(pp->ready);
	free(pp);
}

/* ---- processing one message ------------------------------------------------ */


int pipeline_process(struct pipeline *p, int64_t id, const struct mime_mail *given,
		     struct pipeline_check *pc, int64_t now)
{
	struct store_msg row;
	struct mime_mail own;
	struct pipeline_check own_pc;
	const struct mime_mail *m = given;
	struct subject sj;
	char reason[224];
	const char *why;
	void *raw = NULL;
	size_t rawlen = 0;
	int64_t series_id, patch_id;
	long counts[3] = { 0, 0, 0 };
	int ret, mret;

	memset(&row, 0, sizeof(row));
	memset(&own, 0, sizeof(own));
	memset(&own_pc, 0, sizeof(own_pc));
	ret = store_msg_get(p->st, id, &row);
	if (ret != STORE_OK)
		return ret < 0 ? ret : STORE_ERR;
	/* another process on the database did it meanwhile (the caller's
	 * transaction holds the write lock from here on) */
	if (row.state != MSG_NEW) {
		store_msg_release(&row);
		return STORE_OK;
	}
	if (!m) {
		ret = store_msg_raw(p->st, id, &raw, &rawlen);
		if (ret != STORE_OK)
			goto out;
		mret = parse_configured(p, raw, rawlen, &own, reason, sizeof(reason));
		if (mret != MIME_OK) {
			ret = store_msg_set_state(p->st, id, MSG_BAD, reason);
			p->stats.bad++;
			log_event(LOG_WARN, "bad-message", "msgid", row.message_id,
				  "reason", reason, NULL);
			goto out;
		}
		m = &own;
	}
	if (is_bot_mail(p, m, &why)) {
		ret = store_msg_set_state(p->st, id, MSG_SKIPPED, why);
		p->stats.skipped++;
		goto out;
	}
	/* commands to the bot (optout, mute, ...) before the subject says
	 * "reply" or "not a patch"; one dated outside the accepted window
	 * (older than [policy] max_age included) is refused there, never
	 * carried out unanswered */
	ret = command_process(p, id, m, &row, now);
	if (ret) {
		if (ret > 0)
			ret = STORE_OK;
		goto out;
	}
	classify(p, m, &sj);
	if (sj.kind == SUBJ_REPLY) {
		ret = store_msg_set_state(p->st, id, MSG_REPLY, NULL);
		p->stats.replies++;
		goto out;
	}
	if (sj.kind == SUBJ_OTHER) {
		ret = store_msg_set_state(p->st, id, MSG_SKIPPED,
					  sj.bad_numbers ? "subject's part numbers out of range"
							 : "not a patch");
		p->stats.skipped++;
		goto out;
	}
	/* a review goes to the author: From: must hold one usable address
	 * (no group, no second address, no address-less name) */
	if (!compose_address_ok(m->from.addr)) {
		ret = store_msg_set_state(p->st, id, MSG_SKIPPED, "no usable sender address");
		p->stats.skipped++;
		goto out;
	}
	ret = series_place(p->st, id, m, &sj, row.list, now, &series_id, &patch_id);
	if (ret == STORE_DUP) {
		snprintf(reason, sizeof(reason), "part %d of the series came before", sj.part);
		ret = store_msg_set_state(p->st, id, MSG_SKIPPED, reason);
		p->stats.skipped++;
		goto out;
	}
	if (ret < 0)
		goto out;
	if (sj.kind != SUBJ_COVER) {
		/* the check, unless it was done ahead */
		if (!pc || !pc->done) {
			pc = &own_pc;
			if (check_compute(p, m, pc)) {
				ret = STORE_ERR_NOMEM;
				goto out;
			}
		}
		/* a check that did not finish says nothing: the series is
		 * reviewed without this part, the message is bad */
		if (pc->unfinished[0]) {
			snprintf(reason, sizeof(reason), "check did not finish: %s",
				 pc->unfinished);
			ret = store_patch_remove(p->st, patch_id);
			if (ret < 0)
				goto out;
			ret = store_msg_set_state(p->st, id, MSG_BAD, reason);
			p->stats.bad++;
			log_event(LOG_WARN, "message-bad", "msgid", m->message_id,
				  "reason", reason, NULL);
			goto out;
		}
	}
	ret = store_msg_set_series(p->st, id, series_id);
	if (ret < 0)
		goto out;
	if (sj.kind == SUBJ_COVER) {
		ret = store_msg_set_state(p->st, id, MSG_COVER, NULL);
		p->stats.covers++;
		goto out;
	}
	ret = store_findings(p, series_id, patch_id, sj.part, m, pc, counts);
	if (ret < 0)
		goto out;
	ret = store_patch_set_checked(p->st, patch_id, counts[0], counts[1], counts[2]);
	if (ret < 0)
		goto out;
	ret = store_msg_set_state(p->st, id, MSG_PATCH, NULL);
	p->stats.patches++;
	log_event(LOG_DEBUG, "patch", "msgid", m->message_id, NULL);
out:
	if (m == &own)
		mime_release(&own);
	pipeline_check_release(&own_pc);
	free(raw);
	store_msg_release(&row);
	return ret;
}

struct pending {
	struct pipeline *p;
	int64_t now;
	int ok;			/* messages processed in this walk */
	int64_t failed[PIPE_FAIL_SLOTS];
	size_t nfailed;
};

/*
 * The environment, not the message: the walk ends and waits.  SQLite
 * reports a write past RLIMIT_FSIZE or a failing disk as SQLITE_IOERR
 * (STORE_ERR), known by its message only: never a reason to mark a
 * message bad.
 */
static int store_down(int ret, const char *why)
{
	return ret == STORE_ERR_BUSY || ret == STORE_ERR_FULL || ret == STORE_ERR_NOMEM ||
	       strstr(why, "disk") || strstr(why, "I/O") || strstr(why, "locked");
}

/*
 * The check of message id (stored as raw[0, len)) once more, in a child
 * process, so that a check that kills its process kills only the child:
 * 1 when it did not finish there (a signal, an exit status other than 0,
 * or PIPE_ISOLATED_TIMEOUT: SIGALRM), with why; 0 when it finished; -1
 * when it could not be tried (no fork) or a stop cut it short.  The
 * child parses the mail too (a parser can crash as well), touches
 * nothing of the store, and ends with _exit().  No other thread runs
 * here: the pending walk comes before any batch and its checker threads.
 */
static int check_isolated(struct pipeline *p, const void *raw, size_t len,
			  char *why, size_t whylen)
{
	struct pipeline_check pc;
	struct mime_mail m;
	char reason[128];
	int status, fd;
	pid_t pid, r;

	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		/* the OOM killer's first choice, where the kernel lets us say so */
		fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "1000", 4) < 0) {
				/* not ours to change: no matter */
			}
			close(fd);
		}
		alarm(PIPE_ISOLATED_TIMEOUT);
		memset(&m, 0, sizeof(m));
		if (parse_configured(p, raw, len, &m, reason, sizeof(reason)) == MIME_OK) {
			if (wants_check(p, &m) && !check_compute(p, &m, &pc))
				pipeline_check_release(&pc);
			mime_release(&m);
		}
		_exit(0);
	}
	for (;;) {
		r = waitpid(pid, &status, 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, whylen, "waitpid: %s", strerror(errno));
			kill(pid, SIGKILL);
			return -1;
		}
		if (pipeline_stopping(p)) {
			/* SIGTERM: the message waits for the next start */
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			snprintf(why, whylen, "stopped");
			return -1;
		}
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(why, whylen, "timed out after %d s", PIPE_ISOLATED_TIMEOUT);
	else if (WIFSIGNALED(status))
		snprintf(why, whylen, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "exit status %d", WEXITSTATUS(status));
	return 1;
}

/*
 * Before message id is processed by the pending walk: 1 to go on (an
 * attempt charged and committed, or already this process's), 0 to leave
 * it (processed or held by another live process meanwhile, or marked
 * bad now), or a negative store error.
 *
 * A message that holds a charged attempt of a process that is gone is
 * a suspect: that process may have died in its check (or merely been
 * killed while it held it: nothing tells the two apart).  So its check
 * is tried once more in a child process (check_isolated): when that
 * does not finish either, the message is bad ("check did not finish
 * after N attempts") and never checked again; when it finishes, the
 * message is processed as any other.  A killed daemon thus never
 * blames a message that was merely in hand, and a message that crashes
 * the checker costs one crashing start.
 */
static int charge_attempt(struct pipeline *p, int64_t id, int64_t now)
{
	struct store_msg row;
	char sid[24], reason[96], why[128];
	void *raw = NULL;
	size_t len = 0;
	int ret, suspect;

	ret = store_msg_get(p->st, id, &row);
	if (ret != STORE_OK)
		return ret < 0 ? ret : 0;
	if (row.state != MSG_NEW || (row.claim && !strcmp(row.claim, p->claim))) {
		/* done, or an attempt of ours that ended without a crash
		 * (we are here) and was not given back: not charged again */
		ret = row.state == MSG_NEW;
		goto out;
	}
	if (claim_holds(row.claim, row.claimed_at, now)) {
		ret = 0;	/* in hand elsewhere */
		goto out;
	}
	suspect = row.attempts > 0;
	/* one statement, committed on its own: on disk before the check */
	ret = store_msg_claim(p->st, id, p->claim, row.claim, now);
	if (ret != STORE_OK) {
		if (ret == STORE_DONE)
			ret = 0;	/* another process took it first */
		goto out;
	}
	ret = 1;
	if (!suspect)
		goto out;
	if (store_msg_raw(p->st, id, &raw, &len) != STORE_OK)
		goto out;	/* pipeline_process says why */
	why[0] = '\0';
	snprintf(sid, sizeof(sid), "%d", row.attempts);
	log_event(LOG_INFO, "recheck", "msgid", row.message_id, "attempts", sid,
		  "reason", "charged by a process that is gone", NULL);
	if (check_isolated(p, raw, len, why, sizeof(why)) <= 0) {
		if (why[0])
			log_event(LOG_WARN, "recheck-failed", "msgid", row.message_id,
				  "error", why, NULL);
		ret = pipeline_stopping(p) ? 0 : 1;
		goto out;
	}
	snprintf(reason, sizeof(reason), "check did not finish after %d attempts",
		 row.attempts + 1);
	ret = store_begin(p->st);
	if (ret)
		goto out;
	ret = store_msg_set_state(p->st, id, MSG_BAD, reason);
	ret = ret < 0 ? ret : store_commit(p->st);
	if (ret < 0) {
		store_rollback(p->st);
		goto out;
	}
	snprintf(sid, sizeof(sid), "%lld", (long long)id);
	log_event(LOG_ERR, "message-bad", "id", sid, "msgid", row.message_id,
		  "reason", reason, "last", why, NULL);
	p->stats.bad++;
	ret = 0;
out:
	free(raw);
	store_msg_release(&row);
	return ret;
}

static int process_one(void *arg, int64_t id)
{
	struct pending *pd = arg;
	struct pipeline *p = pd->p;
	struct pipeline_stats saved;
	char sid[24], why[256];
	int ret;

	if (pipeline_stopping(p))
		return 1;
	ret = charge_attempt(p, id, pd->now);
	if (ret <= 0) {
		if (ret < 0 && store_down(ret, store_errmsg(p->st)))
			return ret;
		return 0;
	}
	ret = store_begin(p->st);
	if (ret)
		return ret;
	saved = p->stats;
	ret = pipeline_process(p, id, NULL, NULL, pd->now);
	if (ret >= 0) {
		ret = store_commit(p->st);
		if (ret >= 0) {
			pd->ok++;
			return 0;
		}
	}
	/* the reason, before the rollback clears it */
	snprintf(why, sizeof(why), "%s", store_errmsg(p->st));
	store_rollback(p->st);
	p->stats = saved;
	if (store_down(ret, why))
		return ret;
	snprintf(sid, sizeof(sid), "%lld", (long long)id);
	log_event(LOG_WARN, "process-failed", "id", sid, "error", why, NULL);
	if (pd->nfailed < PIPE_FAIL_SLOTS)
		pd->failed[pd->nfailed++] = id;
	return 0;
}

/* One more strike for each message that failed in a walk where others
 * went through; the third makes it bad. */
static int count_failures(struct pending *pd)
{
	struct pipeline *p = pd->p;
	struct pipe_fail *slot, *free_slot;
	char sid[24], reason[64];
	size_t i, j;
	int ret = 0;

	for (i = 0; i < pd->nfailed && pd->ok; i++) {
		slot = free_slot = NULL;
		for (j = 0; j < PIPE_FAIL_SLOTS && !slot; j++) {
			if (p->fails[j].id == pd->failed[i])
				slot = &p->fails[j];
			else if (!p->fails[j].id && !free_slot)
				free_slot = &p->fails[j];
		}
		if (!slot)
			slot = free_slot ? free_slot : &p->fails[pd->failed[i] % PIPE_FAIL_SLOTS];
		if (slot->id != pd->failed[i]) {
			slot->id = pd->failed[i];
			slot->n = 0;
		}
		if (++slot->n < PIPE_MAX_PROCESS_FAILS)
			continue;
		snprintf(reason, sizeof(reason), "processing failed %d times", slot->n);
		snprintf(sid, sizeof(sid), "%lld", (long long)slot->id);
		ret = store_msg_set_state(p->st, slot->id, MSG_BAD, reason);
		if (ret < 0)
			break;
		log_event(LOG_ERR, "message-bad", "id", sid, "reason", reason, NULL);
		p->stats.bad++;
		slot->id = 0;
		slot->n = 0;
	}
	return ret;
}

int pipeline_process_pending(struct pipeline *p, int64_t now)
{
	struct pending pd;
	int ret, ret2;

	memset(&pd, 0, sizeof(pd));
	pd.p = p;
	pd.now = now;
	ret = store_msg_each_new(p->st, process_one, &pd);
	ret2 = count_failures(&pd);
	pipeline_unclaim(p);
	if (ret > 0)
		ret = 0;
	return ret < 0 ? ret : ret2;
}

int pipeline_unclaim(struct pipeline *p)
{
	long long n = 0;
	char nb[24];
	int ret;

	ret = store_msg_unclaim(p->st, p->claim, &n);
	if (ret < 0) {
		/* the attempts stay charged: each counts once more against
		 * its message at the next start */
		log_event(LOG_WARN, "unclaim-failed", "error", store_errmsg(p->st), NULL);
		return ret;
	}
	if (n) {
		snprintf(nb, sizeof(nb), "%lld", n);
		log_event(LOG_DEBUG, "unclaimed", "messages", nb, NULL);
	}
	return 0;
}
