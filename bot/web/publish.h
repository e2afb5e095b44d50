/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * publish: which lists and sources are public, from the configuration,
 * for the privacy rule of reviewbot serve, the JSON API and the query by
 * mail (store/store_web.h): the lists of the sources and of [web]
 * public_lists, and the sources of type public-inbox (an archive anyone
 * can read).
 */
#ifndef RB_PUBLISH_H
#define RB_PUBLISH_H

#include "../config.h"

/*
 * {"lists":[...],"sources":[...]}, the lists lowercase and each once,
 * malloc'd (store_query.publish), or NULL when out of memory.
 */
char *publish_json(const struct config *cfg);

#endif
