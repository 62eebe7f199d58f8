# clinic — a standalone C implementation of CPython 3.11's Argument Clinic.
#
#   make            build clinic/clinic
#   make check      install dependencies, build, run every test tier
#   make demo       install dependencies, build, run clinic on fixtures/demo
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
CC       ?= cc
PKG_CONFIG ?= pkg-config

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT      ?= -O2 -g
CFLAGS   ?=
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpcre2-8 libmd 2>/dev/null)
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs libpcre2-8 libmd 2>/dev/null || echo -lpcre2-8 -lmd)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(DEPS_CFLAGS) -Ilib $(CFLAGS)

BUILD    ?= build
LIB_SRC  := $(sort $(wildcard lib/*.c))
LIB_OBJ  := $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o)
LIBCLINIC := $(BUILD)/libclinic.a
TEST_SRC := $(sort $(wildcard tests/check_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps check unit fixtures conformance bench demo install clean

all: clinic/clinic

$(BUILD)/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBCLINIC): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

clinic/clinic: clinic/main.c $(LIBCLINIC) $(wildcard lib/*.h)
	$(CC) $(ALL_CFLAGS) -o $@ clinic/main.c $(LIBCLINIC) $(DEPS_LIBS) -lm

$(BUILD)/tests/%: tests/%.c $(LIBCLINIC) $(wildcard lib/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -Itests -o $@ $< $(LIBCLINIC) $(DEPS_LIBS) $(CHECK_LIBS) -lm

deps:
	@sh tests/deps.sh

unit: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; CK_FORK=yes ./$$t; done

fixtures: clinic/clinic
	@sh tests/run_fixtures.sh

check: deps
	$(MAKE) all unit fixtures conformance

clean:
	rm -rf $(BUILD) clinic/clinic
