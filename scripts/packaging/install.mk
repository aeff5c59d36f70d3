# scripts/packaging/install.mk: placeholder (issue 17), included by the Makefile.
