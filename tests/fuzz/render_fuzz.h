/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tests/fuzz/render_fuzz.c calls of plot.c and convert.c, whose
 * functions are static: wrappers compiled with each file
 * (render_fuzz_plot.c, render_fuzz_convert.c).
 */
#ifndef NTTRACE_RENDER_FUZZ_H
#define NTTRACE_RENDER_FUZZ_H

#include <stdio.h>

/* plot.c's gp_safe(): a provider's name as a name of the table. */
void render_fuzz_gp_safe(char *s);
/* plot.c's gp_quoted(): @s in gnuplot's single quotes, to @f. */
void render_fuzz_gp_quoted(FILE *f, const char *s);
/* convert.c's identifier(): @s as a TSDL identifier, newly allocated. */
char *render_fuzz_identifier(const char *s);

#endif /* NTTRACE_RENDER_FUZZ_H */
