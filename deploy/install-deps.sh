#!/bin/bash
# Install reviewbot's build and test dependencies on Debian 12 (idempotent).
#
# Usage: deploy/install-deps.sh
# Fast path: when every package is already installed (checked with
# dpkg-query), it does nothing and touches no network.
# Exit status: 0 all installed (now or before); 1 something missing and not
# root, or apt-get failed.
set -eu

# Keep this list in one place; extend it here.
PACKAGES=(
	build-essential
	pkg-config
	libetpan-dev
	libcurl4-gnutls-dev
	libsqlite3-dev
	libpcre2-dev
	libcmocka-dev
	# reviewbot serve: the HTTP server of its helper
	libmicrohttpd-dev
	# the mail helper verifies a command sender's DKIM signature (a
	# maintainer's word counts only then); tests sign with dkimpy
	libopendkim-dev
	python3-dkim
	libdpkg-perl
	# the reference checkpatch.pl of each version reviewbot follows, and
	# its spelling.txt and const_structs.checkpatch, built into reviewbot
	# (tests/compat/extract-checkpatch.sh; never committed)
	linux-source-6.1
	linux-source-6.12
	codespell
	xz-utils
	perl
	python3
	clang
	libclang-rt-14-dev
	valgrind
	groff-base
	# tests/bot/test_series.sh reads the database it imported into;
	# tests/bot/test_b4.sh applies reviewed series with b4 am
	sqlite3
	b4
	# integration tests: real servers started on 127.0.0.1 by the tests
	dovecot-imapd
	libsasl2-modules
	public-inbox
	python3-aiosmtpd
	openssl
	# reviewbot serve's pages loaded without JavaScript errors
	# (tests/bot/test_serve.sh): chromium --headless
	chromium
	# compile test (tests/build): linux-source-6.1 above, extracted into
	# build/ksrc, and what building its objects needs
	git
	make
	bc
	flex
	bison
	libelf-dev
	libssl-dev
	# the compile and load stages run every command in this sandbox
	bubblewrap
	# the compile stage's tools beside gcc (issue 34): sparse (C=2) and
	# coccinelle (spatch on the kernel's scripts/coccinelle); the trees
	# are fetched with git (and served by git daemon in tests/build)
	sparse
	coccinelle
	# load test in QEMU (tests/boot): the kernel image and headers are
	# apt-get download-ed and extracted into build/, never installed
	qemu-system-x86
	busybox-static
	cpio
)

# One dpkg-query call for all of them (unknown names only go to stderr).
installed=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' "${PACKAGES[@]}" 2>/dev/null || true) "
missing=()
for pkg in "${PACKAGES[@]}"; do
	case "$installed" in
	*" $pkg=installed "*) ;;
	*) missing+=("$pkg") ;;
	esac
done

if [ "${#missing[@]}" -eq 0 ]; then
	echo "install-deps: all ${#PACKAGES[@]} packages already installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: not root; run as root: sudo $0" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: installed ${#missing[@]} package(s): ${missing[*]}"
