# Shared by the integration tests (sourced).  Real servers, started by the
# tests on 127.0.0.1 with unprivileged ports, stopped by the EXIT trap.
#
#   it_init NAME          a scratch folder $IT (removed at exit), counters
#   it_port               a free TCP port on 127.0.0.1
#   it_wait_port PORT [S] wait until something listens (default 20 s)
#   it_bg NAME CMD...     start CMD in the background, logs in $IT/NAME.log,
#                         killed at exit
#   it_on_exit CMD...     run CMD at exit (before the scratch folder goes)
#   ok / bad / check      TAP-ish results; it_done prints the tally and
#                         returns the status
#   rb_conf FILE          (after setting variables) see each test
#
# Needs: repo, REVIEWBOT (the front binary; defaults to $repo/reviewbot).

it_init() {
	IT_NAME=$1
	IT=$(mktemp -d "/tmp/rb-it-$1.XXXXXX")
	chmod 755 "$IT"
	IT_PIDS=()
	IT_EXIT=()
	pass=0
	fail=0
	rb=${REVIEWBOT:-$repo/reviewbot}
	export LC_ALL=C
	unset REVIEWBOT_CONFIG
	trap it_cleanup EXIT
}

it_cleanup() {
	local c p
	for c in "${IT_EXIT[@]}"; do
		eval "$c" >/dev/null 2>&1 || true
	done
	for p in "${IT_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${IT_PIDS[@]}"; do
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null || true
	done
	[ -n "${IT_KEEP:-}" ] || rm -rf "$IT"
}

it_on_exit() {
	IT_EXIT+=("$*")
}

it_port() {
	/usr/bin/python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

it_wait_port() {
	local port=$1 secs=${2:-20} i
	for i in $(seq $((secs * 10))); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "nothing listens on 127.0.0.1:$port after ${secs}s" >&2
	return 1
}

it_bg() {
	local name=$1
	shift
	"$@" >"$IT/$name.log" 2>&1 &
	IT_PIDS+=($!)
}

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

it_done() {
	echo "$IT_NAME: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
