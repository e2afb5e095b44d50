// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stages' one command runner: argv under bubblewrap, output captured
 * with a cap, killed at a deadline.  See sandbox.h for what a command
 * sees and why.
 */
#include "sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "../config.h"
#include "../../checker/banned.h"

#define SANDBOX_BWRAP		"bwrap"
#define SANDBOX_PATH		"/usr/bin:/bin:/usr/sbin:/sbin"
#define SANDBOX_HOSTNAME	"reviewbot-sandbox"
#define SANDBOX_MAX_ARGV	(SANDBOX_MAX_ARGS + 6 * SANDBOX_MAX_MOUNTS + 4 * SANDBOX_MAX_ENV + 160)
#define SANDBOX_TICK		0.5	/* seconds between two looks at the quota */
#define SANDBOX_MAX_ENTRIES	4000000	/* files a quota walk counts at most */
#define SANDBOX_CHECK_TIMEOUT	30	/* seconds for sandbox_check's run */

double sandbox_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sandbox_default_limits(struct sandbox_limits *lim, unsigned long timeout_s)
{
	memset(lim, 0, sizeof(*lim));
	/* CPU per process: no process may outlive the stage's own timeout */
	lim->cpu_s = timeout_s ? timeout_s + 5 : 3600;
	/* cc1 on the largest kernel files stays well under 2 GiB; QEMU with
	 * a 512 MiB guest and a 256 MiB translation cache under 3 GiB */
	lim->as_bytes = 4ull << 30;
	/* the largest object or archive a module build writes */
	lim->fsize_bytes = 1ull << 30;
	lim->nproc = 512;
}

void sandbox_init(struct sandbox *sb, const struct sandbox_limits *lim, double deadline)
{
	memset(sb, 0, sizeof(*sb));
	if (lim)
		sb->lim = *lim;
	else
		sandbox_default_limits(&sb->lim, 0);
	sb->deadline = deadline;
	snprintf(sb->cwd, sizeof(sb->cwd), "/");
}

/* An absolute path without "..", control characters or a trailing '/'. */
static int path_ok(const char *p)
{
	size_t i, n = p ? strlen(p) : 0;

	if (!n || n >= SANDBOX_PATH_MAX || p[0] != '/')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (ch < 0x20 || ch == 0x7f)
			return 0;
		if (ch == '.' && p[i - 1] == '/' && i + 1 < n && p[i + 1] == '.' &&
		    (i + 2 == n || p[i + 2] == '/'))
			return 0;
	}
	return 1;
}

static void add_mount(struct sandbox *sb, enum sandbox_mount_kind kind, const char *src,
		      const char *dst)
{
	struct sandbox_mount *m;

	if (sb->nm == SANDBOX_MAX_MOUNTS || !path_ok(dst) || (src && !path_ok(src))) {
		sb->err = 1;
		return;
	}
	m = &sb->m[sb->nm++];
	m->kind = kind;
	snprintf(m->src, sizeof(m->src), "%s", src ? src : "");
	snprintf(m->dst, sizeof(m->dst), "%s", dst);
}

void sandbox_ro(struct sandbox *sb, const char *path)
{
	add_mount(sb, SANDBOX_RO, path, path);
}

void sandbox_rw(struct sandbox *sb, const char *path)
{
	add_mount(sb, SANDBOX_RW, path, path);
}

void sandbox_bind_at(struct sandbox *sb, const char *src, const char *dst, int writable)
{
	add_mount(sb, writable ? SANDBOX_RW : SANDBOX_RO, src, dst);
}

void sandbox_dir(struct sandbox *sb, const char *dst)
{
	add_mount(sb, SANDBOX_DIR, NULL, dst);
}

void sandbox_tmpfs(struct sandbox *sb, const char *dst)
{
	add_mount(sb, SANDBOX_TMPFS, NULL, dst);
}

void sandbox_setenv(struct sandbox *sb, const char *name, const char *value)
{
	const char *p;

	if (sb->nenv == SANDBOX_MAX_ENV || !*name || strlen(name) >= sizeof(sb->env_name[0]) ||
	    strlen(value) >= sizeof(sb->env_value[0])) {
		sb->err = 1;
		return;
	}
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_')) {
			sb->err = 1;
			return;
		}
	snprintf(sb->env_name[sb->nenv], sizeof(sb->env_name[0]), "%s", name);
	snprintf(sb->env_value[sb->nenv], sizeof(sb->env_value[0]), "%s", value);
	sb->nenv++;
}

void sandbox_quota(struct sandbox *sb, const char *host_dir, unsigned long long limit)
{
	if (!path_ok(host_dir)) {
		sb->err = 1;
		return;
	}
	snprintf(sb->quota_path, sizeof(sb->quota_path), "%s", host_dir);
	sb->quota_limit = limit;
}

/* nftw has no argument for its callback: one walk at a time */
static unsigned long long walk_bytes;
static size_t walk_entries, walk_max;

static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag != FTW_NS)
		walk_bytes += (unsigned long long)st->st_blocks * 512;
	return ++walk_entries >= walk_max;
}

unsigned long long sandbox_usage(const char *path, size_t max_entries, size_t *entries)
{
	walk_bytes = 0;
	walk_entries = 0;
	walk_max = max_entries ? max_entries : SANDBOX_MAX_ENTRIES;
	/* files come and go under make: a vanished one is no error */
	nftw(path, walk_one, 16, FTW_PHYS | FTW_MOUNT);
	if (entries)
		*entries = walk_entries;
	return walk_bytes;
}

void sandbox_chdir(struct sandbox *sb, const char *dir)
{
	if (!path_ok(dir) && strcmp(dir, "/")) {
		sb->err = 1;
		return;
	}
	snprintf(sb->cwd, sizeof(sb->cwd), "%s", dir);
}

void sandbox_stdin(struct sandbox *sb, const char *host_file)
{
	if (!path_ok(host_file)) {
		sb->err = 1;
		return;
	}
	snprintf(sb->stdin_path, sizeof(sb->stdin_path), "%s", host_file);
}

int sandbox_owner(uid_t *uid, gid_t *gid)
{
	struct passwd *pw;

	if (geteuid() != 0) {
		*uid = geteuid();
		*gid = getegid();
		return 0;
	}
	pw = getpwnam(SANDBOX_USER);
	if (!pw || pw->pw_uid == 0)
		return -1;
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return 0;
}

/* ---- the bwrap command line ----------------------------------------------- */

struct argv_buf {
	const char *v[SANDBOX_MAX_ARGV];
	size_t n;
	int full;
	char tmp_size[32];	/* of the stage's own tmpfs mounts */
};

static void av(struct argv_buf *a, const char *s)
{
	if (a->n + 1 >= SANDBOX_MAX_ARGV) {
		a->full = 1;
		return;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void av3(struct argv_buf *a, const char *x, const char *y, const char *z)
{
	av(a, x);
	av(a, y);
	if (z)
		av(a, z);
}

/* The top-level names that merged /usr turns into links (Debian 12). */
static const char *const usr_links[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
static char link_targets[sizeof(usr_links) / sizeof(usr_links[0])][64];

/* What of /etc the toolchain reads: cc is a link through alternatives. */
static const char *const etc_files[] = {
	"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
};

/* What of /etc a fetch reads besides: name resolution and certificates. */
static const char *const etc_net_files[] = {
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf",
	"/etc/gai.conf", "/etc/services", "/etc/ssl", "/etc/ca-certificates",
};

/*
 * The parts of /usr the stages run: the programs, their libraries and
 * the compiler's own folders (bin, lib, libexec), the headers host
 * programs of the kernel build include, what perl, bison and git read
 * from /usr/share, the certificates a fetch checks, QEMU's firmware.
 * Not /usr/local (whatever the admin put there), /usr/src (the kernel
 * sources of the host), nor the rest of /usr/share.
 */
const char *const sandbox_usr_parts[] = {
	"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32",
	"/usr/libexec", "/usr/include", "/usr/share/perl", "/usr/share/perl5",
	"/usr/share/bison", "/usr/share/git-core", "/usr/share/ca-certificates",
	"/usr/share/qemu", "/usr/share/seabios", NULL,
};

int sandbox_usr_shown(const char *path)
{
	size_t i;

	for (i = 0; sandbox_usr_parts[i]; i++) {
		size_t n = strlen(sandbox_usr_parts[i]);

		if (!strncmp(path, sandbox_usr_parts[i], n) && (path[n] == '/' || !path[n]))
			return 1;
	}
	return 0;
}

/* What /proc says about the host that no build needs: read as empty. */
static const char *const proc_hidden[] = {
	"/proc/cpuinfo", "/proc/meminfo", "/proc/loadavg", "/proc/stat", "/proc/uptime",
	"/proc/version", "/proc/mounts", "/proc/partitions", "/proc/modules",
};
#define NPROC_HIDDEN	(sizeof(proc_hidden) / sizeof(proc_hidden[0]))
static char hidden_fd[NPROC_HIDDEN][8];
static size_t nhidden;	/* of the command line in hand: the child opens as many */

static void base_args(struct argv_buf *a, const struct sandbox *sb)
{
	static char tmp_size[32];
	size_t i;

	av(a, SANDBOX_BWRAP);
	av(a, "--unshare-user");
	av(a, "--unshare-ipc");
	av(a, "--unshare-pid");
	if (!sb->net)
		av(a, "--unshare-net");
	av(a, "--unshare-uts");
	av(a, "--unshare-cgroup-try");
	av(a, "--disable-userns");
	av(a, "--die-with-parent");
	av(a, "--new-session");
	av3(a, "--hostname", SANDBOX_HOSTNAME, NULL);
	av(a, "--clearenv");
	av3(a, "--setenv", "PATH", SANDBOX_PATH);
	av3(a, "--setenv", "HOME", "/tmp");
	av3(a, "--setenv", "TMPDIR", "/tmp");
	/* the compiler's words in English for the diagnostics' parser */
	av3(a, "--setenv", "LC_ALL", "C");
	av3(a, "--setenv", "LANG", "C");
	av3(a, "--setenv", "GIT_CONFIG_NOSYSTEM", "1");
	for (i = 0; i < sb->nenv; i++)
		av3(a, "--setenv", sb->env_name[i], sb->env_value[i]);
	for (i = 0; sandbox_usr_parts[i]; i++)
		av3(a, "--ro-bind-try", sandbox_usr_parts[i], sandbox_usr_parts[i]);
	for (i = 0; i < sizeof(usr_links) / sizeof(usr_links[0]); i++) {
		struct stat st;
		ssize_t n;

		if (lstat(usr_links[i], &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(usr_links[i], link_targets[i], sizeof(link_targets[i]) - 1);
			if (n <= 0 || (size_t)n >= sizeof(link_targets[i]) - 1)
				continue;
			link_targets[i][n] = '\0';
			av3(a, "--symlink", link_targets[i], usr_links[i]);
		} else if (S_ISDIR(st.st_mode)) {
			av3(a, "--ro-bind", usr_links[i], usr_links[i]);
		}
	}
	for (i = 0; i < sizeof(etc_files) / sizeof(etc_files[0]); i++)
		av3(a, "--ro-bind-try", etc_files[i], etc_files[i]);
	for (i = 0; sb->net && i < sizeof(etc_net_files) / sizeof(etc_net_files[0]); i++)
		av3(a, "--ro-bind-try", etc_net_files[i], etc_net_files[i]);
	av3(a, "--proc", "/proc", NULL);
	/* each an empty file bwrap reads from a descriptor the child opens
	 * on /dev/null (a device node is refused on bwrap's nodev mounts) */
	nhidden = 0;
	for (i = 0; sb->hide_host && i < NPROC_HIDDEN; i++) {
		if (access(proc_hidden[i], F_OK))
			continue;	/* not on this kernel: nothing to hide */
		snprintf(hidden_fd[nhidden], sizeof(hidden_fd[0]), "%zu", 3 + nhidden);
		av3(a, "--ro-bind-data", hidden_fd[nhidden], proc_hidden[i]);
		nhidden++;
	}
	av3(a, "--dev", "/dev", NULL);
	/* fixed sizes: what a sandbox writes in memory is bounded too (and
	 * counted in its cgroup) */
	snprintf(tmp_size, sizeof(tmp_size), "%llu",
		 sb->lim.tmp_bytes ? sb->lim.tmp_bytes : SANDBOX_TMP_DEFAULT);
	av3(a, "--size", tmp_size, NULL);
	av3(a, "--tmpfs", "/tmp", NULL);
	av3(a, "--size", tmp_size, NULL);
	av3(a, "--tmpfs", "/dev/shm", NULL);
	av3(a, "--remount-ro", "/dev", NULL);
}

static void mount_args(struct argv_buf *a, const struct sandbox *sb)
{
	size_t i;

	for (i = 0; i < sb->nm; i++) {
		const struct sandbox_mount *m = &sb->m[i];

		switch (m->kind) {
		case SANDBOX_RO:
			av3(a, "--ro-bind", m->src, m->dst);
			break;
		case SANDBOX_RW:
			av3(a, "--bind", m->src, m->dst);
			break;
		case SANDBOX_DIR:
			av3(a, "--dir", m->dst, NULL);
			break;
		case SANDBOX_TMPFS:
			av3(a, "--size", a->tmp_size, NULL);
			av3(a, "--tmpfs", m->dst, NULL);
			break;
		}
	}
	/* nothing but the folders given and the tmpfs mounts is writable:
	 * not the root's own tmpfs either */
	av3(a, "--remount-ro", "/", NULL);
	av3(a, "--chdir", sb->cwd, NULL);
}

/* ---- running ---------------------------------------------------------------- */

struct drop {
	int root;
	uid_t uid;
	gid_t gid;
};

static void set_limit(int res, unsigned long long v)
{
	struct rlimit rl;

	if (!v)
		return;
	rl.rlim_cur = rl.rlim_max = (rlim_t)v;
	setrlimit(res, &rl);
}

/* In the child: never returns. */
static void child(const struct sandbox *sb, const char *const *argv, int out_fd,
		  const struct drop *d)
{
	int in;

	setpgid(0, 0);
	/* bwrap dies with us; --die-with-parent takes care of what it runs */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	in = open(sb->stdin_path[0] ? sb->stdin_path : "/dev/null",
		  O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(126);
	/* nothing of ours goes in: the database, sockets, the logs */
	closefrom(3);
	if (sb->hide_host) {
		size_t i;

		for (i = 0; i < nhidden; i++)
			if (open("/dev/null", O_RDONLY) != (int)(3 + i))
				_exit(126);
	}
	/* the stage's bound covers this command and all it starts; a
	 * command that cannot join it does not run */
	if (sb->cg && cgroup_attach(sb->cg, getpid())) {
		static const char msg[] = "bwrap: cannot join the stage's cgroup\n";

		if (write(1, msg, sizeof(msg) - 1) < 0)
			_exit(126);
		_exit(126);
	}
	set_limit(RLIMIT_CPU, sb->lim.cpu_s);
	set_limit(RLIMIT_AS, sb->lim.as_bytes);
	set_limit(RLIMIT_FSIZE, sb->lim.fsize_bytes);
	set_limit(RLIMIT_NPROC, sb->lim.nproc);
	{
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);	/* a core would hold what it read */
	}
	signal(SIGXFSZ, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (d->root) {
		if (setgroups(0, NULL) || setresgid(d->gid, d->gid, d->gid) ||
		    setresuid(d->uid, d->uid, d->uid) || !setuid(0))
			_exit(126);
	}
	/* nothing inside may gain privileges through a set-id program */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	execvp(argv[0], (char *const *)argv);
	_exit(127);
}

static void note_why(struct sandbox *sb, const char *buf, size_t n)
{
	size_t i, k = strlen(sb->why);

	for (i = 0; i < n && k + 1 < sizeof(sb->why); i++) {
		unsigned char ch = (unsigned char)buf[i];

		if (ch == '\n')
			break;
		sb->why[k++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	sb->why[k] = '\0';
}

enum sandbox_result sandbox_run(struct sandbox *sb, const char *const argv[],
				struct sbuf *out, const volatile sig_atomic_t *stop)
{
	static struct argv_buf a;	/* large: not on the stack */
	char head[256];
	size_t nhead = 0, i;
	struct drop d = { 0 };
	int fds[2], status = 0, timed_out = 0, over = 0;
	int ticking = sb->quota_limit || sb->cg;
	double next_tick = sandbox_now() + SANDBOX_TICK;
	pid_t pid;

	sb->status = 0;
	sb->why[0] = '\0';
	if (sb->err) {
		snprintf(sb->why, sizeof(sb->why), "sandbox: a bad or too many mounts");
		return SANDBOX_NOSTART;
	}
	for (i = 0; i < sb->nm; i++) {
		struct stat st;

		if ((sb->m[i].kind == SANDBOX_RO || sb->m[i].kind == SANDBOX_RW) &&
		    stat(sb->m[i].src, &st)) {
			snprintf(sb->why, sizeof(sb->why), "sandbox: %.200s: %s", sb->m[i].src,
				 strerror(errno));
			return SANDBOX_NOSTART;
		}
	}
	if (geteuid() == 0) {
		d.root = 1;
		if (sandbox_owner(&d.uid, &d.gid)) {
			snprintf(sb->why, sizeof(sb->why), "sandbox: no user " SANDBOX_USER
				 " to run as");
			return SANDBOX_NOSTART;
		}
	}
	memset(&a, 0, sizeof(a));
	snprintf(a.tmp_size, sizeof(a.tmp_size), "%llu",
		 sb->lim.tmp_bytes ? sb->lim.tmp_bytes : SANDBOX_TMP_DEFAULT);
	base_args(&a, sb);
	mount_args(&a, sb);
	av(&a, "--");
	for (i = 0; argv[i]; i++) {
		if (i == SANDBOX_MAX_ARGS)
			a.full = 1;
		av(&a, argv[i]);
	}
	if (a.full) {
		snprintf(sb->why, sizeof(sb->why), "sandbox: command line too long");
		return SANDBOX_NOSTART;
	}
	if (pipe2(fds, O_CLOEXEC))
		return SANDBOX_NOSTART;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return SANDBOX_NOSTART;
	}
	if (pid == 0)
		child(sb, a.v, fds[1], &d);
	setpgid(pid, pid);
	close(fds[1]);
	for (;;) {
		char buf[8192];
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		double left = sb->deadline - sandbox_now();
		ssize_t n;
		int r;

		if (left <= 0 || (stop && *stop)) {
			timed_out = 1;
			break;
		}
		if (ticking && sandbox_now() >= next_tick) {
			next_tick = sandbox_now() + SANDBOX_TICK;
			if (sb->cg)
				cgroup_sample(sb->cg);
			if (sb->quota_limit &&
			    sandbox_usage(sb->quota_path, 0, NULL) > sb->quota_limit) {
				over = 1;
				break;
			}
		}
		if (ticking && left > SANDBOX_TICK)
			left = SANDBOX_TICK;
		r = poll(&pfd, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (r == 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (nhead < sizeof(head)) {
			size_t k = (size_t)n < sizeof(head) - nhead ? (size_t)n : sizeof(head) - nhead;

			memcpy(head + nhead, buf, k);
			nhead += k;
		}
		if (out)
			sbuf_add(out, buf, (size_t)n);	/* past the cap: dropped */
	}
	/* bwrap's death takes the sandbox's PID namespace, and so every
	 * process in it, down with it */
	if (timed_out || over)
		kill(pid, SIGKILL);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
	sb->status = status;
	if (sb->cg)
		cgroup_sample(sb->cg);
	/* the last look: a command may fill its folder and end in a tick */
	if (!over && !timed_out && sb->quota_limit &&
	    sandbox_usage(sb->quota_path, 0, NULL) > sb->quota_limit)
		over = 1;
	if (over) {
		snprintf(sb->why, sizeof(sb->why), "wrote more than its disk budget");
		return SANDBOX_QUOTA;
	}
	if (timed_out) {
		snprintf(sb->why, sizeof(sb->why), "timed out");
		return SANDBOX_TIMEOUT;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return SANDBOX_OK;
	/* bwrap's own failures (no user namespaces, a mount, the command
	 * not found inside) are worded "bwrap: ..." */
	if ((WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127)) ||
	    (WIFEXITED(status) && WEXITSTATUS(status) == 1 && nhead >= 7 &&
	     !memcmp(head, "bwrap: ", 7))) {
		note_why(sb, head, nhead);
		if (!sb->why[0])
			snprintf(sb->why, sizeof(sb->why), "%s could not start", SANDBOX_BWRAP);
		return SANDBOX_NOSTART;
	}
	return SANDBOX_FAILED;
}

int sandbox_check(char *err, size_t errlen)
{
	static int ok;
	const char *const argv[] = { "true", NULL };
	struct sandbox sb;
	enum sandbox_result r;

	if (ok)
		return 0;
	sandbox_init(&sb, NULL, sandbox_now() + SANDBOX_CHECK_TIMEOUT);
	r = sandbox_run(&sb, argv, NULL, NULL);
	if (r == SANDBOX_OK) {
		ok = 1;
		return 0;
	}
	if (r == SANDBOX_NOSTART && (!sb.why[0] || strstr(sb.why, "could not start") ||
				     WEXITSTATUS(sb.status) == 127))
		snprintf(err, errlen, "bubblewrap (bwrap) is needed to run the compile and load "
			 "stages and was not found (Debian: apt-get install bubblewrap)");
	else
		snprintf(err, errlen, "bubblewrap cannot make its sandbox here (%s); user "
			 "namespaces may be turned off (sysctl kernel.unprivileged_userns_clone, "
			 "user.max_user_namespaces)", sb.why[0] ? sb.why : "no reason given");
	return -1;
}

/* ---- files a sandbox can write -------------------------------------------- */

int sandbox_mkdir_p(const char *path)
{
	char tmp[SANDBOX_PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (tmp[i] != '/' && tmp[i] != '\0')
			continue;
		tmp[i] = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		tmp[i] = i < n ? '/' : '\0';
	}
	return 0;
}

int sandbox_mkdir_owned(const char *path)
{
	uid_t uid;
	gid_t gid;

	if (!*path || sandbox_mkdir_p(path))
		return -1;
	{
		struct stat st;

		if (lstat(path, &st) || !S_ISDIR(st.st_mode))
			return -1;
	}
	if (geteuid() == 0) {
		if (sandbox_owner(&uid, &gid) || lchown(path, uid, gid))
			return -1;
	}
	return chmod(path, 0755);
}

#define RMTREE_MAX_DEPTH	256

/*
 * Empties the folder dfd (closed here) and everything below it without
 * following a link: entries are opened with O_NOFOLLOW relative to their
 * folder, never by path.  1 when a folder was too deep, -1 on an error.
 */
static int rm_below(int dfd, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while (ret >= 0 && (de = readdir(d))) {
		int fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(d), de->d_name, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = -1;
			break;
		}
		if (depth >= RMTREE_MAX_DEPTH) {
			ret = 1;
			break;
		}
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			ret = -1;
			break;
		}
		ret = rm_below(fd, depth + 1);
		if (!ret && unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR))
			ret = -1;
		if (!ret)
			rewinddir(d);	/* the listing changed under readdir */
	}
	closedir(d);
	return ret;
}

int sandbox_rmtree(const char *path)
{
	const char *const argv[] = { "rm", "-rf", "--", path, NULL };
	char parent[SANDBOX_PATH_MAX];
	const char *slash;
	struct sandbox sb;
	struct stat st;
	int fd, r;

	if (!path_ok(path))
		return -1;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = rm_below(fd, 0);
	if (r == 0)
		return rmdir(path);
	if (r < 0)
		return -1;
	/* deeper than we walk: rm -rf, in a sandbox, where it needs no
	 * care about what it finds */
	slash = strrchr(path, '/');
	if (!slash || slash == path)
		return -1;
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	sandbox_init(&sb, NULL, sandbox_now() + 600);
	sandbox_rw(&sb, parent);
	if (sandbox_run(&sb, argv, NULL, NULL) != SANDBOX_OK)
		return -1;
	return lstat(path, &st) == 0 ? -1 : 0;
}

int sandbox_write_new(const char *path, const void *buf, size_t len, mode_t mode)
{
	const char *p = buf;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	uid_t uid;
	gid_t gid;

	if (fd < 0)
		return -1;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fchmod(fd, mode) ||
	    (geteuid() == 0 && (sandbox_owner(&uid, &gid) || fchown(fd, uid, gid)))) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int sandbox_read_file(const char *path, size_t max, int trunc, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *b = NULL;
	size_t n = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (!trunc && (unsigned long long)st.st_size > max))
		goto fail;
	b = malloc(max + 1);
	if (!b)
		goto fail;
	while (n < max) {
		ssize_t r = read(fd, b + n, max - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!trunc && n == max) {
		char extra;

		if (read(fd, &extra, 1) > 0)
			goto fail;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	close(fd);
	return -1;
}

/* ---- what the stages may show -------------------------------------------- */

/*
 * path made canonical: the real path of its longest part that exists,
 * the rest (not made yet) appended as it is.  0, or -1 when path is not
 * absolute or too long.
 */
static int canonical(const char *path, char *out, size_t n)
{
	char head[SANDBOX_PATH_MAX];
	size_t len = strlen(path), cut = len;
	char *real = NULL;
	int w;

	if (path[0] != '/' || len >= sizeof(head))
		return -1;
	memcpy(head, path, len + 1);
	while (cut > 0) {
		head[cut] = '\0';
		real = realpath(cut ? head : "/", NULL);
		if (real)
			break;
		while (cut > 0 && head[cut - 1] != '/')
			cut--;
		if (cut > 0)
			cut--;		/* the '/' before the last component */
	}
	if (!real)
		real = realpath("/", NULL);
	if (!real)
		return -1;
	w = snprintf(out, n, "%s%s", strcmp(real, "/") || !path[cut] ? real : "", path + cut);
	free(real);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* Non-zero when path is dir or lies below it (both canonical). */
static int is_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/*
 * The sandbox's user reaches each of paths (a folder not made yet: the
 * nearest one that is): one run of true with them all read-only.  As
 * root that user is SANDBOX_USER, for whom a 0700 folder on the way is
 * a wall.
 */
static int reachable(const char *const paths[], const char *const what[], size_t n,
		     char *err, size_t errlen)
{
	const char *const argv[] = { "true", NULL };
	struct sandbox *sb = malloc(sizeof(*sb));
	char (*have)[SANDBOX_PATH_MAX] = calloc(SANDBOX_MAX_MOUNTS, sizeof(*have));
	size_t i, k = 0;
	int ret = 0;

	if (!sb || !have) {
		free(sb);
		free(have);
		return -1;
	}
	sandbox_init(sb, NULL, sandbox_now() + SANDBOX_CHECK_TIMEOUT);
	for (i = 0; i < n && k < SANDBOX_MAX_MOUNTS; i++) {
		char *slash;
		struct stat st;

		if (canonical(paths[i], have[k], sizeof(have[k])))
			continue;
		while (stat(have[k], &st) && (slash = strrchr(have[k], '/')) && slash != have[k])
			*slash = '\0';
		if (!strcmp(have[k], "/") || strchr(have[k], '/') == NULL || stat(have[k], &st))
			continue;
		sandbox_ro(sb, have[k]);
		k++;
	}
	if (sandbox_run(sb, argv, NULL, NULL) != SANDBOX_OK) {
		const char *p = sb->why;

		for (i = 0; i < n; i++)
			if (strstr(p, paths[i]))
				break;
		snprintf(err, errlen, "the sandbox (running as %s) cannot reach %s: %s",
			 geteuid() == 0 ? SANDBOX_USER : "the bot's user",
			 i < n ? what[i] : "a folder the stages need", p[0] ? p : "bwrap failed");
		ret = -1;
	}
	free(have);
	free(sb);
	return ret;
}

int sandbox_build_work(const struct config *cfg, char *out, size_t n)
{
	int w;

	if (cfg->build_work)
		w = snprintf(out, n, "%s", cfg->build_work);
	else if (cfg->build_tree && *cfg->build_tree)
		w = snprintf(out, n, "%s.reviewbot", cfg->build_tree);
	else if (cfg->database && strrchr(cfg->database, '/'))
		w = snprintf(out, n, "%.*s/build-work",
			     (int)(strrchr(cfg->database, '/') - cfg->database), cfg->database);
	else
		return -1;
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

#define SHOWN_MAX	(CONFIG_MAX_TREES + 8)

int sandbox_config_check(const struct config *cfg, char *err, size_t errlen)
{
	char work[SANDBOX_PATH_MAX], bwork[SANDBOX_PATH_MAX];
	const char *shown[SHOWN_MAX + 24], *secret[CONFIG_MAX_SOURCES + 8];
	const char *shown_what[SHOWN_MAX + 24], *secret_what[CONFIG_MAX_SOURCES + 8];
	size_t ns = 0, nk = 0, i, j, nusr;
	int build = (cfg->build_tree && *cfg->build_tree) || cfg->ntrees;
	int boot = cfg->boot_kernel && *cfg->boot_kernel && cfg->boot_headers &&
		   *cfg->boot_headers;

	if (!build && !boot)
		return 0;
	if (sandbox_check(err, errlen))
		return -1;
	/* the parts of /usr every sandbox sees */
	for (i = 0; sandbox_usr_parts[i]; i++) {
		shown[ns] = sandbox_usr_parts[i];
		shown_what[ns++] = sandbox_usr_parts[i];
	}
	nusr = ns;
	if (build) {
		if (cfg->build_tree && *cfg->build_tree) {
			shown[ns] = cfg->build_tree;
			shown_what[ns++] = "[build] tree";
		}
		if (!sandbox_build_work(cfg, work, sizeof(work))) {
			shown[ns] = work;
			shown_what[ns++] = "[build] work";
		}
		/* a tree fetched from a folder is shown to its fetch */
		for (i = 0; i < cfg->ntrees && ns < SHOWN_MAX + 20; i++)
			if (cfg->trees[i].url && !strncasecmp(cfg->trees[i].url, "file://", 7)) {
				shown[ns] = cfg->trees[i].url + 7;
				shown_what[ns++] = "a [tree] url";
			}
	}
	if (boot) {
		shown[ns] = cfg->boot_headers;
		shown_what[ns++] = "[boot] headers";
		if (cfg->boot_work) {
			shown[ns] = cfg->boot_work;
			shown_what[ns++] = "[boot] work";
		} else if (cfg->database) {
			const char *slash = strrchr(cfg->database, '/');

			if (slash && (size_t)snprintf(bwork, sizeof(bwork), "%.*s/boot-work",
						      (int)(slash - cfg->database),
						      cfg->database) < sizeof(bwork)) {
				shown[ns] = bwork;
				shown_what[ns++] = "[boot] work";
			}
		}
	}
	secret[nk] = cfg->file;
	secret_what[nk++] = "the configuration file";
	secret[nk] = cfg->database;
	secret_what[nk++] = "[bot] database";
	if (cfg->delivery == DELIVER_MAILDIR) {
		secret[nk] = cfg->delivery_path;
		secret_what[nk++] = "the outbox ([delivery] path)";
	}
	secret[nk] = cfg->delivery_password_file;
	secret_what[nk++] = "[delivery] password_file";
	for (i = 0; i < cfg->nsources && nk < sizeof(secret) / sizeof(secret[0]); i++) {
		secret[nk] = cfg->sources[i].password_file;
		secret_what[nk++] = "a [source] password_file";
	}
	for (i = 0; i < nk; i++) {
		char s[SANDBOX_PATH_MAX];

		if (!secret[i] || !*secret[i] || canonical(secret[i], s, sizeof(s)))
			continue;
		for (j = 0; j < ns; j++) {
			char d[SANDBOX_PATH_MAX];

			if (!shown[j] || canonical(shown[j], d, sizeof(d)))
				continue;
			if (is_below(s, d)) {
				snprintf(err, errlen, "%s (%.300s) is inside %s (%.300s), which the "
					 "compile and load stages show to the code they build; "
					 "keep it elsewhere", secret_what[i], s, shown_what[j], d);
				return -1;
			}
		}
	}
	return reachable(shown + nusr, shown_what + nusr, ns - nusr, err, errlen);
}
