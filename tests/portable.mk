# tests/portable.mk — the portable target on every CPython (issue 13).
# Included by the Makefile; uses its CLINIC_BIN.
#
#   make portable       _testclinic.c and fixtures/demo regenerated with
#                       --target portable, built -Werror and run against
#                       CPython 3.9 to 3.15 and a free-threaded 3.13, and as abi3
#                       (tests/portable/run.sh); the 3.14 and 3.15 in a Debian sid
#                       root (tests/portable/chroot.sh);
#                       installs the CPythons a fresh machine lacks

# Included before the first rule, this fragment must not steal the default.
ifeq ($(.DEFAULT_GOAL),)
.DEFAULT_GOAL := all
endif

.PHONY: portable

portable: functional-deps $(CLINIC_BIN)
	@sh tests/portable/run.sh $(CLINIC_BIN)
