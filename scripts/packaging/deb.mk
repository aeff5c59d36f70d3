# scripts/packaging/deb.mk, included by the Makefile: the Debian
# packages, built with Debian's own tools.
#
#   make deb        nttrace-dkms, libnttrace1, libnttrace-dev and nttrace
#                   (with their .buildinfo and .changes) into $(BUILD)/deb/
#   make deb-deps   install what building them needs (apt-get, as root)
#
# The packaging lives in scripts/packaging/debian/ (the top level stays as
# the design has it); `make deb` puts a copy of the source tree together
# with that directory as debian/ in $(BUILD)/deb/nttrace-$(VERSION)/ and
# runs dpkg-buildpackage there, which leaves the packages in its parent.
# Building from a copy keeps the tree clean and never shares objects with
# the tree's own builds.

DEB_OUT := $(BUILD)/deb
DEB_TREE := $(DEB_OUT)/nttrace-$(VERSION)
# What dpkg-buildpackage needs for debian/control's Build-Depends (expat:
# TDH's manifests; libdw: `nttrace profile`'s function names), and lintian for checking the result (scripts/check-deb).
DEB_BUILD_TOOLS := build-essential dpkg-dev debhelper dh-dkms dkms lintian pkg-config \
	libexpat1-dev libdw-dev

.PHONY: deb deb-deps deb-tree

deb-deps:
	@missing=; for p in $(DEB_BUILD_TOOLS); do \
		dpkg-query -W -f '$${Status}\n' $$p 2> /dev/null | \
			grep -q ' installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "make deb: missing$$missing; as root:" \
			     "apt-get install$$missing" >&2; \
			exit 1; \
		fi; \
		echo "make deb: installing$$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The files of the tree as git knows them (tracked, and new ones not yet
# committed but not ignored, so that a working tree builds as it is), or,
# outside a git checkout (a release tarball), the directories the build
# reads. Files deleted from the working tree and anything under $(BUILD)
# are left out.
DEB_SOURCES = { git ls-files -z --cached --others --exclude-standard 2> /dev/null || \
	find Kbuild Makefile README.md Documentation include module common uapi \
		userlib scripts -type f -print0; } | \
	tr '\0' '\n' | grep -v '^$(patsubst ./%,%,$(BUILD))/' | \
	while IFS= read -r f; do [ -f "$$f" ] && printf '%s\0' "$$f"; done

deb-tree:
	rm -rf $(DEB_TREE)
	mkdir -p $(DEB_TREE)
	$(DEB_SOURCES) | tar --null -T - -cf - | tar -xf - -C $(DEB_TREE)
	rm -rf $(DEB_TREE)/debian
	cp -R scripts/packaging/debian $(DEB_TREE)/debian

# The outer make's command line (BUILD=..., CFLAGS=...) reaches nested
# makes through MAKEFLAGS: it must not reach debian/rules, which builds
# the copy on its own terms.
deb: deb-deps deb-tree
	rm -f $(DEB_OUT)/*.deb $(DEB_OUT)/*.ddeb $(DEB_OUT)/*.buildinfo $(DEB_OUT)/*.changes
	cd $(DEB_TREE) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u DESTDIR \
		-u PREFIX -u LIBDIR -u CFLAGS -u LDFLAGS -u CPPFLAGS \
		dpkg-buildpackage -us -uc -b
	@ls -1 $(DEB_OUT)/*.deb

# After a `make deb` in which dpkg-gensymbols reported new symbols (the
# public API grew, scripts/packaging/libnttrace.map): write them into
# debian/libnttrace1.symbols with this version. A symbol that disappears
# fails the build instead: that is an ABI break, which needs a new soname.
.PHONY: deb-symbols
deb-symbols:
	cd $(DEB_TREE) && dpkg-gensymbols -q -plibnttrace1 -Pdebian/libnttrace1 -v$(VERSION) \
		-O$(CURDIR)/scripts/packaging/debian/libnttrace1.symbols.new
	{ head -n 1 scripts/packaging/debian/libnttrace1.symbols.new; \
	  echo '* Build-Depends-Package: libnttrace-dev'; \
	  tail -n +2 scripts/packaging/debian/libnttrace1.symbols.new | grep -v '^\*'; } \
		> scripts/packaging/debian/libnttrace1.symbols
	rm -f scripts/packaging/debian/libnttrace1.symbols.new
