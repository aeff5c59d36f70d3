// SPDX-License-Identifier: GPL-2.0
/*
 * tests/fuzz/render_fuzz.c's way into `nttrace convert`'s field names,
 * static in userlib/tools/convert.c: that file compiled here, and its
 * naming called through this.
 */
#include "../../userlib/tools/convert.c"
#include "render_fuzz.h"

char *render_fuzz_identifier(const char *s)
{
	return identifier(s);
}
