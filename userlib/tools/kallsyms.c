// SPDX-License-Identifier: LGPL-2.1
/*
 * /proc/kallsyms, read once into a table sorted by address (kallsyms.h).
 * Its lines are "ADDRESS TYPE NAME [MODULE]"; the text symbols (types t
 * and T) are kept, named "NAME [MODULE]", or "NAME [kernel]" for the
 * kernel's own, as perf marks them. Linux shows the addresses as 0 to a reader who may not
 * see them (kptr_restrict, CAP_SYSLOG): then nothing is kept, and kernel
 * frames stay unnamed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"

/* FILETIME's 100 ns units from 1601 to 1970, and a second in them. */
#define FILETIME_UNIX_EPOCH	116444736000000000ULL
#define FILETIME_SECOND		10000000ULL
/* Boot times agree within this: both are derived from the wall clock. */
#define BOOT_SLACK		(2 * FILETIME_SECOND)

struct ksym {
	uint64_t addr;
	char *name;		/* "name" or "name [module]" */
};

static struct ksym *syms;
static size_t nr_syms;

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* This boot's time as a FILETIME, from /proc/stat's btime; 0 if unknown. */
static uint64_t boot_now(void)
{
	unsigned long long btime = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	return btime ? btime * FILETIME_SECOND + FILETIME_UNIX_EPOCH : 0;
}

int ksyms_load(uint64_t boot_filetime, const char **why)
{
	uint64_t now = boot_now();
	size_t cap = 0;
	char line[512];
	FILE *f;

	if (!now || !boot_filetime ||
	    (now > boot_filetime ? now - boot_filetime : boot_filetime - now) > BOOT_SLACK) {
		*why = "the trace is of another boot or machine";
		return 0;
	}
	f = fopen("/proc/kallsyms", "r");
	if (!f) {
		*why = "/proc/kallsyms cannot be read";
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256], module[128] = "";
		struct ksym *grown;
		int n;

		n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, module);
		if (n < 3 || !addr || (type != 't' && type != 'T'))
			continue;
		if (nr_syms == cap) {
			cap = cap ? 2 * cap : 65536;
			grown = realloc(syms, cap * sizeof(*syms));
			if (!grown)
				break;
			syms = grown;
		}
		syms[nr_syms].addr = addr;
		{
			const char *owner = *module ? module : "kernel";
			size_t len = strlen(name) + strlen(owner) + 4;

			syms[nr_syms].name = malloc(len);
			if (syms[nr_syms].name)
				snprintf(syms[nr_syms].name, len, "%s [%s]", name, owner);
		}
		if (syms[nr_syms].name)
			nr_syms++;
	}
	fclose(f);
	if (!nr_syms) {
		*why = "/proc/kallsyms shows this user no addresses (kptr_restrict)";
		return 0;
	}
	qsort(syms, nr_syms, sizeof(*syms), by_addr);
	*why = NULL;
	return 1;
}

int ksyms_name(uint64_t a, char *out, size_t room)
{
	size_t lo = 0, hi = nr_syms;

	/* The last symbol at or below @a. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	snprintf(out, room, "%s", syms[lo - 1].name);
	return 1;
}

uint64_t ksyms_text(void)
{
	size_t i;

	for (i = 0; i < nr_syms; i++)
		if (!strcmp(syms[i].name, "_text [kernel]"))
			return syms[i].addr;
	return 0;
}

void ksyms_modules(void (*fn)(void *ctx, const char *name, uint64_t addr, uint64_t size),
		   void *ctx)
{
	unsigned long long addr, size;
	char line[512], name[64];
	FILE *f;

	if (!nr_syms)
		return;
	f = fopen("/proc/modules", "r");
	if (!f)
		return;
	/* "NAME SIZE REFS DEPS STATE ADDRESS ...". */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &addr) == 3 && addr)
			fn(ctx, name, addr, size);
	fclose(f);
}

void ksyms_free(void)
{
	size_t i;

	for (i = 0; i < nr_syms; i++)
		free(syms[i].name);
	free(syms);
	syms = NULL;
	nr_syms = 0;
}
