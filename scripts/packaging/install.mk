# scripts/packaging/install.mk, included by the Makefile: `make install`
# and `make uninstall`, the way a C library and its tool install on Linux.
#
#   make install [PREFIX=/usr/local] [DESTDIR=] [LIBDIR=$(PREFIX)/lib] ...
#
# puts under $(DESTDIR):
#   $(LIBDIR)/libnttrace.so.$(SO_ABI).$(VERSION), libnttrace.so.$(SO_ABI)
#     (the soname),
#     libnttrace.so (for -lnttrace), libnttrace.a, libnttrace-wmain.a
#     (the Windows layer's wmain entry)
#   $(INCLUDEDIR)/nttrace/*.h (the uapi as nttrace/uapi.h), and
#     $(INCLUDEDIR)/nttrace/windows/ (the Windows layer: the SDK's names)
#   $(PKGCONFIGDIR)/nttrace.pc, nttrace-windows.pc
#   $(BINDIR)/nttrace (linked against libnttrace.so)
#   $(MANDIR)/man1/nttrace.1, nttrace-COMMAND.1 for each subcommand
#   the udev rule, the modules-load.d and modprobe.d snippets
#   the module's source for DKMS ($(MAKE) install-module-source, module.mk)
# and `make uninstall` removes exactly these (and the directories of ours
# it leaves empty).
#
# The shared library and the tool it serves are built here, into
# $(BUILD)/shared/: the library's objects with -fPIC, the static
# library's without, both for the host (no -m64/-m32: a distribution
# builds for its own architecture); the u64/u32 builds stay as they are.

PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR ?= $(EXEC_PREFIX)/bin
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATAROOTDIR ?= $(PREFIX)/share
MANDIR ?= $(DATAROOTDIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# udev, systemd-modules-load and modprobe read /usr/lib (the
# distribution's) and /etc (the administrator's), never /usr/local: a
# package (PREFIX=/usr) puts its files in /usr/lib, an install from source
# under another prefix in /etc, so that they take effect either way.
SYSCONF_BASE := $(if $(filter /usr,$(patsubst %/,%,$(PREFIX))),$(PREFIX)/lib,/etc)
UDEVRULESDIR ?= $(SYSCONF_BASE)/udev/rules.d
MODULESLOADDIR ?= $(SYSCONF_BASE)/modules-load.d
MODPROBEDIR ?= $(SYSCONF_BASE)/modprobe.d
# systemd's units: a package's in /lib/systemd/system, where Debian 12's
# debhelper (dh_installsystemd) finds them to enable, an install from
# source's in /etc/systemd/system.
SYSTEMDUNITDIR ?= $(if $(filter /usr,$(patsubst %/,%,$(PREFIX))),/lib/systemd/system,/etc/systemd/system)

INSTALL ?= install
LN_S ?= ln -sf

# The soname's number is the library's ABI, a number of its own, not the
# package's version: it goes up when a program built against the previous
# one could misbehave with this library (a function removed or changed, a
# public struct that grew), and only then; the Debian package's name
# follows it (libnttrace$(SO_ABI)), and so does the version node of
# libnttrace.map. 0 -> 1: struct nttrace_consumer became opaque, and
# nttrace_start()/nttrace_control() pass the caller's size. The file's name is the soname and the package's version.
SO_ABI := 1
SONAME := libnttrace.so.$(SO_ABI)
SO_REAL := $(SONAME).$(VERSION)

SHARED := $(BUILD)/shared
SHARED_LIB_OBJS := $(patsubst %.c,$(SHARED)/pic/%.o,$(LIB_SRCS))
STATIC_LIB_OBJS := $(patsubst %.c,$(SHARED)/static/%.o,$(LIB_SRCS))
# The tool's own objects, and the code it calls that the library keeps to
# itself: common/'s (the UTF-8 reader its rendering shares with TDH; the
# buffer and EventWrite record encoders `nttrace merge` writes with),
# TDH's manifest model (`nttrace mc` compiles what the parser reads: the
# parser, its arena, names and types, the file reads, its text; expat),
# and the start of a session's logger process (`nttrace wpr`, `xperf`,
# `logman` give a running session its file as StartTrace does).
TOOL_TDH_OBJS := tdh_man_parse tdh_man_resolve tdh_man_arena tdh_man_types tdh_man_elf tdh_text
SHARED_TOOL_OBJS := $(addprefix $(SHARED)/tool/,$(NTTRACE_OBJS)) $(SHARED)/tool/common-utf16.o \
		    $(SHARED)/tool/common-record.o \
		    $(patsubst %,$(SHARED)/tool/tdh-%.o,$(TOOL_TDH_OBJS)) \
		    $(SHARED)/tool/logger-filelogger.o
LIB_MAP := scripts/packaging/libnttrace.map
# A distribution's preprocessor flags (Debian: `dpkg-buildflags --get
# CPPFLAGS`, -D_FORTIFY_SOURCE=2) for what is built here. Not CPPFLAGS
# itself: the Makefile's holds the include paths, and one given on the
# command line would replace them (CFLAGS and LDFLAGS are taken as given).
INSTALL_CPPFLAGS ?=
# The package's version in the tool (`nttrace version`, `nttrace --version`).
# (Unless the Makefile's CPPFLAGS has it already, for the u64/u32 builds.)
VERSION_DEF := $(if $(findstring -DNTTRACE_VERSION,$(CPPFLAGS)),,-DNTTRACE_VERSION='"$(VERSION)"')

# The public headers, installed as they are; the Windows layer's (its
# Windows header names, the case variants real code writes as symbolic
# links, and libstdc++'s configuration in bits/).
# TraceLogging's headers serve kernel modules too: they live in include/;
# the uapi is the build's copy named uapi.h (the Makefile's UAPI_H).
PUBLIC_HEADERS := $(wildcard userlib/include/nttrace/*.h) $(UAPI_H) \
		  $(addprefix include/nttrace/,traceloggingprovider.h tracelogging_arrays.h \
			tracelogging_foreach.h tracelogging_meta.h)
WINDOWS_HEADERS := $(wildcard userlib/windows/include/*.h userlib/windows/include/*.H)
# One page per subcommand: the list `nttrace --help` prints (check-install
# compares the two).
NTTRACE_COMMANDS := start stop query list flush record dump show plot convert merge \
	profile tracerpt formats enable disable providers manifest mc wpr logman xperf autologger version call
MAN_PAGES := nttrace.1 $(addsuffix .1,$(addprefix nttrace-,$(NTTRACE_COMMANDS)))

.PHONY: shared install uninstall install-module-source uninstall-module-source

shared: $(SHARED)/$(SO_REAL) $(SHARED)/libnttrace.a $(SHARED)/libnttrace-wmain.a $(SHARED)/nttrace \
	$(SHARED)/nttrace.pc $(SHARED)/nttrace-windows.pc

# The Makefile's (frame pointers kept, for the stacks the kernel walks).
FP_CFLAGS ?= -fno-omit-frame-pointer

# The tool StartTrace starts as a session's logger process
# (userlib/logger/filelogger.c): the one installed here.
TOOL_DEF := -DNTTRACE_TOOL_PATH='"$(BINDIR)/nttrace"'

$(SHARED)/pic/%.o: %.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) -fPIC $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(TOOL_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(SHARED)/static/%.o: %.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(TOOL_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(SHARED)/tool/common-%.o: common/%.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(VERSION_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(SHARED)/tool/logger-%.o: userlib/logger/%.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(TOOL_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(SHARED)/tool/tdh-%.o: userlib/tdh/%.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(VERSION_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

$(SHARED)/tool/%.o: userlib/tools/%.c | $(UAPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(INSTALL_CPPFLAGS) $(VERSION_DEF) $(CFLAGS) $(FP_CFLAGS) $(WARN) $(DEPFLAGS) -c -o $@ $<

# Only what the version script names is exported (the public API); every
# other function, internal.h's included, is local to the library.
# --no-undefined: the library names everything it needs (libc, pthread,
# expat for TDH's manifests).
$(SHARED)/$(SO_REAL): $(SHARED_LIB_OBJS) $(LIB_MAP)
	$(CC) -shared -fPIC $(CFLAGS) $(LDFLAGS) -Wl,-soname,$(SONAME) \
		-Wl,--version-script=$(LIB_MAP) -Wl,--no-undefined \
		-o $@ $(SHARED_LIB_OBJS) -lexpat -pthread
	$(LN_S) $(SO_REAL) $(SHARED)/$(SONAME)
	$(LN_S) $(SONAME) $(SHARED)/libnttrace.so

$(SHARED)/libnttrace.a: $(STATIC_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# The entry of Windows programs that have wmain (userlib/windows/winmain.c).
$(SHARED)/libnttrace-wmain.a: $(SHARED)/static/userlib/windows/winmain.o
	rm -f $@
	$(AR) rcs $@ $^

# The tool as a distribution ships it: dynamically linked, so that it
# uses only what the library exports (a link failure here is a public
# function missing from the map); libdw names functions for `nttrace
# profile`, libelf reads build IDs for `convert --to perf-data`.
$(SHARED)/nttrace: $(SHARED_TOOL_OBJS) $(SHARED)/$(SO_REAL)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(SHARED_TOOL_OBJS) -L$(SHARED) -lnttrace -ldw -lelf -lexpat \
		-pthread

# libdir and includedir relative to ${prefix} when under it, as
# pkg-config files usually say them.
PC_LIBDIR := $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
PC_INCLUDEDIR := $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))
$(SHARED)/%.pc: scripts/packaging/%.pc.in FORCE_PC
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(PC_LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    $< > $@.tmp && mv $@.tmp $@

# The .pc files depend on PREFIX and the dirs, not only on their sources:
# always rewritten.
.PHONY: FORCE_PC
FORCE_PC:

install: shared $(UAPI_H) install-module-source
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(INCLUDEDIR)/nttrace/windows/bits $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(MODULESLOADDIR) $(DESTDIR)$(MODPROBEDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	$(INSTALL) -m 644 $(SHARED)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_REAL)
	$(LN_S) $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(LN_S) $(SONAME) $(DESTDIR)$(LIBDIR)/libnttrace.so
	$(INSTALL) -m 644 $(SHARED)/libnttrace.a $(DESTDIR)$(LIBDIR)/libnttrace.a
	$(INSTALL) -m 644 $(SHARED)/libnttrace-wmain.a $(DESTDIR)$(LIBDIR)/libnttrace-wmain.a
	$(INSTALL) -m 644 $(SHARED)/nttrace.pc $(SHARED)/nttrace-windows.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 755 $(SHARED)/nttrace $(DESTDIR)$(BINDIR)/nttrace
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/nttrace/
	cp -P $(WINDOWS_HEADERS) $(DESTDIR)$(INCLUDEDIR)/nttrace/windows/
	chmod 644 $(addprefix $(DESTDIR)$(INCLUDEDIR)/nttrace/windows/,$(notdir \
		$(filter-out $(shell find userlib/windows/include -type l),$(WINDOWS_HEADERS))))
	$(INSTALL) -m 644 userlib/windows/include/bits/c++config.h \
		$(DESTDIR)$(INCLUDEDIR)/nttrace/windows/bits/
	$(INSTALL) -m 644 $(addprefix scripts/packaging/man/,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 scripts/packaging/udev/60-nttrace.rules $(DESTDIR)$(UDEVRULESDIR)/60-nttrace.rules
	$(INSTALL) -m 644 scripts/packaging/udev/modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/nttrace.conf
	$(INSTALL) -m 644 scripts/packaging/udev/modprobe.conf $(DESTDIR)$(MODPROBEDIR)/nttrace.conf
	sed 's|@BINDIR@|$(BINDIR)|g' scripts/packaging/systemd/nttrace-autologger.service \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-autologger.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-autologger.service
	sed 's|@BINDIR@|$(BINDIR)|g' scripts/packaging/systemd/nttrace-relay@.service \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-relay@.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-relay@.service
	@# Into the running system (no DESTDIR): the loader's cache, as a
	@# package's postinst does with its trigger.
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig > /dev/null; then ldconfig; fi
	@echo "nttrace: /dev/nttrace belongs to the system group 'nttrace' (the"
	@echo "  'Performance Log Users' of README's permission model). If it does"
	@echo "  not exist yet: addgroup --system nttrace (or groupadd --system"
	@echo "  nttrace), then add its members: adduser USER nttrace."

uninstall: uninstall-module-source
	rm -f $(DESTDIR)$(LIBDIR)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libnttrace.so \
		$(DESTDIR)$(LIBDIR)/libnttrace.a $(DESTDIR)$(LIBDIR)/libnttrace-wmain.a
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/nttrace.pc $(DESTDIR)$(PKGCONFIGDIR)/nttrace-windows.pc
	rm -f $(DESTDIR)$(BINDIR)/nttrace
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/nttrace/,$(notdir $(PUBLIC_HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/nttrace/windows/,$(notdir $(WINDOWS_HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(MAN_PAGES))
	rm -f $(DESTDIR)$(UDEVRULESDIR)/60-nttrace.rules $(DESTDIR)$(MODULESLOADDIR)/nttrace.conf \
		$(DESTDIR)$(MODPROBEDIR)/nttrace.conf $(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-autologger.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/nttrace-relay@.service
	rm -f $(DESTDIR)$(INCLUDEDIR)/nttrace/windows/bits/c++config.h
	rmdir $(DESTDIR)$(INCLUDEDIR)/nttrace/windows/bits 2> /dev/null || true
	rmdir $(DESTDIR)$(INCLUDEDIR)/nttrace/windows 2> /dev/null || true
	rmdir $(DESTDIR)$(INCLUDEDIR)/nttrace 2> /dev/null || true
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig > /dev/null; then ldconfig; fi

# module.mk gives these their recipes (the module's source for DKMS under
# /usr/src); named here too so that install.mk alone still works.
install-module-source:
uninstall-module-source:
