# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the tests that run the QEMU load stage: proof that nothing is
# ever loaded into the host's kernel.
#
#   host_guard DIR   puts insmod, modprobe and rmmod in DIR/bin (put it
#                    first in PATH) that record each call in DIR/host-calls
#                    and fail, and sets STRACE to a command prefix that
#                    records init_module/finit_module/delete_module calls
#                    of every process in DIR/strace (empty when strace
#                    cannot run here)
#   host_guard_report DIR WHAT   the ok / not ok lines for it
host_guard() {
	local dir=$1 t
	mkdir -p "$dir/bin"
	for t in insmod modprobe rmmod; do
		printf '#!/bin/sh\necho "%s $*" >> %s/host-calls\nexit 1\n' "$t" "$dir" >"$dir/bin/$t"
		chmod 755 "$dir/bin/$t"
	done
	STRACE=()
	if command -v strace >/dev/null && strace -f --seccomp-bpf -e trace=none true 2>/dev/null; then
		STRACE=(strace -f --seccomp-bpf -qq -e trace=init_module,finit_module,delete_module
			-o "$dir/strace")
	fi
}

# host_guard_report DIR WHAT: ok/bad lines (ok and bad are the caller's)
# for what host_guard recorded; the strace line passes only when strace
# ran (its output file exists) and saw no module loaded or removed
host_guard_report() {
	local dir=$1 what=$2
	if [ -e "$dir/host-calls" ]; then
		bad "insmod/modprobe/rmmod called on the host:"; cat "$dir/host-calls"
	else
		ok "no insmod, modprobe or rmmod run on the host"
	fi
	if [ ${#STRACE[@]} -eq 0 ]; then
		echo "# strace unavailable: syscall check skipped"
	elif [ ! -e "$dir/strace" ]; then
		bad "strace: it never ran ($what)"
	elif grep -Eq 'init_module|delete_module' "$dir/strace"; then
		bad "strace: init_module/delete_module called on the host ($what)"; cat "$dir/strace"
	else
		ok "strace: no init_module/finit_module/delete_module on the host ($what)"
	fi
}
