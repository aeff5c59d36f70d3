// SPDX-License-Identifier: GPL-2.0
/*
 * The growing buffer `nttrace mc` makes each output in (mc.h): appends
 * never fail outright; the first that cannot grow the buffer sets oom,
 * and the writer checks it once at the end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc.h"

static int reserve(struct mc_out *o, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (o->oom)
		return -1;
	if (n <= o->cap - o->len)
		return 0;
	if (n > SIZE_MAX / 2 - o->len) {
		o->oom = 1;
		return -1;
	}
	cap = o->cap ? o->cap : 4096;
	while (cap - o->len < n)
		cap *= 2;
	p = realloc(o->data, cap);
	if (!p) {
		o->oom = 1;
		return -1;
	}
	o->data = p;
	o->cap = cap;
	return 0;
}

void mc_out_bytes(struct mc_out *o, const void *p, size_t n)
{
	if (!n || reserve(o, n))
		return;
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

void mc_out_printf(struct mc_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	/* One more byte for vsnprintf's NUL, which is not kept. */
	if (n < 0 || reserve(o, (size_t)n + 1)) {
		o->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf((char *)o->data + o->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

void mc_out_free(struct mc_out *o)
{
	free(o->data);
	memset(o, 0, sizeof(*o));
}
