# clinic — a standalone C implementation of CPython 3.11's Argument Clinic.
#
#   make                  build build/clinic
#   make check            install dependencies, build with gcc and clang
#                         (-Werror), run every test tier; ends with
#                         "check: N passed, N failed"; includes make
#                         functional and make hardening (HARDENING=0: not)
#   make demo             install dependencies, build, run clinic on
#                         fixtures/demo/demo.c and show what it wrote
#   make unit | fixtures | cli | workflow | conformance     one test tier
#   make unit ONLY=check_io        one unit suite (or several: a,b)
#   make fixtures ONLY=errors/NAME one fixture (or a group: errors)
#   V=1                   full compiler command lines
#   make conformance-reference             the conformance harness run with
#                         the reference clinic.py itself (proves the harness)
#   make bench            our clinic against clinic.py on the CPython tree
#   make convert          clinic --convert's results (fixtures/convert),
#                         third-party extensions and CPython 3.13.5
#                         built and called (CPython: its test suites run)
#                         before and after conversion
#   make query            the query modes (--list, --json, --stats,
#                         --docstring) over the CPython tree, clinic.test and
#                         the fuzz corpus, cross-checked against clinic.py
#   make sanitize         ASan+UBSan build (build-asan/) and the tests under it
#   make fuzz-diff        3.14 and 3.15 declarations (tests/fuzz/gen_dsl.c)
#                         through clinic and each reference, compared
#   make fuzz-smoke       libFuzzer build (build-fuzz/), seeds replayed, 30 s
#   make fuzz             FUZZ_SECONDS (600) of fuzzing for each of
#                         FUZZ_TARGETS (clinic: C files, blocks: the
#                         generator's); FUZZ_FORK=1 goes on past crashes;
#                         the corpora grow in build-fuzz/corpus*
#   make hardening        fuzz-smoke, sanitize and tests/hardening/*
#   make install          PREFIX=/usr/local DESTDIR=
#   make deb              the Debian package, build/clinic_VERSION_ARCH.deb
#   make version          print the version (VERSION below)
#
# Conformance and bench fetch CPython 3.11 from Debian packages into
# $(CLINIC_CACHE) (default ~/.cache/clinic-conformance), never into the repo.

# The version, and its one source: clinic --version, the JSON of the query
# modes and make deb take it from here; debian/changelog, NEWS, the man page
# and the README name it too, and tests/package.sh fails when one does not.
VERSION  := 0.9.0
# The commit, printed by clinic --version beside the version, when built
# from a git checkout that is not at the tag vVERSION (git describe); empty
# from a tarball, or when given empty (CLINIC_COMMIT= make).
ifeq ($(origin CLINIC_COMMIT),undefined)
CLINIC_COMMIT := $(filter-out v$(VERSION),$(shell { [ -e .git ] && \
    git describe --tags --always --dirty --match 'v[0-9]*'; } 2>/dev/null))
endif

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
DATADIR  ?= $(PREFIX)/share/clinic
CC       ?= cc
PKG_CONFIG ?= pkg-config
PYTHON   ?= python3

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CFLAGS   ?=
LDFLAGS  ?=
# SHA-1 is OpenSSL's libcrypto, linked statically: only its SHA-1 and
# CPU-feature objects (about 30 KB) come into the binary, where the shared
# libcrypto.so (4.5 MB) would cost every run its loading and relocations.
CRYPTO_LIB  := $(shell $(CC) -print-file-name=libcrypto.a)
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpcre2-8 2>/dev/null)
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs libpcre2-8 2>/dev/null || echo -lpcre2-8) $(CRYPTO_LIB) -pthread
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

# CLINIC_NO_SIMD=1: the plain C paths alone; CLINIC_NO_AVX2=1: no AVX2 paths
# (lib/base/simd.h)
SIMD_FLAGS := $(if $(filter 1,$(CLINIC_NO_SIMD)),-DCLINIC_NO_SIMD) \
              $(if $(filter 1,$(CLINIC_NO_AVX2)),-DCLINIC_NO_AVX2)

ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(DEPS_CFLAGS) $(SIMD_FLAGS) -Ilib \
             -DCLINIC_VERSION='"$(VERSION)"' $(CFLAGS)

# Quiet build lines ("  CC      lib/parse/dsl.c"); V=1 shows the full commands.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n'
endif

# The builds make runs for a test tier (the sanitizer's, the fuzzers'
# library) compile in as many jobs as there are processors, unless make
# was given -j already (its job server then shares them out).
NPROC    := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
SUBMAKE_J = $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j$(NPROC))

# BUILD and CLINIC_BIN let one tree hold several builds side by side
# (make check puts its clang build in build/clang).
BUILD    ?= build
CLINIC_BIN ?= $(BUILD)/clinic
LIB_SRC  := $(sort $(wildcard lib/*/*.c))
LIB_HDR  := $(wildcard lib/*/*.h)
LIB_OBJ  := $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o) $(BUILD)/gen/portable_header.o
LIBCLINIC := $(BUILD)/libclinic.a
TEST_SRC := $(sort $(wildcard tests/unit/check_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps check unit test-bins fixtures cli workflow conformance \
        conformance-reference bench demo install clean sanitize fuzz simd exports quick fixture-expect \
        fuzz-smoke fuzz-diff hardening query version deb package convert FORCE

all: $(CLINIC_BIN)

# Fragments: hardening (valgrind, kill loop, ...) and the functional test.
include $(sort $(wildcard tests/*.mk))

$(BUILD)/lib/%.o: lib/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The header the portable target writes beside its code, as a C string.
$(BUILD)/gen/portable_header.c: lib/model/portable/clinic_portable.h lib/model/portable/embed.awk
	@mkdir -p $(dir $@)
	$(say) GEN $@
	$(Q)awk -f lib/model/portable/embed.awk $< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/portable_header.o: $(BUILD)/gen/portable_header.c
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The version and the commit, each in a file rewritten only when it changes,
# so what prints them is rebuilt then, and only then.
$(BUILD)/gen/version $(BUILD)/gen/commit: FORCE
	@mkdir -p $(dir $@)
	@v='$(if $(filter %/version,$@),$(VERSION),$(CLINIC_COMMIT))'; \
	    [ -f $@ ] && [ "$$(cat $@)" = "$$v" ] || echo "$$v" > $@
FORCE:

$(BUILD)/lib/drive/query.o: $(BUILD)/gen/version

$(LIBCLINIC): $(LIB_OBJ)
	@rm -f $@
	$(say) AR $@
	$(Q)ar rcs $@ $^

CLI_SRC  := $(sort $(wildcard clinic/*.c))

$(CLINIC_BIN): $(CLI_SRC) $(wildcard clinic/*.h) $(LIBCLINIC) $(LIB_HDR) \
              $(BUILD)/gen/version $(BUILD)/gen/commit
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CFLAGS) -DCLINIC_COMMIT='"$(CLINIC_COMMIT)"' $(LDFLAGS) -o $@ $(CLI_SRC) $(LIBCLINIC) $(DEPS_LIBS) -lm

# The old binary goes first: make unit builds with -k, and a test that no
# longer compiles must be "not built", not its previous self run again.
$(BUILD)/tests/%: tests/unit/%.c $(LIBCLINIC) $(LIB_HDR) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(LIBCLINIC) $(DEPS_LIBS) $(CHECK_LIBS) -lm

deps:
	@sh tests/deps.sh

version:
	@echo $(VERSION)

test-bins: $(TEST_BIN)

# ONLY=check_io (or check_io,check_dsl): those unit suites alone;
# -k: one test file that does not compile must not hide the others' results
UNIT_BIN = $(if $(ONLY),$(foreach t,$(subst $(comma), ,$(ONLY)),$(BUILD)/tests/$(t)),$(TEST_BIN))
comma := ,
unit:
	@$(MAKE) --no-print-directory -k $(UNIT_BIN) || true
	@sh tests/unit/run_unit.sh $(UNIT_BIN)

# ONLY=errors/NAME (or errors, or errors/NAME,directives): those fixtures
fixtures: $(CLINIC_BIN)
	@CLINIC=$(CLINIC_BIN) ONLY='$(ONLY)' sh tests/run_fixtures.sh

# the command line end to end, and the workflow (pre-commit, git apply)
cli: $(CLINIC_BIN)
	@sh tests/check_cli.sh $(CLINIC_BIN)

workflow: $(CLINIC_BIN)
	@sh tests/workflow.sh $(CLINIC_BIN)

# the version everywhere, make deb (lintian, unpacked and run), make install
package: $(CLINIC_BIN)
	@MAKE="$(MAKE)" sh tests/package.sh $(CLINIC_BIN)

conformance: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/conformance/run.sh --clinic $(CLINIC_BIN)

conformance-reference:
	@PYTHON=$(PYTHON) sh tests/conformance/run.sh --reference

bench: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/bench/run.sh $(CLINIC_BIN)
	@echo
	@sh tests/bench/portable/run.sh $(CLINIC_BIN)
	@echo
	@sh tests/bench/convert/run.sh $(CLINIC_BIN)

exports: $(CLINIC_BIN)
	@sh tests/exports.sh $(BUILD)

simd:
	@MAKE="$(MAKE)" PYTHON=$(PYTHON) sh tests/simd.sh

query: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/query/run.sh $(CLINIC_BIN)

# --convert's results built against CPython 3.9, 3.11 and 3.13 and called
# before and after the conversion (fixtures/convert/*.calls); third-party
# extensions converted and called on 3.9-3.15 (fixtures/convert/thirdparty);
# CPython 3.13.5 built converted and its test suites run before and after
# (tests/convert/suites.sh; CLINIC_CONVERT_SUITES=0 leaves that out)
convert: $(CLINIC_BIN)
	@sh tests/convert/run.sh $(CLINIC_BIN)

demo: deps
	@$(MAKE) --no-print-directory all
	@sh fixtures/demo/show.sh $(CLINIC_BIN)

check: deps
	@MAKE="$(MAKE)" PYTHON=$(PYTHON) HARDENING=$(HARDENING) sh tests/check.sh

# NAME=GROUP/NAME: fixtures/GROUP/NAME.c's expected result from the
# reference clinic.py of its dialect, to review before committing
fixture-expect:
	@PYTHON=$(PYTHON) sh tests/fixture_expect.sh '$(NAME)'

# the edit-compile-test loop: build, layers, exports, unit, fixtures,
# pyvm-diff, cli (make check runs these and every other tier)
quick:
	@MAKE="$(MAKE)" PYTHON=$(PYTHON) QUICK=1 sh tests/check.sh

install: $(CLINIC_BIN)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(CLINIC_BIN) $(DESTDIR)$(BINDIR)/clinic
	@if [ -f man/clinic.1 ]; then \
	    echo install -d $(DESTDIR)$(MANDIR)/man1; \
	    install -d $(DESTDIR)$(MANDIR)/man1; \
	    echo install -m 644 man/clinic.1 $(DESTDIR)$(MANDIR)/man1/clinic.1; \
	    install -m 644 man/clinic.1 $(DESTDIR)$(MANDIR)/man1/clinic.1; \
	fi
	install -d $(DESTDIR)$(DATADIR)
	install -m 644 schema/clinic-query.schema.json $(DESTDIR)$(DATADIR)/

# The Debian package (debian/): dpkg-buildpackage -b in a copy of the tree
# under $(BUILD)/deb (it writes into debian/ and beside the tree), given
# this tree's CLINIC_COMMIT; the package goes to $(BUILD)/.  debian/changelog
# must name VERSION.
DEB_DIR  = $(BUILD)/deb
DEB_FILE = clinic_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null).deb
deb:
	@v=$$(dpkg-parsechangelog -S Version); [ "$$v" = "$(VERSION)" ] || \
	    { echo "make deb: debian/changelog says $$v, the Makefile $(VERSION)"; exit 1; }
	@rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/clinic-$(VERSION)
	@tar --exclude=./.git --exclude=./build --exclude='./build-*' -cf - . | \
	    tar -C $(DEB_DIR)/clinic-$(VERSION) -xf -
	cd $(DEB_DIR)/clinic-$(VERSION) && unset MAKEFLAGS MFLAGS MAKELEVEL && \
	    CLINIC_COMMIT='$(CLINIC_COMMIT)' dpkg-buildpackage -b -us -uc -jauto
	mv $(DEB_DIR)/$(DEB_FILE) $(BUILD)/$(DEB_FILE)
	@echo "make deb: $(BUILD)/$(DEB_FILE)"

# Sanitizer and fuzzing builds: the same wildcard rules, other BUILD dirs.
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SECONDS ?= 600
FUZZ_BIN   := build-fuzz/fuzz_clinic

sanitize:
	@$(MAKE) $(SUBMAKE_J) --no-print-directory CC=clang BUILD=build-asan CLINIC_BIN=build-asan/clinic \
	    OPT="-O1 -g" CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" all test-bins
	@PYTHON=$(PYTHON) sh tests/hardening/sanitize.sh build-asan

# The library instrumented for libFuzzer once; three programs link it:
# fuzz_clinic (bytes are a C file), fuzz_blocks (bytes are the choices of
# the generator, tests/fuzz/gen.c) and gen_run (the generator's seeds, one
# child each, for make check).
FUZZ_GEN_BIN := build-fuzz/fuzz_blocks
GEN_RUN_BIN  := build-fuzz/gen_run
FUZZ_INC     := -Ilib
FUZZ_COMMON  := tests/fuzz/fuzz_run.c tests/fuzz/fuzz_run.h
FUZZ_GEN_SRC := tests/fuzz/gen.c tests/fuzz/gen.h
FUZZ_LINK     = clang $(CSTD) $(WARN) -O1 -g $(DEPS_CFLAGS) $(FUZZ_INC) -Itests/fuzz \
	    -fno-omit-frame-pointer -o $@ $(filter %.c,$^) build-fuzz/libclinic.a $(DEPS_LIBS) -lm

ifneq ($(BUILD),build-fuzz)
build-fuzz/libclinic.a: $(LIB_SRC) $(LIB_HDR)
	@$(MAKE) $(SUBMAKE_J) --no-print-directory CC=clang BUILD=build-fuzz OPT="-O1 -g" \
	    CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer" \
	    build-fuzz/libclinic.a
endif

$(FUZZ_BIN): tests/fuzz/fuzz_clinic.c $(FUZZ_COMMON) build-fuzz/libclinic.a
	$(FUZZ_LINK) -fsanitize=fuzzer,address,undefined

$(FUZZ_GEN_BIN): tests/fuzz/fuzz_blocks.c $(FUZZ_GEN_SRC) $(FUZZ_COMMON) build-fuzz/libclinic.a
	$(FUZZ_LINK) -fsanitize=fuzzer,address,undefined

$(GEN_RUN_BIN): tests/fuzz/gen_run.c $(FUZZ_GEN_SRC) $(FUZZ_COMMON) build-fuzz/libclinic.a
	$(FUZZ_LINK) -fsanitize=fuzzer-no-link,address,undefined

# The differential run of 3.14 and 3.15 declarations (tests/fuzz/gen_dsl.c)
# against their references: FUZZ_DIFF_SEEDS (FIRST:COUNT) files, each
# through both; the references' results cached.  FUZZ_DIFF_ARGS=-v lists
# the known mismatches too.
FUZZ_DIFF_SEEDS ?= 1:300
GEN_DSL_BIN := $(BUILD)/tests/gen_dsl_run

$(GEN_DSL_BIN): tests/fuzz/gen_dsl_run.c tests/fuzz/gen_dsl.c tests/fuzz/gen_dsl.h
	@mkdir -p $(dir $@)
	$(say) LINK $@
	$(Q)$(CC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/gen_dsl_run.c tests/fuzz/gen_dsl.c

fuzz-diff: $(CLINIC_BIN) $(GEN_DSL_BIN)
	@sh tests/fuzz/differential.sh $(CLINIC_BIN) $(GEN_DSL_BIN) $(FUZZ_DIFF_SEEDS) $(FUZZ_DIFF_ARGS)

fuzz-smoke: $(FUZZ_BIN) $(FUZZ_GEN_BIN) $(GEN_RUN_BIN)
	@sh tests/fuzz/smoke.sh $(FUZZ_BIN) 30 $(GEN_RUN_BIN)

# FUZZ_TARGETS: which campaigns, each FUZZ_SECONDS long: clinic (bytes
# are a C file), blocks (bytes are the generator's choices; -len_control=0:
# a file needs a few hundred choices, libFuzzer's slow growth from 4 bytes
# kept them tiny).  -timeout: a hang, as in fuzz-smoke (tests/fuzz/smoke.sh
# says why 60 s: ASan and a loaded machine make a bounded input slow).
FUZZ_TARGETS ?= clinic blocks

fuzz: $(FUZZ_BIN) $(FUZZ_GEN_BIN)
	@mkdir -p build-fuzz/corpus build-fuzz/corpus-blocks build-fuzz/artifacts
	@[ -n "$$(ls build-fuzz/corpus)" ] || sh tests/fuzz/make_corpus.sh build-fuzz/corpus
	$(if $(filter clinic,$(FUZZ_TARGETS)),./$(FUZZ_BIN) -dict=tests/fuzz/clinic.dict \
	    -max_len=16384 -timeout=60 \
	    -rss_limit_mb=2048 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=build-fuzz/artifacts/ \
	    $(if $(FUZZ_FORK),-fork=$(NPROC) -ignore_crashes=1) build-fuzz/corpus)
	$(if $(filter blocks,$(FUZZ_TARGETS)),./$(FUZZ_GEN_BIN) -max_len=4096 -len_control=0 -timeout=30 \
	    -rss_limit_mb=2048 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=build-fuzz/artifacts/blocks- \
	    $(if $(FUZZ_FORK),-fork=$(NPROC) -ignore_crashes=1) build-fuzz/corpus-blocks)

hardening: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/hardening/run.sh "$(MAKE)" $(CLINIC_BIN)

clean:
	rm -rf $(BUILD) build build-asan build-fuzz
