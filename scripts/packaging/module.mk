# scripts/packaging/module.mk: placeholder (issue 17), included by the Makefile.
