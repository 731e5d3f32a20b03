# clift — plain Makefile (chibicc style). `make` builds build/clift;
# `make SAN=1` builds an ASan/UBSan copy in build-san/; `make unit` builds unit tests;
# `make check` runs the unit tests (stopping at a failure), then scripts/test.sh;
# `make fuzz` builds the libFuzzer target build-fuzz/fuzz_compile with clang
# (tests/fuzz/README.md); it never touches build/ or build-san/.
CC      ?= cc
SAN     ?= 0
ifeq ($(SAN),1)
  OUT    := build-san
  CFLAGS := -std=c11 -g -O1 -Wall -Wextra -D_GNU_SOURCE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS:= -fsanitize=address,undefined
else
  OUT    := build
  CFLAGS := -std=c11 -g -O2 -Wall -Wextra -D_GNU_SOURCE
  LDFLAGS:=
endif
LDLIBS  := -lm -ldl

LIB_SRC  := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ  := $(patsubst src/%.c,$(OUT)/obj/%.o,$(LIB_SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(OUT)/%,$(UNIT_SRC))
HEADERS  := $(wildcard src/*/*.h)

all: $(OUT)/clift
unit: $(UNIT_BIN)

$(OUT)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/libclift.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(OUT)/clift: $(OUT)/obj/cli/main.o $(OUT)/libclift.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# each unit binary prints its runner line "name: N passed, N failed" (check.h);
# a failing one shows its messages and stops before the full suite
check: $(UNIT_BIN)
	@fail=0; log=$$(mktemp); for t in $(UNIT_BIN); do \
	  if $$t >$$log 2>&1; then tail -n 1 $$log; else cat $$log; fail=1; fi; \
	done; rm -f $$log; [ $$fail = 0 ]
	bash scripts/test.sh

$(OUT)/test_%: tests/unit/test_%.c tests/unit/check.h tests/unit/stages.h $(OUT)/libclift.a $(HEADERS)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(OUT)/libclift.a $(LDLIBS) $(LDFLAGS)

# ---- the fuzzer (tests/fuzz): its own objects, compiled with clang ----
FUZZ_CC     ?= clang
FUZZ_OUT    := build-fuzz
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -D_GNU_SOURCE -fno-omit-frame-pointer \
               -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJ    := $(patsubst src/%.c,$(FUZZ_OUT)/obj/%.o,$(LIB_SRC))

fuzz: $(FUZZ_OUT)/fuzz_compile

$(FUZZ_OUT)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/fuzz_compile: tests/fuzz/fuzz_compile.c $(FUZZ_OBJ) $(HEADERS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Isrc -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

clean:
	rm -rf build build-san build-fuzz

.PHONY: all unit check fuzz clean
