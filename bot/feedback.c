// SPDX-License-Identifier: GPL-2.0-only
/*
 * feedback: the types a list's maintainers demoted (see feedback.h).
 */
#include <stdlib.h>
#include <string.h>

#include "feedback.h"
#include "../checker/banned.h"

struct walk {
	const struct config *cfg;
	const char *list;
	struct feedback_demoted *d;
	/* the type and series last counted (rows come by type, series) */
	char type[128];
	long long series;
	long long reviews;	/* of that type so far */
	int demoted;		/* that type is in d already */
	int oom;
	const char *want;	/* feedback_type_reviews(): this type's count */
	long long want_reviews;
};

static int add_type(struct feedback_demoted *d, const char *type)
{
	char **n;

	if (d->n >= FEEDBACK_MAX_DEMOTED)
		return 0;
	n = realloc(d->types, (d->n + 1) * sizeof(*n));
	if (!n)
		return -1;
	d->types = n;
	d->types[d->n] = strdup(type);
	if (!d->types[d->n])
		return -1;
	d->n++;
	return 0;
}

static int one(void *arg, const char *type, int64_t series_id, const char *addr)
{
	struct walk *w = arg;

	size_t n = type ? strlen(type) : 0;

	if (!n || n >= sizeof(w->type))
		return 0;
	/* a maintainer then, and still one now */
	if (!config_is_maintainer(w->cfg, w->list, addr))
		return 0;
	if (strcmp(type, w->type)) {
		memcpy(w->type, type, n + 1);	/* fits: checked above */
		w->series = 0;
		w->reviews = 0;
		w->demoted = 0;
	}
	if (w->series == (long long)series_id)
		return 0;	/* another maintainer, same review */
	w->series = (long long)series_id;
	w->reviews++;
	if (w->want && !strcmp(type, w->want))
		w->want_reviews = w->reviews;
	if (!w->d)
		return 0;
	if (!w->demoted && w->cfg->demote_after > 0 && w->reviews >= w->cfg->demote_after) {
		w->demoted = 1;
		if (add_type(w->d, type)) {
			w->oom = 1;
			return 1;
		}
	}
	return 0;
}

int feedback_demoted_load(struct store *st, const struct config *cfg, const char *list,
			  struct feedback_demoted *d)
{
	struct walk w;
	int ret;

	memset(d, 0, sizeof(*d));
	if (!list || cfg->demote_after <= 0 || !config_list_has_maintainers(cfg, list))
		return STORE_OK;
	memset(&w, 0, sizeof(w));
	w.cfg = cfg;
	w.list = list;
	w.d = d;
	ret = store_feedback_each_maintained(st, list, one, &w);
	if (w.oom)
		ret = STORE_ERR_NOMEM;
	if (ret < 0) {
		feedback_demoted_release(d);
		return ret;
	}
	return STORE_OK;
}

int feedback_demoted_has(const struct feedback_demoted *d, const char *type)
{
	size_t i;

	for (i = 0; type && i < d->n; i++)
		if (!strcmp(d->types[i], type))
			return 1;
	return 0;
}

void feedback_demoted_release(struct feedback_demoted *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->types[i]);
	free(d->types);
	memset(d, 0, sizeof(*d));
}

int feedback_type_reviews(struct store *st, const struct config *cfg, const char *list,
			  const char *type, long long *n)
{
	struct walk w;
	int ret;

	*n = 0;
	if (!list || !type || !config_list_has_maintainers(cfg, list))
		return STORE_OK;
	memset(&w, 0, sizeof(w));
	w.cfg = cfg;
	w.list = list;
	w.want = type;
	ret = store_feedback_each_maintained(st, list, one, &w);
	if (ret < 0)
		return ret;
	*n = w.want_reviews;
	return STORE_OK;
}
