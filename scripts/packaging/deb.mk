# scripts/packaging/deb.mk: placeholder (issue 17), included by the Makefile.
