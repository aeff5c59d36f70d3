// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: TDH's manifests (userlib/tdh/tdh_man*.c). The
 * input's manifest is loaded with TdhLoadManifestFromMemory (expat and the
 * resolution of its names); when it loads, an event of its first provider
 * made of the input is decoded as a consumer would (TdhGetEventInformation,
 * TdhGetPropertySize and TdhGetProperty of every top-level property,
 * TdhFormatProperty of the top-level scalars with the maps of
 * TdhGetEventMapInformation), every field type and the events of the
 * provider are listed, and the manifest is unloaded (which must work).
 *
 * Input, in order:
 *   1 byte   bit 0: the event's header says 32-bit (else 64-bit)
 *   2 bytes  the manifest's size, little-endian (cut to what is left)
 *   the manifest's XML
 *   2 bytes  the event's Id, 1 byte its Version (zeros when cut short)
 *   the rest: the event's data
 * Besides crashes and leaks, the harness aborts on a TRACE_EVENT_INFO whose
 * offsets, counts or indices leave it, and on sizes that disagree.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tdh_manifest_fuzz); seeds in
 * tests/fuzz/corpus/tdh_manifest_fuzz/ (tests/host/tdh_manifest_test's
 * manifest and events: tdh_manifest_test --corpus DIR).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

#include "tdh_man_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data + 3, *end = data + size;
	size_t n;
	void *xml;

	if (size < 3)
		return 0;
	n = data[1] | data[2] << 8;
	if (n > (size_t)(end - p))
		n = end - p;
	xml = copy(p, n);
	if (TdhLoadManifestFromMemory(xml, n)) {
		free(xml);
		return 0;
	}
	first_provider(p + n, end, data[0] & 1);
	if (TdhUnloadManifestFromMemory(xml, n))
		abort();
	free(xml);
	return 0;
}
