# nttrace. `make demo` and `make check` are the two commands README.md
# promises; the rest are their parts. Kernel-side building goes through
# scripts/ (test kernels are cached outside the tree, see
# Documentation/testing.md); this file builds the user-space side, for
# 64-bit and for 32-bit (-m32), static so that the programs run in the test
# VM's bare initramfs.

BUILD ?= build
CC ?= gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wno-unused-parameter
# Every user-space object keeps its frame pointer: the call stacks the
# kernel takes of a program (EventWrite's stack items, the StackWalk
# events of samples) are walked by frame pointers, and a writer's goes
# through this library on its way to the system call.
FP_CFLAGS := -fno-omit-frame-pointer
# The version of the library, the tool, the module's DKMS package and the
# Debian packages.
VERSION := 0.19.0
# The uapi header, uapi/nttrace.h, is included as <nttrace/uapi.h>, the
# name it is installed by: the build gives it that name in
# $(BUILD)/generated (a copy, `make headers`), as Kbuild does for the module.
UAPI_H := $(BUILD)/generated/nttrace/uapi.h
# _FILE_OFFSET_BITS=64: the 32-bit library reads and writes files past
# 2 GB (its off_t, open, lseek, pwrite); no public header carries an off_t.
CPPFLAGS := -I$(BUILD)/generated -Iinclude -Iuserlib/include -Icommon -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	    -DNTTRACE_VERSION='"$(VERSION)"'
LDFLAGS_VM := -static -pthread
# expat (libexpat1-dev, scripts/deps) reads instrumentation manifests
# (userlib/tdh/tdh_man*.c): linked into every program of the library.
# The 32-bit library needs i386's libexpat.a: gcc -m32's own if it finds
# one (libexpat1-dev:i386 installed), else the one scripts/deps-i386-expat
# (run by scripts/deps) keeps in the cache, NTTRACE_CACHE as in
# scripts/common.sh; it does not add apt's i386 architecture, which breaks
# `apt-get update` wherever the mirror's i386 lists lag (as this project's
# did). With neither, the 32-bit library is built without manifests
# (NTTRACE_NO_EXPAT: their functions return ERROR_NOT_SUPPORTED, and
# tests/host/tdh_manifest_test.c says it skips).
NTTRACE_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/nttrace
EXPAT_CACHE_u32 := $(NTTRACE_CACHE)/expat-i386
EXPAT_u64 := yes
EXPAT_SYS_u32 := $(filter /%,$(shell $(CC) -m32 -print-file-name=libexpat.a 2>/dev/null))
EXPAT_u32 := $(if $(EXPAT_SYS_u32),yes,$(if $(wildcard $(EXPAT_CACHE_u32)/lib/libexpat.a),cache))
LIBS_u64 := $(if $(EXPAT_u64),-lexpat)
LIBS_u32 := $(if $(filter cache,$(EXPAT_u32)),-L$(EXPAT_CACHE_u32)/lib) $(if $(EXPAT_u32),-lexpat)
DEFS_u64 := $(if $(EXPAT_u64),,-DNTTRACE_NO_EXPAT)
DEFS_u32 := $(if $(filter cache,$(EXPAT_u32)),-I$(EXPAT_CACHE_u32)/include,$(if $(EXPAT_u32),,-DNTTRACE_NO_EXPAT))
# elfutils' libdwfl names functions for `nttrace profile` (libdw-dev, and
# for the static tool the compression libraries libdw.a calls:
# scripts/deps). The 32-bit tool goes without: Debian has no i386 libdw.a
# here (apt's i386 architecture is not added), and it says image+offset.
DEFS_u32 += -DNTTRACE_NO_LIBDW
TOOL_LIBS_u64 := -ldw -lelf -lz -llzma -lbz2 -lzstd
TOOL_LIBS_u32 :=

LIB_SRCS := common/record.c common/sysrec.c common/sysconfig.c common/utf16.c \
	    userlib/nt/nt.c userlib/nt/ntstatus.c userlib/nt/win32.c userlib/nt/safecopy.c \
	    userlib/nt/systemtime.c \
	    userlib/etl/etl.c userlib/etl/etlread.c userlib/etl/xpress.c userlib/etl/kernel_events.c \
	    userlib/etl/kernel_classes.c \
	    userlib/etl/tmf.c userlib/etl/wpp_guid.c \
	    userlib/tdh/tdh.c userlib/tdh/tdh_data.c userlib/tdh/tdh_format.c \
	    userlib/tdh/tdh_text.c userlib/tdh/tdh_tlg.c userlib/tdh/tdh_mof.c \
	    userlib/tdh/tdh_stub.c \
	    userlib/tdh/tdh_man_arena.c userlib/tdh/tdh_man_parse.c \
	    userlib/tdh/tdh_man_resolve.c userlib/tdh/tdh_man_types.c \
	    userlib/tdh/tdh_man_load.c userlib/tdh/tdh_man_elf.c \
	    userlib/tdh/tdh_man_wevt.c \
	    userlib/tdh/tdh_man_event.c userlib/tdh/tdh_man_map.c \
	    userlib/tdh/tdh_man_query.c userlib/tdh/tdh_man_search.c \
	    userlib/tdh/tdh_wpp.c userlib/tdh/tdh_wpp_event.c \
	    userlib/tdh/tdh_wpp_handle.c userlib/tdh/tdh_wpp_load.c \
	    userlib/filter/evfilter.c userlib/filter/tdh_filter.c \
	    userlib/logger/umlogger.c userlib/logger/filelogger.c \
	    userlib/provider/message.c userlib/provider/wpp.c \
	    userlib/provider/register.c userlib/provider/event.c \
	    userlib/provider/eventprov.c userlib/provider/tracelogging.c \
	    userlib/provider/ntwmi.c \
	    userlib/controller/enable.c \
	    userlib/controller/trace.c userlib/controller/session.c \
	    userlib/controller/queryall.c userlib/controller/guids.c \
	    userlib/controller/traceinfo.c \
	    userlib/consumer/rings.c userlib/consumer/opentrace.c \
	    userlib/windows/wcs.c userlib/windows/wprintf.c \
	    userlib/windows/guid.c userlib/windows/sid.c userlib/windows/time.c \
	    userlib/windows/process.c userlib/windows/conio.c userlib/windows/strsafe.c \
	    userlib/windows/utf.c userlib/windows/text.c \
	    userlib/windows/cmdline.c userlib/windows/path.c userlib/windows/inet.c
TOOLS := nttrace
# `nttrace wpr`'s profiles (also linked into wprp_test).
WPRP_OBJS := wprp_xml.o wprp.o wpr_names.o wpr_builtin.o
NTTRACE_OBJS := nttrace.o cli.o record.o dump.o providers.o show.o render.o render_tdh.o render_out.o plot.o \
		convert.o merge.o profile.o samples.o perfdata.o flame.o buildid.o kallsyms.o \
		manifest.o tracerpt.o tracerpt_value.o tracerpt_export.o tracerpt_report.o relay.o evtx.o mc.o mc_out.o mc_header.o mc_prov.o mc_msg.o \
		mc_wevt.o mc_rc.o mc_prelude.o wpr.o $(WPRP_OBJS) xperf.o xperf_names.o logman.o tlname.o \
		autologger.o
VM_TESTS := abi_test session_test consumer_test message_test umlogger_test starttrace_test etl_test wpp_test permission_test cpu_test irqsoff_test
VM_TESTS += classic_test
VM_TESTS += provider_test
VM_TESTS += traceevent_test
VM_TESTS += kapi_test
VM_TESTS += eventwrite_test
VM_TESTS += noreg_test
VM_TESTS += eventprov_test
VM_TESTS += opentrace_test
VM_TESTS += realtime_test
VM_TESTS += syslogger_test
VM_TESTS += systype_test
VM_TESTS += kernel_logger_test
VM_TESTS += winetl_test
VM_TESTS += kernel_classes_test
VM_TESTS += process_test
VM_TESTS += query_test
VM_TESTS += tracelogging_test
VM_TESTS += filter_test
VM_TESTS += kernel_io_test
VM_TESTS += profile_test
VM_TESTS += stacktrace_test
VM_TESTS += memory_test
VM_TESTS += fileio_test
VM_TESTS += windows_test
VM_TESTS += mc_test
# Windows programs (tests/windows), built as Windows sources are with
# nttrace-windows.pc: its Cflags, with the tree's directories for the
# installed ones (scripts/check-install builds them with pkg-config
# itself), as C and as C++; windows_test runs them in the VM. A program's
# other translation units are WIN_SRCS_NAME (winnames: a second unit
# defining the same selectany GUID).
WIN_PROGRAMS := controller provider tlprovider consumer winnames
WIN_SRCS_winnames := tests/windows/winnames_guid.c
WIN_CFLAGS := -fshort-wchar -DUNICODE -D_UNICODE -Iuserlib/windows/include -I$(BUILD)/generated \
	      -Iinclude -Iuserlib/include
# Each object's prerequisites are the headers the compiler saw it include
# (-MMD writes them beside it as a .d file, read back below; -MP keeps a
# removed header from stopping the build).
DEPFLAGS := -MMD -MP

.PHONY: all user headers check demo bench kernels modules host-tests clean clean-cache

all: user

headers: $(UAPI_H)
$(UAPI_H): uapi/nttrace.h
	@mkdir -p $(dir $@)
	cp $< $@

# ---- user space, 64-bit (u64) and 32-bit (u32) ----
# Programs of one object and the library: the samples, the benchmarks.
SAMPLES := trace_sample classic_sample event_sample spin_sample
define abi_rules
# The expat flags the build has: rewritten when they change (the 32-bit
# library's, once scripts/deps has fetched i386's libexpat.a), so that
# every object is built anew with them.
$(BUILD)/$(1)/expat.flags: FORCE_EXPAT
	@mkdir -p $$(dir $$@)
	@echo '$(DEFS_$(1)) $(LIBS_$(1))' | cmp -s - $$@ 2>/dev/null || \
		echo '$(DEFS_$(1)) $(LIBS_$(1))' > $$@

$(BUILD)/$(1)/obj/%.o: %.c Makefile $(BUILD)/$(1)/expat.flags | $(UAPI_H)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) $(CPPFLAGS) $(DEFS_$(1)) $(CFLAGS) $(FP_CFLAGS) $(WARN) \
		$(DEPFLAGS) -c -o $$@ $$<

$(BUILD)/$(1)/libnttrace.a: $(patsubst %.c,$(BUILD)/$(1)/obj/%.o,$(LIB_SRCS))
	rm -f $$@
	$(AR) rcs $$@ $$^

# The Windows layer's wmain entry (userlib/windows/winmain.c).
$(BUILD)/$(1)/libnttrace-wmain.a: $(BUILD)/$(1)/obj/userlib/windows/winmain.o
	rm -f $$@
	$(AR) rcs $$@ $$^

$(BUILD)/$(1)/nttrace: $(addprefix $(BUILD)/$(1)/obj/userlib/tools/,$(NTTRACE_OBJS))
$(addprefix $(BUILD)/$(1)/,$(SAMPLES)): $(BUILD)/$(1)/%: $(BUILD)/$(1)/obj/samples/%.o
$(BUILD)/$(1)/nttrace_bench: $(BUILD)/$(1)/obj/tests/bench/bench.o
$(BUILD)/$(1)/obj/tests/bench/bench.o: $(BUILD)/generated/bench_events.h
$(BUILD)/$(1)/obj/tests/vm/mc_test.o: $(BUILD)/generated/mc_test_events.h
$(BUILD)/$(1)/klbench: $(BUILD)/$(1)/obj/tests/bench/klbench.o
$(addprefix $(BUILD)/$(1)/,nttrace $(SAMPLES) nttrace_bench klbench): $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$(filter %.o,$$^) $$(filter %.a,$$^) $(LDFLAGS_VM) $(LIBS_$(1)) \
		$$(if $$(filter %/nttrace,$$@),$(TOOL_LIBS_$(1)))

$(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/obj/tests/vm/%.o $(BUILD)/$(1)/libnttrace.a
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/nttrace_fuzz: $(BUILD)/$(1)/obj/tests/fuzz/syscall_fuzz.o
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/windows/%-c: tests/windows/%.c $(BUILD)/$(1)/libnttrace-wmain.a \
			   $(BUILD)/$(1)/libnttrace.a | $(UAPI_H)
	@mkdir -p $$(dir $$@)
	$(CC) $(2) $(WIN_CFLAGS) $(CFLAGS) -Wall -Wextra -Werror $(DEPFLAGS) -o $$@ $$< \
		$$(WIN_SRCS_$$*) $(BUILD)/$(1)/libnttrace-wmain.a $(BUILD)/$(1)/libnttrace.a $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/windows/%-cpp: tests/windows/%.c $(BUILD)/$(1)/libnttrace-wmain.a \
			     $(BUILD)/$(1)/libnttrace.a | $(UAPI_H)
	@mkdir -p $$(dir $$@)
	$(CXX) $(2) $(WIN_CFLAGS) $(CFLAGS) -Wall -Wextra -Werror $(DEPFLAGS) -o $$@ \
		-x c++ $$< $$(WIN_SRCS_$$*) -x none \
		$(BUILD)/$(1)/libnttrace-wmain.a $(BUILD)/$(1)/libnttrace.a $(LDFLAGS_VM) $(LIBS_$(1))

user: $(BUILD)/$(1)/libnttrace.a $(addprefix $(BUILD)/$(1)/,$(TOOLS)) \
      $(addprefix $(BUILD)/$(1)/,$(SAMPLES) nttrace_bench klbench nttrace_fuzz) \
      $(addprefix $(BUILD)/$(1)/tests/,$(VM_TESTS)) \
      $(foreach p,$(WIN_PROGRAMS),$(BUILD)/$(1)/windows/$(p)-c $(BUILD)/$(1)/windows/$(p)-cpp)
endef
$(eval $(call abi_rules,u64,-m64))
$(eval $(call abi_rules,u32,-m32))

# Provider headers made by `nttrace mc` (the 64-bit tool, which the host
# runs), their binaries beside them, unused: the bench's mc_disabled path
# (tests/bench/bench.man) and tests/vm/mc_test.c's provider.
$(BUILD)/generated/bench_events.h: tests/bench/bench.man $(BUILD)/u64/nttrace
	@mkdir -p $(BUILD)/generated/mc-bin
	$(BUILD)/u64/nttrace mc -um -h $(BUILD)/generated -r $(BUILD)/generated/mc-bin \
		-z bench_events $<
$(BUILD)/generated/mc_test_events.h: tests/vm/mc_test.man $(BUILD)/u64/nttrace
	@mkdir -p $(BUILD)/generated/mc-bin
	$(BUILD)/u64/nttrace mc -um -h $(BUILD)/generated -r $(BUILD)/generated/mc-bin \
		-z mc_test_events $<
$(foreach a,u64 u32,$(foreach l,c cpp,$(BUILD)/$(a)/windows/winnames-$(l))): $(WIN_SRCS_winnames)
.PHONY: FORCE_EXPAT
FORCE_EXPAT:

.SECONDARY:

# ---- host tests (no VM) ----
# HOST_TESTS: tests/host/NAME.c as $(BUILD)/host/NAME-m64 and NAME-m32,
# static, so that the 32-bit one can run in the VM on a host that cannot
# run 32-bit programs. HOST_TESTS_64: as $(BUILD)/host/NAME, 64-bit, for
# the host only. Each is linked with the library of its ABI, after the
# objects of it that HOST_OBJS_NAME names (built as the library's are),
# and takes HOST_CPPFLAGS_NAME too.
HOST_TESTS := uapi_layout record_test sysrec_test tracelogging_test tdh_test tdh_mof_test \
	      tdh_wpp_test tdh_filter_test wincrt_test tdh_manifest_test tdh_wevt_test \
	      safecopy_bench \
	      tl_roundtrip etl_order_test logfile_test
HOST_TESTS_64 := status_names no_module abi_size_test tl_dump plot_test ctf_test merge_test \
		 tools_test flame_test mc_bin_test wprp_test
# uapi_layout: the uapi has one layout for 32- and 64-bit callers.
# etl_order_test: the order the ETL reader merges its CPU streams in
# (files and live), against a plain scan of the CPUs.
# record_test, sysrec_test: the record encoders (the byte cases are
# KUnit's too); sysrec_test's records decoded by the reader's table.
HOST_OBJS_record_test := common/record.o
# TraceLogging's macros and run time, with the evntprov.h calls played by
# the test (tests/host/tracelogging_fake.h); tracelogging_cpp_test below is
# its C++ build (32-bit C++ headers: g++-multilib, which scripts/deps
# installs).
HOST_OBJS_tracelogging_test := userlib/provider/tracelogging.o
# TDH over TraceLogging events built by hand (tests/host/tlg_encode.h), the
# kernel's MOF classes, message events (the test's own format file and
# nttrace_wpp section), payload filters (tdh_filter_test), and
# manifest-based events: tdh_manifest_test's manifest goes in as a C string
# (the .inc) and, as a build adds one for TdhLoadManifestFromBinary, into
# the program's .nttrace.manifest section; 32-bit without expat, it checks
# the functions say ERROR_NOT_SUPPORTED and skips the rest.
HOST_CPPFLAGS_tdh_manifest_test := -I$(BUILD)/host
HOST_POST_tdh_manifest_test := objcopy --add-section \
			       .nttrace.manifest=tests/host/tdh_manifest_test.man
# tdh_wevt_test: compiled manifests (WEVT_TEMPLATE and message table), against
# the XML they were made of when NTTRACE_MC_DATA (or the tests' default,
# a directory beside the tree) holds mc.exe's outputs, and hand-made ones,
# good and bad.
# wincrt_test: the Windows layer's C runtime (userlib/windows/crt.h), by its
# nttrace_win_* names. safecopy_bench: nttrace_safe_copy() from each kind of
# memory, and a bad pointer's cost (its numbers are in userlib/nt/safecopy.c).
HOST_SRC_safecopy_bench := tests/bench/safecopy.c
# tl_roundtrip: every TraceLogging field macro through the user-mode logger
# and back by TDH; tl_dump, plot_test, ctf_test, merge_test: `nttrace dump`,
# `plot` (gnuplot draws), `convert --to ctf` (read back by babeltrace2),
# `merge`; no_module: the library and the tool without /dev/nttrace;
# abi_size_test: callers built against other headers (no byte past the
# caller's struct); tools_test: the tool's own helpers (userlib/tools/cli.c).
HOST_OBJS_tools_test := userlib/tools/cli.o userlib/tools/tlname.o
HOST_CPPFLAGS_tools_test := -Iuserlib/tools
# flame_test: `nttrace profile --svg`'s flame graph (userlib/tools/flame.c).
HOST_OBJS_flame_test := userlib/tools/flame.o
HOST_CPPFLAGS_flame_test := -Iuserlib/tools
# wprp_test: `nttrace wpr`'s profiles (userlib/tools/wprp*.c, wpr_*.c),
# with the public .wprp files of $NTTRACE_WPRP_SAMPLES when it is set.
HOST_OBJS_wprp_test := $(addprefix userlib/tools/,$(WPRP_OBJS) cli.o tlname.o)
HOST_CPPFLAGS_wprp_test := -Iuserlib/tools
# mc_bin_test: `nttrace mc`'s message table, WEVT_TEMPLATE and resource
# script (userlib/tools/mc_msg.c, mc_wevt.c, mc_rc.c), byte for byte
# against a real mc.exe's outputs, read from $NTTRACE_MC_DATA or the
# test's default directory (skipped when absent).
HOST_OBJS_mc_bin_test := userlib/tools/mc_out.o userlib/tools/mc_prov.o \
			 userlib/tools/mc_msg.o userlib/tools/mc_wevt.o userlib/tools/mc_rc.o
HOST_CPPFLAGS_mc_bin_test := -Iuserlib/tools

# host_test NAME BITS TARGET LDFLAGS
define host_test
$(BUILD)/host/$(3): $(or $(HOST_SRC_$(1)),tests/host/$(1).c) \
		    $(addprefix $(BUILD)/u$(2)/obj/,$(HOST_OBJS_$(1))) $(BUILD)/u$(2)/libnttrace.a | $(UAPI_H)
	@mkdir -p $$(dir $$@)
	$(CC) -m$(2) $(CPPFLAGS) $(HOST_CPPFLAGS_$(1)) $(DEFS_u$(2)) $(CFLAGS) $(WARN) $(DEPFLAGS) $(4) \
		-o $$@ $$< $$(filter %.o %.a,$$^) -pthread $(LIBS_u$(2))
	$(if $(HOST_POST_$(1)),$(HOST_POST_$(1)) $$@)
endef
$(foreach t,$(HOST_TESTS),$(foreach b,64 32,$(eval $(call host_test,$(t),$(b),$(t)-m$(b),-static))))
$(foreach t,$(HOST_TESTS_64),$(eval $(call host_test,$(t),64,$(t))))

$(BUILD)/host/tdh_manifest_test-m64 $(BUILD)/host/tdh_manifest_test-m32: \
	$(BUILD)/host/tdh_manifest_test.inc
$(BUILD)/host/tdh_manifest_test.inc: tests/host/tdh_manifest_test.man
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@

# Compiled only: their checks are static asserts (scripts/check runs these).
$(BUILD)/host/evntrace_layout-m%.o $(BUILD)/host/tdh_layout-m%.o: | $(UAPI_H)
$(BUILD)/host/%-m64.o: tests/host/%.c
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<
$(BUILD)/host/%-m32.o: tests/host/%.c
	@mkdir -p $(dir $@)
	$(CC) -m32 $(CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/host/tracelogging_cpp_test-m%: tests/host/tracelogging_cpp_test.cpp \
					$(BUILD)/u%/obj/userlib/provider/tracelogging.o | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CXX) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -static -o $@ $< $(filter %.o,$^)

# The Windows layer's functions through its own headers, as C and C++
# (tests/host/winlayer_test.c), with nttrace-windows.pc's flags.
$(BUILD)/host/winlayer_test-m%: tests/host/winlayer_test.c $(BUILD)/u%/libnttrace.a | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) -m$* $(WIN_CFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -static -o $@ $< \
		$(BUILD)/u$*/libnttrace.a -pthread $(LIBS_u$*)
$(BUILD)/host/winlayer_cpp_test-m%: tests/host/winlayer_test.c $(BUILD)/u%/libnttrace.a | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CXX) -m$* $(WIN_CFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -static -o $@ -x c++ $< -x none \
		$(BUILD)/u$*/libnttrace.a -pthread $(LIBS_u$*)

# The shared library unloaded (tests/host/dlclose_test.c): built here,
# dynamically, beside the shared build (make shared); it runs where
# /dev/nttrace is, with a dynamic loader.
$(BUILD)/host/dlclose_test: tests/host/dlclose_test.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -o $@ $< -ldl

.PHONY: dlclose-test
dlclose-test: $(BUILD)/host/dlclose_test shared

.PHONY: safecopy-bench
safecopy-bench: $(BUILD)/host/safecopy_bench-m64 $(BUILD)/host/safecopy_bench-m32
	$(BUILD)/host/safecopy_bench-m64
	$(BUILD)/host/safecopy_bench-m32

host-tests: $(foreach t,$(HOST_TESTS) tracelogging_cpp_test winlayer_test winlayer_cpp_test, \
		$(BUILD)/host/$(t)-m64 $(BUILD)/host/$(t)-m32) \
	    $(addprefix $(BUILD)/host/,$(HOST_TESTS_64))

# ---- kernels, module, the two commands ----
kernels:
	scripts/deps
	scripts/build-kernel debug
	scripts/build-kernel bench
	scripts/build-kernel debian

modules:
	scripts/build-module debug
	scripts/build-module bench
	scripts/build-module debian

check:
	scripts/check

demo:
	scripts/demo

# The host half of `make bench`: path 5 against LTTng-UST (scripts/bench
# installs liblttng-ust-dev first; `make check` never builds this).
$(BUILD)/host/nttrace_bench_lttng: tests/bench/bench.c $(BUILD)/u64/libnttrace.a | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) -Itests/bench -DNTTRACE_BENCH_LTTNG $(CFLAGS) $(WARN) $(DEPFLAGS) -o $@ \
		tests/bench/bench.c $(BUILD)/u64/libnttrace.a -llttng-ust -ldl -pthread $(LIBS_u64)

# `make bench`'s file reading (scripts/bench-read): writes an ETL file and
# times the readers over it.
$(BUILD)/host/nttrace_bench_read: tests/bench/read.c $(BUILD)/u64/libnttrace.a | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -o $@ tests/bench/read.c \
		$(BUILD)/u64/libnttrace.a -pthread $(LIBS_u64)

bench:
	scripts/bench

# Line coverage of module/ and userlib/ over make check's tests, per file
# (scripts/coverage; output in build/coverage/).
.PHONY: coverage
coverage:
	scripts/coverage

# `make fuzz`: the system-call fuzzer in the debug kernel (at least 10
# million calls, two guests at once: see scripts/fuzz-kernel), then the
# libFuzzer harnesses.
.PHONY: fuzz
fuzz:
	scripts/fuzz-kernel
	scripts/fuzz-lib $(FUZZ_SECONDS)

# The library's file readers under libFuzzer (clang): build tests/fuzz/,
# replay the kept crashes and the seeds, fuzz each target FUZZ_SECONDS
# (0: build and replay only). See scripts/fuzz-lib.
FUZZ_SECONDS ?= 60
.PHONY: fuzz-lib
fuzz-lib:
	scripts/fuzz-lib $(FUZZ_SECONDS)

# ---- installing like a Linux package (VERSION is at the top) ----
include scripts/packaging/install.mk
include scripts/packaging/module.mk
include scripts/packaging/deb.mk

clean:
	rm -rf $(BUILD)

# The headers each object included, as the compiler listed them (DEPFLAGS).
-include $(shell find $(addprefix $(BUILD)/,u64 u32 host shared) -name '*.d' 2> /dev/null)

clean-cache:
	. scripts/common.sh && rm -rf "$$NTTRACE_CACHE"
