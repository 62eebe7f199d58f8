# clinic — a standalone C implementation of CPython 3.11's Argument Clinic.
#
#   make                  build clinic/clinic
#   make check            install dependencies, build with gcc and clang
#                         (-Werror), run every test tier; ends with
#                         "check: N passed, N failed"
#   make demo             install dependencies, build, run clinic on
#                         fixtures/demo/demo.c and show what it wrote
#   make unit | fixtures | conformance     one test tier
#   make conformance-reference             the conformance harness run with
#                         the reference clinic.py itself (proves the harness)
#   make bench            our clinic against clinic.py on the CPython tree
#   make install          PREFIX=/usr/local DESTDIR=
#
# Conformance and bench fetch CPython 3.11 from Debian packages into
# $(CLINIC_CACHE) (default ~/.cache/clinic-conformance), never into the repo.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
CC       ?= cc
PKG_CONFIG ?= pkg-config
PYTHON   ?= python3

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CFLAGS   ?=
LDFLAGS  ?=
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpcre2-8 libmd 2>/dev/null)
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs libpcre2-8 libmd 2>/dev/null || echo -lpcre2-8 -lmd)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(DEPS_CFLAGS) -Ilib $(CFLAGS)

# BUILD and CLINIC_BIN let one tree hold several builds side by side
# (make check puts its clang build in build/clang).
BUILD    ?= build
CLINIC_BIN ?= clinic/clinic
LIB_SRC  := $(sort $(wildcard lib/*.c))
LIB_OBJ  := $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o)
LIBCLINIC := $(BUILD)/libclinic.a
TEST_SRC := $(sort $(wildcard tests/check_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps check unit test-bins fixtures conformance conformance-reference \
        bench demo install clean

all: $(CLINIC_BIN)

$(BUILD)/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBCLINIC): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(CLINIC_BIN): clinic/main.c $(LIBCLINIC) $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ clinic/main.c $(LIBCLINIC) $(DEPS_LIBS) -lm

$(BUILD)/tests/%: tests/%.c $(LIBCLINIC) $(wildcard lib/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(LIBCLINIC) $(DEPS_LIBS) $(CHECK_LIBS) -lm

deps:
	@sh tests/deps.sh

test-bins: $(TEST_BIN)

# -k: one test file that does not compile must not hide the others' results
unit:
	@$(MAKE) --no-print-directory -k test-bins || true
	@sh tests/run_unit.sh $(TEST_BIN)

fixtures: $(CLINIC_BIN)
	@CLINIC=$(CLINIC_BIN) sh tests/run_fixtures.sh

conformance: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/conformance/run.sh --clinic $(CLINIC_BIN)

conformance-reference:
	@PYTHON=$(PYTHON) sh tests/conformance/run.sh --reference

bench: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/bench/run.sh $(CLINIC_BIN)

demo: deps
	@$(MAKE) --no-print-directory all
	@sh fixtures/demo/show.sh $(CLINIC_BIN)

check: deps
	@MAKE="$(MAKE)" PYTHON=$(PYTHON) sh tests/check.sh

install: $(CLINIC_BIN)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(CLINIC_BIN) $(DESTDIR)$(BINDIR)/clinic
	@if [ -f man/clinic.1 ]; then \
	    echo install -d $(DESTDIR)$(MANDIR)/man1; \
	    install -d $(DESTDIR)$(MANDIR)/man1; \
	    echo install -m 644 man/clinic.1 $(DESTDIR)$(MANDIR)/man1/clinic.1; \
	    install -m 644 man/clinic.1 $(DESTDIR)$(MANDIR)/man1/clinic.1; \
	fi

clean:
	rm -rf $(BUILD) build clinic/clinic
