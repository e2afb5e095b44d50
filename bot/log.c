// SPDX-License-Identifier: GPL-2.0-only
/*
 * log: one key=value line per event on stderr, escaped so that text from
 * mail can never forge a log line (log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "../checker/sbuf.h"
#include "../checker/banned.h"

#define LOG_MAX_LINE	4096	/* bytes of one log line; longer values are cut */

static enum log_level level = LOG_INFO;

static const char *const level_names[] = { "err", "warn", "info", "debug" };

void log_set_level(enum log_level l)
{
	level = l;
}

int log_enabled(enum log_level l)
{
	return l <= level;
}

static void add_value(struct sbuf *sb, const char *v)
{
	const unsigned char *p;
	int quote = !*v;

	for (p = (const unsigned char *)v; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == '=' || *p >= 0x7f)
			quote = 1;
	if (quote)
		sbuf_addch(sb, '"');
	for (p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			sbuf_addf(sb, "\\%c", *p);
		else if (*p < ' ' || *p >= 0x7f)
			sbuf_addf(sb, "\\x%02x", *p);
		else
			sbuf_addch(sb, *p);
	}
	if (quote)
		sbuf_addch(sb, '"');
}

void log_event(enum log_level l, const char *event, ...)
{
	struct sbuf sb;
	const char *k, *v;
	va_list ap;

	if (!log_enabled(l))
		return;
	sbuf_init(&sb, LOG_MAX_LINE);
	sbuf_addf(&sb, "reviewbot[%ld]: level=%s event=", (long)getpid(),
		  level_names[l]);
	add_value(&sb, event);
	va_start(ap, event);
	while ((k = va_arg(ap, const char *))) {
		v = va_arg(ap, const char *);
		if (!v)
			continue;
		sbuf_addf(&sb, " %s=", k);
		add_value(&sb, v);
	}
	va_end(ap);
	/* the cap leaves room for the end: a cut line says so */
	if (sb.err) {
		sbuf_truncate(&sb, LOG_MAX_LINE - 16);
		sb.err = 0;
		sbuf_addstr(&sb, " truncated=1");
	}
	sb.cap = LOG_MAX_LINE + 1;
	sbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, stderr);
	sbuf_release(&sb);
}
