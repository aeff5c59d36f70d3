/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The events `nttrace merge` writes of its own (TraceLogging, provider
 * nttrace-merge): MergeInput at the start, one per input, and ImageId
 * after each image event, which names the image's ELF build ID. merge.c
 * writes them; samples.c reads ImageId back for the perf.data file.
 *
 * ImageId's fields, in order: ProcessId (UINT32), ImageBase and ImageSize
 * (UINT64), BuildId (the build ID in lowercase hex, a UTF-8 string),
 * FileName (UTF-8).
 */
#ifndef NTTRACE_TOOLS_IMAGEID_H
#define NTTRACE_TOOLS_IMAGEID_H

#include <stdint.h>

/* {87c85384-c738-5c78-b255-d07d90d83caf}: ETW's hash of "nttrace-merge". */
static const uint8_t merge_provider[16] = {
	0x84, 0x53, 0xc8, 0x87, 0x38, 0xc7, 0x78, 0x5c,
	0xb2, 0x55, 0xd0, 0x7d, 0x90, 0xd8, 0x3c, 0xaf
};

#define MERGE_IMAGE_ID	"ImageId"

#endif /* NTTRACE_TOOLS_IMAGEID_H */
