# The differential tests of clinic's Python interpreter (tests/pyvm/):
# pyvm_run runs programs with lib/python/pyvm*.c, differential.py generates
# random programs and compares pyvm_run's results with python3's.
#   make pyvm-diff        PYVM_DIFF_COUNT programs from a fixed seed (make
#                         check runs it)
#   make pyvm-diff-long   PYVM_FUZZ_COUNT programs from the day's seed;
#                         make fuzz runs it; failing programs are kept in
#                         build/pyvm-diff-failures
PYVM_RUN := $(BUILD)/tests/pyvm_run
PYVM_DIFF_SEED ?= 1
PYVM_DIFF_COUNT ?= 600
PYVM_FUZZ_COUNT ?= 20000

$(PYVM_RUN): tests/pyvm/pyvm_run.c $(LIBCLINIC) $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIBCLINIC) $(DEPS_LIBS) -lm

test-bins: $(PYVM_RUN)

pyvm-diff: $(PYVM_RUN)
	@$(PYTHON) tests/pyvm/differential.py --interp $(PYVM_RUN) \
	    --seed $(PYVM_DIFF_SEED) --count $(PYVM_DIFF_COUNT)

pyvm-diff-long: $(PYVM_RUN)
	@$(PYTHON) tests/pyvm/differential.py --interp $(PYVM_RUN) \
	    --seed $$(date +%Y%m%d)0000 --count $(PYVM_FUZZ_COUNT) \
	    --keep build/pyvm-diff-failures

fuzz: pyvm-diff-long

.PHONY: pyvm-diff pyvm-diff-long
