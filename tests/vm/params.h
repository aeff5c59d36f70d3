/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's parameters (module/policy.c), set by root for a test, and
 * numbers read from pseudo-files (whose stat size is not their length).
 */
#ifndef NTTRACE_TEST_PARAMS_H
#define NTTRACE_TEST_PARAMS_H

#include <stdio.h>
#include <stdlib.h>

/* Set /sys/module/nttrace/parameters/@name to @value; returns the old one. */
static inline long set_param(const char *name, long value)
{
	char path[128];
	long old = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/nttrace/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &old) != 1)
			old = -1;
		fclose(f);
	}
	f = fopen(path, "w");
	if (!f || fprintf(f, "%ld\n", value) < 0)
		printf("# could not set %s\n", path);
	if (f)
		fclose(f);
	return old;
}

/* The first number in a sysfs, procfs or tracefs file; -1 if none. */
static inline long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Parameter @name of loaded module @module, unsigned; ~0UL if none. */
static inline unsigned long module_param_value(const char *module, const char *name)
{
	char path[160];
	unsigned long v = ~0UL;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = ~0UL;
		fclose(f);
	}
	return v;
}

#endif /* NTTRACE_TEST_PARAMS_H */
