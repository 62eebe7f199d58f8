# tests/hardening.mk — the hardening targets the Makefile does not define
# itself (it has sanitize, fuzz, fuzz-smoke and hardening).  Include it
# from the Makefile (-include tests/*.mk, after the first rule) or run
# make -f Makefile -f tests/hardening.mk TARGET.
#
#   make valgrind       clinic under valgrind over every fixture, the fuzz
#                       regressions and a sample of CPython files
#   make malformed      tests/hardening/malformed.sh (huge, odd, read-only
#                       and self-routing inputs)
#   make aliases        tests/hardening/aliases.sh (a routed file that is
#                       the input under another name)
#   make memory         tests/hardening/memory.sh (linear growth; out of
#                       memory fails one file)
#   make commit         tests/hardening/commit.sh (all-or-nothing commits)
#   make special-files  tests/hardening/special.sh (FIFOs, devices, names)
#   make small          tests/hardening/small.sh (stdout, --make, bits)
#   make kill-loop      SIGKILL at random points: files old or new, never
#                       partial (KILL_ITERATIONS=200, KILL_FILES=25)
#   make concurrency    two clinic runs on one tree at once
#   make line-endings   CRLF, no final newline, BOM
#   make bounds         tests/hardening/bounds.sh (every hostile python
#                       block of issue 28 within 10 s and 600 MiB, one at
#                       a time; one memory cap for a -j 4 run)
#   make fuzz-idempotent  FUZZ_SECONDS of fuzzing where a successful run's
#                       output must also be a fixed point of clinic

# Included before the first rule, this fragment must not steal the default.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif

.PHONY: valgrind malformed aliases memory commit special-files small kill-loop concurrency line-endings bounds fuzz-idempotent

valgrind: $(CLINIC_BIN)
	@sh tests/hardening/valgrind.sh $(CLINIC_BIN)

malformed: $(CLINIC_BIN)
	@sh tests/hardening/malformed.sh $(CLINIC_BIN)

aliases: $(CLINIC_BIN)
	@sh tests/hardening/aliases.sh $(CLINIC_BIN)

memory: $(CLINIC_BIN)
	@sh tests/hardening/memory.sh $(CLINIC_BIN)

commit: $(CLINIC_BIN)
	@sh tests/hardening/commit.sh $(CLINIC_BIN)

special-files: $(CLINIC_BIN)
	@sh tests/hardening/special.sh $(CLINIC_BIN)

small: $(CLINIC_BIN)
	@sh tests/hardening/small.sh $(CLINIC_BIN)

kill-loop: $(CLINIC_BIN)
	@sh tests/hardening/kill_loop.sh $(CLINIC_BIN)

concurrency: $(CLINIC_BIN)
	@sh tests/hardening/concurrency.sh $(CLINIC_BIN)

line-endings: $(CLINIC_BIN)
	@sh tests/hardening/line_endings.sh $(CLINIC_BIN)

bounds: $(CLINIC_BIN)
	@PYTHON=$(PYTHON) sh tests/hardening/bounds.sh $(CLINIC_BIN)

fuzz-idempotent: build-fuzz/fuzz_clinic
	@mkdir -p build-fuzz/corpus build-fuzz/artifacts
	@[ -n "$$(ls build-fuzz/corpus)" ] || sh tests/fuzz/make_corpus.sh build-fuzz/corpus
	CLINIC_FUZZ_IDEMPOTENT=1 ./build-fuzz/fuzz_clinic -dict=tests/fuzz/clinic.dict \
	    -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	    -max_total_time=$(or $(FUZZ_SECONDS),600) -print_final_stats=1 \
	    -artifact_prefix=build-fuzz/artifacts/ build-fuzz/corpus
