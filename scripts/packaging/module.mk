# scripts/packaging/module.mk, included by the Makefile: the
# kernel module built and installed the way out-of-tree modules are.
#
#   make module                 nttrace.ko and nttrace_sample.ko for the running
#                               kernel, or for the build tree KDIR=...
#   make module-install         modules_install into /lib/modules/RELEASE/updates
#                               (INSTALL_MOD_PATH=$(DESTDIR)), then depmod
#   make install-module-source  the module's source with a Makefile and dkms.conf
#                               into $(DESTDIR)/usr/src/nttrace-$(VERSION), where
#                               DKMS takes it from (install.mk's install uses it)
#   make uninstall-module-source
#
# Kbuild writes its objects beside the sources, so the module builds from a
# copy of them in $(MODULE_OUT) (as scripts/build-module does for the test
# kernels): the tree stays clean and one build directory serves each kernel.
# The copy holds what /usr/src/nttrace-VERSION holds (no tests/kunit), so
# that `make module` and DKMS build the same thing; the KUnit module is for
# the test kernels only (scripts/build-module).

KDIR ?= /lib/modules/$(shell uname -r)/build
# The release the module is for, as its vermagic will say it. Taken from
# utsrelease.h rather than `make kernelrelease`: Debian's header packages
# answer the latter with the upstream version (6.1.192), not the release
# their kernel runs as (6.1.0-56-amd64). Empty when KDIR is no build tree.
MODULE_KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
			$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
MODULE_OUT ?= $(BUILD)/module-$(MODULE_KRELEASE)
MODULE_SRCDIR := /usr/src/nttrace-$(VERSION)
# Extra flags for the module's C files (scripts/check-dkms gives -Werror).
MODULE_KCFLAGS ?=

.PHONY: module module-install install-module-source uninstall-module-source \
	module-check-kdir

module-check-kdir:
	@if [ ! -f "$(KDIR)/Makefile" ] || [ -z "$(MODULE_KRELEASE)" ]; then \
		echo "make module: no kernel build tree in $(KDIR)" >&2; \
		echo "  install the headers of the kernel to build for" \
		     "(Debian: apt install linux-headers-$$(uname -r))," \
		     "or give KDIR=/path/to/kernel/build" >&2; \
		exit 1; \
	fi

# tar keeps the sources' times, so that a second `make module` rebuilds only
# what changed. Sources removed from the tree are removed from the copy too.
module: module-check-kdir
	@mkdir -p "$(MODULE_OUT)"
	@rm -f "$(MODULE_OUT)"/module/*.[ch] "$(MODULE_OUT)"/module/kernel_logger/*.[ch] \
		"$(MODULE_OUT)"/common/*.[ch] \
		"$(MODULE_OUT)"/uapi/*.h "$(MODULE_OUT)"/include/nttrace/*.h \
		"$(MODULE_OUT)"/samples/driver/*.c
	@tar -cf - Kbuild module common uapi include samples/driver | tar -xf - -C "$(MODULE_OUT)"
	$(MAKE) -C "$(KDIR)" M="$(abspath $(MODULE_OUT))" \
		$(if $(MODULE_KCFLAGS),KCFLAGS="$(MODULE_KCFLAGS)") modules
	@echo "module: $(abspath $(MODULE_OUT))/nttrace.ko for $(MODULE_KRELEASE)"

# KERNELRELEASE is given because of the same Debian quirk as above: without
# it modules_install would put the files under /lib/modules/6.1.192. The
# modules go to updates/, which depmod ranks above the kernel's own tree
# (as DKMS's do). depmod runs only for the real root: in a staging root
# (DESTDIR) the package's own scripts run it where the files end up.
# A distribution's build tree has no signing key (Debian's sets
# CONFIG_MODULE_SIG_ALL all the same): Kbuild would try, print OpenSSL's
# errors and go on unsigned, so it is told not to try. Where the key is
# (a kernel built here), the modules are signed as the kernel's own.
MODULE_NOSIGN = $(if $(wildcard $(KDIR)/certs/signing_key.x509),,CONFIG_MODULE_SIG_ALL=)
module-install: module
	$(MAKE) -C "$(KDIR)" M="$(abspath $(MODULE_OUT))" $(MODULE_NOSIGN) \
		KERNELRELEASE="$(MODULE_KRELEASE)" INSTALL_MOD_DIR=updates \
		$(if $(DESTDIR),INSTALL_MOD_PATH="$(abspath $(DESTDIR))") modules_install
	$(if $(DESTDIR),,depmod -a "$(MODULE_KRELEASE)")

# dkms.conf's PACKAGE_VERSION follows $(VERSION), whatever the file says.
install-module-source:
	install -d "$(DESTDIR)$(MODULE_SRCDIR)/module" "$(DESTDIR)$(MODULE_SRCDIR)/common" \
		"$(DESTDIR)$(MODULE_SRCDIR)/module/kernel_logger" \
		"$(DESTDIR)$(MODULE_SRCDIR)/samples/driver" \
		"$(DESTDIR)$(MODULE_SRCDIR)/uapi" "$(DESTDIR)$(MODULE_SRCDIR)/include/nttrace"
	install -m 0644 Kbuild "$(DESTDIR)$(MODULE_SRCDIR)/Kbuild"
	install -m 0644 scripts/packaging/module/Makefile "$(DESTDIR)$(MODULE_SRCDIR)/Makefile"
	sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(VERSION)"/' scripts/packaging/dkms.conf \
		> "$(DESTDIR)$(MODULE_SRCDIR)/dkms.conf"
	chmod 0644 "$(DESTDIR)$(MODULE_SRCDIR)/dkms.conf"
	install -m 0644 module/*.c module/*.h "$(DESTDIR)$(MODULE_SRCDIR)/module/"
	install -m 0644 module/kernel_logger/*.c module/kernel_logger/*.h \
		"$(DESTDIR)$(MODULE_SRCDIR)/module/kernel_logger/"
	install -m 0644 samples/driver/*.c "$(DESTDIR)$(MODULE_SRCDIR)/samples/driver/"
	install -m 0644 common/*.c common/*.h "$(DESTDIR)$(MODULE_SRCDIR)/common/"
	install -m 0644 uapi/*.h "$(DESTDIR)$(MODULE_SRCDIR)/uapi/"
	install -m 0644 include/nttrace/*.h "$(DESTDIR)$(MODULE_SRCDIR)/include/nttrace/"

uninstall-module-source:
	rm -rf "$(DESTDIR)$(MODULE_SRCDIR)"
