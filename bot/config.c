// SPDX-License-Identifier: GPL-2.0-only
/*
 * reviewbot.conf: git-config syntax (git-config(1) "CONFIGURATION FILE"),
 * read by a table of options as redis reads redis.conf.  Every key is one
 * row of CONFIG_OPTIONS below; the rows give the public config_options[]
 * (reviewbot.conf(5), --help), the defaults (config_init), the parsing and
 * checking (config_parse) and the freeing (config_release), so a key is
 * added in one place.
 *
 * Deviations from git, all on the strict side:
 *  - only the sections and keys of the table; the old "[section.sub]"
 *    form and keys on a section header's line are errors;
 *  - '_' is allowed in keys and is the same as '-';
 *  - a second value for a key (git would make a multi-valued key) is an
 *    error, but sections given twice merge as in git;
 *  - an unknown escape ("\q") or a NUL byte is an error;
 *  - control characters are refused in every string and path value.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../checker/diff.h"
#include "../checker/rules.h"
#include "../checker/sbuf.h"
#include "fileio.h"
#include "mail/mailbox.h"
#include "mail/mime.h"
#include "mail/subject.h"
#include "../checker/banned.h"

#define SENDMAIL_DEFAULT	"/usr/sbin/sendmail"
#define CONFIG_MAX_NAME		64	/* bytes of a section, key or source name */
#define ADDRESS_MAX		254	/* RFC 5321 4.5.3.1.3, a path less <> */

/*
 * [limits]: each option's default is the module's named constant
 * (MAILBOX_MAX_MESSAGE, MIME_MAX_PARTS, MIME_MAX_REFS,
 * DIFF_DEFAULT_MAX_FILES, DIFF_DEFAULT_MAX_LINES, SUBJECT_MAX_PARTS:
 * test_config checks the table against them) and its maximum a hard
 * ceiling.  Raising a limit past the default costs memory and time on
 * hostile mail; the ceilings keep that bounded.
 */
#define LIMIT_MIN_MESSAGE	1024	/* bytes: less holds no header and patch */
#define LIMIT_CEIL_FILES	200000	/* 4 x DIFF_DEFAULT_MAX_FILES */

#define SOURCE_TYPES	"maildir|mbox|imap|nntp|public-inbox"
#define REPLY_POLICIES	"list|all|author|none"
#define DELIVERY_TYPES	"maildir|sendmail|smtp"

typedef int (*check_fn)(const char *v, const char **why);

static int check_address(const char *v, const char **why);
static int check_url(const char *v, const char **why);
static int check_smtp_url(const char *v, const char **why);
static int check_env_name(const char *v, const char **why);
static int check_spelling(const char *v, const char **why);
static int check_addresses(const char *v, const char **why);
static int check_listen(const char *v, const char **why);
static int check_web_url(const char *v, const char **why);
static int check_address_list(const char *v, const char **why);
static int check_cp_version(const char *v, const char **why);
static int check_git_url(const char *v, const char **why);
static int check_branch(const char *v, const char **why);
static int check_tools(const char *v, const char **why);

/*
 * X(section, key, type, default, min, max, enum values, field, check, desc)
 *
 * field is a member of struct config, or of struct config_source for
 * SOURCE.  STRING and PATH fields are char *, the others int (or an enum
 * of int size whose values are the positions in the values string).
 */
#define CONFIG_OPTIONS(X)						\
	X(BOT, "address", STRING, NULL, 0, 0, NULL, address, check_address, \
	  "the bot's own mail address (From:); required unless dry_run is true") \
	X(BOT, "name", STRING, "reviewbot", 0, 0, NULL, name, NULL,	\
	  "the display name in From:")					\
	X(BOT, "database", PATH, "reviewbot.db", 0, 0, NULL, database, NULL, \
	  "the SQLite database file")					\
	X(BOT, "templates", PATH, NULL, 0, 0, NULL, templates, NULL,	\
	  "the folder of reply templates; unset: the one installed beside the program (PREFIX/share/reviewbot/templates), or templates/ of the build tree the program runs from") \
	X(BOT, "dry_run", BOOL, "true", 0, 0, NULL, dry_run, NULL,	\
	  "record the replies but send none")				\
	X(BOT, "user", STRING, NULL, 0, 0, NULL, user, NULL,		\
	  "the account the daemon drops to when started as root (without it, it runs as root with a warning)") \
	X(BOT, "dkim_keys", PATH, NULL, 0, 0, NULL, dkim_keys, NULL,	\
	  "a file of DKIM public keys (\"SELECTOR._domainkey.DOMAIN v=DKIM1; k=rsa; p=...\" a line) used instead of DNS to verify the DKIM signature of a command's sender (a maintainer's false-positive counts only when it verifies); for tests and hosts without DNS; unset: the keys come from DNS") \
	X(SOURCE, "type", ENUM, NULL, 0, 0, SOURCE_TYPES, type, NULL,	\
	  "where the mail comes from (required)")			\
	X(SOURCE, "url", STRING, NULL, 0, 0, NULL, url, check_url,	\
	  "imap[s]://, nntp[s]:// address; for public-inbox its http[s]:// (the inbox's page, https://lore.kernel.org/linux-leds/), imap[s]:// or nntp[s]:// face, both named by the inbox's newsgroup (imaps://lore.kernel.org/org.kernel.vger.linux-leds: its 50,000-message slices, mailboxes NEWSGROUP.0, NEWSGROUP.1, ..., are read in turn); required for those types") \
	X(SOURCE, "path", PATH, NULL, 0, 0, NULL, path, NULL,		\
	  "the maildir folder or mbox file; required for those types")	\
	X(SOURCE, "list", STRING, NULL, 0, 0, NULL, list, check_address, \
	  "the list's posting address: a review Cc's it only when the patch came through it: read from this source when it is a public-inbox or NNTP archive, or in any source with this list's List-Id (linux-leds.vger.kernel.org for linux-leds@vger.kernel.org); a patch naming the list in its To or Cc but mailed to the bot directly does not count") \
	X(SOURCE, "maintainers", STRING, NULL, 0, 0, NULL, maintainers,	\
	  check_addresses, "the list's maintainers' addresses, separated by commas or spaces: their false-positive answers count toward demoting a type on the list ([policy] demote_after)") \
	X(SOURCE, "reply", ENUM, "list", 0, 0, REPLY_POLICIES, reply, NULL, \
	  "who a review goes to: list (the author, Cc exactly the lists the patch came through among those the sources name; none for a patch mailed to the bot directly), all (also every other To and Cc address of the patch), author (the author only), or none (recorded, not sent)") \
	X(SOURCE, "review_clean", BOOL, "false", 0, 0, NULL, review_clean, NULL, \
	  "mail also the reviews that have nothing in Security, User-space interface, Correctness or Process (style alone, or nothing at all: such a mail says what was checked); off, they are stored, shown on the web and by query --review, and not mailed ([policy] review_clean turns it on for every source)") \
	X(SOURCE, "review_backports", BOOL, "false", 0, 0, NULL, review_backports, NULL, \
	  "mail also the reviews of stable backports (a subject tag naming a stable branch such as 6.6.y or 5.15, AUTOSEL, or a \"[ Upstream commit SHA ]\" or \"commit SHA upstream.\" line): they are merged upstream already; off, they are stored and shown, not mailed") \
	X(SOURCE, "poll_interval", INT, "60", 1, 86400, NULL, poll_interval, \
	  NULL, "seconds between two looks for new mail (IMAP IDLE wakes up sooner)") \
	X(SOURCE, "password_file", PATH, NULL, 0, 0, NULL, password_file, NULL, \
	  "file holding the password for the url's user (refused when others may read it)") \
	X(SOURCE, "password_env", STRING, NULL, 0, 0, NULL, password_env, \
	  check_env_name, "environment variable holding the password, instead of a file") \
	X(SOURCE, "starttls", BOOL, "false", 0, 0, NULL, starttls, NULL, \
	  "require STARTTLS on imap:// and nntp:// (else used when offered)") \
	X(SOURCE, "ca_file", PATH, NULL, 0, 0, NULL, ca_file, NULL,	\
	  "certificates to trust for TLS instead of the system's")	\
	X(DELIVERY, "type", ENUM, "maildir", 0, 0, DELIVERY_TYPES, delivery, \
	  NULL, "how replies leave")					\
	X(DELIVERY, "url", STRING, NULL, 0, 0, NULL, delivery_url,	\
	  check_smtp_url, "smtp:// or smtps:// server; required for smtp") \
	X(DELIVERY, "path", PATH, "outbox", 0, 0, NULL, delivery_path, NULL, \
	  "the outbox maildir, or the sendmail program (default " SENDMAIL_DEFAULT ")") \
	X(DELIVERY, "password_file", PATH, NULL, 0, 0, NULL, delivery_password_file, \
	  NULL, "file holding the SMTP password for the url's user (refused when others may read it)") \
	X(DELIVERY, "password_env", STRING, NULL, 0, 0, NULL, delivery_password_env, \
	  check_env_name, "environment variable holding the SMTP password, instead of a file") \
	X(DELIVERY, "starttls", BOOL, "false", 0, 0, NULL, delivery_starttls, NULL, \
	  "require STARTTLS on smtp:// (else used when offered)")	\
	X(DELIVERY, "ca_file", PATH, NULL, 0, 0, NULL, delivery_ca_file, NULL, \
	  "certificates to trust for TLS instead of the system's")	\
	X(POLICY, "series_wait", INT, "600", 0, 604800, NULL, series_wait, \
	  NULL, "seconds to wait for the rest of a series")		\
	X(POLICY, "list_wait", INT, "600", 0, 604800, NULL, list_wait, \
	  NULL, "seconds a series waits for the list's own copy of a mail that came to the bot directly but names a list the bot reads in its To or Cc; the list's copy then answers the list (a copy that differs takes the place of the one mailed directly), else the review goes without the list") \
	X(POLICY, "review_clean", BOOL, "false", 0, 0, NULL, review_clean, \
	  NULL, "mail also the reviews with nothing in Security, User-space interface, Correctness or Process, for every source ([source] review_clean for one)") \
	X(POLICY, "max_replies_per_hour", INT, "30", 0, 100000, NULL,	\
	  max_replies_per_hour, NULL, "reviews and follow-ups sent per hour at most (answers to commands have their own budget); 0 is no limit") \
	X(POLICY, "author_replies_per_hour", INT, "5", 0, 100000, NULL,	\
	  author_replies_per_hour, NULL, "reviews sent to one author per hour at most; 0 is no limit") \
	X(POLICY, "list_replies_per_hour", INT, "20", 0, 100000, NULL,	\
	  list_replies_per_hour, NULL, "reviews sent to one list per hour at most; 0 is no limit") \
	X(POLICY, "confirmations_per_hour", INT, "3", 0, 1000, NULL,	\
	  confirmations_per_hour, NULL, "answers to opt-out commands per address per hour at most") \
	X(POLICY, "max_confirmations_per_hour", INT, "20", 0, 100000, NULL, \
	  max_confirmations_per_hour, NULL, "answers to commands per hour at most, to all addresses together (more are recorded, not sent); never taken from the reviews' budget; 0 is no limit") \
	X(POLICY, "requests_per_day", INT, "3", 1, 100, NULL,	\
	  requests_per_day, NULL, "confirmation requests (a token to send back before an optout, optin, mute or query is carried out) mailed to one address per day at most; more are recorded, not sent") \
	X(POLICY, "max_requests_per_hour", INT, "20", 0, 100000, NULL, \
	  max_requests_per_hour, NULL, "confirmation requests per hour at most, to all addresses together (a budget of their own: a flood of forged commands cannot use up the one of the answers to confirmed senders); 0 is no limit") \
	X(POLICY, "queries_per_hour", INT, "5", 0, 1000, NULL,	\
	  queries_per_hour, NULL, "query commands one address may have looked up per hour; more are refused before any lookup (0 is no limit)") \
	X(POLICY, "max_queries_per_hour", INT, "60", 0, 100000, NULL,	\
	  max_queries_per_hour, NULL, "query commands looked up per hour at most, all addresses together; more are refused before any lookup (0 is no limit)") \
	X(POLICY, "max_clock_skew", INT, "900", 0, 86400, NULL, max_clock_skew, \
	  NULL, "seconds a command's Date: may lie in the future; one dated later, or older than max_age, is refused (and answered with why when its sender is verified or confirmed)") \
	X(POLICY, "demote_after", INT, "3", 0, 1000, NULL, demote_after, \
	  NULL, "reviews of a list in which its maintainers answered false-positive to a type before that type is counted with the nits in the list's reviews (0: never)") \
	X(POLICY, "stage_wait", INT, "600", 0, 604800, NULL, stage_wait, \
	  NULL, "seconds a review waits for the compile and load stages ([build], [boot]) before it is sent without them; their results then follow in a reply to the review (0: never wait)") \
	X(POLICY, "max_age", INT, "259200", 0, 315360000, NULL, max_age, \
	  NULL, "seconds: a source read for the first time is read back to this age and no further, on every source (run --since DATE reads further back); mail older than this (by its Date:, or its arrival, the topmost Received:, when the Date: is missing or more than a day later: a 2019 patch dated 2085 is of 2019) is stored, checked and queryable, but no review or answer goes out for it (a backfill, a long outage); 0 is no limit: a first start reads everything (the default is 3 days)") \
	X(BUILD, "tree", PATH, NULL, 0, 0, NULL, build_tree, NULL,	\
	  "a plain kernel source tree (a folder, e.g. Debian's linux-source extracted) series may be compiled against, as a [tree] is: imported once as a commit of the bot's repository (refs/trees/tree), only ever read; unset, and no [tree] section: no compile stage") \
	X(BUILD, "work", PATH, NULL, 0, 0, NULL, build_work, NULL,	\
	  "folder for the bot's one git repository (repo.git), each worker's work tree and object folder (wN/) and the base's cached results (cache/); the compile stage's sandboxes see parts of it (default: the [build] tree's path + .reviewbot, else build-work beside the database)") \
	X(BUILD, "config", STRING, "allmodconfig", 0, 0, NULL, build_config, \
	  NULL, "a make target such as allmodconfig, or the absolute path of a .config file (CONFIG_WERROR is turned off)") \
	X(BUILD, "jobs", INT, "2", 1, 256, NULL, build_jobs, NULL,	\
	  "make -j for the builds (a tree's preparation, the objects of a series)") \
	X(BUILD, "timeout", INT, "900", 10, 86400, NULL, build_timeout, \
	  NULL, "seconds for one series (apply and builds); then \"not checked\"") \
	X(BUILD, "workers", INT, "1", 1, 16, NULL, build_workers, NULL, \
	  "worker processes the daemon starts to run the compile and load stages from the database's queue, beside the mail (each has its own work tree and object folder under work; reviews of other mail never wait for them)") \
	X(BUILD, "tools", STRING, "gcc sparse analyzer coccinelle", 0, 0, NULL, \
	  build_tools, check_tools, "what the compile stage runs on the files a series touches, before and after it, separated by spaces: gcc (the objects and their modules at W=1), sparse (C=2), analyzer (gcc -fanalyzer) and coccinelle (the kernel's scripts on memory safety, NULL, locking and API misuse); gcc is always run") \
	X(BUILD, "max_memory_mb", INT, "4096", 256, 1048576, NULL, \
	  build_max_memory_mb, NULL, "MiB of memory one stage may use in all (its processes and its /tmp together): the memory.max of the cgroup it runs in; without a cgroup the bot may make (cgroup v2 delegated to it, or v1 as root) the stage refuses to run") \
	X(BUILD, "max_tasks", INT, "1024", 16, 65536, NULL, build_max_tasks, \
	  NULL, "processes and threads one stage may have at once (the pids.max of its cgroup)") \
	X(BUILD, "max_disk_mb", INT, "4096", 64, 1048576, NULL, build_max_disk_mb, \
	  NULL, "MiB a stage may add to its folders (work tree and object folder), counted while its commands run; past it the command is stopped and the stage is \"not checked\"") \
	X(BUILD, "tmp_mb", INT, "256", 16, 65536, NULL, build_tmp_mb, NULL, \
	  "MiB of the sandbox's /tmp and of its /dev/shm (each a tmpfs of this size, counted in max_memory_mb)") \
	X(TREE, "url", STRING, NULL, 0, 0, NULL, url, check_git_url,	\
	  "where the tree is fetched from: an https://, http://, git:// or file:// git URL (required); only the bot's fetch, in a sandbox of its own with nothing of any patch, ever talks to it") \
	X(TREE, "branch", STRING, "master", 0, 0, NULL, branch, check_branch, \
	  "the branch fetched (into refs/trees/NAME of the bot's one repository under [build] work)") \
	X(TREE, "lists", STRING, NULL, 0, 0, NULL, lists, check_address_list, \
	  "the lists whose patches go to this tree first, separated by spaces or commas: a series without a base-commit: that this repository has is applied to the first of its list's trees, or to the one its subject names ([PATCH net-next] picks the tree or branch named net-next); a series no tree claims goes to the newest tree") \
	X(TREE, "fetch_interval", INT, "3600", 1, 604800, NULL, fetch_interval, \
	  NULL, "seconds between two fetches of the tree; a base-commit: the repository does not have makes one more fetch of every tree first (at most once in ten minutes, or in this interval when it is shorter, per tree and worker)") \
	X(BOOT, "kernel", PATH, NULL, 0, 0, NULL, boot_kernel, NULL,	\
	  "kernel image to load-test modules in, under QEMU only; unset: no load test") \
	X(BOOT, "headers", PATH, NULL, 0, 0, NULL, boot_headers, NULL,	\
	  "the image's kbuild tree (e.g. Debian's linux-headers); modules are built against it with M=") \
	X(BOOT, "work", PATH, NULL, 0, 0, NULL, boot_work, NULL,	\
	  "scratch folder for the module build and the initramfs (default: boot-work beside the database)") \
	X(BOOT, "timeout", INT, "180", 30, 3600, NULL, boot_timeout,	\
	  NULL, "seconds per module for build, boot, load and unload; a hang is a finding") \
	X(CHECKER, "checkpatch_version", STRING, "auto", 0, 0, NULL,	\
	  checkpatch_version, check_cp_version,				\
	  "the checkpatch.pl whose rules, messages, spelling list and const structs the reviews follow: 6.1 or 6.12; auto: the version nearest to the kernel of [build] tree (its Makefile's VERSION and PATCHLEVEL), else the newest") \
	X(CHECKER, "spelling", STRING, "checkpatch", 0, 0, NULL, spelling, \
	  check_spelling, "the misspellings the review's TYPO_SPELLING looks for: checkpatch (checkpatch.pl's own scripts/spelling.txt: from [build] tree when set, else the list built in for the checkpatch_version the reviews follow), codespell (codespell's dictionary, which also flags kernel words such as filp and parms), or a file in spelling.txt or codespell format (reviewbot check keeps checkpatch.pl's options)") \
	X(LIMITS, "max_message_bytes", INT, "67108864", LIMIT_MIN_MESSAGE,	\
	  MAILBOX_MAX_MESSAGE, NULL, max_message_bytes, NULL,		\
	  "bytes of one mail; a larger one is stored unparsed, as bad with the reason (the default is the ceiling: the most a source reads and the database keeps)") \
	X(LIMITS, "max_parts", INT, "1000", 1, MIME_CEIL_PARTS, NULL,	\
	  max_parts, NULL, "MIME parts (attached messages included) of one mail; a mail with more is stored as bad with the reason") \
	X(LIMITS, "max_references", INT, "256", 1, MIME_CEIL_REFS, NULL, \
	  max_references, NULL, "Message-IDs of a mail's References kept: the first (the thread's root) and the last ones") \
	X(LIMITS, "max_files_per_patch", INT, "50000", 1, LIMIT_CEIL_FILES, \
	  NULL, max_files_per_patch, NULL, "files of one patch's diff read; findings in the files after them are dropped, and the log says so") \
	X(LIMITS, "max_lines_per_patch", INT, "8000000", 1,		\
	  DIFF_DEFAULT_MAX_LINES, NULL, max_lines_per_patch, NULL,	\
	  "diff lines (context, added and removed, all files together) of one patch read; findings after them are dropped, and the log says so (the default is the ceiling)") \
	X(LIMITS, "max_series_parts", INT, "9999", 1, SUBJECT_CEIL_PARTS, \
	  NULL, max_series_parts, NULL, "parts of a series: a [PATCH M/N] with a larger N is skipped as not a patch, with the reason") \
	X(LIMITS, "check_seconds", INT, "60", 1, 3600, NULL, check_seconds, \
	  NULL, "seconds one patch's check may take; a check cut short marks the mail bad with the reason and its series is reviewed without it") \
	X(WEB, "listen", STRING, "127.0.0.1:8080", 0, 0, NULL, web_listen, \
	  check_listen, "ADDR:PORT reviewbot serve listens on (an IPv6 address in brackets: [::1]:8080); --listen overrides it") \
	X(WEB, "url", STRING, NULL, 0, 0, NULL, web_url, check_web_url, \
	  "the pages' public address (https://host/), for the links in answers to queries by mail; unset: no links") \
	X(WEB, "public_lists", STRING, NULL, 0, 0, NULL, web_public_lists, \
	  check_address_list, "list addresses, besides the sources' lists, whose mail may be published (separated by spaces or commas); mail sent to none of them, without a List-Id and not read from a public-inbox source, never is") \
	X(WEB, "timeout", INT, "10", 1, 600, NULL, web_timeout, NULL, \
	  "seconds a connection may stay idle (a slow client is cut off)") \
	X(WEB, "max_connections", INT, "64", 1, 10000, NULL, web_max_connections, \
	  NULL, "connections served at once; more wait in the kernel's queue") \
	X(WEB, "max_per_address", INT, "8", 0, 10000, NULL, web_max_per_address, \
	  NULL, "connections from one address at once; more are closed as they come, so one client cannot take every connection (0: no limit, for a reverse proxy on this host, whose connections all come from one address)") \
	X(WEB, "idle_timeout", INT, "3", 1, 600, NULL, web_idle_timeout, NULL, \
	  "seconds a new connection may take to send its request line (GET /path HTTP/1.1); one that sends nothing is cut off then, so idle connections cannot hold the server's slots") \
	X(WEB, "threads", INT, "2", 1, 64, NULL, web_threads, NULL, \
	  "threads answering requests, each with its own read-only database connection")

enum cfg_section {
	SEC_BOT, SEC_SOURCE, SEC_DELIVERY, SEC_POLICY, SEC_BUILD, SEC_BOOT, SEC_CHECKER,
	SEC_LIMITS, SEC_WEB, SEC_TREE, SEC_N
};
enum cfg_type { T_STRING, T_PATH, T_BOOL, T_INT, T_ENUM };

static const char *const section_names[SEC_N] = {
	"bot", "source", "delivery", "policy", "build", "boot", "checker", "limits", "web",
	"tree",
};

#define SECNAME_BOT		"bot"
#define SECNAME_SOURCE		"source"
#define SECNAME_DELIVERY	"delivery"
#define SECNAME_POLICY		"policy"
#define SECNAME_BUILD		"build"
#define SECNAME_BOOT		"boot"
#define SECNAME_CHECKER		"checker"
#define SECNAME_LIMITS		"limits"
#define SECNAME_WEB		"web"
#define SECNAME_TREE		"tree"
#define TYPENAME_STRING		"string"
#define TYPENAME_PATH		"path"
#define TYPENAME_BOOL		"bool"
#define TYPENAME_INT		"int"
#define TYPENAME_ENUM		"enum"
#define OFF_BOT(f)		offsetof(struct config, f)
#define OFF_DELIVERY(f)		offsetof(struct config, f)
#define OFF_POLICY(f)		offsetof(struct config, f)
#define OFF_BUILD(f)		offsetof(struct config, f)
#define OFF_CHECKER(f)		offsetof(struct config, f)
#define OFF_BOOT(f)		offsetof(struct config, f)
#define OFF_CHECKER(f)		offsetof(struct config, f)
#define OFF_LIMITS(f)		offsetof(struct config, f)
#define OFF_WEB(f)		offsetof(struct config, f)
#define OFF_SOURCE(f)		offsetof(struct config_source, f)
#define OFF_TREE(f)		offsetof(struct config_tree, f)

#define X_PUBLIC(sec, key, type, def, min, max, values, field, check, desc) \
	{ SECNAME_##sec, key, TYPENAME_##type, def, min, max, values, desc },
const struct config_option config_options[] = {
	CONFIG_OPTIONS(X_PUBLIC)
};
const size_t config_noptions = sizeof(config_options) / sizeof(config_options[0]);

struct opt_impl {
	enum cfg_section sec;
	enum cfg_type type;
	size_t off;
	check_fn check;
};

#define X_IMPL(sec, key, type, def, min, max, values, field, check, desc) \
	{ SEC_##sec, T_##type, OFF_##sec(field), check },
static const struct opt_impl opt_impl[] = {
	CONFIG_OPTIONS(X_IMPL)
};

#define X_ID(sec, key, type, def, min, max, values, field, check, desc) \
	OPT_##sec##_##field,
enum { CONFIG_OPTIONS(X_ID) NOPT };

_Static_assert(sizeof(enum source_type) == sizeof(int), "enum fields are ints");
_Static_assert(sizeof(enum reply_policy) == sizeof(int), "enum fields are ints");
_Static_assert(sizeof(enum delivery_type) == sizeof(int), "enum fields are ints");

static const char *const source_type_names[] = {
	[SRC_MAILDIR] = "maildir", [SRC_MBOX] = "mbox", [SRC_IMAP] = "imap",
	[SRC_NNTP] = "nntp", [SRC_PUBLIC_INBOX] = "public-inbox",
};
static const char *const reply_policy_names[] = {
	[REPLY_POLICY_LIST] = "list", [REPLY_POLICY_ALL] = "all",
	[REPLY_POLICY_AUTHOR] = "author", [REPLY_POLICY_NONE] = "none",
};
static const char *const delivery_type_names[] = {
	[DELIVER_MAILDIR] = "maildir", [DELIVER_SENDMAIL] = "sendmail",
	[DELIVER_SMTP] = "smtp",
};

#define NAME_OF(tab, i) \
	((size_t)(i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "unknown")

const char *source_type_name(enum source_type t)
{
	return NAME_OF(source_type_names, t);
}

const char *reply_policy_name(enum reply_policy p)
{
	return NAME_OF(reply_policy_names, p);
}

const char *delivery_type_name(enum delivery_type t)
{
	return NAME_OF(delivery_type_names, t);
}

/* addr is one of the addresses of the list v (check_addresses's form) */
static int in_addresses(const char *v, const char *addr)
{
	size_t n, an = strlen(addr);

	while (v && *v) {
		v += strspn(v, ", \t");
		n = strcspn(v, ", \t");
		if (n && n == an && !strncasecmp(v, addr, n))
			return 1;
		v += n;
	}
	return 0;
}

int config_is_maintainer(const struct config *c, const char *list, const char *addr)
{
	size_t i;

	if (!list || !addr || !*addr)
		return 0;
	for (i = 0; i < c->nsources; i++)
		if (c->sources[i].list && !strcasecmp(c->sources[i].list, list) &&
		    in_addresses(c->sources[i].maintainers, addr))
			return 1;
	return 0;
}

int config_tree_has_list(const struct config_tree *t, const char *addr)
{
	return t && addr && *addr && in_addresses(t->lists, addr);
}

int config_list_has_maintainers(const struct config *c, const char *list)
{
	size_t i;

	if (!list)
		return 0;
	for (i = 0; i < c->nsources; i++)
		if (c->sources[i].list && !strcasecmp(c->sources[i].list, list) &&
		    c->sources[i].maintainers)
			return 1;
	return 0;
}

/* ---- values ---- */

static int has_control(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return 1;
	return 0;
}

/* An addr-spec (RFC 5322 3.4.1) of printable ASCII without specials. */
static int check_address(const char *v, const char **why)
{
	const char *at = strchr(v, '@');
	size_t n = strlen(v);

	if (n > ADDRESS_MAX) {
		*why = "is longer than 254 bytes";
		return -1;
	}
	if (!at || at == v || !at[1] || strchr(at + 1, '@')) {
		*why = "is not an address (local@domain)";
		return -1;
	}
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		if (ch <= ' ' || ch >= 0x7f || strchr("()<>,;:\\\"[]", ch)) {
			*why = "is not an address (local@domain)";
			return -1;
		}
	}
	return 0;
}

/* addresses separated by commas or white space: at most max, and at
 * least one when need_one */
static int address_list(const char *v, size_t max, int need_one, const char **why)
{
	char one[ADDRESS_MAX + 2];
	size_t n, count = 0;

	for (;;) {
		v += strspn(v, ", \t");
		if (!*v)
			break;
		n = strcspn(v, ", \t");
		if (n > ADDRESS_MAX) {
			*why = "holds an address longer than 254 bytes";
			return -1;
		}
		memcpy(one, v, n);
		one[n] = '\0';
		if (check_address(one, why)) {
			*why = "holds something that is not an address (local@domain)";
			return -1;
		}
		if (++count > max) {
			*why = "holds more than " CONFIG_STR(CONFIG_MAX_MAINTAINERS) " addresses";
			return -1;
		}
		v += n;
	}
	if (need_one && !count) {
		*why = "holds no address";
		return -1;
	}
	return 0;
}

/* [source] maintainers: at least one, at most CONFIG_MAX_MAINTAINERS */
static int check_addresses(const char *v, const char **why)
{
	return address_list(v, CONFIG_MAX_MAINTAINERS, 1, why);
}

static int url_has_scheme(const char *v, const char *const *schemes)
{
	for (; *schemes; schemes++) {
		size_t n = strlen(*schemes);

		if (!strncasecmp(v, *schemes, n) && v[n])
			return 1;
	}
	return 0;
}

static const char *const any_schemes[] = {
	"imap://", "imaps://", "nntp://", "nntps://", "http://", "https://",
	NULL,
};
static const char *const imap_schemes[] = { "imap://", "imaps://", NULL };
static const char *const nntp_schemes[] = { "nntp://", "nntps://", NULL };
static const char *const smtp_schemes[] = { "smtp://", "smtps://", NULL };

static int url_chars_ok(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v <= ' ' || *v == 0x7f)
			return 0;
	return 1;
}

/* A POSIX environment variable name: [A-Za-z_][A-Za-z0-9_]* */
static int check_env_name(const char *v, const char **why)
{
	const char *p = v;

	if (!*p || (*p >= '0' && *p <= '9'))
		goto bad;
	for (; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			goto bad;
	return 0;
bad:
	*why = "is not an environment variable name";
	return -1;
}

/* "checkpatch", "codespell" or a file (a relative one is taken
 * relative to the config file's folder, as paths are) */
static int check_spelling(const char *v, const char **why)
{
	if (!strcmp(v, CONFIG_SPELLING_CHECKPATCH) || !strcmp(v, CONFIG_SPELLING_CODESPELL))
		return 0;
	if (!strchr(v, '/') && !strchr(v, '.')) {
		*why = "is not checkpatch, codespell or a file (write ./NAME for a file here)";
		return -1;
	}
	return 0;
}

/* a checkpatch.pl version reviewbot follows, or "auto" */
static int check_cp_version(const char *v, const char **why)
{
	if (!strcmp(v, "auto") || cp_version_find(v, strlen(v)) >= 0)
		return 0;
	*why = "is not a checkpatch.pl version reviewbot follows (6.1, 6.12) or auto";
	return -1;
}

static const char *const git_schemes[] = {
	"https://", "http://", "git://", "file://", NULL,
};

/* [tree] url: a git URL the fetch can take as it is (no ssh: no keys) */
static int check_git_url(const char *v, const char **why)
{
	if (!url_chars_ok(v) || strpbrk(v, "\"'\\")) {
		*why = "is not a url (a space, a quote or a backslash)";
		return -1;
	}
	if (!url_has_scheme(v, git_schemes)) {
		*why = "must start with https://, http://, git:// or file://";
		return -1;
	}
	if (!strncasecmp(v, "file://", 7) && v[7] != '/') {
		*why = "must name an absolute path (file:///srv/git/linux.git)";
		return -1;
	}
	return 0;
}

/* [tree] branch: a branch name git check-ref-format takes (the usual
 * subset: no leading '-', no "..", no "@{", nothing git treats specially) */
static int check_branch(const char *v, const char **why)
{
	const char *p;

	if (*v == '-' || *v == '/' || *v == '.' || strstr(v, "..") || strstr(v, "@{") ||
	    strstr(v, "//") || strstr(v, "/.") || v[strlen(v) - 1] == '/' ||
	    v[strlen(v) - 1] == '.' || strlen(v) > 200)
		goto bad;
	for (p = v; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._-/+", *p)))
			goto bad;
	return 0;
bad:
	*why = "is not a plain branch name (letters, digits, . _ - + /)";
	return -1;
}

/* [build] tools: words of gcc, sparse, analyzer, coccinelle */
static int check_tools(const char *v, const char **why)
{
	static const char *const known[] = { "gcc", "sparse", "analyzer", "coccinelle" };

	for (;;) {
		size_t n, i;

		v += strspn(v, ", \t");
		if (!*v)
			return 0;
		n = strcspn(v, ", \t");
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strlen(known[i]) == n && !strncmp(known[i], v, n))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			*why = "names a tool other than gcc, sparse, analyzer and coccinelle";
			return -1;
		}
		v += n;
	}
}

static int check_url(const char *v, const char **why)
{
	if (!url_chars_ok(v)) {
		*why = "is not a url (it has a space)";
		return -1;
	}
	if (!url_has_scheme(v, any_schemes)) {
		*why = "must start with imap://, imaps://, nntp://, nntps://, http:// or https://";
		return -1;
	}
	return 0;
}

static int check_smtp_url(const char *v, const char **why)
{
	if (!url_chars_ok(v)) {
		*why = "is not a url (it has a space)";
		return -1;
	}
	if (!url_has_scheme(v, smtp_schemes)) {
		*why = "must start with smtp:// or smtps://";
		return -1;
	}
	{
		const char *a = strstr(v, "://") + 3;
		const char *end = a + strcspn(a, "/?#");
		const char *at = memrchr(a, '@', (size_t)(end - a));
		const char *host = at ? at + 1 : a;

		if (host == end || *host == ':') {
			*why = "names no host";
			return -1;
		}
	}
	return 0;
}

/* [web] listen: ADDR:PORT, the address an IPv4 one or an IPv6 one in
 * brackets (bot/web/web_server.c resolves it; no names: no DNS at start) */
static int check_listen(const char *v, const char **why)
{
	const char *colon = strrchr(v, ':');
	char *e;
	long port;

	if (!colon || colon == v) {
		*why = "is not ADDR:PORT (127.0.0.1:8080, [::1]:8080)";
		return -1;
	}
	errno = 0;
	port = strtol(colon + 1, &e, 10);
	if (errno || *e || e == colon + 1 || port < 1 || port > 65535) {
		*why = "has no port from 1 to 65535";
		return -1;
	}
	if (*v == '[' ? colon[-1] != ']' || colon - v < 3 : !!memchr(v, ']', (size_t)(colon - v))) {
		*why = "is not ADDR:PORT (127.0.0.1:8080, [::1]:8080)";
		return -1;
	}
	for (; v < colon; v++)
		if (!((*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'f') ||
		      (*v >= 'A' && *v <= 'F') || *v == '.' || *v == ':' || *v == '[' ||
		      *v == ']')) {
			*why = "is not a numeric address (127.0.0.1, [::1], 0.0.0.0)";
			return -1;
		}
	return 0;
}

static const char *const web_schemes[] = { "http://", "https://", NULL };

static int check_web_url(const char *v, const char **why)
{
	if (!url_chars_ok(v) || strpbrk(v, "\"'<>\\")) {
		*why = "is not a url (a space, a quote or <>)";
		return -1;
	}
	if (!url_has_scheme(v, web_schemes)) {
		*why = "must start with http:// or https://";
		return -1;
	}
	return 0;
}

/* [web] public_lists: any number, none too */
static int check_address_list(const char *v, const char **why)
{
	return address_list(v, SIZE_MAX, 0, why);
}

/* git-config(1): true/yes/on/1 and false/no/off/0; "" is false */
static int parse_bool(const char *v)
{
	static const char *const t[] = { "true", "yes", "on", "1" };
	static const char *const f[] = { "false", "no", "off", "0", "" };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcasecmp(v, t[i]))
			return 1;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcasecmp(v, f[i]))
			return 0;
	return -1;
}

/* The position of v in "a|b|c" (case-insensitive), or -1. */
static int enum_index(const char *values, const char *v)
{
	size_t n = strlen(v);
	int i = 0;

	while (*values) {
		const char *bar = strchr(values, '|');
		size_t len = bar ? (size_t)(bar - values) : strlen(values);

		if (len == n && !strncasecmp(values, v, n))
			return i;
		if (!bar)
			break;
		values = bar + 1;
		i++;
	}
	return -1;
}

static void *field_of(void *base, size_t o)
{
	return (char *)base + opt_impl[o].off;
}

/* "name" for "name='x'" messages: v made visible and cut. */
static const char *visible(const char *v, char *buf, size_t n)
{
	size_t o = 0;

	for (; *v && o + 8 < n; v++) {
		unsigned char ch = (unsigned char)*v;

		if (ch < 0x20 || ch == 0x7f || ch == '\\' || ch == '\'')
			o += (size_t)snprintf(buf + o, n - o, "\\x%02x", ch);
		else
			buf[o++] = (char)ch;
	}
	if (*v)
		o += (size_t)snprintf(buf + o, n - o, "...");
	buf[o] = '\0';
	return buf;
}

/*
 * Sets option o of base (a struct config, or a struct config_source)
 * from the text v.  Returns 0, or -1 with why[] saying what is wrong.
 */
static int option_set(void *base, size_t o, const char *v, char *why,
		      size_t whylen)
{
	const struct config_option *opt = &config_options[o];
	const char *reason = NULL;
	char vis[80];
	char *end, **sp;
	long l;
	int b;

	switch (opt_impl[o].type) {
	case T_STRING:
	case T_PATH:
		if (!*v) {
			snprintf(why, whylen, "%s: empty value", opt->key);
			return -1;
		}
		/* a url may carry a password: never repeat it */
		if (has_control(v)) {
			if (!strcmp(opt->key, "url"))
				snprintf(why, whylen, "%s: control character in the url", opt->key);
			else
				snprintf(why, whylen, "%s: control character in '%s'",
					 opt->key, visible(v, vis, sizeof(vis)));
			return -1;
		}
		if (opt_impl[o].check && opt_impl[o].check(v, &reason)) {
			if (!strcmp(opt->key, "url"))
				snprintf(why, whylen, "%s: the url %s", opt->key, reason);
			else
				snprintf(why, whylen, "%s: '%s' %s", opt->key,
					 visible(v, vis, sizeof(vis)), reason);
			return -1;
		}
		sp = field_of(base, o);
		free(*sp);
		*sp = strdup(v);
		if (!*sp) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		return 0;
	case T_BOOL:
		b = parse_bool(v);
		if (b < 0) {
			snprintf(why, whylen, "%s: '%s' is not a boolean "
				 "(true/false, yes/no, on/off, 1/0)", opt->key,
				 visible(v, vis, sizeof(vis)));
			return -1;
		}
		*(int *)field_of(base, o) = b;
		return 0;
	case T_INT:
		errno = 0;
		l = strtol(v, &end, 10);
		if (!((*v >= '0' && *v <= '9') || *v == '-' || *v == '+') ||
		    end == v || *end) {
			snprintf(why, whylen, "%s: '%s' is not a number", opt->key,
				 visible(v, vis, sizeof(vis)));
			return -1;
		}
		if ((errno == ERANGE && l == LONG_MIN) || l < opt->min) {
			snprintf(why, whylen, "%s: %s is below the minimum %ld",
				 opt->key, visible(v, vis, sizeof(vis)), opt->min);
			return -1;
		}
		if (errno == ERANGE || l > opt->max) {
			snprintf(why, whylen, "%s: %s is above the maximum %ld",
				 opt->key, visible(v, vis, sizeof(vis)), opt->max);
			return -1;
		}
		*(int *)field_of(base, o) = (int)l;
		return 0;
	case T_ENUM:
		b = enum_index(opt->values, v);
		if (b < 0) {
			snprintf(why, whylen, "%s: '%s' is not one of %s", opt->key,
				 visible(v, vis, sizeof(vis)), opt->values);
			return -1;
		}
		*(int *)field_of(base, o) = b;
		return 0;
	}
	snprintf(why, whylen, "%s: bad option type", opt->key);
	return -1;
}

/* Sets the defaults of section sec's options in base. */
static int defaults_set(void *base, enum cfg_section sec)
{
	char why[256];
	size_t o;
	int ret = 0;

	for (o = 0; o < NOPT; o++)
		if (opt_impl[o].sec == sec && config_options[o].def &&
		    option_set(base, o, config_options[o].def, why, sizeof(why)))
			ret = -1;
	return ret;
}

static void strings_free(void *base, enum cfg_section sec)
{
	size_t o;

	for (o = 0; o < NOPT; o++) {
		if (opt_impl[o].sec != sec)
			continue;
		if (opt_impl[o].type == T_STRING || opt_impl[o].type == T_PATH) {
			char **sp = field_of(base, o);

			free(*sp);
			*sp = NULL;
		}
	}
}

void config_init(struct config *c)
{
	memset(c, 0, sizeof(*c));
	defaults_set(c, SEC_BOT);
	defaults_set(c, SEC_DELIVERY);
	defaults_set(c, SEC_POLICY);
	defaults_set(c, SEC_BUILD);
	defaults_set(c, SEC_CHECKER);
	defaults_set(c, SEC_BOOT);
	defaults_set(c, SEC_CHECKER);
	defaults_set(c, SEC_LIMITS);
	defaults_set(c, SEC_WEB);
}

void config_release(struct config *c)
{
	size_t i;

	for (i = 0; i < c->nsources; i++) {
		strings_free(&c->sources[i], SEC_SOURCE);
		free(c->sources[i].name);
	}
	free(c->sources);
	for (i = 0; i < c->ntrees; i++) {
		strings_free(&c->trees[i], SEC_TREE);
		free(c->trees[i].name);
	}
	free(c->trees);
	strings_free(c, SEC_BOT);
	strings_free(c, SEC_DELIVERY);
	strings_free(c, SEC_POLICY);
	strings_free(c, SEC_BUILD);
	strings_free(c, SEC_CHECKER);
	strings_free(c, SEC_BOOT);
	strings_free(c, SEC_CHECKER);
	strings_free(c, SEC_LIMITS);
	strings_free(c, SEC_WEB);
	free(c->file);
	memset(c, 0, sizeof(*c));
}

void config_mime_limits(const struct config *c, struct mime_limits *out)
{
	out->max_mail = (size_t)c->max_message_bytes;
	out->max_parts = (size_t)c->max_parts;
	out->max_refs = (size_t)c->max_references;
}

/* Set field by field: the config tools link no diff parser. */
void config_diff_limits(const struct config *c, struct diff_limits *out)
{
	out->max_files = (size_t)c->max_files_per_patch;
	out->max_hunks = DIFF_DEFAULT_MAX_HUNKS;
	out->max_lines = (size_t)c->max_lines_per_patch;
	out->max_path = DIFF_DEFAULT_MAX_PATH;
}

/* ---- the parser ---- */

struct parser {
	const char *name;
	const char *buf;
	size_t len, pos;
	int line;
	struct config *c;
	char *err;
	size_t errlen;
	int sec;		/* enum cfg_section, -1 before the first */
	size_t src;		/* the current source when sec is SEC_SOURCE */
	size_t tree;		/* the current tree when sec is SEC_TREE */
	int sec_line[SEC_N];	/* first header of each section */
	int gline[NOPT];	/* where a key of bot/delivery/policy was set */
	int sline[CONFIG_MAX_SOURCES][NOPT];	/* the same for sources */
	int tline[CONFIG_MAX_TREES][NOPT];	/* and for trees */
	char val[CONFIG_MAX_VALUE + 1];
};

static int fail(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -1;
	if (line > 0)
		n = snprintf(p->err, p->errlen, "%s:%d: ", p->name, line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->name);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int at_end(const struct parser *p)
{
	return p->pos >= p->len;
}

static int peek(const struct parser *p)
{
	return at_end(p) ? -1 : (unsigned char)p->buf[p->pos];
}

static int is_blank(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static int is_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int is_alnum(int ch)
{
	return is_alpha(ch) || (ch >= '0' && ch <= '9');
}

static void skip_blanks(struct parser *p)
{
	while (is_blank(peek(p)))
		p->pos++;
}

/* to the newline, which is left for the caller */
static void skip_comment(struct parser *p)
{
	while (!at_end(p) && p->buf[p->pos] != '\n')
		p->pos++;
}

static int at_line_end(const struct parser *p)
{
	int ch = peek(p);

	return ch < 0 || ch == '\n' || ch == '#' || ch == ';';
}

static void section_text(const struct parser *p, char *buf, size_t n)
{
	if (p->sec == SEC_SOURCE)
		snprintf(buf, n, "[source \"%s\"]", p->c->sources[p->src].name);
	else if (p->sec == SEC_TREE)
		snprintf(buf, n, "[tree \"%s\"]", p->c->trees[p->tree].name);
	else
		snprintf(buf, n, "[%s]", section_names[p->sec]);
}

static int source_open(struct parser *p, const char *sub, int line)
{
	struct config *c = p->c;
	struct config_source *s;
	size_t i;

	for (i = 0; i < c->nsources; i++) {
		if (!strcmp(c->sources[i].name, sub)) {
			p->src = i;
			return 0;
		}
	}
	if (c->nsources >= CONFIG_MAX_SOURCES)
		return fail(p, line, "too many sources (at most %d)",
			    CONFIG_MAX_SOURCES);
	s = realloc(c->sources, (c->nsources + 1) * sizeof(*s));
	if (!s)
		return fail(p, line, "out of memory");
	c->sources = s;
	s = &c->sources[c->nsources];
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->name = strdup(sub);
	c->nsources++;
	if (!s->name || defaults_set(s, SEC_SOURCE))
		return fail(p, line, "out of memory");
	p->src = c->nsources - 1;
	return 0;
}

/* A tree's name: it names a ref (refs/trees/NAME) and a review's words. */
static int tree_name_ok(const char *n)
{
	const char *q;

	if (!*n || *n == '.' || *n == '-' || strstr(n, "..") || strlen(n) > 48)
		return 0;
	for (q = n; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || *q == '.' || *q == '_' || *q == '-'))
			return 0;
	return q[-1] != '.';
}

static int tree_open(struct parser *p, const char *sub, int line)
{
	struct config *c = p->c;
	struct config_tree *t;
	size_t i;

	if (!tree_name_ok(sub))
		return fail(p, line, "tree name \"%s\": letters, digits, '.', '_' and '-' "
			    "only, at most 48, not starting with '.' or '-'", sub);
	for (i = 0; i < c->ntrees; i++) {
		if (!strcmp(c->trees[i].name, sub)) {
			p->tree = i;
			return 0;
		}
	}
	if (c->ntrees >= CONFIG_MAX_TREES)
		return fail(p, line, "too many trees (at most %d)", CONFIG_MAX_TREES);
	t = realloc(c->trees, (c->ntrees + 1) * sizeof(*t));
	if (!t)
		return fail(p, line, "out of memory");
	c->trees = t;
	t = &c->trees[c->ntrees];
	memset(t, 0, sizeof(*t));
	t->line = line;
	t->name = strdup(sub);
	c->ntrees++;
	if (!t->name || defaults_set(t, SEC_TREE))
		return fail(p, line, "out of memory");
	p->tree = c->ntrees - 1;
	return 0;
}

/* "[name]" or "[name "sub"]", at '[' */
static int parse_section(struct parser *p)
{
	char name[CONFIG_MAX_NAME + 1], sub[CONFIG_MAX_NAME + 1];
	size_t n = 0, sn = 0;
	int line = p->line, has_sub = 0, ch, s;

	p->pos++;
	while (is_alnum(peek(p)) || peek(p) == '-' || peek(p) == '.') {
		if (n == CONFIG_MAX_NAME)
			return fail(p, line, "section name too long");
		name[n++] = (char)p->buf[p->pos++];
	}
	name[n] = '\0';
	if (is_blank(peek(p))) {
		skip_blanks(p);
		if (peek(p) != '"')
			return fail(p, line, "bad section header: a name must be quoted, as [source \"NAME\"]");
		p->pos++;
		has_sub = 1;
		for (;;) {
			ch = peek(p);
			if (ch < 0 || ch == '\n')
				return fail(p, line, "unterminated section header");
			p->pos++;
			if (ch == '"')
				break;
			if (ch == '\\') {
				ch = peek(p);
				if (ch < 0 || ch == '\n')
					return fail(p, line, "unterminated section header");
				p->pos++;
			}
			if (ch < 0x20 || ch == 0x7f)
				return fail(p, line, "control character in a section name");
			if (sn == CONFIG_MAX_NAME)
				return fail(p, line, "section name longer than %d bytes",
					    CONFIG_MAX_NAME);
			sub[sn++] = (char)ch;
		}
	}
	sub[sn] = '\0';
	ch = peek(p);
	if (ch < 0 || ch == '\n')
		return fail(p, line, "unterminated section header");
	if (ch != ']')
		return fail(p, line, "bad section header");
	p->pos++;
	skip_blanks(p);
	if (!at_line_end(p))
		return fail(p, line, "text after the section header");
	if (!n)
		return fail(p, line, "bad section header");

	for (s = 0; s < SEC_N; s++)
		if (!strcasecmp(name, section_names[s]))
			break;
	if (s == SEC_N)
		return fail(p, line, "unknown section [%s]", name);
	if (s == SEC_SOURCE) {
		if (!has_sub)
			return fail(p, line, "section [source] needs a name, as [source \"NAME\"]");
		if (!sn)
			return fail(p, line, "empty source name");
		if (source_open(p, sub, line))
			return -1;
	} else if (s == SEC_TREE) {
		if (!has_sub)
			return fail(p, line, "section [tree] needs a name, as [tree \"NAME\"]");
		if (tree_open(p, sub, line))
			return -1;
	} else if (has_sub) {
		return fail(p, line, "section [%s] takes no name", section_names[s]);
	}
	p->sec = s;
	if (!p->sec_line[s])
		p->sec_line[s] = line;
	return 0;
}

static int val_add(struct parser *p, const char *key, int line, size_t *n,
		   int ch)
{
	if (*n >= CONFIG_MAX_VALUE)
		return fail(p, line, "%s: value longer than %d bytes", key,
			    CONFIG_MAX_VALUE);
	p->val[(*n)++] = (char)ch;
	return 0;
}

/*
 * The value after '=' into p->val, as git-config(1) reads it: blanks
 * around an unquoted value dropped, '#' or ';' outside quotes starts a
 * comment, \" \\ \n \t \b escapes, backslash-newline continues the line.
 */
static int parse_value(struct parser *p, const char *key, int line)
{
	size_t n = 0, spaces = 0;
	int quote = 0, ch;

	skip_blanks(p);
	for (;;) {
		ch = peek(p);
		if (ch < 0 || ch == '\n') {
			if (quote)
				return fail(p, line, "%s: unterminated quote", key);
			break;
		}
		p->pos++;
		if (!quote && (ch == '#' || ch == ';')) {
			skip_comment(p);
			break;
		}
		if (!quote && is_blank(ch)) {
			spaces++;
			continue;
		}
		for (; spaces; spaces--)
			if (n && val_add(p, key, line, &n, ' '))
				return -1;
		if (ch == '\\') {
			ch = peek(p);
			if (ch == '\r' && p->pos + 1 < p->len &&
			    p->buf[p->pos + 1] == '\n')
				ch = (p->pos++, '\n');
			if (ch < 0)
				return fail(p, line, "%s: backslash at the end of the file", key);
			p->pos++;
			switch (ch) {
			case '\n':
				p->line++;
				continue;
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'b':
				ch = '\b';
				break;
			case '"':
			case '\\':
				break;
			default:
				return fail(p, line, "%s: unknown escape '\\%c'", key,
					    ch > ' ' && ch < 0x7f ? ch : '?');
			}
		} else if (ch == '"') {
			quote = !quote;
			continue;
		}
		if (val_add(p, key, line, &n, ch))
			return -1;
	}
	p->val[n] = '\0';
	return 0;
}

/* "key = value" or "key" alone, at the key's first letter */
static int parse_key(struct parser *p)
{
	char key[CONFIG_MAX_NAME + 1], norm[CONFIG_MAX_NAME + 1], sect[CONFIG_MAX_NAME + 32];
	char why[CONFIG_MAX_NAME + 256];
	size_t n = 0, o, i;
	int line = p->line, has_value, *lines;
	void *base;

	while (is_alnum(peek(p)) || peek(p) == '-' || peek(p) == '_') {
		if (n == CONFIG_MAX_NAME)
			return fail(p, line, "key name too long");
		key[n++] = (char)p->buf[p->pos++];
	}
	key[n] = '\0';
	for (i = 0; i <= n; i++)
		norm[i] = key[i] == '-' ? '_' :
			(key[i] >= 'A' && key[i] <= 'Z') ? (char)(key[i] - 'A' + 'a') : key[i];
	skip_blanks(p);
	if (peek(p) == '=') {
		p->pos++;
		has_value = 1;
	} else if (at_line_end(p)) {
		has_value = 0;
	} else {
		return fail(p, line, "expected '=' after key '%s'", key);
	}
	if (p->sec < 0)
		return fail(p, line, "key '%s' before any section", key);

	for (o = 0; o < NOPT; o++)
		if ((int)opt_impl[o].sec == p->sec &&
		    !strcmp(config_options[o].key, norm))
			break;
	if (o == NOPT) {
		section_text(p, sect, sizeof(sect));
		return fail(p, line, "unknown key '%s' in section %s", key, sect);
	}
	if (p->sec == SEC_SOURCE) {
		base = &p->c->sources[p->src];
		lines = p->sline[p->src];
	} else if (p->sec == SEC_TREE) {
		base = &p->c->trees[p->tree];
		lines = p->tline[p->tree];
	} else {
		base = p->c;
		lines = p->gline;
	}
	if (lines[o])
		return fail(p, line, "%s: given twice (first at line %d)",
			    config_options[o].key, lines[o]);
	lines[o] = line;

	if (has_value) {
		if (parse_value(p, config_options[o].key, line))
			return -1;
	} else if (opt_impl[o].type == T_BOOL) {
		memcpy(p->val, "true", 5);	/* git: a key alone is true */
	} else {
		return fail(p, line, "%s: a value is required", config_options[o].key);
	}
	if (option_set(base, o, p->val, why, sizeof(why)))
		return fail(p, line, "%s", why);
	return 0;
}

static const char *const *source_schemes(enum source_type t)
{
	switch (t) {
	case SRC_IMAP:
		return imap_schemes;
	case SRC_NNTP:
		return nntp_schemes;
	case SRC_PUBLIC_INBOX:
		/* its HTTP, IMAP or NNTP face */
		return any_schemes;
	case SRC_MAILDIR:
	case SRC_MBOX:
		break;
	}
	return NULL;
}

/* What no single key can say: required keys, keys that need each other. */
static int check_source(struct parser *p, size_t i)
{
	struct config_source *s = &p->c->sources[i];
	const int *lines = p->sline[i];
	const char *const *schemes;
	const char *type;

	if (!lines[OPT_SOURCE_type])
		return fail(p, s->line, "source \"%s\": type is required", s->name);
	type = source_type_name(s->type);
	schemes = source_schemes(s->type);
	if (schemes) {
		if (!s->url)
			return fail(p, s->line, "source \"%s\": url is required for type %s",
				    s->name, type);
		if (!url_has_scheme(s->url, schemes) && schemes == any_schemes)
			return fail(p, lines[OPT_SOURCE_url],
				    "source \"%s\": url must start with http(s)://, imap(s):// or nntp(s):// for type %s",
				    s->name, type);
		if (!url_has_scheme(s->url, schemes))
			return fail(p, lines[OPT_SOURCE_url],
				    "source \"%s\": url must start with %s or %s for type %s",
				    s->name, schemes[0], schemes[1], type);
		if (s->path)
			return fail(p, lines[OPT_SOURCE_path],
				    "source \"%s\": path does not apply to type %s",
				    s->name, type);
	} else {
		if (!s->path)
			return fail(p, s->line, "source \"%s\": path is required for type %s",
				    s->name, type);
		if (s->url)
			return fail(p, lines[OPT_SOURCE_url],
				    "source \"%s\": url does not apply to type %s",
				    s->name, type);
	}
	/* maintainers maintain a list: their word demotes a type there */
	if (s->maintainers && !s->list)
		return fail(p, lines[OPT_SOURCE_maintainers],
			    "source \"%s\": maintainers needs list", s->name);
	return 0;
}

/* A tree needs its url; two trees of one url and branch are one. */
static int check_tree(struct parser *p, size_t i)
{
	const struct config_tree *t = &p->c->trees[i];
	size_t j;

	if (!t->url)
		return fail(p, t->line, "tree \"%s\": url is required", t->name);
	for (j = 0; j < i; j++)
		if (!strcmp(p->c->trees[j].url, t->url) &&
		    !strcmp(p->c->trees[j].branch, t->branch))
			return fail(p, t->line, "tree \"%s\": the same url and branch as tree "
				    "\"%s\"", t->name, p->c->trees[j].name);
	return 0;
}

static int check_all(struct parser *p)
{
	struct config *c = p->c;
	const char *type = delivery_type_name(c->delivery);
	int replies = 0;
	size_t i;

	for (i = 0; i < c->nsources; i++) {
		if (check_source(p, i))
			return -1;
		if (c->sources[i].reply != REPLY_POLICY_NONE)
			replies = 1;
	}
	for (i = 0; i < c->ntrees; i++)
		if (check_tree(p, i))
			return -1;
	if (c->delivery == DELIVER_SMTP) {
		if (!c->delivery_url)
			return fail(p, p->sec_line[SEC_DELIVERY],
				    "delivery: url is required for type smtp");
		if (p->gline[OPT_DELIVERY_delivery_path])
			return fail(p, p->gline[OPT_DELIVERY_delivery_path],
				    "delivery: path does not apply to type smtp");
		free(c->delivery_path);
		c->delivery_path = NULL;
	} else {
		if (c->delivery_url)
			return fail(p, p->gline[OPT_DELIVERY_delivery_url],
				    "delivery: url does not apply to type %s", type);
		if (c->delivery == DELIVER_SENDMAIL &&
		    !p->gline[OPT_DELIVERY_delivery_path]) {
			free(c->delivery_path);
			c->delivery_path = strdup(SENDMAIL_DEFAULT);
			if (!c->delivery_path)
				return fail(p, 0, "out of memory");
		}
	}
	if (!c->dry_run && replies && !c->address)
		return fail(p, p->gline[OPT_BOT_dry_run] ? p->sec_line[SEC_BOT] : 0,
			    "bot: address is required when dry_run is false");
	return 0;
}

/*
 * A relative path is taken relative to the config file's folder, dir[0,
 * dirlen) ("" for a file in "/").
 */
static int path_resolve(char **pp, const char *dir, size_t dirlen)
{
	char *r;
	size_t n;

	if (!*pp || (*pp)[0] == '/')
		return 0;
	n = strlen(*pp);
	r = malloc(dirlen + 1 + n + 1);
	if (!r)
		return -1;
	memcpy(r, dir, dirlen);
	r[dirlen] = '/';
	memcpy(r + dirlen + 1, *pp, n + 1);
	free(*pp);
	*pp = r;
	return 0;
}

static int paths_resolve(struct parser *p)
{
	const char *slash = strrchr(p->name, '/');
	size_t dirlen, o, i;

	if (!slash)
		return 0;	/* the current folder: keep it relative */
	dirlen = (size_t)(slash - p->name);
	for (o = 0; o < NOPT; o++) {
		if (opt_impl[o].type != T_PATH)
			continue;
		if (opt_impl[o].sec != SEC_SOURCE) {
			if (path_resolve(field_of(p->c, o), p->name, dirlen))
				return fail(p, 0, "out of memory");
			continue;
		}
		for (i = 0; i < p->c->nsources; i++)
			if (path_resolve(field_of(&p->c->sources[i], o), p->name,
					 dirlen))
				return fail(p, 0, "out of memory");
	}
	return 0;
}

static int run(struct parser *p)
{
	int ch;
	const char *nul;

	if (p->len > CONFIG_MAX_FILE)
		return fail(p, 0, "larger than %u bytes", CONFIG_MAX_FILE);
	nul = memchr(p->buf, '\0', p->len);
	if (nul) {
		const char *q;
		int line = 1;

		for (q = p->buf; q < nul; q++)
			line += *q == '\n';
		return fail(p, line, "NUL byte in the file");
	}
	if (p->len >= 3 && !memcmp(p->buf, "\xef\xbb\xbf", 3))
		p->pos = 3;	/* a UTF-8 byte order mark, as git skips it */

	while (!at_end(p)) {
		ch = peek(p);
		if (is_blank(ch)) {
			p->pos++;
		} else if (ch == '\n') {
			p->pos++;
			p->line++;
		} else if (ch == '#' || ch == ';') {
			skip_comment(p);
		} else if (ch == '[') {
			if (parse_section(p))
				return -1;
		} else if (is_alpha(ch)) {
			if (parse_key(p))
				return -1;
		} else if (ch < 0x20 || ch >= 0x7f) {
			return fail(p, p->line, "unexpected byte 0x%02x", ch);
		} else {
			return fail(p, p->line, "unexpected character '%c'", ch);
		}
	}
	if (check_all(p))
		return -1;
	if (paths_resolve(p))
		return -1;
	/* [checker] spelling names a file unless it is a keyword */
	if (strcmp(p->c->spelling, CONFIG_SPELLING_CHECKPATCH) &&
	    strcmp(p->c->spelling, CONFIG_SPELLING_CODESPELL) && strrchr(p->name, '/') &&
	    path_resolve(&p->c->spelling, p->name, (size_t)(strrchr(p->name, '/') - p->name)))
		return fail(p, 0, "out of memory");
	return 0;
}

int config_parse(const char *name, const char *buf, size_t len,
		 struct config *c, char *err, size_t errlen)
{
	struct parser *p;
	int ret = -1;

	if (!name)
		name = "(config)";
	if (err && errlen)
		err[0] = '\0';
	config_init(c);
	c->file = strdup(name);
	p = calloc(1, sizeof(*p));
	if (!p || !c->file || !c->name || !c->database || !c->delivery_path ||
	    !c->spelling) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	p->name = name;
	p->buf = buf ? buf : "";
	p->len = buf ? len : 0;
	p->line = 1;
	p->c = c;
	p->err = err;
	p->errlen = errlen;
	p->sec = -1;
	ret = run(p);
out:
	free(p);
	if (ret) {
		/* on failure the caller gets the defaults back */
		config_release(c);
		config_init(c);
	}
	return ret;
}

int config_load(const char *path, struct config *c, char *err, size_t errlen)
{
	struct sbuf sb;
	size_t n;
	int ret;

	sbuf_init(&sb, CONFIG_MAX_FILE);
	if (fileio_read(path, &sb)) {
		int e = errno;

		config_init(c);
		if (err && errlen) {
			if (e == EFBIG)
				snprintf(err, errlen, "%s: larger than %u bytes",
					 path, CONFIG_MAX_FILE);
			else
				snprintf(err, errlen, "%s: %s", path, strerror(e));
			/* "No such file...": messages are lowercase */
			n = strlen(path) + 2;
			if (n < strlen(err) && err[n] >= 'A' && err[n] <= 'Z')
				err[n] = (char)(err[n] - 'A' + 'a');
		}
		sbuf_release(&sb);
		return -1;
	}
	ret = config_parse(path, sb.buf, sb.len, c, err, errlen);
	sbuf_release(&sb);
	return ret;
}
