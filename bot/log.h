/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * log: one line per event on stderr, "reviewbot[PID]: level=L event=E
 * key=value ...", for journald and grep.  Values are quoted when they
 * hold a space, '"' or '=', and every byte outside printable ASCII (and
 * '"' and '\\') is escaped, so text from mail can never forge a log line.
 */
#ifndef RB_LOG_H
#define RB_LOG_H

enum log_level {
	LOG_ERR = 0,
	LOG_WARN,
	LOG_INFO,
	LOG_DEBUG,
};

/* Lines above this level are dropped; default LOG_INFO. */
void log_set_level(enum log_level l);
/* Quiet: only LOG_ERR and LOG_WARN (for commands whose stdout matters). */
int log_enabled(enum log_level l);

/*
 * Logs event with key/value pairs: the variadic part is pairs of
 * const char *key, const char *value (value NULL: left out), ended by a
 * NULL key.
 */
void log_event(enum log_level l, const char *event, ...);

#endif
