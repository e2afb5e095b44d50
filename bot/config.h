/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config: reviewbot's configuration, in git-config syntax (as
 * public-inbox uses):
 *
 *   [bot]
 *           address = reviewbot@example.org
 *           name = reviewbot
 *           database = /var/lib/reviewbot/reviewbot.db
 *           templates = /usr/share/reviewbot/templates
 *           dry_run = true
 *   [source "lkml"]
 *           type = imap
 *           url = imaps://bot@imap.example.org/INBOX
 *           list = linux-kernel@vger.kernel.org
 *           reply = list
 *           poll_interval = 60
 *   [delivery]
 *           type = maildir
 *           path = outbox
 *   [policy]
 *           series_wait = 600
 *           review_clean = false
 *           max_replies_per_hour = 30
 *   [checker]
 *           spelling = checkpatch
 *   [limits]
 *           max_message_bytes = 8388608
 *           max_series_parts = 200
 *   [web]
 *           listen = 127.0.0.1:8080
 *
 * Syntax: sections "[name]" and "[name "sub"]", "key = value", '#' and
 * ';' comments, quoted values with \" \\ \n \t escapes, a trailing
 * backslash continues a line.  Section and key names are
 * case-insensitive ('-' and '_' are the same in keys).  Booleans:
 * true/false/yes/no/on/off/1/0.
 *
 * One table of options (config.c) gives every key's type, default and
 * bounds; it drives parsing, checking (run -n), the defaults and
 * reviewbot.conf(5).  An unknown section or key, a value out of bounds,
 * a missing required key or a second value for a single key is an error
 * reported as "FILE:LINE: what is wrong".  Relative paths are taken
 * relative to the folder of the config file.
 */
#ifndef RB_CONFIG_H
#define RB_CONFIG_H

#include <stddef.h>

#define CONFIG_MAX_FILE		(1u << 20)	/* bytes of a config file */
#define CONFIG_MAX_SOURCES	64
#define CONFIG_MAX_TREES	32
#define CONFIG_MAX_VALUE	4096
#define CONFIG_MAX_MAINTAINERS	64	/* addresses of one source's maintainers */
#define CONFIG_STR_(x)		#x
#define CONFIG_STR(x)		CONFIG_STR_(x)
/* [checker] spelling's keywords (bot/spell_list.h) */
#define CONFIG_SPELLING_CHECKPATCH	"checkpatch"
#define CONFIG_SPELLING_CODESPELL	"codespell"

enum source_type {
	SRC_MAILDIR = 0,
	SRC_MBOX,
	SRC_IMAP,
	SRC_NNTP,
	SRC_PUBLIC_INBOX,
};

/* Who a review goes to for mail from this source. */
enum reply_policy {
	REPLY_POLICY_LIST = 0,	/* To author, Cc the list */
	REPLY_POLICY_ALL,	/* To author, Cc the list and the original Cc */
	REPLY_POLICY_AUTHOR,	/* To author only */
	REPLY_POLICY_NONE,	/* record only, never reply */
};

enum delivery_type {
	DELIVER_MAILDIR = 0,
	DELIVER_SENDMAIL,
	DELIVER_SMTP,
};

struct config_source {
	char *name;		/* the subsection name */
	enum source_type type;
	char *url;		/* imap/nntp/public-inbox */
	char *path;		/* maildir/mbox, absolute */
	char *list;		/* the list's posting address, or NULL */
	char *maintainers;	/* its maintainers' addresses, separated by
				 * commas or white space, or NULL
				 * (config_is_maintainer) */
	enum reply_policy reply;
	int review_clean;	/* mail the reviews with nothing to say too */
	int review_backports;	/* mail the reviews of stable backports too */
	int poll_interval;	/* seconds */
	char *password_file;	/* absolute, or NULL */
	char *password_env;	/* variable name, or NULL */
	int starttls;		/* required */
	char *ca_file;		/* absolute, or NULL: the system's */
	int line;		/* where its section starts, for messages */
};

/*
 * [tree "NAME"]: a git tree series are compiled against (bot/stage/tree.h).
 * NAME names it in reviews and in the bot's repository (refs/trees/NAME):
 * letters, digits, '.', '_' and '-', not starting with '.' or '-'.
 */
struct config_tree {
	char *name;		/* the subsection name */
	char *url;		/* https://, http://, git:// or file:// */
	char *branch;
	char *lists;		/* list addresses whose patches go to it first,
				 * separated by commas or spaces, or NULL */
	int fetch_interval;	/* seconds */
	int line;		/* where its section starts, for messages */
};

struct config {
	char *file;		/* the file read, or NULL for the defaults */
	/* [bot] */
	char *address;		/* required when any reply can be sent */
	char *dkim_keys;	/* DKIM keys instead of DNS (bot/mail/dkimcheck.h) */
	char *name;
	char *database;		/* absolute */
	char *templates;	/* folder, absolute, or NULL: beside the program */
	int dry_run;
	char *user;		/* run drops to it when started as root */
	/* [source "NAME"] */
	struct config_source *sources;
	size_t nsources;
	/* [delivery] */
	enum delivery_type delivery;
	char *delivery_url;	/* smtp */
	char *delivery_path;	/* maildir folder or sendmail program, absolute */
	char *delivery_password_file;
	char *delivery_password_env;
	int delivery_starttls;
	char *delivery_ca_file;
	/* [policy] */
	int series_wait;	/* seconds */
	int list_wait;		/* seconds for a list's own copy */
	int review_clean;	/* every source's review_clean */
	int max_replies_per_hour;
	int author_replies_per_hour;
	int list_replies_per_hour;
	int confirmations_per_hour;
	int max_confirmations_per_hour;	/* all addresses together */
	int requests_per_day;		/* confirmation requests to one address */
	int max_requests_per_hour;	/* ... to all addresses together */
	int queries_per_hour;		/* query lookups for one address */
	int max_queries_per_hour;	/* ... for all together */
	int max_clock_skew;	/* seconds a command may be dated ahead */
	int demote_after;	/* maintainers' false-positive reviews that demote
				 * a type on their list; 0: never */
	int stage_wait;		/* seconds a review waits for [build] and [boot] */
	int max_age;		/* seconds: older mail gets no reply (0: no limit) */
	/* [build] (bot/stage/build.h): off unless build_tree is set */
	char *build_tree;	/* kernel source tree, absolute, kept pristine */
	char *build_work;	/* O= folder and git dir, absolute, or NULL */
	char *build_config;	/* make target (allmodconfig) or a .config file */
	int build_jobs;
	int build_timeout;	/* seconds for one series (apply + builds) */
	int build_workers;	/* worker processes taking stages from the queue */
	char *build_tools;	/* "gcc sparse analyzer coccinelle", a subset */
	int build_max_memory_mb;	/* cgroup memory.max of one stage */
	int build_max_tasks;	/* cgroup pids.max of one stage */
	int build_max_disk_mb;	/* bytes a stage may add to its folders */
	int build_tmp_mb;	/* size of the sandbox's /tmp and /dev/shm */
	/* [tree "NAME"] */
	struct config_tree *trees;
	size_t ntrees;
	/* [boot] (bot/stage/boot.h): off unless boot_kernel and boot_headers are set */
	char *boot_kernel;	/* kernel image booted in QEMU, absolute */
	char *boot_headers;	/* its kbuild tree (modules built with M=), absolute */
	char *boot_work;	/* scratch folder, absolute, or NULL: beside the database */
	int boot_timeout;	/* seconds per module: build, boot, load and unload */
	/* [checker] */
	char *checkpatch_version;	/* "auto", "6.1", "6.12" (bot/kversion.h) */
	char *spelling;		/* CONFIG_SPELLING_CHECKPATCH, _CODESPELL or a file */
	/* [limits]: what one mail may hold; the parsers get them through
	 * config_mime_limits(), config_diff_limits() and max_series_parts */
	int max_message_bytes;	/* at most MAILBOX_MAX_MESSAGE */
	int max_parts;		/* MIME parts, at most MIME_CEIL_PARTS */
	int max_references;	/* References kept, at most MIME_CEIL_REFS */
	int max_files_per_patch;
	int max_lines_per_patch; /* diff lines of all files together */
	int max_series_parts;	/* N of [PATCH M/N], at most SUBJECT_CEIL_PARTS */
	int check_seconds;	/* the checker's time budget per patch */
	/* [web]: reviewbot serve (bot/web/web_server.h) */
	char *web_listen;	/* ADDR:PORT */
	char *web_url;		/* public address of the pages, or NULL */
	char *web_public_lists;	/* more public list addresses, or NULL */
	int web_timeout;	/* seconds a connection may stay idle */
	int web_max_connections;
	int web_max_per_address;	/* 0: no limit */
	int web_idle_timeout;	/* seconds to the request line */
	int web_threads;
};

/* The defaults, with no source (config.c's table). */
void config_init(struct config *c);
void config_release(struct config *c);

/*
 * Reads path into c (config_init'd by the call).  Returns 0, or -1 with
 * err holding "FILE:LINE: what is wrong" (or "FILE: reason" for I/O).
 */
int config_load(const char *path, struct config *c, char *err, size_t errlen);
/* Parses buf as if read from name (for tests and embedded configs). */
int config_parse(const char *name, const char *buf, size_t len,
		 struct config *c, char *err, size_t errlen);

/*
 * The [limits] of c for the parsers (bot/mail/mime.h, checker/diff.h): the
 * checker library knows nothing of the configuration, the bot hands the
 * limits over.  Limits [limits] does not name keep their defaults.
 */
struct mime_limits;
struct diff_limits;
void config_mime_limits(const struct config *c, struct mime_limits *out);
void config_diff_limits(const struct config *c, struct diff_limits *out);

/* The option table, for reviewbot.conf(5) and --help. */
struct config_option {
	const char *section;	/* "bot", "source", "delivery", "policy", "build",
				 * "tree", "boot", "checker", "limits", "web" */
	const char *key;
	const char *type;	/* "string", "path", "bool", "int", "enum" */
	const char *def;	/* default as text, or NULL when required/none */
	long min, max;		/* for int */
	const char *values;	/* for enum: "a|b|c" */
	const char *desc;	/* one line */
};

extern const struct config_option config_options[];
extern const size_t config_noptions;

/*
 * 1 when addr (any case) is among the maintainers of a source whose list
 * is list (any case): [source] maintainers; 0 when not, or when list or
 * addr is NULL.
 */
int config_is_maintainer(const struct config *c, const char *list, const char *addr);
/* 1 when some source of list has maintainers. */
int config_list_has_maintainers(const struct config *c, const char *list);

/* 1 when addr (any case) is one of the tree's lists. */
int config_tree_has_list(const struct config_tree *t, const char *addr);

const char *source_type_name(enum source_type t);
const char *reply_policy_name(enum reply_policy p);
const char *delivery_type_name(enum delivery_type t);

#endif
