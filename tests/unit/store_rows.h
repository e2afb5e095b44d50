/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The store tests' rows: a message, a series, a patch, a finding added
 * with the fields the tests vary (asserting each add worked), and an id
 * collector for the store's walks.  Include after store_fixture.h.
 */
#ifndef RB_TEST_STORE_ROWS_H
#define RB_TEST_STORE_ROWS_H

static inline int64_t add_msg(struct store *st, const char *msgid, const char *from,
		       const char *name, int64_t date)
{
	struct store_msg m = {
		.message_id = (char *)msgid,
		.source = (char *)"test",
		.list = (char *)"netdev@vger.kernel.org",
		.from_addr = (char *)from,
		.from_name = (char *)name,
		.subject = (char *)"[PATCH] x",
		.date = date,
		.received = date + 5,
	};
	int64_t id = 0;

	assert_int_equal(store_msg_add(st, &m, "raw", 3, &id), STORE_OK);
	assert_true(id > 0);
	return id;
}

static inline int64_t add_series(struct store *st, const char *list,
			  const char *author, const char *root, int version,
			  int minor, int total, const char *change_id,
			  const char *subject, int64_t created)
{
	struct store_series s = {
		.list = (char *)list,
		.author_addr = (char *)author,
		.author_name = (char *)"Author Name",
		.subject = (char *)subject,
		.root = (char *)root,
		.change_id = (char *)change_id,
		.version = version,
		.version_minor = minor,
		.total = total,
		.created = created,
		.last_part_at = created,
	};
	int64_t id = 0;

	assert_int_equal(store_series_add(st, &s, &id), STORE_OK);
	assert_true(id > 0);
	return id;
}

static inline int64_t add_patch(struct store *st, int64_t series, int64_t msg, int part)
{
	struct store_patch p = {
		.series_id = series,
		.msg_id = msg,
		.part = part,
		.subject = (char *)"[PATCH] part",
	};
	int64_t id = 0;

	assert_int_equal(store_patch_add(st, &p, &id), STORE_OK);
	return id;
}

static inline int64_t add_finding(struct store *st, int64_t patch, const char *type,
			   const char *category, const char *file, long line)
{
	struct store_finding f = {
		.patch_id = patch,
		.type = (char *)type,
		.severity = (char *)"WARNING",
		.category = (char *)category,
		.file = (char *)file,
		.line = line,
		.message = (char *)"msg",
		.line_text = (char *)"int x;",
		.fingerprint = (char *)"fp",
	};
	int64_t id = 0;

	assert_int_equal(store_finding_add(st, &f, &id), STORE_OK);
	return id;
}

struct ids {
	int64_t v[32];
	size_t n;
	int stop_at;		/* return 7 at this call (1-based), 0: never */
	struct store *st;
};

static inline int collect_id(void *arg, int64_t id)
{
	struct ids *c = arg;

	if (c->n < 32)
		c->v[c->n] = id;
	c->n++;
	return c->stop_at && (int)c->n == c->stop_at ? 7 : 0;
}

#endif
