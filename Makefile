# SPDX-License-Identifier: GPL-2.0-only
# reviewbot: one non-recursive Makefile.
#
#   make            build ./reviewbot
#   make run        the main job on the bundled examples (no server needed)
#   make check      build and run every test (SANITIZE=1: under ASan+UBSan)
#   make compat     per-type agreement with checkpatch.pl 6.1 and 6.12 on the corpus
#   make bench      speed and memory against checkpatch.pl, measured together;
#                   the bot's import rate, post-to-review latency (dovecot,
#                   public-inbox; skipped without them), compile and load cost
#   make eval-signal  precision and recall of the security and uapi rules
#                   (and of the review mail) on hand-labelled corpus patches
#                   (tests/signal/); eval-signal-selftest: its own unit test
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (fuzz-smoke: a few)
#   make install    PREFIX=/usr/local DESTDIR= (make uninstall: the same)
#
# Quiet unless V=1.  Every library is found with pkg-config.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
BUILD ?= build

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARNINGS := -Wall -Wextra -Wformat=2 -Wno-format-nonliteral -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith -Wvla
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARNINGS)

ifeq ($(SANITIZE),1)
BUILD := $(BUILD)/asan
# ASan does not see a read of an uninitialised local; pattern init fills
# every local the code leaves unset with 0xFE bytes, so such a read gives
# the same wrong value at every run and a test fails where it would pass by luck
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined -ftrivial-auto-var-init=pattern
CFLAGS := -O1 -g
endif

# The lean front binary links pcre2 and sqlite3 only (DESIGN.md); the
# mail helper (libexec) adds libetpan and libcurl.
FRONT_PKGS := libpcre2-8 sqlite3
MAIL_PKGS := libetpan libcurl opendkim
# reviewbot serve's helper adds libmicrohttpd
SERVE_PKGS := libmicrohttpd
TEST_PKGS := cmocka
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/reviewbot
# the system configuration is /etc/reviewbot/reviewbot.conf whatever the
# PREFIX (bot/cmd/cmd_common.h); the unit names it from here
SYSCONFDIR ?= /etc
# systemd's folder for units: /lib/systemd/system for PREFIX=/usr on
# Debian, $(PREFIX)/lib/systemd/system (looked at for /usr/local too)
UNITDIR ?= $(PREFIX)/lib/systemd/system

# The program finds its helper and the helper its templates relative to
# where they are (bot/cmd/exec.c, bot/cmd/cmd_mail.c), so a build tree and any
# install of it agree; the install's own relative paths come from BINDIR,
# LIBEXECDIR and DATADIR.  What is built from the install paths depends
# on $(PATHS_STAMP), which changes when they do: `make install
# PREFIX=/usr` after a plain `make` rebuilds it for /usr.
LIBEXEC_REL := $(shell realpath -m --relative-to=$(BINDIR) $(LIBEXECDIR)/reviewbot)
TEMPLATES_INST_REL := $(shell realpath -m --relative-to=$(LIBEXECDIR)/reviewbot \
	$(DATADIR)/reviewbot/templates)
PATHS_STAMP := $(BUILD)/.install-paths
PATHS_NOW := $(BINDIR) $(LIBEXECDIR) $(DATADIR) $(SYSCONFDIR) $(LIBEXEC_REL) $(TEMPLATES_INST_REL)
.DEFAULT_GOAL := all
$(PATHS_STAMP): FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(PATHS_NOW)' ]; then echo '$(PATHS_NOW)' >$@; fi
FORCE:
.PHONY: FORCE

DEPS_STAMP := $(BUILD)/.deps-ok
HAVE_PKGS := $(shell $(PKG_CONFIG) --exists $(FRONT_PKGS) $(MAIL_PKGS) $(SERVE_PKGS) $(TEST_PKGS) 2>/dev/null && echo yes)

PC_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(FRONT_PKGS) 2>/dev/null)
PC_LIBS = $(shell $(PKG_CONFIG) --libs $(FRONT_PKGS) 2>/dev/null)
MAIL_LIBS = $(shell $(PKG_CONFIG) --libs $(MAIL_PKGS) 2>/dev/null)
SERVE_LIBS = $(shell $(PKG_CONFIG) --libs $(SERVE_PKGS) 2>/dev/null)
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS = $(shell $(PKG_CONFIG) --libs $(TEST_PKGS) 2>/dev/null)

ALL_CFLAGS = $(BASE_CFLAGS) -pthread $(PC_CFLAGS) $(SAN_FLAGS) $(CFLAGS)
ALL_LDFLAGS = -pthread $(SAN_FLAGS) $(LDFLAGS)

# The front binary is linked statically, as a position-independent
# executable (ASLR kept): `reviewbot check` runs once per patch, and
# loading and binding libc, pcre2 and sqlite3 took a third of a small
# patch's time (3.2 ms -> 2.2 ms a run).  STATIC=0 links it against the
# shared libraries, as a distribution that wants library updates to reach
# it may prefer; the mail helper is always linked that way.  sqlite3's
# archive refers to dlopen (extension loading, which reviewbot never
# enables), and ld warns about that in a static link: silenced here.
STATIC ?= 1
ifeq ($(SANITIZE),1)
STATIC := 0
endif
ifeq ($(STATIC),1)
FRONT_LDFLAGS := -static-pie -Wl,--no-warnings
FRONT_LIBS = $(PC_LIBS) -lm
else
FRONT_LDFLAGS :=
FRONT_LIBS = $(PC_LIBS)
endif

CHECKER_SRCS := $(sort $(wildcard checker/*.c checker/checkpatch/*.c checker/rv/*.c))
STORE_SRCS := $(sort $(wildcard store/*.c))
# bot/: every module goes into one archive; the two programs take from it
# only what they call, so the front binary never pulls in libetpan/libcurl
# (its link would fail if it did).
BOT_MAINS := bot/cmd/main.c bot/cmd/mailmain.c bot/cmd/servemain.c
BOT_SRCS := $(filter-out $(BOT_MAINS),$(sort $(wildcard bot/*.c bot/*/*.c)))
CHECKER_OBJS := $(CHECKER_SRCS:%.c=$(BUILD)/obj/%.o)
STORE_OBJS := $(STORE_SRCS:%.c=$(BUILD)/obj/%.o)
BOT_OBJS := $(BOT_SRCS:%.c=$(BUILD)/obj/%.o)
FRONT_OBJS := $(BUILD)/obj/bot/cmd/main.o
MAIL_OBJS := $(BUILD)/obj/bot/cmd/mailmain.o
SERVE_OBJS := $(BUILD)/obj/bot/cmd/servemain.o
LIBBOT := $(BUILD)/libbot.a
LIBSTORE := $(BUILD)/libstore.a
LIBCHECKER := $(BUILD)/libchecker.a
HELPER := $(BUILD)/libexec/reviewbot/reviewbot-mail
SERVE := $(BUILD)/libexec/reviewbot/reviewbot-serve

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# the helper, from the front binary's folder (bot/cmd/exec.c)
ifeq ($(SANITIZE),1)
PROGRAM := $(BUILD)/reviewbot
HELPER_REL := libexec/reviewbot
TEMPLATES_REL := ../../../../templates
else
PROGRAM := reviewbot
# relative to the project folder even when BUILD is absolute (make BUILD=/abs):
# an installed program must never find a build tree's helper
HELPER_REL := $(shell realpath -m --relative-to=$(CURDIR) $(BUILD))/libexec/reviewbot
TEMPLATES_REL := ../../../templates
endif

.PHONY: all check run bot-tests build-tests boot-tests integration-tests compat bench eval-signal eval-signal-selftest clean install uninstall deps unit-tests \
	golden-tests golden-verify cli-tests man-tests compat-floor corpus-sanitize man valgrind-tests \
	deploy-tests unit-file \
	fuzz fuzz-build fuzz-smoke

all: $(PROGRAM) $(HELPER) $(SERVE)

# Install what the build needs when it is missing (the README's commands
# work on a fresh machine).
$(DEPS_STAMP):
	$(Q)mkdir -p $(@D)
	$(Q)if [ "$(HAVE_PKGS)" != yes ]; then bash deploy/install-deps.sh; fi
	$(Q)touch $@

deps:
	$(Q)bash deploy/install-deps.sh

$(BUILD)/obj/%.o: %.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# checkpatch.pl's patterns, compiled at build time (tools/mkpatterns.c):
# the golden cases and examples reach every rule.
PATTERN_INPUTS := $(sort $(wildcard tests/checker/*/in.patch examples/*.patch))
MKPATTERNS := $(BUILD)/tools/mkpatterns
PATTERNS_OBJ := $(BUILD)/gen/patterns.o

$(MKPATTERNS): tools/mkpatterns.c $(BUILD)/obj/bot/fileio.o $(CHECKER_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PC_LIBS)

$(BUILD)/gen/patterns.c: $(MKPATTERNS) $(PATTERN_INPUTS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(MKPATTERNS) $@ $(BUILD)/gen/patterns.bin $(PATTERN_INPUTS)

$(PATTERNS_OBJ): $(BUILD)/gen/patterns.c
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

# Each checkpatch.pl version's data files (spelling.txt,
# const_structs.checkpatch), extracted from Debian's linux-source-VERSION
# into build/kernel-VERSION (shared by every build folder; never
# committed) and built into the programs (tools/mkcpdata.c).
CP_VERSIONS := 6.1 6.12
KERNEL_DATA = $(foreach v,$(CP_VERSIONS),build/kernel-$(v)/scripts/spelling.txt \
	build/kernel-$(v)/scripts/const_structs.checkpatch)
MKCPDATA := $(BUILD)/tools/mkcpdata
CPDATA_OBJ := $(BUILD)/gen/cpdata.o

build/kernel-%/scripts/checkpatch.pl build/kernel-%/scripts/spelling.txt \
		build/kernel-%/scripts/const_structs.checkpatch: | $(DEPS_STAMP)
	@$(if $(Q),echo "  EXTRACT linux-source-$*")
	$(Q)bash tests/compat/extract-checkpatch.sh $* >/dev/null

$(MKCPDATA): tools/mkcpdata.c $(BUILD)/obj/bot/fileio.o $(CHECKER_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PC_LIBS)

$(BUILD)/gen/cpdata.c: $(MKCPDATA) $(KERNEL_DATA)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(MKCPDATA) $@ $(BUILD)/gen/cpdata.bin $(foreach v,$(CP_VERSIONS),$(v)=build/kernel-$(v)) \
		2>$(BUILD)/gen/cpdata.log || { cat $(BUILD)/gen/cpdata.log; exit 1; }

$(CPDATA_OBJ): $(BUILD)/gen/cpdata.c
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

# reviewbot-rules(7), generated from the rule table
MKRULESMAN := $(BUILD)/tools/mkrulesman
RULES_MAN := $(BUILD)/man/reviewbot-rules.7

$(MKRULESMAN): tools/mkrulesman.c $(BUILD)/obj/checker/rules.o
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

$(RULES_MAN): $(MKRULESMAN)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(MKRULESMAN) "$$(sed -n 's/.*REVIEWBOT_VERSION "\(.*\)"/\1/p' bot/version.h)" >$@

# reviewbot.conf(5), generated from the option table
MKCONFMAN := $(BUILD)/tools/mkconfman
CONF_MAN := $(BUILD)/man/reviewbot.conf.5

$(MKCONFMAN): tools/mkconfman.c $(BUILD)/obj/bot/config.o $(BUILD)/obj/bot/fileio.o \
		$(BUILD)/obj/checker/sbuf.o $(BUILD)/obj/checker/rules.o
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)

$(CONF_MAN): $(MKCONFMAN)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)$(MKCONFMAN) "$$(sed -n 's/.*REVIEWBOT_VERSION "\(.*\)"/\1/p' bot/version.h)" >$@

MAN_PAGES := deploy/man/reviewbot.1 deploy/man/reviewbot.8 $(CONF_MAN) $(RULES_MAN)

# the systemd unit, with the install's paths (deploy/reviewbot.service.in;
# make install writes it again for its own PREFIX)
UNIT := $(BUILD)/deploy/reviewbot.service
# reviewbot serve's own unit (deploy/reviewbot-serve.service.in)
UNIT_SERVE := $(BUILD)/deploy/reviewbot-serve.service

$(BUILD)/deploy/%.service: deploy/%.service.in Makefile $(PATHS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< >$@

unit-file: $(UNIT) $(UNIT_SERVE)
all: $(UNIT) $(UNIT_SERVE)

man: $(MAN_PAGES)
all: $(MAN_PAGES)

# the man pages render without a groff warning, and no section of one
# comes twice (reviewbot.conf(5) listed [checker] and its keys twice)
man-tests: $(MAN_PAGES)
	$(Q)pass=0; fail=0; for m in $(MAN_PAGES); do \
		out=$$(LC_ALL=C groff -man -Tutf8 -ww -z $$m 2>&1); \
		dup=$$(grep '^\.SH' $$m | sort | uniq -d); \
		if [ -n "$$out" ]; then echo "$$m: $$out"; fail=$$((fail + 1)); \
		elif [ -n "$$dup" ]; then echo "$$m: a section twice: $$dup"; fail=$$((fail + 1)); \
		else pass=$$((pass + 1)); fi; \
	done; echo "man pages: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

$(LIBCHECKER): $(CHECKER_OBJS)
$(LIBSTORE): $(STORE_OBJS)
$(LIBBOT): $(BOT_OBJS)
$(LIBCHECKER) $(LIBSTORE) $(LIBBOT):
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# where the front binary looks for its helper, besides REVIEWBOT_EXEC_PATH
$(BUILD)/obj/bot/cmd/exec.o: $(PATHS_STAMP)
$(BUILD)/obj/bot/cmd/exec.o: ALL_CFLAGS += \
	-DRB_LIBEXEC_REL='"$(LIBEXEC_REL)"' -DRB_BUILD_REL='"$(HELPER_REL)"'
$(BUILD)/obj/bot/config.o $(BUILD)/obj/bot/spell_list.o: $(PATHS_STAMP)
$(BUILD)/obj/bot/config.o: ALL_CFLAGS += -DRB_DATADIR='"$(DATADIR)"'
$(BUILD)/obj/bot/spell_list.o: ALL_CFLAGS += -DRB_DATADIR='"$(DATADIR)"'
$(BUILD)/obj/bot/cmd/cmd_mail.o: $(PATHS_STAMP)
$(BUILD)/obj/bot/cmd/cmd_mail.o: ALL_CFLAGS += -DRB_TEMPLATES_REL='"$(TEMPLATES_REL)"' \
	-DRB_TEMPLATES_INST_REL='"$(TEMPLATES_INST_REL)"'

$(PROGRAM): $(FRONT_OBJS) $(LIBBOT) $(LIBSTORE) $(LIBCHECKER) $(PATTERNS_OBJ) $(CPDATA_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $(FRONT_LDFLAGS) -o $@ $^ $(FRONT_LIBS)

$(HELPER): $(MAIL_OBJS) $(LIBBOT) $(LIBSTORE) $(LIBCHECKER) $(PATTERNS_OBJ) $(CPDATA_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(MAIL_LIBS) $(PC_LIBS)

$(SERVE): $(SERVE_OBJS) $(LIBBOT) $(LIBSTORE) $(LIBCHECKER)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(SERVE_LIBS) $(PC_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBBOT) $(LIBSTORE) $(LIBCHECKER) $(PATTERNS_OBJ) $(CPDATA_OBJ) $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  TEST-CC $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP -o $@ $< $(LIBBOT) $(LIBSTORE) \
		$(LIBCHECKER) $(PATTERNS_OBJ) $(CPDATA_OBJ) $(ALL_LDFLAGS) $(MAIL_LIBS) $(SERVE_LIBS) $(PC_LIBS) $(TEST_LIBS)

unit-tests: $(UNIT_BINS)
	$(Q)fail=0; for t in $(UNIT_BINS); do \
		$$t || fail=1; \
	done; exit $$fail

golden-tests: $(PROGRAM)
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/checker/run-golden.sh

# every stored expect is still what the real checkpatch.pl prints
golden-verify:
	$(Q)bash tests/checker/run-golden.sh --verify-ref

# agreement with checkpatch.pl on the corpus, for each version, may not
# fall below this (micro-F1; 6.1's reference is stored with the corpus,
# 6.12's is checkpatch.pl 6.12 run once and kept in build/compat-ref/)
COMPAT_FLOOR ?= 1.0
compat-floor: $(PROGRAM)
	$(Q)for v in $(CP_VERSIONS); do for m in default strict; do \
		o=; [ $$m = strict ] && o=--strict; \
		echo "checkpatch.pl $$v $$m:"; \
		COMPAT_OUT=$(abspath $(BUILD))/compat-floor bash tests/compat/run.sh --version $$v $$o \
			--floor $(COMPAT_FLOOR) >$(BUILD)/compat-floor.log 2>&1; st=$$?; \
		tail -n 4 $(BUILD)/compat-floor.log; [ $$st -eq 0 ] || exit $$st; \
	done; done

cli-tests: $(PROGRAM) $(HELPER) $(SERVE)
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/cli/test_cli.sh

# the bot end to end on local mail (run, import, review, query, sendmail,
# opting out): every tests/bot/test_*.sh
bot-tests: $(PROGRAM) $(HELPER) $(SERVE)
	$(Q)fail=0; for t in tests/bot/test_*.sh; do \
		REVIEWBOT=$(abspath $(PROGRAM)) bash "$$t" || fail=1; \
	done; exit $$fail

# The compile stage on a real kernel tree: linux-source-6.1 extracted into
# build/ksrc and prepared into build/ksrc.reviewbot once, then cached; and
# on git trees made from it (build/trees, build/trees.reviewbot, cached).
build-tests: $(PROGRAM) $(HELPER)
	$(Q)st=0; REVIEWBOT=$(abspath $(PROGRAM)) BUILD_DIR=$(abspath build) bash tests/build/test_build.sh || st=1; \
	REVIEWBOT=$(abspath $(PROGRAM)) BUILD_DIR=$(abspath build) bash tests/build/test_trees.sh || st=1; \
	exit $$st

# The QEMU load stage: Debian's kernel image and headers extracted (never
# installed) into build/boot once, then cached; modules booted under TCG.
boot-tests: $(PROGRAM) $(HELPER)
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/boot/test_boot.sh
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/boot/test_boot_changed.sh

# the bot against real servers on 127.0.0.1 (dovecot, public-inbox-netd,
# an SMTP server), started and stopped by each script
integration-tests: $(PROGRAM) $(HELPER) $(SERVE)
	$(Q)fail=0; for t in tests/integration/test_*.sh; do \
		[ -e "$$t" ] || continue; \
		REVIEWBOT=$(abspath $(PROGRAM)) bash "$$t" || fail=1; \
	done; exit $$fail

# The integration run under valgrind's memcheck: tests/integration/
# test_e2e.sh with the mail helper wrapped (REVIEWBOT_EXEC_PATH); any
# memcheck error or definite/indirect leak in any run of the helper fails
# (valgrind -q writes a log only for those).
# tests/valgrind.supp: library-internal noise only.
VG_DIR := $(BUILD)/valgrind
valgrind-tests: $(PROGRAM) $(HELPER)
	$(Q)rm -rf $(VG_DIR) && mkdir -p $(VG_DIR)/bin $(VG_DIR)/log
	$(Q)printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect --track-fds=no --suppressions=%s --log-file=%s/vg.%%p.log %s "$$@"\n' \
		$(abspath tests/valgrind.supp) $(abspath $(VG_DIR)/log) $(abspath $(HELPER)) \
		>$(VG_DIR)/bin/reviewbot-mail && chmod 755 $(VG_DIR)/bin/reviewbot-mail
	$(Q)REVIEWBOT_EXEC_PATH=$(abspath $(VG_DIR)/bin) REVIEWBOT=$(abspath $(PROGRAM)) \
		bash tests/integration/test_e2e.sh
	$(Q)n=$$(ls $(VG_DIR)/log | wc -l); bad=$$(find $(VG_DIR)/log -type f -size +0); \
		if [ -n "$$bad" ]; then cat $$bad; echo "valgrind: errors in $$bad"; exit 1; fi; \
		[ "$$n" -gt 0 ] || { echo "valgrind: the helper never ran under it"; exit 1; }; \
		echo "valgrind: $$n runs of the helper, no error"

# The whole corpus through an ASan+UBSan build: no crash, no leak (the
# default version, with its built-in spelling.txt and const structs).
corpus-sanitize:
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 all
	$(Q)bash tests/sanitize/corpus.sh $(abspath $(BUILD)/asan/reviewbot) --strict

ifeq ($(SANITIZE),1)
CHECK_SUITES := unit-tests golden-tests cli-tests bot-tests build-tests boot-tests integration-tests man-tests fuzz-smoke \
	deploy-tests
else
CHECK_SUITES := unit-tests golden-tests cli-tests bot-tests build-tests boot-tests integration-tests man-tests golden-verify compat-floor corpus-sanitize valgrind-tests \
	fuzz-smoke deploy-tests eval-signal-selftest
endif

# every suite in turn, all of them even after a failure, and at the end
# one line for them all (tests/run-suites.sh; the logs in build/check/)
check: $(PROGRAM) $(HELPER) $(SERVE)
	$(Q)MAKE="$(MAKE)" bash tests/run-suites.sh $(BUILD)/check $(CHECK_SUITES)

# libFuzzer targets (tests/fuzz/fuzz_*.c): every library object again,
# built with clang for coverage under ASan+UBSan, into build/fuzz/.
# `make fuzz` runs each of FUZZ_TARGETS for FUZZ_SECONDS or FUZZ_RUNS
# executions, whichever comes first (-1: no bound); `make fuzz-smoke` (part of
# `make check`) replays tests/fuzz/regress/ and runs each a few seconds.
FUZZ_CC ?= clang
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_SMOKE_SECONDS ?= 8
FUZZ_NAMES := mime diff subject config checker mbox command spelling query
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = $(BASE_CFLAGS) -pthread $(PC_CFLAGS) $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link -O1 -g
FUZZ_OBJS := $(CHECKER_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) \
	$(STORE_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) $(BOT_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_LIB := $(FUZZ_DIR)/libfuzz.a

$(FUZZ_DIR)/obj/%.o: %.c $(DEPS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ-CC $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/obj/bot/cmd/exec.o: FUZZ_CFLAGS += \
	-DRB_LIBEXEC_REL='"$(LIBEXEC_REL)"' -DRB_BUILD_REL='"$(HELPER_REL)"'
$(FUZZ_DIR)/obj/bot/config.o: FUZZ_CFLAGS += -DRB_DATADIR='"$(DATADIR)"'
$(FUZZ_DIR)/obj/bot/spell_list.o: FUZZ_CFLAGS += -DRB_DATADIR='"$(DATADIR)"'

# the patterns and the versions' data are data: no coverage needed
$(FUZZ_DIR)/obj/patterns.o: $(BUILD)/gen/patterns.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ-CC $<")
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(PC_CFLAGS) -I. -O1 -c -o $@ $<

$(FUZZ_DIR)/obj/cpdata.o: $(BUILD)/gen/cpdata.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ-CC $<")
	$(Q)$(FUZZ_CC) $(BASE_CFLAGS) $(PC_CFLAGS) -I. -O1 -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_OBJS) $(FUZZ_DIR)/obj/patterns.o $(FUZZ_DIR)/obj/cpdata.o
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB)
	@$(if $(Q),echo "  FUZZ-LD $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< \
		$(FUZZ_LIB) -pthread $(MAIL_LIBS) $(PC_LIBS) -Wno-unused-command-line-argument

fuzz-build: $(FUZZ_BINS)
	$(Q)bash tests/fuzz/run.sh seeds $(FUZZ_DIR)

fuzz: fuzz-build
	$(Q)FUZZ_RUNS=$(FUZZ_RUNS) bash tests/fuzz/run.sh run $(FUZZ_DIR) \
		$(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	$(Q)bash tests/fuzz/run.sh smoke $(FUZZ_DIR) $(FUZZ_SMOKE_SECONDS) $(FUZZ_NAMES)

# The bot once over the bundled archive (examples/lkml-sample.mbox), dry
# run: a fresh database and outbox under build/run each time.  It builds
# all that the README's tour uses after it (reviewbot serve's helper and
# the generated man pages), not only what the run needs.
run: all
	$(Q)rm -rf build/run && mkdir -p build/run
	$(Q)./$(PROGRAM) run --once --config examples/reviewbot.conf
	$(Q)echo; echo "Review mails (dry run: written to the outbox, nothing sent):"; \
		ls -1 build/run/outbox/new/* | sed 's/^/  /'
	$(Q)echo; echo "History (reviewbot query --config examples/reviewbot.conf --patches):"; \
		./$(PROGRAM) query --config examples/reviewbot.conf --patches
	$(Q)echo; echo "Security and user-space interface findings:"; \
		./$(PROGRAM) query --config examples/reviewbot.conf --category security; \
		./$(PROGRAM) query --config examples/reviewbot.conf --category uapi

# per-type agreement of each version with its checkpatch.pl, default and
# --strict, then one line per run: micro-F1 and byte-identical outputs
compat: $(PROGRAM)
	$(Q)rm -f $(BUILD)/compat-summary
	$(Q)for v in $(CP_VERSIONS); do for m in default strict; do \
		o=; [ $$m = strict ] && o=--strict; \
		bash tests/compat/run.sh --version $$v $$o || exit 1; \
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); \
			print("checkpatch.pl %-5s %-8s micro-F1 %.4f  byte-identical %d / %d" % (sys.argv[2], \
			sys.argv[3], d["micro"]["f1"], d["outputs"]["identical"], d["outputs"]["reference"]))' \
			build/compat/$$v/$$m/score.json $$v $$m >>$(BUILD)/compat-summary; \
	done; done
	$(Q)echo; cat $(BUILD)/compat-summary

bench: $(PROGRAM) $(HELPER) $(SERVE)
	$(Q)bash tests/bench/bench.sh
	$(Q)bash tests/bench/bench_import.sh
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/bench/bench_latency.sh
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) BUILD_DIR=$(abspath build) bash tests/bench/bench_build.sh
	$(Q)bash tests/bench/bench_boot.sh
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) bash tests/bench/bench_serve.sh

# A measurement, not a test: exits 0 whatever the figures unless
# EVAL_SIGNAL_FLAGS sets floors (--min-precision-security X
# --min-precision-uapi Y --min-recall-uapi Z).  CORPUS= as for compat.
eval-signal: $(PROGRAM) $(HELPER)
	$(Q)REVIEWBOT=$(abspath $(PROGRAM)) python3 tests/signal/eval.py $(EVAL_SIGNAL_FLAGS)

eval-signal-selftest:
	$(Q)python3 tests/signal/test_eval.py

clean:
	rm -rf $(BUILD) reviewbot

# The helper sits at LIBEXECDIR/reviewbot, which the program finds as
# ../libexec/reviewbot from BINDIR (bot/cmd/exec.c): keep them siblings.  The
# example configuration goes to DOCDIR: an install never writes /etc.
INSTALLED := $(BINDIR)/reviewbot $(LIBEXECDIR)/reviewbot/reviewbot-mail \
	$(LIBEXECDIR)/reviewbot/reviewbot-serve \
	$(MANDIR)/man1/reviewbot.1 $(MANDIR)/man5/reviewbot.conf.5 \
	$(MANDIR)/man7/reviewbot-rules.7 $(MANDIR)/man8/reviewbot.8 \
	$(UNITDIR)/reviewbot.service $(UNITDIR)/reviewbot-serve.service \
	$(DOCDIR)/reviewbot.conf.example
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/reviewbot \
		$(DESTDIR)$(DATADIR)/reviewbot/templates $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(PROGRAM) $(DESTDIR)$(BINDIR)/reviewbot
	install -m 0755 $(HELPER) $(DESTDIR)$(LIBEXECDIR)/reviewbot/reviewbot-mail
	install -m 0755 $(SERVE) $(DESTDIR)$(LIBEXECDIR)/reviewbot/reviewbot-serve
	install -m 0644 templates/*.txt $(DESTDIR)$(DATADIR)/reviewbot/templates/
	install -m 0644 deploy/man/reviewbot.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 deploy/man/reviewbot.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 $(CONF_MAN) $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 $(RULES_MAN) $(DESTDIR)$(MANDIR)/man7/
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		deploy/reviewbot.service.in >$(DESTDIR)$(UNITDIR)/reviewbot.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/reviewbot.service
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		deploy/reviewbot-serve.service.in >$(DESTDIR)$(UNITDIR)/reviewbot-serve.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/reviewbot-serve.service
	install -m 0644 deploy/reviewbot.conf.example $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rm -rf $(DESTDIR)$(DATADIR)/reviewbot/templates
	-rmdir $(DESTDIR)$(LIBEXECDIR)/reviewbot $(DESTDIR)$(DATADIR)/reviewbot \
		$(DESTDIR)$(DOCDIR) 2>/dev/null || true

# make install into a folder, the unit through systemd-analyze verify,
# status and progress: every tests/deploy/test_*.sh
deploy-tests: $(PROGRAM) $(HELPER) $(SERVE) $(UNIT) $(UNIT_SERVE) $(MAN_PAGES)
	$(Q)fail=0; for t in tests/deploy/test_*.sh; do \
		REVIEWBOT=$(abspath $(PROGRAM)) BUILD=$(abspath $(BUILD)) bash "$$t" || fail=1; \
	done; exit $$fail

-include $(CHECKER_OBJS:.o=.d) $(STORE_OBJS:.o=.d) $(BOT_OBJS:.o=.d) \
	$(FRONT_OBJS:.o=.d) $(MAIL_OBJS:.o=.d) $(SERVE_OBJS:.o=.d) $(UNIT_BINS:=.d) \
	$(FUZZ_OBJS:.o=.d) $(FUZZ_BINS:=.d)
