// SPDX-License-Identifier: GPL-2.0-only
/*
 * deliver: hands one reply to the outbox maildir, sendmail or SMTP
 * (deliver.h), and says whether a failure is worth a retry.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../fileio.h"
#include "deliver.h"
#include "mailbox.h"
#include "smtp.h"
#include "../../checker/banned.h"

#define EX_TEMPFAIL_CODE	75	/* sysexits.h */

char *deliver_outbox(const struct config *cfg)
{
	const char *db = cfg->database, *slash;
	char *out;
	size_t n;

	if (cfg->delivery == DELIVER_MAILDIR && cfg->delivery_path)
		return strdup(cfg->delivery_path);
	slash = db ? strrchr(db, '/') : NULL;
	n = slash ? (size_t)(slash - db) + 1 : 0;
	out = malloc(n + sizeof("outbox"));
	if (!out)
		return NULL;
	if (n)
		memcpy(out, db, n);
	memcpy(out + n, "outbox", sizeof("outbox"));
	return out;
}

static int to_maildir(const struct config *cfg, const struct store_reply *r,
		      char *err, size_t errlen)
{
	char *dir = deliver_outbox(cfg);
	int ret;

	if (!dir) {
		snprintf(err, errlen, "out of memory");
		return DELIVER_TEMPFAIL;
	}
	ret = maildir_deliver(dir, r->body, strlen(r->body), NULL);
	if (ret) {
		snprintf(err, errlen, "outbox %s: %s", dir, strerror(errno));
		free(dir);
		return DELIVER_TEMPFAIL;
	}
	free(dir);
	return DELIVER_OK;
}

static int to_sendmail(const struct config *cfg, const struct store_reply *r,
		       char *err, size_t errlen)
{
	char *argv[DELIVER_MAX_RCPTS + 8];
	char *rcpt = NULL, *tok, *save = NULL;
	size_t argc = 0;
	int pipefd[2] = { -1, -1 }, status, ret = DELIVER_TEMPFAIL;
	pid_t pid;
	void (*old)(int);

	rcpt = strdup(r->rcpt ? r->rcpt : "");
	if (!rcpt) {
		snprintf(err, errlen, "out of memory");
		return DELIVER_TEMPFAIL;
	}
	argv[argc++] = cfg->delivery_path;
	argv[argc++] = "-i";
	argv[argc++] = "-f";
	argv[argc++] = r->mail_from;
	argv[argc++] = "--";
	for (tok = strtok_r(rcpt, ",", &save); tok && argc < DELIVER_MAX_RCPTS + 5;
	     tok = strtok_r(NULL, ",", &save))
		if (*tok)
			argv[argc++] = tok;
	argv[argc] = NULL;
	if (argc == 5) {
		snprintf(err, errlen, "no recipient");
		free(rcpt);
		return DELIVER_PERMFAIL;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		free(rcpt);
		return DELIVER_TEMPFAIL;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if (dup2(pipefd[0], 0) < 0)
			_exit(EX_TEMPFAIL_CODE);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[0]);
	pipefd[0] = -1;
	old = signal(SIGPIPE, SIG_IGN);
	if (fileio_write_all(pipefd[1], r->body, strlen(r->body)))
		snprintf(err, errlen, "writing to %s: %s", argv[0], strerror(errno));
	signal(SIGPIPE, old);
	close(pipefd[1]);
	pipefd[1] = -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			goto out;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = DELIVER_OK;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == EX_TEMPFAIL_CODE) {
		snprintf(err, errlen, "%s: temporary failure (exit 75)", argv[0]);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "%s: cannot run it", argv[0]);
	} else {
		snprintf(err, errlen, "%s: exit status %d", argv[0],
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		ret = DELIVER_PERMFAIL;
	}
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	free(rcpt);
	return ret;
}

int deliver_reply(const struct config *cfg, const struct store_reply *r,
		  char *err, size_t errlen)
{
	err[0] = '\0';
	if (cfg->dry_run || cfg->delivery == DELIVER_MAILDIR)
		return to_maildir(cfg, r, err, errlen);
	if (cfg->delivery == DELIVER_SENDMAIL)
		return to_sendmail(cfg, r, err, errlen);
	return smtp_send(cfg, r, err, errlen);
}
