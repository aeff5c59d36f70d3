// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's own helpers (userlib/tools/cli.c), linked in: the names
 * `nttrace convert` makes distinct (cli_unique_names), on names a hostile
 * file may hold, each answer checked, and the work counted in the hash's
 * probes (cli_name_steps), never timed: n names that are all one, or a
 * name and the suffixed names it would take, must take a few probes a
 * name, where a search from _2 against every name before took n^2 or n^3.
 * And TraceLogging's provider name hash (tlname.c) against Microsoft's
 * documented example.
 * TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vm/tap.h"
#include "cli.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* At most this many probes a name, on average: a hash at most half full. */
#define PROBES_A_NAME	16

static char *dup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static void free_all(char **v, unsigned int n)
{
	while (n--)
		free(v[n]);
	free(v);
}

/* The answers of the rule, on a few names. */
static void small(void)
{
	static const char *const in[] = { "a", "a", "a_2", "b", "a", "a_3", "a_2" };
	static const char *const want[] = { "a", "a_2", "a_2_2", "b", "a_3", "a_3_2", "a_2_3" };
	unsigned int n = ARRAY_SIZE(in), i, same = 0;
	char **v = malloc(n * sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = dup(in[i]);
	tap_eq(cli_unique_names(v, n), 0, "cli_unique_names: a few names");
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i], want[i]))
			same++;
		else
			printf("# name %u: %s, want %s\n", i, v[i], want[i]);
	}
	tap_eq(same, n, "... each the first suffix no name before it has");
	free_all(v, n);
}

/* @n names, all "x" (@pre: with x_2 ... x_n first): distinct, in linear probes. */
static void many(unsigned int n, int pre)
{
	unsigned int total = pre ? 2 * n : n, i, ok = 1;
	char **v = malloc(total * sizeof(*v)), want[32];

	for (i = 0; i < total; i++) {
		if (pre && i < n) {
			snprintf(want, sizeof(want), "x_%u", i + 2);
			v[i] = dup(want);
		} else {
			v[i] = dup("x");
		}
	}
	cli_name_steps = 0;
	tap_eq(cli_unique_names(v, total), 0, "%u names%s", total,
	       pre ? ", the suffixed ones first" : ", all one");
	/* Each "x" after the first gets the next suffix not taken. */
	for (i = pre ? n + 1 : 1; i < total; i++) {
		snprintf(want, sizeof(want), "x_%u", i + 1);
		if (strcmp(v[i], want)) {
			printf("# name %u: %s, want %s\n", i, v[i], want);
			ok = 0;
			break;
		}
	}
	tap_ok(ok && !strcmp(v[pre ? n : 0], "x"), "... each named as the rule says");
	printf("# %lu probes for %u names\n", cli_name_steps, total);
	tap_ok(cli_name_steps <= (unsigned long)PROBES_A_NAME * total,
	       "... in at most %u probes a name", PROBES_A_NAME);
	free_all(v, total);
}

/* TraceLogging's name hash, against the GUIDs Microsoft's documentation gives. */
static void name_hash(void)
{
	static const struct {
		const char *name;
		uint8_t guid[16];	/* as a GUID lies in memory */
	} cases[] = {
		/* {ce5fa4ea-ab00-5402-8b76-9f76ac858fb5}, TRACELOGGING_DEFINE_PROVIDER's example */
		{ "MyCompany.MyComponent", { 0xea, 0xa4, 0x5f, 0xce, 0x00, 0xab, 0x02, 0x54,
					     0x8b, 0x76, 0x9f, 0x76, 0xac, 0x85, 0x8f, 0xb5 } },
		/* case does not matter: the name is hashed upper-cased */
		{ "mycompany.mycomponent", { 0xea, 0xa4, 0x5f, 0xce, 0x00, 0xab, 0x02, 0x54,
					     0x8b, 0x76, 0x9f, 0x76, 0xac, 0x85, 0x8f, 0xb5 } },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t g[16];

		cli_provider_name_guid(cases[i].name, g);
		tap_ok(!memcmp(g, cases[i].guid, 16), "name hash of %s", cases[i].name);
	}
}

int main(void)
{
	name_hash();
	small();
	many(20000, 0);
	many(20000, 1);
	return tap_done();
}
