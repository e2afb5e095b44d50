// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_cache: texts of the first pages kept for a while (web_cache.h).
 */
#include "web_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../checker/banned.h"

struct entry {
	char *key;
	char *text;
	size_t len;
	double at;		/* CLOCK_MONOTONIC seconds; 0: free */
};

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static struct entry cache[WEB_CACHE_ENTRIES];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void entry_clear(struct entry *e)
{
	free(e->key);
	free(e->text);
	memset(e, 0, sizeof(*e));
}

int web_cache_get(const char *key, struct sbuf *out)
{
	double now = now_s();
	size_t i;
	int hit = 0;

	pthread_mutex_lock(&cache_mu);
	for (i = 0; i < WEB_CACHE_ENTRIES && !hit; i++) {
		struct entry *e = &cache[i];

		if (!e->at || strcmp(e->key, key))
			continue;
		if (now - e->at > WEB_CACHE_TTL) {
			entry_clear(e);
			break;
		}
		sbuf_add(out, e->text, e->len);
		hit = 1;
	}
	pthread_mutex_unlock(&cache_mu);
	return hit;
}

void web_cache_put(const char *key, const char *text, size_t len)
{
	struct entry *slot = NULL;
	char *k, *t;
	size_t i, kl = strlen(key);

	if (kl > WEB_CACHE_MAX_KEY || len > WEB_CACHE_MAX_TEXT)
		return;
	k = malloc(kl + 1);
	t = malloc(len ? len : 1);
	if (!k || !t) {
		free(k);
		free(t);
		return;
	}
	memcpy(k, key, kl + 1);
	memcpy(t, text, len);
	pthread_mutex_lock(&cache_mu);
	/* the same key, else a free slot, else the oldest */
	for (i = 0; i < WEB_CACHE_ENTRIES; i++) {
		struct entry *e = &cache[i];

		if (e->at && !strcmp(e->key, key)) {
			slot = e;
			break;
		}
		if (!slot || (slot->at && (!e->at || e->at < slot->at)))
			slot = e;
	}
	entry_clear(slot);
	slot->key = k;
	slot->text = t;
	slot->len = len;
	slot->at = now_s();
	pthread_mutex_unlock(&cache_mu);
}

void web_cache_clear(void)
{
	size_t i;

	pthread_mutex_lock(&cache_mu);
	for (i = 0; i < WEB_CACHE_ENTRIES; i++)
		entry_clear(&cache[i]);
	pthread_mutex_unlock(&cache_mu);
}
