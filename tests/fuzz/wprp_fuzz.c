// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: `nttrace wpr`'s profile files (userlib/tools/wprp*.c,
 * wpr_names.c, wpr_builtin.c): the XML read into a tree, its Ids indexed,
 * and every profile it holds resolved in both modes, by its Id's name and
 * detail, and the Default one, with the built-in profiles behind it.
 *
 * What the code promises is checked (abort() when not): a failure has
 * WPR's code and a reason; a plan stays within its bounds (collectors,
 * providers, event IDs); and the work is bounded (the visit budget), which
 * libFuzzer's time limit would otherwise report as a hang.
 *
 * The stack events' HookIds come from the tool's command-line helpers
 * (cli.c), which would bring most of the library with them: a stub here,
 * as nothing of the parsing depends on them.
 *
 * Seeds: tests/fuzz/corpus/wprp_fuzz/ (tests/host/wprp_test --corpus: its
 * own profile file and the built-in profiles).
 */
#include <stdlib.h>
#include <string.h>

#include "wprp.h"

int cli_stack_hook(const char *name, uint16_t *hook);

int cli_stack_hook(const char *name, uint16_t *hook)
{
	*hook = 0x0524;
	return 0;
}

static struct wprp_doc builtin;
static FILE *null_out;

static void check(const struct wprp_plan *plan, int ret)
{
	unsigned int i;

	if (ret && (!plan->code || !plan->why[0]))
		abort();
	if (plan->n_col > WPRP_MAX_COLLECTORS || plan->n_profiles > 64 || plan->n_skipped > 32)
		abort();
	for (i = 0; i < plan->n_col; i++) {
		const struct wprp_collector *c = &plan->col[i];
		unsigned int k;

		if (c->n_prov > WPRP_MAX_PROVIDERS || c->n_custom_stacks > 32 ||
		    c->n_custom_keywords > 8 || !c->id)
			abort();
		for (k = 0; k < c->n_prov; k++)
			if (c->prov[k].n_ids > 64 || !c->prov[k].id || !c->prov[k].name)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wprp_doc doc;
	struct wprp_el *p, *e;
	int mode;

	if (!builtin.root && wprp_load_builtin(&builtin))
		abort();
	if (!null_out)
		null_out = fopen("/dev/null", "w");
	if (wprp_xml_parse((const char *)data, size, &doc))
		return 0;
	if (wprp_index(&doc)) {
		wprp_doc_free(&doc);
		return 0;
	}
	wprp_list_profiles(&doc, null_out);
	for (p = doc.root->first; p && strcmp(p->name, "Profiles"); p = p->next)
		;
	for (mode = 0; mode < 2; mode++) {
		struct wprp_plan all = { .file_mode = mode };

		/* The Default profile, then each by name and detail, all into one plan. */
		check(&all, wprp_add_profile(&all, &doc, &builtin, NULL));
		for (e = p ? p->first : NULL; e; e = e->next) {
			const char *id = wprp_attr(e, "Id");
			struct wprp_plan one = { .file_mode = mode };
			char spec[128], *dot;

			if (strcmp(e->name, "Profile") || !id)
				continue;
			snprintf(spec, sizeof(spec), "%s", id);
			dot = strrchr(spec, '.');
			if (dot)
				*dot = 0;
			check(&one, wprp_add_profile(&one, &doc, &builtin, spec));
			wprp_plan_free(&one);
			if (all.n_profiles < 64)
				check(&all, wprp_add_profile(&all, &doc, &builtin, spec));
		}
		wprp_plan_free(&all);
	}
	wprp_doc_free(&doc);
	return 0;
}
