// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compile stage's trees (issue 34 item 1): the one repository, the
 * fetches, [build] tree's import, a worker slot's git dir and work tree,
 * git am.  See build_int.h for the folders and build.h for the base.
 *
 * A fetch runs in a sandbox that sees the repository and, for a file://
 * tree, that folder: no work tree, no mail, no object folder; its
 * arguments are the configuration's (url, branch) only.  Everything a
 * series brings reaches git in other sandboxes, without the network.
 */
#include "build_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot.h"
#include "../log.h"
#include "../../checker/diff.h"
#include "../../checker/banned.h"

#define TREE_FIRST_FETCH_S	7200	/* seconds for a clone */
#define TREE_FETCH_S		900	/* for a fetch after it */
#define TREE_IMPORT_S		7200	/* for [build] tree's import */
#define TREE_FORCE_MIN_S	600	/* a fetch for a base-commit: at most this often */
#define TREE_STATE_MAX		512

/* when this process last fetched a tree for a base-commit it lacked */
static struct {
	char name[64];
	time_t at;
} forced[CONFIG_MAX_TREES];

static int is_hex(const char *s, size_t min, size_t max)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n >= min && n <= max;
}

/* The first 40-hex word of out, into id[41]: 0 or -1. */
static int first_id(const struct sbuf *out, char *id)
{
	size_t i = 0;

	while (i < out->len && (out->buf[i] == ' ' || out->buf[i] == '\n'))
		i++;
	if (out->len - i < 40)
		return -1;
	memcpy(id, out->buf + i, 40);
	id[40] = '\0';
	return is_hex(id, 40, 40) ? 0 : -1;
}

/* ---- the trees' state (WORK/trees/NAME: written here only) --------------- */

static void state_path(const struct bctx *c, const char *name, char *out, size_t n)
{
	snprintf(out, n, "%s/trees/%s", c->work, name);
}

static void state_read(const struct bctx *c, struct btree *t, char *extra, size_t extralen)
{
	char path[BUILD_PATH_MAX + 128], buf[TREE_STATE_MAX];
	char *line, *p = buf;
	size_t n;
	FILE *f;

	t->tip[0] = '\0';
	t->fetched = t->tip_time = 0;
	if (extra)
		extra[0] = '\0';
	state_path(c, t->name, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while ((line = strsep(&p, "\n"))) {
		if (!strncmp(line, "tip=", 4) && is_hex(line + 4, 40, 40))
			snprintf(t->tip, sizeof(t->tip), "%s", line + 4);
		else if (!strncmp(line, "time=", 5))
			t->tip_time = strtoll(line + 5, NULL, 10);
		else if (!strncmp(line, "fetched=", 8))
			t->fetched = strtoll(line + 8, NULL, 10);
		else if (!strncmp(line, "source=", 7) && extra)
			snprintf(extra, extralen, "%s", line + 7);
	}
}

static int state_write(const struct bctx *c, const struct btree *t, const char *source)
{
	char path[BUILD_PATH_MAX + 128], tmp[BUILD_PATH_MAX + 160];
	FILE *f;
	int ok;

	state_path(c, t->name, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	ok = fprintf(f, "tip=%s\ntime=%lld\nfetched=%lld\nsource=%s\n", t->tip, t->tip_time,
		     t->fetched, source ? source : "") > 0;
	if (fclose(f) || !ok || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The tip of refs/trees/NAME and its committer time. */
static int read_tip(struct bctx *c, struct btree *t)
{
	char ref[128];
	const char *args[] = { "log", "-1", "--format=%H %ct", ref, "--", NULL };
	struct sbuf out;
	int ret = -1;

	snprintf(ref, sizeof(ref), "refs/trees/%s", t->name);
	sbuf_init(&out, 4096);
	if (build_git(c, 1, SEE_REPO, &out, args) == RUN_OK && !first_id(&out, t->tip)) {
		t->tip_time = strtoll(out.buf + 41, NULL, 10);
		ret = 0;
	}
	sbuf_release(&out);
	return ret;
}

/* ---- locking the repository -------------------------------------------- */

static int lock_repo(const struct bctx *c, double until)
{
	char path[BUILD_PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/repo.lock", c->work);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || sandbox_now() > until ||
		    (build_stop_flag && *build_stop_flag)) {
			close(fd);
			return -1;
		}
		usleep(200 * 1000);
	}
	return fd;
}

/* ---- the repository and its trees ---------------------------------------- */

static int repo_ready(struct bctx *c, char *err, size_t errlen)
{
	char head[BUILD_PATH_MAX + 32], dir[BUILD_PATH_MAX + 16];
	const char *const init[] = { "git", "init", "-q", "--bare", BUILD_IN_REPO, NULL };
	struct sbuf out;
	enum run_result r;

	snprintf(dir, sizeof(dir), "%s/trees", c->work);
	if (sandbox_mkdir_p(dir)) {
		snprintf(err, errlen, "cannot make %.300s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(head, sizeof(head), "%s/HEAD", c->repo);
	if (!access(head, F_OK))
		return 0;
	if (sandbox_mkdir_owned(c->repo)) {
		snprintf(err, errlen, "cannot make %.300s: %s", c->repo, strerror(errno));
		return -1;
	}
	sbuf_init(&out, 1u << 16);
	r = build_run(c, SEE_REPO_RW, init, "/", &out);
	if (r) {
		char tail[160];

		build_tail(&out, tail, sizeof(tail));
		log_event(LOG_ERR, "tree-repo-failed", "output", tail, NULL);
		sbuf_release(&out);
		snprintf(err, errlen, "git init of the repository failed");
		return -1;
	}
	sbuf_release(&out);
	return 0;
}

/* The kernel release of a tree's Makefile ("6.1.192"), or "". */
static void tree_release(const char *dir, char *out, size_t n)
{
	char path[BUILD_PATH_MAX + 16], line[256];
	long v[3] = { -1, -1, -1 };
	FILE *f;
	int i;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	for (i = 0; i < 20 && fgets(line, sizeof(line), f); i++) {
		if (!strncmp(line, "VERSION = ", 10))
			v[0] = strtol(line + 10, NULL, 10);
		else if (!strncmp(line, "PATCHLEVEL = ", 13))
			v[1] = strtol(line + 13, NULL, 10);
		else if (!strncmp(line, "SUBLEVEL = ", 11))
			v[2] = strtol(line + 11, NULL, 10);
	}
	fclose(f);
	if (v[0] >= 0 && v[0] < 100 && v[1] >= 0 && v[1] < 1000 && v[2] >= 0 && v[2] < 10000)
		snprintf(out, n, "%ld.%ld.%ld", v[0], v[1], v[2]);
}

void tree_release_of(const struct bctx *c, char *out, size_t n)
{
	tree_release(c->tree, out, n);
}

/*
 * [build] tree, a plain folder, as a commit of the repository: every file
 * added (with -f: Debian's tree ignores everything) through an index of
 * its own, written as a tree and a commit, refs/trees/tree set.  The
 * folder is only read.
 */
static int import_local(struct bctx *c, struct btree *t, char *err, size_t errlen)
{
	char release[32], want[BUILD_PATH_MAX + 64], have[BUILD_PATH_MAX + 64];
	char treeid[41], commit[41], msg[128];
	struct sbuf out;
	double saved = c->deadline;
	int ret = -1;

	tree_release(c->tree, release, sizeof(release));
	if (!release[0]) {
		snprintf(err, errlen, "no kernel tree at %.300s", c->tree);
		return -1;
	}
	snprintf(want, sizeof(want), "%s %s", c->tree, release);
	state_read(c, t, have, sizeof(have));
	if (t->tip[0] && !strcmp(have, want))
		return 0;
	sbuf_init(&out, BUILD_MAX_OUTPUT);
	c->deadline = sandbox_now() + TREE_IMPORT_S;
	{
		const char *add[] = { "--work-tree=" BUILD_IN_TREE, "add", "-f", "-A", ".", NULL };
		const char *wt[] = { "write-tree", NULL };
		char index[BUILD_PATH_MAX + 32];

		snprintf(index, sizeof(index), "%s/import.index", c->repo);
		unlink(index);
		if (build_git(c, 1, SEE_REPO_RW | SEE_TREE, &out, add)) {
			build_tail(&out, msg, sizeof(msg));
			log_event(LOG_ERR, "tree-import-failed", "tree", c->tree, "output", msg, NULL);
			snprintf(err, errlen, "the [build] tree could not be imported (git add)");
			goto out;
		}
		sbuf_reset(&out);
		if (build_git(c, 1, SEE_REPO_RW, &out, wt) || first_id(&out, treeid)) {
			snprintf(err, errlen, "the [build] tree could not be imported (write-tree)");
			goto out;
		}
		unlink(index);
	}
	snprintf(msg, sizeof(msg), "Linux %s ([build] tree as it was found)", release);
	{
		const char *ct[] = { "commit-tree", treeid, "-m", msg, NULL };

		sbuf_reset(&out);
		if (build_git(c, 1, SEE_REPO_RW, &out, ct) || first_id(&out, commit)) {
			snprintf(err, errlen, "the [build] tree could not be imported (commit-tree)");
			goto out;
		}
	}
	{
		const char *ur[] = { "update-ref", "refs/trees/" BUILD_TREE_LOCAL, commit, NULL };

		sbuf_reset(&out);
		if (build_git(c, 1, SEE_REPO_RW, &out, ur)) {
			snprintf(err, errlen, "the [build] tree could not be imported (update-ref)");
			goto out;
		}
	}
	if (read_tip(c, t)) {
		snprintf(err, errlen, "the [build] tree's commit cannot be read");
		goto out;
	}
	t->fetched = (long long)time(NULL);
	if (state_write(c, t, want)) {
		snprintf(err, errlen, "cannot write the state of the [build] tree");
		goto out;
	}
	log_event(LOG_INFO, "tree-imported", "tree", c->tree, "commit", t->tip, NULL);
	ret = 0;
out:
	c->deadline = saved;
	sbuf_release(&out);
	return ret;
}

/* May this process fetch tree t again for a base-commit it lacks? */
static int force_allowed(const struct btree *t, time_t now)
{
	size_t i, free_slot = CONFIG_MAX_TREES;
	long min = TREE_FORCE_MIN_S;

	if (t->ct && t->ct->fetch_interval < min)
		min = t->ct->fetch_interval;
	for (i = 0; i < CONFIG_MAX_TREES; i++) {
		if (!strcmp(forced[i].name, t->name)) {
			if (now - forced[i].at < min)
				return 0;
			forced[i].at = now;
			return 1;
		}
		if (!forced[i].name[0] && free_slot == CONFIG_MAX_TREES)
			free_slot = i;
	}
	if (free_slot < CONFIG_MAX_TREES) {
		snprintf(forced[free_slot].name, sizeof(forced[free_slot].name), "%s", t->name);
		forced[free_slot].at = now;
	}
	return 1;
}

/* One tree fetched into refs/trees/NAME. */
static int fetch_one(struct bctx *c, struct btree *t)
{
	char url[BUILD_PATH_MAX + 32], refspec[512], msg[160];
	const char *u = t->url;
	unsigned see = SEE_REPO_RW;
	struct sbuf out;
	double saved = c->deadline, t0 = sandbox_now();
	enum run_result r;
	int ret = -1;

	if (!strncasecmp(u, "file://", 7)) {
		/* the folder is shown read-only at a fixed place, no network */
		c->from = u + 7;
		see |= SEE_FROM;
		snprintf(url, sizeof(url), "file://" BUILD_IN_FROM);
	} else {
		see |= SEE_NET;
		snprintf(url, sizeof(url), "%s", u);
	}
	snprintf(refspec, sizeof(refspec), "+refs/heads/%s:refs/trees/%s", t->branch, t->name);
	{
		const char *args[] = {
			"-c", "protocol.allow=never", "-c", "protocol.file.allow=always",
			"-c", "protocol.git.allow=always", "-c", "protocol.https.allow=always",
			"-c", "protocol.http.allow=always", "-c", "credential.helper=",
			"-c", "fetch.recurseSubmodules=false",
			"fetch", "--no-tags", "--no-write-fetch-head", "-q", "--", url, refspec,
			NULL,
		};

		sbuf_init(&out, 1u << 20);
		c->deadline = sandbox_now() + (t->tip[0] ? TREE_FETCH_S : TREE_FIRST_FETCH_S);
		r = build_git(c, 1, see, &out, args);
	}
	c->deadline = saved;
	c->from = NULL;
	if (r) {
		build_tail(&out, msg, sizeof(msg));
		log_event(LOG_ERR, "tree-fetch-failed", "tree", t->name, "branch", t->branch,
			  "output", msg, NULL);
		goto out;
	}
	if (read_tip(c, t)) {
		log_event(LOG_ERR, "tree-fetch-failed", "tree", t->name, "error",
			  "no commit at the fetched branch", NULL);
		goto out;
	}
	t->fetched = (long long)time(NULL);
	state_write(c, t, NULL);
	snprintf(msg, sizeof(msg), "%.1fs", sandbox_now() - t0);
	log_event(LOG_INFO, "tree-fetched", "tree", t->name, "branch", t->branch,
		  "commit", t->tip, "took", msg, NULL);
	ret = 0;
out:
	sbuf_release(&out);
	return ret;
}

int tree_sync(struct bctx *c, int force, char *err, size_t errlen)
{
	time_t now = time(NULL);
	size_t i;
	int fd, ret = 0;

	c->ntrees = 0;
	if (c->tree[0]) {
		struct btree *t = &c->trees[c->ntrees++];

		memset(t, 0, sizeof(*t));
		t->name = BUILD_TREE_LOCAL;
	}
	for (i = 0; i < c->cfg->ntrees; i++) {
		struct btree *t = &c->trees[c->ntrees++];

		memset(t, 0, sizeof(*t));
		t->name = c->cfg->trees[i].name;
		t->branch = c->cfg->trees[i].branch;
		t->url = c->cfg->trees[i].url;
		t->ct = &c->cfg->trees[i];
	}
	if (repo_ready(c, err, errlen))
		return -1;
	fd = lock_repo(c, sandbox_now() + TREE_FIRST_FETCH_S);
	if (fd < 0) {
		snprintf(err, errlen, "another process held the repository too long");
		return -1;
	}
	for (i = 0; i < c->ntrees; i++) {
		struct btree *t = &c->trees[i];

		if (!t->ct) {
			if (import_local(c, t, err, errlen))
				ret = -1;
			continue;
		}
		state_read(c, t, NULL, 0);
		if (!t->tip[0] || now - t->fetched >= t->ct->fetch_interval ||
		    (force && force_allowed(t, now)))
			fetch_one(c, t);
	}
	close(fd);
	return ret;
}

int tree_resolve(struct bctx *c, const char *hex, char *out)
{
	char spec[64];
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	struct sbuf o;
	int ret;

	if (!is_hex(hex, 7, 40))
		return -1;
	snprintf(spec, sizeof(spec), "%s^{commit}", hex);
	sbuf_init(&o, 4096);
	ret = build_git(c, 1, SEE_REPO, &o, args) == RUN_OK && !first_id(&o, out) ? 0 : -1;
	sbuf_release(&o);
	return ret;
}

int tree_holding(struct bctx *c, const char *commit)
{
	const char *args[] = { "for-each-ref", "--format=%(refname)", "--contains", commit,
			       "refs/trees/", NULL };
	struct sbuf o;
	size_t i;
	int found = -1;

	if (!is_hex(commit, 40, 40))
		return -1;
	sbuf_init(&o, 1u << 16);
	if (build_git(c, 1, SEE_REPO, &o, args) == RUN_OK && o.len) {
		/* in the configuration's order: the first tree that has it */
		for (i = 0; i < c->ntrees && found < 0; i++) {
			char ref[128];

			snprintf(ref, sizeof(ref), "refs/trees/%s\n", c->trees[i].name);
			if (c->trees[i].tip[0] && memmem(o.buf, o.len, ref, strlen(ref)))
				found = (int)i;
		}
	}
	sbuf_release(&o);
	return found;
}

/* ---- a worker slot ---------------------------------------------------------- */

int tree_slot_ready(struct bctx *c, char *err, size_t errlen)
{
	char path[BUILD_PATH_MAX + 64];
	const char *const init[] = { "git", "init", "-q", "--bare", BUILD_IN_GIT, NULL };
	static const char alt[] = BUILD_IN_REPO "/objects\n";
	char *have = NULL;
	size_t n = 0;

	if (sandbox_mkdir_owned(c->slotdir) || sandbox_mkdir_owned(c->src)) {
		snprintf(err, errlen, "cannot make the worker's folders in %.300s", c->slotdir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/HEAD", c->git);
	if (access(path, F_OK)) {
		struct sbuf out;
		enum run_result r;

		if (sandbox_rmtree(c->git) || sandbox_mkdir_owned(c->git)) {
			snprintf(err, errlen, "cannot make %.300s", c->git);
			return -1;
		}
		sbuf_init(&out, 1u << 16);
		r = build_run(c, SEE_GIT, init, "/", &out);
		if (r) {
			char tail[160];

			build_tail(&out, tail, sizeof(tail));
			log_event(LOG_ERR, "tree-slot-failed", "output", tail, NULL);
			sbuf_release(&out);
			snprintf(err, errlen, "git init of the worker's git dir failed");
			return -1;
		}
		sbuf_release(&out);
	}
	/* the repository's objects, borrowed (read-only in every sandbox) */
	snprintf(path, sizeof(path), "%s/objects/info/alternates", c->git);
	if (sandbox_read_file(path, 4096, 0, &have, &n) || n != strlen(alt) ||
	    memcmp(have, alt, n)) {
		char dir[BUILD_PATH_MAX + 64];

		snprintf(dir, sizeof(dir), "%s/objects/info", c->git);
		unlink(path);
		if (sandbox_mkdir_owned(dir) || sandbox_write_new(path, alt, strlen(alt), 0644)) {
			free(have);
			snprintf(err, errlen, "cannot write %.300s", path);
			return -1;
		}
	}
	free(have);
	return 0;
}

int tree_checkout(struct bctx *c, const char *commit)
{
	char path[BUILD_PATH_MAX + 64];
	const char *co[] = { "checkout", "-q", "-f", "--detach", commit, NULL };
	const char *clean[] = { "clean", "-q", "-ffdx", NULL };
	struct sbuf out;
	int ret = -1;

	if (!is_hex(commit, 40, 40))
		return -1;
	/* what a killed git or git am left: we hold the slot's lock */
	snprintf(path, sizeof(path), "%s/index.lock", c->git);
	unlink(path);
	snprintf(path, sizeof(path), "%s/rebase-apply", c->git);
	if (sandbox_rmtree(path))
		return -1;
	sbuf_init(&out, 1u << 20);
	if (build_git(c, 0, SEE_GIT | SEE_SRC_RW, &out, co) == RUN_OK) {
		sbuf_reset(&out);
		if (build_git(c, 0, SEE_GIT | SEE_SRC_RW, &out, clean) == RUN_OK)
			ret = 0;
	}
	sbuf_release(&out);
	return ret;
}

/* ---- git am ------------------------------------------------------------------- */

/* The text after prefix up to end (a line of out), trimmed, into buf. */
static int after(const char *line, size_t n, const char *prefix, char *buf, size_t buflen)
{
	size_t pl = strlen(prefix);

	if (n <= pl || memcmp(line, prefix, pl))
		return 0;
	line += pl;
	n -= pl;
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '.'))
		n--;
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return 1;
}

/* A file named by git am's words, kept only when the part's diff has it
 * (never a word of the mail that is not a path of the patch). */
static void keep_file(struct am_failure *f, const char *name, const struct diff *d)
{
	size_t i;

	for (i = 0; d && i < d->nfiles; i++) {
		const char *p = diff_file_path(&d->files[i]);

		if (p && !strcmp(p, name) && boot_tree_path_ok(p)) {
			snprintf(f->file, sizeof(f->file), "%s", p);
			return;
		}
	}
}

static void find_hunk(struct am_failure *f, const struct diff *d)
{
	size_t i, h;

	for (i = 0; d && f->file[0] && i < d->nfiles; i++) {
		const struct diff_file *df = &d->files[i];
		const char *p = diff_file_path(df);

		if (!p || strcmp(p, f->file))
			continue;
		for (h = 0; h < df->nhunks; h++)
			if (d->hunks[df->first_hunk + h].old_start == f->line ||
			    (f->line == 0 && h == 0)) {
				f->hunk = (int)h + 1;
				if (!f->line)
					f->line = d->hunks[df->first_hunk + h].old_start;
				return;
			}
	}
}

static void parse_failure(const struct sbuf *out, const struct build_patch *p, size_t n,
			  struct am_failure *f)
{
	const char *s = out->buf, *end = out->buf + out->len;
	char name[256];
	struct diff d;
	long idx = 0;

	memset(f, 0, sizeof(*f));
	memset(&d, 0, sizeof(d));
	/* which mail: "Patch failed at 0002 ..." */
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = (size_t)((nl ? nl : end) - s);

		if (len > 16 && !memcmp(s, "Patch failed at ", 16))
			idx = strtol(s + 16, NULL, 10);
		s = nl ? nl + 1 : end;
	}
	if (idx >= 1 && (size_t)idx <= n) {
		f->part = p[idx - 1].part;
		if (diff_parse(p[idx - 1].text, p[idx - 1].len, NULL, &d) < 0 && !d.nfiles) {
			diff_release(&d);
			memset(&d, 0, sizeof(d));
		}
	}
	for (s = out->buf; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = (size_t)((nl ? nl : end) - s);

		if (after(s, len, "error: patch failed: ", name, sizeof(name))) {
			char *colon = strrchr(name, ':');

			if (colon && !f->file[0]) {
				*colon = '\0';
				keep_file(f, name, &d);
				if (f->file[0])
					f->line = strtol(colon + 1, NULL, 10);
			}
		} else if (after(s, len, "CONFLICT (content): Merge conflict in ", name,
				 sizeof(name))) {
			f->conflict = 1;
			if (!f->file[0])
				keep_file(f, name, &d);
		} else if (len > 7 && !memcmp(s, "error: ", 7) &&
			   memmem(s, len, ": does not exist in index", 25)) {
			const char *e = memmem(s, len, ": does not exist in index", 25);

			snprintf(name, sizeof(name), "%.*s", (int)(e - s - 7), s + 7);
			f->missing = 1;
			if (!f->file[0])
				keep_file(f, name, &d);
		} else if (after(s, len, "error: sha1 information is lacking or useless (", name,
				 sizeof(name))) {
			char *close = strrchr(name, ')');

			if (close)
				*close = '\0';
			if (!f->file[0])
				keep_file(f, name, &d);
		} else if (len >= 15 && !memcmp(s, "Patch is empty.", 15)) {
			f->empty = 1;
		}
		s = nl ? nl + 1 : end;
	}
	find_hunk(f, &d);
	diff_release(&d);
}

int tree_am(struct bctx *c, const struct build_patch *p, size_t n, char *head,
	    struct am_failure *f)
{
	const char *args[BUILD_MAX_PATCHES + 16];
	char (*paths)[64] = calloc(n + 1, sizeof(*paths));
	struct sbuf out;
	size_t i, a = 0;
	enum run_result r;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	head[0] = '\0';
	if (!paths || !n || n > BUILD_MAX_PATCHES)
		goto out_free;
	if (sandbox_rmtree(c->mail) || sandbox_mkdir_owned(c->mail))
		goto out_free;
	args[a++] = "-c";
	args[a++] = "am.messageid=false";
	args[a++] = "am";
	args[a++] = "-3";
	args[a++] = "--whitespace=nowarn";
	args[a++] = "--no-gpg-sign";
	for (i = 0; i < n; i++) {
		char host[BUILD_PATH_MAX + 64];

		snprintf(paths[i], sizeof(paths[i]), BUILD_IN_MAIL "/%04zu.eml", i + 1);
		snprintf(host, sizeof(host), "%s/%04zu.eml", c->mail, i + 1);
		if (sandbox_write_new(host, p[i].raw ? p[i].raw : p[i].text,
				      p[i].raw ? p[i].raw_len : p[i].len, 0644))
			goto out_free;
		args[a++] = paths[i];
	}
	args[a] = NULL;
	sbuf_init(&out, 1u << 20);
	r = build_git(c, 0, SEE_GIT | SEE_SRC_RW | SEE_MAIL, &out, args);
	if (r == RUN_OK) {
		const char *rp[] = { "rev-parse", "HEAD", NULL };

		sbuf_reset(&out);
		if (build_git(c, 0, SEE_GIT, &out, rp) == RUN_OK && !first_id(&out, head))
			ret = 0;
	} else if (r == RUN_FAILED) {
		/* the 3-way fallback's words name no hunk: git apply says
		 * which one the failed mail's patch stops at */
		const char *ap[] = { "apply", "--check", "--verbose", "--whitespace=nowarn",
				     BUILD_IN_GIT "/rebase-apply/patch", NULL };

		build_git(c, 0, 0, &out, ap);
		parse_failure(&out, p, n, f);
		ret = 1;
	}
	sbuf_release(&out);
out_free:
	free(paths);
	return ret;
}
