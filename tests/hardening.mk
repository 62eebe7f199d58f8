# tests/hardening.mk — fuzzing, sanitizers, valgrind and the hardening
# scripts (clinic issue 6).  Included by the Makefile; uses its CC,
# ALL_CFLAGS, CSTD, WARN, DEPS_CFLAGS, DEPS_LIBS, LIB_SRC, CHECK_LIBS.
#
#   make fuzz [FUZZ_SECONDS=N] [FUZZ_FORK=1]
#                               libFuzzer campaign (clang), corpus kept in
#                               $(FUZZ_BUILD)/corpus between campaigns
#   make fuzz-smoke             replay seeds + regressions, then fuzz 30 s
#   make sanitize               ASan+UBSan build in $(ASAN_BUILD): unit
#                               tests, fixtures, malformed inputs
#   make valgrind               clinic under valgrind over the fixtures and
#                               a sample of CPython files
#   make hardening              fuzz-smoke + sanitize + malformed + kill
#                               loop + concurrency + line endings

# Included before the first rule, this fragment must not steal the default.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif

FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_MAX_LEN ?= 16384
# FUZZ_FORK=1: run in fork mode and carry on past crashes, hangs and OOMs
# (each one still lands in $(FUZZ_BUILD)/artifacts/)
FUZZ_FORK    ?= 0
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
FUZZ_CFLAGS   = $(CSTD) $(WARN) -O1 -g $(DEPS_CFLAGS) -Ilib $(FUZZ_SAN)
FUZZ_OBJ     := $(LIB_SRC:lib/%.c=$(FUZZ_BUILD)/lib/%.o)
FUZZ_BIN     := $(FUZZ_BUILD)/fuzz_clinic
FUZZ_ARGS     = -dict=tests/fuzz/clinic.dict -max_len=$(FUZZ_MAX_LEN) \
                -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
                -artifact_prefix=$(FUZZ_BUILD)/artifacts/
FUZZ_ENV     := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
                UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

ASAN_BUILD   ?= build-asan
ASAN_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer

.PHONY: fuzz fuzz-bin fuzz-smoke sanitize sanitize-bin valgrind \
        malformed kill-loop concurrency line-endings hardening

$(FUZZ_BUILD)/lib/%.o: lib/%.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BIN): tests/fuzz/fuzz_clinic.c $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(DEPS_LIBS) -lm

fuzz-bin: $(FUZZ_BIN)

# A long campaign: the corpus grows in $(FUZZ_BUILD)/corpus; crashes land
# in $(FUZZ_BUILD)/artifacts/ (turn each into tests/fuzz/regressions/NAME
# or a fixtures/malformed/ fixture).
fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/artifacts
	@sh tests/fuzz/make_corpus.sh $(FUZZ_BUILD)/corpus
	$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_ARGS) -max_total_time=$(FUZZ_SECONDS) \
	    $(if $(filter-out 0,$(FUZZ_FORK)),-fork=$(FUZZ_FORK) -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1) \
	    $(FUZZ_BUILD)/corpus

# For make check: every seed and regression replayed, then a short
# campaign in a scratch corpus.  Under a minute.
fuzz-smoke: $(FUZZ_BIN)
	@sh tests/fuzz/smoke.sh $(FUZZ_BIN) $(FUZZ_SMOKE_SECONDS)

# The ASan+UBSan build reuses the Makefile's own rules in another BUILD.
sanitize-bin:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) \
	    CLINIC_BIN=$(ASAN_BUILD)/clinic OPT="-O1 -g" \
	    CFLAGS="$(ASAN_SAN)" LDFLAGS="$(ASAN_SAN)" \
	    $(ASAN_BUILD)/clinic $(TEST_SRC:tests/%.c=$(ASAN_BUILD)/tests/%)

sanitize: sanitize-bin
	@sh tests/hardening/sanitize.sh $(ASAN_BUILD)

valgrind: $(CLINIC_BIN)
	@sh tests/hardening/valgrind.sh $(CLINIC_BIN)

malformed: $(CLINIC_BIN)
	@sh tests/hardening/malformed.sh $(CLINIC_BIN)

kill-loop: $(CLINIC_BIN)
	@sh tests/hardening/kill_loop.sh $(CLINIC_BIN)

concurrency: $(CLINIC_BIN)
	@sh tests/hardening/concurrency.sh $(CLINIC_BIN)

line-endings: $(CLINIC_BIN)
	@sh tests/hardening/line_endings.sh $(CLINIC_BIN)

# The parts run through make again; without the Makefile's include of
# tests/*.mk (make -f Makefile -f tests/hardening.mk), name us explicitly.
HARDENING_MAKE = $(MAKE) -f Makefile $(if $(shell grep -s 'tests/\*\.mk' Makefile),,-f tests/hardening.mk)

hardening: $(CLINIC_BIN)
	@sh tests/hardening/run.sh "$(HARDENING_MAKE)" $(CLINIC_BIN)
