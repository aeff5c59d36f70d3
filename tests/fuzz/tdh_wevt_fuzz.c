// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: TDH's compiled manifests (userlib/tdh/tdh_man_wevt.c).
 * The input's WEVT_TEMPLATE is read with its message table into a manifest
 * and freed (nttrace_man_from_wevt, the library's own), then loaded alone
 * with TdhLoadManifestFromMemory; when it loads, an event of its first
 * provider made of the input is decoded as a consumer would
 * (TdhGetEventInformation, TdhGetPropertySize and TdhGetProperty of every
 * top-level property, TdhFormatProperty of the top-level scalars with the
 * maps of TdhGetEventMapInformation), every field type and the events of
 * the provider are listed, and the manifest is unloaded (which must work).
 *
 * Input, in order:
 *   1 byte   bit 0: the event's header says 32-bit (else 64-bit)
 *   2 bytes  the WEVT_TEMPLATE's size, little-endian (cut to what is left)
 *   the WEVT_TEMPLATE
 *   2 bytes  the message table's size (0: none; cut to what is left)
 *   the message table
 *   2 bytes  the event's Id, 1 byte its Version (zeros when cut short)
 *   the rest: the event's data
 * Besides crashes and leaks, the harness aborts on a TRACE_EVENT_INFO whose
 * offsets, counts or indices leave it, and on sizes that disagree.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tdh_wevt_fuzz); seeds in
 * tests/fuzz/corpus/tdh_wevt_fuzz/ (tests/host/tdh_wevt_test's compiled
 * manifest and its message table: tdh_wevt_test --corpus DIR).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

#include "tdh_man_fuzz.h"

struct nttrace_man;
ULONG nttrace_man_from_wevt(const void *crim, size_t len, const void *msgtable, size_t msglen,
			    struct nttrace_man **out);
void nttrace_man_free(struct nttrace_man *m);

/* @n bytes (the 2 before them say how many, cut to what is left) at *@p. */
static void *part(const uint8_t **p, const uint8_t *end, size_t *n)
{
	*n = end - *p >= 2 ? (*p)[0] | (*p)[1] << 8 : 0;
	*p += end - *p >= 2 ? 2 : end - *p;
	if (*n > (size_t)(end - *p))
		*n = end - *p;
	*p += *n;
	return copy(*p - *n, *n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data + 1, *end = data + size;
	struct nttrace_man *m = NULL;
	size_t n, mn;
	void *crim, *msg;

	if (size < 1)
		return 0;
	crim = part(&p, end, &n);
	msg = part(&p, end, &mn);
	if (!nttrace_man_from_wevt(crim, n, mn ? msg : NULL, mn, &m) && !m)
		abort();
	nttrace_man_free(m);
	free(msg);
	if (n < 4 || memcmp(crim, "CRIM", 4) || TdhLoadManifestFromMemory(crim, n)) {
		free(crim);
		return 0;
	}
	first_provider(p, end, data[0] & 1);
	if (TdhUnloadManifestFromMemory(crim, n))
		abort();
	free(crim);
	return 0;
}
