// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: what `nttrace profile` and `nttrace convert --to
 * perf-data` make of a hostile ETL file (userlib/tools/samples.c,
 * flame.c, perfdata.c): its samples, stacks, processes, threads and
 * images read (prof_load()), every sample's stack merged into a flame
 * graph by its addresses' names (image+offset, as the 32-bit tool names
 * them: no symbol files are opened here), drawn as SVG and printed as a
 * tree, and the whole written as perf.data; all output to /dev/null.
 * Unchecked output: the sanitizers check the walk, and the flame graph
 * aborts the run if a name in the SVG is not escaped.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/profile_fuzz); seeds in
 * tests/fuzz/corpus/profile_fuzz/ (etl_fuzz's, whose kernel records the
 * fuzzer turns into samples and stacks).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "fuzz_file.h"
#include "samples.h"

static struct fuzz_file file;

/* @a's name as the 32-bit tool gives it, into @out. */
static void name_of(const struct prof_trace *t, uint32_t pid, uint64_t a, char *out, size_t n)
{
	const struct prof_image *im = prof_image_at(t, pid, a);

	if (im)
		snprintf(out, n, "%s+0x%" PRIx64, im->path, a - im->base);
	else
		snprintf(out, n, "0x%" PRIx64, a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char names[PROF_MAX_FRAMES][256];
	const char *stack[PROF_MAX_FRAMES];
	static struct prof_trace t;
	struct flame *f;
	FILE *null;
	size_t i;
	uint32_t j;

	fuzz_file_set(&file, "profile_fuzz", data, size);
	if (prof_load(&t, file.path))
		return 0;
	f = flame_new();
	if (!f)
		abort();
	for (i = 0; i < t.nr_samples; i++) {
		const struct prof_sample *s = &t.samples[i];
		uint32_t n = s->nr < PROF_MAX_FRAMES ? s->nr : PROF_MAX_FRAMES;

		for (j = 0; j < n; j++) {
			name_of(&t, s->pid, s->frames[n - 1 - j], names[j], sizeof(names[j]));
			stack[j] = names[j];
		}
		if (flame_add(f, stack, n, 1))
			abort();
	}
	null = fopen("/dev/null", "w");
	if (!null || flame_svg(f, null, "fuzz") || flame_text(f, null, 0.01))
		abort();
	fclose(null);
	flame_free(f);
	prof_free(&t);
	perfdata_convert("/dev/null", file.path);
	return 0;
}
