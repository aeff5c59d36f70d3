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
# The version of the library, the tool, the module's DKMS package and the
# Debian packages.
VERSION := 0.19.0
# _FILE_OFFSET_BITS=64: the 32-bit library reads and writes files past
# 2 GB (its off_t, open, lseek, pwrite); no public header carries an off_t.
CPPFLAGS := -Iuapi -Iuserlib/include -Icommon -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
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
	    userlib/tdh/tdh_man_event.c userlib/tdh/tdh_man_map.c \
	    userlib/tdh/tdh_man_query.c \
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
	    userlib/windows/cmdline.c userlib/windows/path.c
TOOLS := nttrace
NTTRACE_OBJS := nttrace.o cli.o record.o dump.o providers.o show.o render.o render_tdh.o render_out.o plot.o \
		convert.o merge.o
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
VM_TESTS += windows_test
# Windows programs (tests/windows), built as Windows sources are with
# nttrace-windows.pc: its Cflags, with the tree's directories for the
# installed ones (scripts/check-install builds them with pkg-config
# itself), as C and as C++; windows_test runs them in the VM.
WIN_PROGRAMS := controller provider tlprovider consumer
WIN_CFLAGS := -fshort-wchar -DUNICODE -D_UNICODE -Iuserlib/windows/include -Iuserlib/include
WIN_DEPS := tests/windows/guids.h $(wildcard userlib/windows/include/*.h userlib/include/nttrace/*.h uapi/*.h)

.PHONY: all user check demo bench kernels modules host-tests clean clean-cache

all: user

# ---- user space, 64-bit (u64) and 32-bit (u32) ----
define abi_rules
# The expat flags the build has: rewritten when they change (the 32-bit
# library's, once scripts/deps has fetched i386's libexpat.a), so that
# every object is built anew with them.
$(BUILD)/$(1)/expat.flags: FORCE_EXPAT
	@mkdir -p $$(dir $$@)
	@echo '$(DEFS_$(1)) $(LIBS_$(1))' | cmp -s - $$@ 2>/dev/null || \
		echo '$(DEFS_$(1)) $(LIBS_$(1))' > $$@

$(BUILD)/$(1)/obj/%.o: %.c Makefile $(BUILD)/$(1)/expat.flags $(wildcard uapi/*.h common/*.h userlib/*.h userlib/*/*.h userlib/include/nttrace/*.h tests/vm/*.h tests/fuzz/*.h) | $(BUILD)/$(1)/obj
	@mkdir -p $$(dir $$@)
	$(CC) $(2) $(CPPFLAGS) $(DEFS_$(1)) $(CFLAGS) $(WARN) -c -o $$@ $$<

$(BUILD)/$(1)/libnttrace.a: $(patsubst %.c,$(BUILD)/$(1)/obj/%.o,$(LIB_SRCS))
	rm -f $$@
	$(AR) rcs $$@ $$^

# The Windows layer's wmain entry (userlib/windows/winmain.c).
$(BUILD)/$(1)/libnttrace-wmain.a: $(BUILD)/$(1)/obj/userlib/windows/winmain.o
	rm -f $$@
	$(AR) rcs $$@ $$^

$(BUILD)/$(1)/nttrace: $(addprefix $(BUILD)/$(1)/obj/userlib/tools/,$(NTTRACE_OBJS)) \
		      $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/trace_sample: $(BUILD)/$(1)/obj/userlib/sample/trace_sample.o \
			    $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/classic_sample: $(BUILD)/$(1)/obj/userlib/sample/classic_sample.o \
			      $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/event_sample: $(BUILD)/$(1)/obj/userlib/sample/event_sample.o \
			    $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/nttrace_bench: $(BUILD)/$(1)/obj/tests/bench/bench.o $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/klbench: $(BUILD)/$(1)/obj/tests/bench/klbench.o $(BUILD)/$(1)/libnttrace.a
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/nttrace_fuzz: $(BUILD)/$(1)/obj/tests/fuzz/syscall_fuzz.o
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/tests/%: $(BUILD)/$(1)/obj/tests/vm/%.o $(BUILD)/$(1)/libnttrace.a
	@mkdir -p $$(dir $$@)
	$(CC) $(2) -o $$@ $$^ $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/windows/%-c: tests/windows/%.c $(WIN_DEPS) $(BUILD)/$(1)/libnttrace-wmain.a \
			   $(BUILD)/$(1)/libnttrace.a
	@mkdir -p $$(dir $$@)
	$(CC) $(2) $(WIN_CFLAGS) $(CFLAGS) -Wall -Wextra -Werror -o $$@ $$< \
		$(BUILD)/$(1)/libnttrace-wmain.a $(BUILD)/$(1)/libnttrace.a $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/windows/%-cpp: tests/windows/%.c $(WIN_DEPS) $(BUILD)/$(1)/libnttrace-wmain.a \
			     $(BUILD)/$(1)/libnttrace.a
	@mkdir -p $$(dir $$@)
	$(CXX) $(2) $(WIN_CFLAGS) $(CFLAGS) -Wall -Wextra -Werror -o $$@ -x c++ $$< -x none \
		$(BUILD)/$(1)/libnttrace-wmain.a $(BUILD)/$(1)/libnttrace.a $(LDFLAGS_VM) $(LIBS_$(1))

$(BUILD)/$(1)/obj:
	mkdir -p $$@

user: $(BUILD)/$(1)/libnttrace.a $(addprefix $(BUILD)/$(1)/,$(TOOLS)) \
      $(BUILD)/$(1)/trace_sample $(BUILD)/$(1)/classic_sample $(BUILD)/$(1)/event_sample $(BUILD)/$(1)/nttrace_bench $(BUILD)/$(1)/klbench $(BUILD)/$(1)/nttrace_fuzz \
      $(addprefix $(BUILD)/$(1)/tests/,$(VM_TESTS)) \
      $(foreach p,$(WIN_PROGRAMS),$(BUILD)/$(1)/windows/$(p)-c $(BUILD)/$(1)/windows/$(p)-cpp)
endef
$(eval $(call abi_rules,u64,-m64))
$(eval $(call abi_rules,u32,-m32))
.PHONY: FORCE_EXPAT
FORCE_EXPAT:

.SECONDARY:

# ---- host tests (no VM) ----
# Static, so that the 32-bit one can run in the VM on a host that cannot
# run 32-bit programs.
$(BUILD)/host/uapi_layout-%: tests/host/uapi_layout.c uapi/nttrace.h
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $<

$(BUILD)/host/status_names: tests/host/status_names.c $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LIBS_u64)

# Compiled only: its checks are static asserts (scripts/check runs these).
$(BUILD)/host/evntrace_layout-%.o: tests/host/evntrace_layout.c tests/host/layout.h $(wildcard uapi/*.h userlib/include/nttrace/*.h)
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/host/tdh_layout-%.o: tests/host/tdh_layout.c tests/host/layout.h $(wildcard uapi/*.h userlib/include/nttrace/*.h)
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

# The record encoders as the library builds them (the cases are KUnit's too).
$(BUILD)/host/record_test-%: tests/host/record_test.c tests/kunit/record_cases.h \
			     tests/vm/tap.h common/record.c common/record.h
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< common/record.c

# The NT Kernel Logger's record encoders (the byte cases are KUnit's too),
# and their records decoded by the reader's table (libnttrace).
$(BUILD)/host/sysrec_test-m%: tests/host/sysrec_test.c tests/kunit/sysrec_cases.h \
			      tests/vm/tap.h $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a \
		-pthread $(LIBS_u$*)

# TraceLogging's macros and run time (userlib/provider/tracelogging.c),
# with the evntprov.h calls played by the test; C and C++, 64- and 32-bit
# (32-bit C++ headers: g++-multilib, which scripts/deps installs).
TL_DEPS := userlib/provider/tracelogging.c tests/vm/tap.h tests/host/tracelogging_fake.h \
	   $(wildcard userlib/include/nttrace/*.h uapi/*.h)
$(BUILD)/host/tracelogging_test-%: tests/host/tracelogging_test.c $(TL_DEPS)
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< userlib/provider/tracelogging.c
$(BUILD)/host/tracelogging_cpp_test-%: tests/host/tracelogging_cpp_test.cpp $(TL_DEPS)
	@mkdir -p $(dir $@)
	$(CC) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@.o userlib/provider/tracelogging.c
	$(CXX) -$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $@.o
# TDH over TraceLogging events built by hand (tests/host/tlg_encode.h).
$(BUILD)/host/tdh_test-m%: tests/host/tdh_test.c tests/host/tlg_encode.h tests/vm/tap.h \
			   $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)
# TDH over the kernel's MOF classes (DecodingSourceWbem).
$(BUILD)/host/tdh_mof_test-m%: tests/host/tdh_mof_test.c tests/vm/tap.h $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)

# TDH over message events (DecodingSourceWPP), with the test's own format
# file and its own nttrace_wpp section.
$(BUILD)/host/tdh_wpp_test-m%: tests/host/tdh_wpp_test.c tests/vm/tap.h $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)

# Payload filters (userlib/filter/tdh_filter.c) and their evaluation.
$(BUILD)/host/tdh_filter_test-m%: tests/host/tdh_filter_test.c tests/host/tlg_encode.h \
				  tests/vm/tap.h $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)

# The Windows layer's C runtime (userlib/windows/crt.h), called by its
# nttrace_win_* names.
$(BUILD)/host/wincrt_test-m%: tests/host/wincrt_test.c userlib/windows/crt.h \
			      tests/vm/tap.h $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)
# TDH over manifest-based events, with the test's own manifest
# (tests/host/tdh_manifest_test.man); 32-bit without expat, it checks the
# functions say ERROR_NOT_SUPPORTED and skips the rest.
# The manifest goes in as a C string (the .inc) and, as a build adds one
# for TdhLoadManifestFromBinary, into the program's .nttrace.manifest section.
$(BUILD)/host/tdh_manifest_test.inc: tests/host/tdh_manifest_test.man
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/host/tdh_manifest_test-m%: tests/host/tdh_manifest_test.c tests/vm/tap.h \
				    $(BUILD)/host/tdh_manifest_test.inc $(BUILD)/u%/libnttrace.a
	$(CC) -m$* $(CPPFLAGS) -I$(BUILD)/host $(DEFS_u$*) $(CFLAGS) $(WARN) -static -o $@ $< \
		$(BUILD)/u$*/libnttrace.a -pthread $(LIBS_u$*)
	objcopy --add-section .nttrace.manifest=tests/host/tdh_manifest_test.man $@

# The library and the tool without the module (no /dev/nttrace on the host).
$(BUILD)/host/no_module: tests/host/no_module.c tests/vm/tap.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# The library and callers built against other headers: no byte past the
# caller's struct (tests/host/abi_size_test.c plays /dev/nttrace itself).
$(BUILD)/host/abi_size_test: tests/host/abi_size_test.c tests/vm/tap.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# The shared library unloaded (tests/host/dlclose_test.c): built here,
# dynamically, beside the shared build (make shared); it runs where
# /dev/nttrace is, with a dynamic loader.
$(BUILD)/host/dlclose_test: tests/host/dlclose_test.c tests/vm/tap.h tests/vm/tasks.h $(wildcard userlib/include/nttrace/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< -ldl

.PHONY: dlclose-test
dlclose-test: $(BUILD)/host/dlclose_test shared

# nttrace_safe_copy() from each kind of memory, and a bad pointer's cost
# (tests/bench/safecopy.c; its numbers are in userlib/nt/safecopy.c).
$(BUILD)/host/safecopy_bench-m%: tests/bench/safecopy.c tests/vm/props.h userlib/internal.h \
				 $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)

.PHONY: safecopy-bench
safecopy-bench: $(BUILD)/host/safecopy_bench-m64 $(BUILD)/host/safecopy_bench-m32
	$(BUILD)/host/safecopy_bench-m64
	$(BUILD)/host/safecopy_bench-m32

# `nttrace dump` over a TraceLogging file the user-mode logger writes.
$(BUILD)/host/tl_dump: tests/host/tl_dump.c tests/vm/tap.h tests/vm/props.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# `nttrace plot` over a file the user-mode logger writes (gnuplot draws).
$(BUILD)/host/plot_test: tests/host/plot_test.c tests/vm/tap.h tests/vm/props.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# `nttrace convert --to ctf` read back by babeltrace2, against TDH.
$(BUILD)/host/ctf_test: tests/host/ctf_test.c tests/vm/tap.h tests/vm/props.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# `nttrace merge` over files the test builds record by record (clocks,
# pointer sizes), the output checked event by event with the reader.
$(BUILD)/host/merge_test: tests/host/merge_test.c tests/vm/tap.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(BUILD)/u64/libnttrace.a -pthread \
		$(LIBS_u64)

# The tool's own helpers (userlib/tools/cli.c), linked in.
$(BUILD)/host/tools_test: tests/host/tools_test.c tests/vm/tap.h userlib/tools/cli.h \
			  $(BUILD)/u64/obj/userlib/tools/cli.o $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) -Iuserlib/tools $(CFLAGS) $(WARN) -o $@ $< \
		$(BUILD)/u64/obj/userlib/tools/cli.o $(BUILD)/u64/libnttrace.a -pthread $(LIBS_u64)

# Every TraceLogging field macro through the user-mode logger and back by TDH.
$(BUILD)/host/tl_roundtrip-m%: tests/host/tl_roundtrip.c tests/vm/tap.h tests/vm/props.h \
			       $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(CPPFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a -pthread \
		$(LIBS_u$*)

# The Windows layer's functions through its own headers, as C and C++
# (tests/host/winlayer_test.c), with nttrace-windows.pc's flags.
$(BUILD)/host/winlayer_test-m%: tests/host/winlayer_test.c tests/vm/tap.h $(WIN_DEPS) \
				$(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m$* $(WIN_CFLAGS) $(CFLAGS) $(WARN) -static -o $@ $< $(BUILD)/u$*/libnttrace.a \
		-pthread $(LIBS_u$*)
$(BUILD)/host/winlayer_cpp_test-m%: tests/host/winlayer_test.c tests/vm/tap.h $(WIN_DEPS) \
				    $(BUILD)/u%/libnttrace.a
	@mkdir -p $(dir $@)
	$(CXX) -m$* $(WIN_CFLAGS) $(CFLAGS) $(WARN) -static -o $@ -x c++ $< -x none \
		$(BUILD)/u$*/libnttrace.a -pthread $(LIBS_u$*)

host-tests: $(BUILD)/host/tl_roundtrip-m64 $(BUILD)/host/tl_roundtrip-m32 $(BUILD)/host/tl_dump \
	    $(BUILD)/host/plot_test $(BUILD)/host/ctf_test $(BUILD)/host/merge_test \
	    $(BUILD)/host/tools_test \
	    $(BUILD)/host/uapi_layout-m64 $(BUILD)/host/uapi_layout-m32 \
	    $(BUILD)/host/status_names $(BUILD)/host/no_module $(BUILD)/host/abi_size_test \
	    $(BUILD)/host/record_test-m64 $(BUILD)/host/record_test-m32 \
	    $(BUILD)/host/sysrec_test-m64 $(BUILD)/host/sysrec_test-m32 \
	    $(BUILD)/host/tracelogging_test-m64 $(BUILD)/host/tracelogging_test-m32 \
	    $(BUILD)/host/tracelogging_cpp_test-m64 $(BUILD)/host/tracelogging_cpp_test-m32 \
	    $(BUILD)/host/tdh_test-m64 $(BUILD)/host/tdh_test-m32 \
	    $(BUILD)/host/tdh_mof_test-m64 $(BUILD)/host/tdh_mof_test-m32 \
	    $(BUILD)/host/tdh_wpp_test-m64 $(BUILD)/host/tdh_wpp_test-m32 \
	    $(BUILD)/host/tdh_filter_test-m64 $(BUILD)/host/tdh_filter_test-m32 \
	    $(BUILD)/host/wincrt_test-m64 $(BUILD)/host/wincrt_test-m32 \
	    $(BUILD)/host/tdh_manifest_test-m64 $(BUILD)/host/tdh_manifest_test-m32 \
	    $(BUILD)/host/safecopy_bench-m64 $(BUILD)/host/safecopy_bench-m32 \
	    $(BUILD)/host/winlayer_test-m64 $(BUILD)/host/winlayer_test-m32 \
	    $(BUILD)/host/winlayer_cpp_test-m64 $(BUILD)/host/winlayer_cpp_test-m32

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
$(BUILD)/host/nttrace_bench_lttng: tests/bench/bench.c tests/bench/lttng_tp.h $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) -Itests/bench -DNTTRACE_BENCH_LTTNG $(CFLAGS) $(WARN) -o $@ \
		tests/bench/bench.c $(BUILD)/u64/libnttrace.a -llttng-ust -ldl -pthread $(LIBS_u64)

# `make bench`'s file reading (scripts/bench-read): writes an ETL file and
# times the readers over it.
$(BUILD)/host/nttrace_bench_read: tests/bench/read.c $(BUILD)/u64/libnttrace.a
	@mkdir -p $(dir $@)
	$(CC) -m64 $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ tests/bench/read.c \
		$(BUILD)/u64/libnttrace.a -pthread $(LIBS_u64)

bench:
	scripts/bench

# Line coverage of module/ and userlib/ over make check's tests, per file
# (scripts/coverage; output in build/coverage/).
.PHONY: coverage
coverage:
	scripts/coverage

# `make fuzz`: the system-call fuzzer in the debug kernel (at least 3
# million calls, about 11 minutes idle), then the libFuzzer harnesses.
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

# ---- installing like a Linux package (issue 17; VERSION is at the top) ----
include scripts/packaging/install.mk
include scripts/packaging/module.mk
include scripts/packaging/deb.mk

clean:
	rm -rf $(BUILD)

clean-cache:
	. scripts/common.sh && rm -rf "$$NTTRACE_CACHE"
