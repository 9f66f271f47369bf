# warnwatch -- see README.md.
#
#   make                 build bot/warnwatch
#   make check           all tests (unit, data-driven cases, end-to-end)
#   make check SANITIZE=1  the same under ASan+UBSan+LSan (objects in build-san/)
#   make check-ci        make check, then make check SANITIZE=1, one total (CI)
#   make coverage        branch coverage per module of the unit and fast e2e tests
#   make mutants         every mutant of tests/mutants/*.mut (make check runs ci.list's)
#   make install PREFIX=/usr/local
#   make judge           the replies scored on real kernel reviewers (tests/judge/)
#   make bench | bench-headers | bench-backfill | bench-serve | bench-ci | bench-review | fuzz | checksrc | layers | hostile | sanitize

PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/warnwatch
MANDIR = $(PREFIX)/share/man/man1
LIBEXECDIR = $(PREFIX)/libexec/warnwatch
# bash-completion's per-command directory (read from $XDG_DATA_DIRS: /usr/local/share too)
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions

CC ?= cc

# Everything warnwatch and its tests need on Debian 12 ("make deps", as root).
DEBIAN_PACKAGES = build-essential pkg-config libgit2-dev libcurl4-openssl-dev \
	libjansson-dev libsqlite3-dev libmicrohttpd-dev b4 git python3 \
	linux-source-6.1 linux-source-6.12 time qemu-system-x86 bc flex bison libelf-dev libssl-dev \
	cpio ccache rsync bubblewrap busybox-static libcap-dev e2fsprogs public-inbox python3-aiosmtpd openssl \
	libarchive-dev liblzma-dev chromium \
	libexpat1-dev clang libclang-rt-14-dev cppcheck clang-tidy libpq-dev postgresql-15 \
	vim git-email libgmime-3.0-dev libclang-dev llvm gcovr
PKGS = libgit2 jansson libcurl sqlite3 libpq libmicrohttpd libarchive liblzma expat gmime-3.0
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# bot/warnwatch.c: `warnwatch` runs check with these alone and execs
# warnwatch-all (every library) for the other commands.
LEAN_PKGS = libgit2 jansson
LEAN_LIBS := $(shell pkg-config --libs $(LEAN_PKGS) 2>/dev/null)
# libclang (bot/review/cfacts.c) has no pkg-config file: llvm-config says where.
# warnwatch-all and the unit tests link it; the lean warnwatch never does.
LLVM_CONFIG ?= llvm-config
CLANG_CFLAGS := -isystem $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
CLANG_LIBS := -L$(shell $(LLVM_CONFIG) --libdir 2>/dev/null) -lclang

WARNINGS = -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	   -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(WARNINGS) $(PKG_CFLAGS) $(CLANG_CFLAGS) \
	     -DWW_DATADIR='"$(DATADIR)"' -iquote bot $(addprefix -iquote bot/,$(LIB_DIRS))
LDLIBS = $(PKG_LIBS) $(CLANG_LIBS) -lm

ifeq ($(SANITIZE),1)
BUILD ?= build-san
ALL_CFLAGS += -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	      -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else ifeq ($(COVERAGE),1)
# make coverage: gcov counters, -O0 so that branches are the source's.
BUILD ?= build-cov
ALL_CFLAGS += -O0 --coverage
LDFLAGS += --coverage
else
BUILD ?= build
endif

# Quiet by default, as Kbuild and git are; "make V=1" shows the commands.
ifneq ($(V),1)
QUIET_CC = @echo '   ' CC $@;
QUIET_LINK = @echo '   ' LINK $@;
QUIET_AR = @echo '   ' AR $@;
QUIET = @
endif

# The subcommands (bot/cmd/NAME.c, one cmd_NAME each) go into an archive of
# their own: bot/cmd/check.c and bot/check/check.c would be two members named
# check.o in one, and ar keeps only the last.  An archive, not plain objects,
# so that the lean program links only the commands it names.
LIB_DIRS := lib mail check kernel-ci state review serve history
LIB_SRCS := $(sort $(foreach d,$(LIB_DIRS),$(wildcard bot/$(d)/*.c)))
HDRS := $(wildcard bot/*.h $(foreach d,$(LIB_DIRS),bot/$(d)/*.h))
LIB_OBJS := $(patsubst bot/%.c,$(BUILD)/%.o,$(LIB_SRCS))
LIB = $(BUILD)/libww.a
CMD_SRCS := $(sort $(wildcard bot/cmd/*.c))
CMD_OBJS := $(patsubst bot/%.c,$(BUILD)/%.o,$(CMD_SRCS))
CMD_LIB = $(BUILD)/libww-cmd.a
PROG = $(BUILD)/warnwatch
PROG_ALL = $(BUILD)/warnwatch-all
UNIT_SRCS := $(sort $(wildcard tests/unit/t-*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))

# A sanitizer or coverage build stays in its BUILD: bot/warnwatch is the release one.
ifneq ($(filter 1,$(SANITIZE) $(COVERAGE)),)
all: $(PROG) $(PROG_ALL)
else
all: bot/warnwatch bot/warnwatch-all

bot/warnwatch: $(PROG)
	$(QUIET)cp $(PROG) $@.tmp && mv -f $@.tmp $@
bot/warnwatch-all: $(PROG_ALL)
	$(QUIET)cp $(PROG_ALL) $@.tmp && mv -f $@.tmp $@
endif

$(PROG): $(BUILD)/warnwatch.o $(CMD_LIB) $(LIB)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LEAN_LIBS) -lm

$(PROG_ALL): $(BUILD)/warnwatch-all.o $(CMD_LIB) $(LIB)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/warnwatch.o: bot/warnwatch.c $(HDRS)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -DWW_LIBEXECDIR='"$(LIBEXECDIR)"' -c -o $@ $<

$(BUILD)/warnwatch-all.o: bot/warnwatch.c $(HDRS)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -DWW_ALL -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(QUIET)rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(CMD_LIB): $(CMD_OBJS)
	$(QUIET)rm -f $@
	$(QUIET_AR)ar rcs $@ $^

$(BUILD)/%.o: bot/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# A -pg test is its SQLite twin compiled against PostgreSQL: it includes it.
$(foreach t,$(wildcard tests/unit/t-*-pg.c),\
  $(eval $(BUILD)/unit/$(basename $(notdir $(t))): $(wildcard $(subst -pg.c,.c,$(t)))))

units: $(UNIT_BINS)

# The test runner prints TAP per suite and a final "N passed, N failed".
check: all units
	WARNWATCH=$(CURDIR)/$(PROG) BUILD=$(CURDIR)/$(BUILD) WW_SKIP_SUITES="$(WW_SKIP_SUITES)" \
		WW_EXPECT_SKIPS="$(WW_EXPECT_SKIPS)" tests/run $(TESTS)

check-fast: all units
	WARNWATCH=$(CURDIR)/$(PROG) BUILD=$(CURDIR)/$(BUILD) WW_SKIP_SLOW=1 tests/run $(TESTS)

# What CI runs (.ci/run, README): the plain suite, then the whole suite
# again under the sanitizers even if the first failed, and one final
# "N passed, N failed, N skipped" line adding both up.  Nothing runs twice
# for nothing: the plain pass leaves out the sanitize suite (the second
# pass is all of it, sanitized), the second leaves out fuzz (always built
# with the sanitizers), checksrc (the same sources), the mutants (plain
# builds of their own) and the judge sample (tests/judge: it tests the
# scorer and the corpus; the sanitized pass covers review on hostile mails
# already, and the sample's budget is one pass of ~3 min).  Each pass fails
# on a skip beyond what CI's machine skips in it (tests/skips, WW_EXPECT_SKIPS).
# The kernel cases whose warnwatch code paths differ (a KUnit panic, build
# and apply failures, a kselftest panic, a workload panic with gcov counts
# and fsck) run again under the sanitizers; the other cases repeat those
# paths with longer boots, and CI's 90 minutes include the cold kernel
# builds of the plain pass (6.1's base, with COMMON_CLK and the clk suites
# that 04 needs since they are in base.config; 6.12's base for 10, 12, 13,
# 1903 s at load 11-27 here).  10 and 11 (the 6.12 base and
# the fallback to 6.1) stay out of the sanitized pass: no warnwatch path
# of theirs is new.  T0210_SANITIZED= (empty) runs every case.
# t0214 (the git base, on the 6.12 build t0210's case 10 leaves warm) runs
# whole in both passes: about 5 minutes the first time (seeding the base),
# 3 warm; its seeding, 3-way apply and eviction are warnwatch code.
T0210_SANITIZED ?= 01-warn-fires 05-syntax-error 05b-warn-in-decompressor \
	06-does-not-apply 07-cgroup-kselftest-fires 08-ext4-workload-fires
# The PostgreSQL queue storm (t0410) runs full-size (60
# series, 20 kills) in the plain pass (t0411, SQLite, reduced in both) and reduced (20 series, 6 kills, the
# same events: PostgreSQL restarted once, a connection cut) under the
# sanitizers, whose serve processes run several times slower; their TAP
# names say which.  STORM_SANITIZED=full runs the full storms there too.
STORM_SANITIZED ?= reduced
# Serve e2e tests whose time is waiting (quiet hours, pace, b4 fetches),
# not C the unit tests do not already run under the sanitizers: the
# plain pass runs them, the sanitized pass leaves them out to keep
# check-ci inside CI's 90 minutes (tests/skips declares each).
# The feedback, replay, kill, archive-fault and disk-full tests joined
# them when the whole of check-ci passed 90 minutes (stop 43: killed in
# the sanitized pass's last suite): their C is the store, the queue and
# the reply stage, which t0300, t0302, t0306, t0421 and the unit tests run
# sanitized.  t0310 (census) reads Debian's two kernel tarballs whole:
# its time is throughput; census and the scanner run sanitized in
# t-census, t-scan and fuzz-check (t0320 reads committed census files).
SAN_SKIP_E2E = tests/e2e/t0303-serve-versions.sh tests/e2e/t0309-serve-list-policy.sh \
	tests/e2e/t0310-census.sh \
	tests/e2e/t0312-serve-authres-trust.sh tests/e2e/t0313-serve-states.sh \
	tests/e2e/t0305-serve-feedback.sh tests/e2e/t0307-serve-replay.sh \
	tests/e2e/t0308-serve-feedback-trust.sh tests/e2e/t0400-serve-kill.sh \
	tests/e2e/t0402-serve-archive-faults.sh tests/e2e/t0403-serve-disk-full.sh

check-ci:
	@rm -f build/check-totals build-san/check-totals; \
	$(MAKE) check WW_SKIP_SUITES=sanitize WW_EXPECT_SKIPS=plain; plain=$$?; \
	$(MAKE) check SANITIZE=1 WW_SKIP_SUITES="fuzz checksrc judge mutants $(SAN_SKIP_E2E)" WW_EXPECT_SKIPS=sanitize \
		T0210_CASES="$(T0210_SANITIZED)" \
		WW_STORM_SIZE="$(STORM_SANITIZED)"; san=$$?; \
	set -- $$(cat build/check-totals 2>/dev/null || echo 0 1 0) \
	       $$(cat build-san/check-totals 2>/dev/null || echo 0 1 0); \
	echo "# make check: $$1 passed, $$2 failed, $$3 skipped; make check SANITIZE=1: $$4 passed, $$5 failed, $$6 skipped"; \
	echo "$$(($$1 + $$4)) passed, $$(($$2 + $$5)) failed, $$(($$3 + $$6)) skipped"; \
	test $$plain -eq 0 && test $$san -eq 0

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/rules \
		$(DESTDIR)$(DATADIR)/templates $(DESTDIR)$(DATADIR)/kernel-ci \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/warnwatch
	install -m 755 $(PROG_ALL) $(DESTDIR)$(LIBEXECDIR)/warnwatch-all
	install -m 644 rules/*.json $(DESTDIR)$(DATADIR)/rules/
	cp -R templates/. $(DESTDIR)$(DATADIR)/templates/
	cp -R kernel-ci/. $(DESTDIR)$(DATADIR)/kernel-ci/
	install -m 644 docs/warnwatch.1 $(DESTDIR)$(MANDIR)/warnwatch.1
	install -m 644 docs/warnwatch.bash-completion $(DESTDIR)$(BASHCOMPDIR)/warnwatch

deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y \
		$(DEBIAN_PACKAGES)

clean:
	rm -rf build build-san build-cov bot/warnwatch bot/warnwatch-all

# The mutation check (tests/mutants/): each mutant of a decision that
# matters applied to a scratch copy under tests/out/mutants, rebuilt, and
# killed by the tests it names.  MUTANTS="name ..." runs only those.
mutants: all units
	tests/mutants/run $(MUTANTS)

# Branch coverage per module (docs/HACKING.md records the figures): a
# --coverage build in build-cov/, the unit tests, the cases and the fast
# end-to-end tests (not those marked "# slow") run on it, then gcovr's
# table of bot/'s files.  Not part of check-ci.  COVERAGE_TESTS="unit/t-ci"
# narrows the run; the table is of what ran.
COVERAGE_TESTS ?= unit/ cases tests/e2e/
coverage:
	$(MAKE) COVERAGE=1 all units
	find build-cov -name '*.gcda' -delete
	WARNWATCH=$(CURDIR)/build-cov/warnwatch BUILD=$(CURDIR)/build-cov WW_SKIP_SLOW=1 \
		tests/run $(COVERAGE_TESTS); ret=$$?; \
	gcovr --root . --filter 'bot/' --branches --exclude-unreachable-branches \
		--print-summary build-cov | tee build-cov/coverage.txt; \
	exit $$ret

.PHONY: all check check-fast check-ci units install clean deps mutants coverage

# README's main job on the bundled example series: what `check` finds, and
# the reply `review` drafts (offline, from the mbox; nothing is sent), for
# v1 and for the v2 that fixes it.
EXAMPLE = tests/e2e/data
example: all
	@echo '$$ warnwatch check $(EXAMPLE)/example-v1.mbox'
	@$(PROG) check $(EXAMPLE)/example-v1.mbox; test $$? -le 1
	@echo
	@echo '$$ warnwatch review --config $(EXAMPLE)/example.conf --mbox $(EXAMPLE)/example-v1.mbox'
	@$(PROG) review --config $(EXAMPLE)/example.conf --mbox $(EXAMPLE)/example-v1.mbox
	@echo
	@echo '$$ warnwatch review --config $(EXAMPLE)/example.conf --mbox $(EXAMPLE)/example-v2.mbox'
	@$(PROG) review --config $(EXAMPLE)/example.conf --mbox $(EXAMPLE)/example-v2.mbox

.PHONY: example

# Judged on real reviewers (tests/judge/README.md, issue 34): every case of the
# corpus drafted without and with the Debian 6.12 source as --tree (extracted once
# into the cache), scored per list, tag and needs class, with all rules and
# leave-one-list-out; the table on stdout, per-case outcomes in
# tests/out/judge/report.json.  make check runs a fixed-seed sample of it, held
# to tests/judge/floor.json.  JUDGE_ARGS="--lists linux-xfs --mode none" narrows
# it; JUDGE_ARGS="--tree-sample 200" drafts 200 cases (seed 35) with the tree, the
# whole corpus without (the tree mode takes about 10 s a draft).
judge: all
	WARNWATCH=$(CURDIR)/$(PROG) tests/judge/run $(JUDGE_ARGS)

.PHONY: judge

# Benchmarks print ratios against peers measured in the same run.
bench: all
	tests/bench/check-bench
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/header-bench
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/backfill-bench
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/serve-bench

# check+review series per minute: serve --role=all on SQLite, and 1, 2, 4
# workers on one PostgreSQL queue (alone).
bench-serve: all
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/serve-bench

# one mail with 100,000 To: lines: check against grep -c and Python's email.
bench-headers: all
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/header-bench

# backfill of a generated 40,000-mail archive against git log -p (alone).
bench-backfill: all
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/backfill-bench

bench-ci: all
	tests/bench/ci-bench

# review of a one-patch series with no tree vs the warm 6.12 tree and its
# build directory (facts, compiled rewrite): at most 30 s more.
bench-review: all
	WARNWATCH=$(CURDIR)/bot/warnwatch tests/bench/review-bench

fuzz:
	tests/fuzz/run $(FUZZ_SECONDS)

checksrc:
	tests/checksrc

# No #include runs up the floors of docs/HACKING.md ("floors:"); checksrc runs it too.
layers:
	tests/layers

# The hostile inputs (docs/limits.md) and the sanitizer pass on their own.
hostile: all
	WARNWATCH=$(CURDIR)/$(PROG) tests/hostile/run

sanitize:
	tests/sanitize

.PHONY: bench bench-headers bench-backfill bench-serve bench-ci bench-review fuzz checksrc layers hostile sanitize
