/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sandbox: the one runner for the compile and load stages.  Everything
 * those stages start (git apply, make, the module build, the initramfs
 * packing, qemu) runs what a patch from the internet brings, so it runs
 * here: inside bubblewrap (bwrap(1), Debian's bubblewrap), never on the
 * host.
 *
 * What a command sees:
 *   - its own user, IPC, PID, UTS, cgroup and network namespaces (no
 *     network at all: only a loopback device that reaches nothing), a new
 *     session (no terminal to push keys into), no further user
 *     namespaces, killed with the bot (--die-with-parent);
 *   - an unprivileged uid: the bot's own when it is not root; when it is
 *     root, the command is started as the sandbox user ("nobody", or
 *     [bot] user when the daemon did not drop to it) before bwrap runs;
 *   - the parts of /usr the stages need, read-only (sandbox_usr_parts:
 *     programs, libraries, headers, perl's and bison's data, git's
 *     templates, QEMU's firmware; not /usr/local, /usr/src or the rest of
 *     /usr/share) with the merged-/usr links, a few files of /etc the
 *     toolchain needs (alternatives, ld.so), a private /tmp and /dev/shm
 *     of a fixed size, a minimal /dev and its own /proc (with hide_host:
 *     its cpuinfo, meminfo, loadavg, stat, uptime and version read as
 *     empty), the rest of the root read-only; and the folders the stage
 *     names, each read-only or writable: nothing else of the host, so not
 *     the bot's database, configuration, password files or home;
 *   - resource limits (struct sandbox_limits): CPU seconds and address
 *     space per process, the size of a file it writes, processes of its
 *     user; and, when the stage gives one, a cgroup bounding all its
 *     commands together (cgroup.h) and a budget of the bytes a folder may
 *     hold (checked every second: past it the command is killed).
 *   - no network, except for the one command that fetches a git tree
 *     (net: the host's network and name resolution, and nothing of any
 *     patch: bot/stage/tree.c).
 * A command is given argv (no shell on the host), /dev/null or a file
 * of the stage's as stdin, and its stdout and stderr together are read
 * into a capped buffer until the deadline; then, or on a stop, bwrap is
 * killed and with it every process inside.
 *
 * There is no unsandboxed fallback: when bwrap is missing or cannot make
 * its namespaces (user namespaces turned off), sandbox_check() says why
 * and the stages refuse to start ("not checked").
 *
 * Files that a sandbox can write are hostile afterwards: the helpers
 * below read and remove them without following a link, and write the
 * stage's own inputs into folders made fresh for them.
 */
#ifndef RB_SANDBOX_H
#define RB_SANDBOX_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "../../checker/sbuf.h"

#define SANDBOX_MAX_MOUNTS	24
#define SANDBOX_MAX_ARGS	128	/* the command's own argv */
#define SANDBOX_PATH_MAX	4096
#define SANDBOX_USER		"nobody"	/* root's stand-in, see above */
#define SANDBOX_MAX_ENV		8
#define SANDBOX_TMP_DEFAULT	(256ull << 20)	/* bytes of /tmp and /dev/shm */

enum sandbox_result {
	SANDBOX_OK = 0,		/* the command exited 0 */
	SANDBOX_FAILED,		/* it exited non-zero or was killed by a signal */
	SANDBOX_TIMEOUT,	/* the deadline passed (or a stop): killed */
	SANDBOX_NOSTART,	/* bwrap or the command could not start */
	SANDBOX_QUOTA,		/* its folder grew past quota_limit: killed */
};

struct cgroup;

struct sandbox_limits {
	unsigned long cpu_s;		/* RLIMIT_CPU, per process; 0: none */
	unsigned long long as_bytes;	/* RLIMIT_AS, per process; 0: none */
	unsigned long long fsize_bytes;	/* RLIMIT_FSIZE; 0: none */
	unsigned long nproc;		/* RLIMIT_NPROC of the user; 0: none */
	unsigned long long tmp_bytes;	/* /tmp's and /dev/shm's size; 0: default */
};

enum sandbox_mount_kind { SANDBOX_RO, SANDBOX_RW, SANDBOX_DIR, SANDBOX_TMPFS };

struct sandbox_mount {
	enum sandbox_mount_kind kind;
	char src[SANDBOX_PATH_MAX];	/* host path (RO, RW) */
	char dst[SANDBOX_PATH_MAX];	/* path inside */
};

/* One command's sandbox: set up with sandbox_init and the mount calls. */
struct sandbox {
	struct sandbox_mount m[SANDBOX_MAX_MOUNTS];
	size_t nm;
	struct sandbox_limits lim;
	char cwd[SANDBOX_PATH_MAX];	/* inside; "/" when unset */
	char stdin_path[SANDBOX_PATH_MAX];	/* host file as stdin; "": /dev/null */
	double deadline;		/* CLOCK_MONOTONIC seconds */
	int err;			/* a mount call failed: runs refuse */
	int net;			/* the host's network (a fetch only) */
	int hide_host;			/* /proc's words about the host hidden */
	struct cgroup *cg;		/* every process joins it; NULL: none */
	char quota_path[SANDBOX_PATH_MAX];	/* host folder whose size is bounded */
	unsigned long long quota_limit;	/* bytes it may hold in all; 0: none */
	size_t nenv;
	char env_name[SANDBOX_MAX_ENV][64];
	char env_value[SANDBOX_MAX_ENV][SANDBOX_PATH_MAX];
	/* filled by sandbox_run */
	int status;			/* wait status of bwrap */
	char why[256];			/* NOSTART: bwrap's words */
};

/* Limits that suit a compile of one kernel object or a QEMU boot. */
void sandbox_default_limits(struct sandbox_limits *lim, unsigned long timeout_s);
/* CLOCK_MONOTONIC seconds: the clock of every deadline here. */
double sandbox_now(void);
void sandbox_init(struct sandbox *sb, const struct sandbox_limits *lim, double deadline);
/*
 * Makes host path visible inside at the same path, read-only or
 * writable; sandbox_bind_at at another path.  Paths must be absolute,
 * without "..", newlines or control characters.  A failure sets sb->err.
 */
void sandbox_ro(struct sandbox *sb, const char *path);
void sandbox_rw(struct sandbox *sb, const char *path);
void sandbox_bind_at(struct sandbox *sb, const char *src, const char *dst, int writable);
/* An empty folder or a fresh tmpfs at dst inside. */
void sandbox_dir(struct sandbox *sb, const char *dst);
void sandbox_tmpfs(struct sandbox *sb, const char *dst);
void sandbox_chdir(struct sandbox *sb, const char *dir);
void sandbox_stdin(struct sandbox *sb, const char *host_file);
/* NAME=value in the command's environment (NAME: letters, digits, '_'). */
void sandbox_setenv(struct sandbox *sb, const char *name, const char *value);
/* The folder (host path) whose bytes the command may bring to limit. */
void sandbox_quota(struct sandbox *sb, const char *host_dir, unsigned long long limit);

/*
 * Bytes (allocated blocks) of everything below path, links not followed;
 * the walk stops at max_entries (*entries says how many it saw).
 */
unsigned long long sandbox_usage(const char *path, size_t max_entries, size_t *entries);

/* The parts of /usr a sandbox sees (NULL-terminated), and whether path
 * (canonical) lies in one of them. */
extern const char *const sandbox_usr_parts[];
int sandbox_usr_shown(const char *path);

/*
 * Runs argv (argv[0] looked up in the sandbox's PATH) until it ends, the
 * deadline passes or *stop (may be NULL) is set.  Output (stdout and
 * stderr together) is appended to out (capped: the rest is read and
 * dropped) when out is not NULL.  LC_ALL=C, HOME=/tmp.
 */
enum sandbox_result sandbox_run(struct sandbox *sb, const char *const argv[],
				struct sbuf *out, const volatile sig_atomic_t *stop);

/*
 * Whether the stages can run here: bwrap is found and makes its
 * namespaces (one short run of /bin/true in a sandbox).  0, or -1 with
 * err saying why.  The answer is kept for the process after a success.
 */
int sandbox_check(char *err, size_t errlen);

/*
 * The uid and gid that own what a sandbox writes: the process's own, or
 * SANDBOX_USER's when it is root.  -1 when that user does not exist.
 */
int sandbox_owner(uid_t *uid, gid_t *gid);

/* mkdir -p of path (host), folders made 0755.  0 or -1. */
int sandbox_mkdir_p(const char *path);
/* The same; the last component handed to the sandbox's owner when we
 * are root.  0 or -1. */
int sandbox_mkdir_owned(const char *path);

/*
 * Removes path and, if it is a folder, all below it, without following
 * a link anywhere (links are removed, not their targets).  A missing
 * path is not an error.  0 or -1.
 */
int sandbox_rmtree(const char *path);

/*
 * Writes buf[0, len) to a new file path (O_EXCL: never through a link
 * or over a file a sandbox made) with mode, owned by the sandbox's owner
 * when we are root.  0 or -1.
 */
int sandbox_write_new(const char *path, const void *buf, size_t len, mode_t mode);

/*
 * Reads path, which a sandbox could write, into a malloc'd
 * NUL-terminated *buf: only a regular file (no link followed, no FIFO
 * waited for) of at most max bytes; with trunc, a longer one is cut at
 * max instead of refused.  0 or -1.
 */
int sandbox_read_file(const char *path, size_t max, int trunc, char **buf, size_t *len);

struct config;

/*
 * Whether the configuration's compile and load stages ([build], [boot])
 * can run safely: sandbox_check(), and none of what the bot keeps to
 * itself (the configuration file, the database, the outbox, every
 * password file) lies in a folder those stages show to a sandbox (the
 * kernel tree, the work folders, the headers, /usr).  0 (also when no
 * stage is configured), or -1 with err saying what is wrong.
 */
int sandbox_config_check(const struct config *cfg, char *err, size_t errlen);

/*
 * The compile stage's work folder: [build] work, else [build] tree's
 * path + ".reviewbot", else build-work beside the database.  0 or -1.
 */
int sandbox_build_work(const struct config *cfg, char *out, size_t n);

#endif
