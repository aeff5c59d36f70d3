// SPDX-License-Identifier: GPL-2.0
/*
 * tests/fuzz/render_fuzz.c's way into `nttrace plot`'s quoting, which is
 * static in userlib/tools/plot.c: that file compiled here, and its two
 * functions called through these.
 */
#include "../../userlib/tools/plot.c"
#include "render_fuzz.h"

void render_fuzz_gp_safe(char *s)
{
	gp_safe(s);
}

void render_fuzz_gp_quoted(FILE *f, const char *s)
{
	gp_quoted(f, s);
}
