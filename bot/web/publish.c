// SPDX-License-Identifier: GPL-2.0-only
/*
 * publish: the public lists and sources of a configuration, as the
 * store's privacy rule takes them (publish.h).
 */
#include "publish.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../checker/sbuf.h"
#include "../../checker/banned.h"

#define PUBLISH_MAX	(1u << 20)
#define ADDR_MAX	254

/* addr (n bytes) lowercased, as a JSON string, unless already in *seen */
static void add_list(struct sbuf *sb, struct sbuf *seen, const char *addr, size_t n)
{
	char one[ADDR_MAX + 3];
	size_t i;

	if (!n || n > ADDR_MAX)
		return;
	one[0] = ' ';
	for (i = 0; i < n; i++)
		one[i + 1] = addr[i] >= 'A' && addr[i] <= 'Z' ? (char)(addr[i] - 'A' + 'a') : addr[i];
	one[n + 1] = ' ';
	one[n + 2] = '\0';
	if (strstr(seen->buf, one))
		return;
	sbuf_addstr(seen, one);
	one[n + 1] = '\0';
	if (sb->buf[sb->len - 1] != '[')
		sbuf_addch(sb, ',');
	sbuf_addjson(sb, one + 1);
}

char *publish_json(const struct config *cfg)
{
	struct sbuf sb, seen;
	const char *p;
	size_t i, n;
	int first = 1;

	sbuf_init(&sb, PUBLISH_MAX);
	sbuf_init(&seen, PUBLISH_MAX);
	sbuf_addstr(&seen, " ");
	sbuf_addstr(&sb, "{\"lists\":[");
	for (i = 0; i < cfg->nsources; i++)
		if (cfg->sources[i].list)
			add_list(&sb, &seen, cfg->sources[i].list, strlen(cfg->sources[i].list));
	for (p = cfg->web_public_lists; p && *p; p += n) {
		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		add_list(&sb, &seen, p, n);
	}
	sbuf_addstr(&sb, "],\"sources\":[");
	for (i = 0; i < cfg->nsources; i++) {
		if (cfg->sources[i].type != SRC_PUBLIC_INBOX)
			continue;
		if (!first)
			sbuf_addch(&sb, ',');
		sbuf_addjson(&sb, cfg->sources[i].name);
		first = 0;
	}
	sbuf_addstr(&sb, "]}");
	sbuf_release(&seen);
	if (sb.err) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}
