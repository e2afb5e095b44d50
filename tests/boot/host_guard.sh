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
