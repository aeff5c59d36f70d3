/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An ELF file's GNU build ID (its .note.gnu.build-id), which names the
 * file's debugging information as a PDB's GUID and age name a PE file's:
 * debuginfod, perf's build-id cache and Debian's dbgsym packages find
 * symbols by it.
 */
#ifndef NTTRACE_TOOLS_BUILDID_H
#define NTTRACE_TOOLS_BUILDID_H

#include <stdint.h>

/* The longest build ID kept: GNU ld's SHA-1 is 20 bytes, its MD5 16. */
#define TOOL_BUILD_ID_MAX	20

/*
 * The build ID of the ELF file at @path into @id: its size, or 0 when the
 * file cannot be read, is no ELF file, has none, or has a longer one, or
 * when this build has no libelf (the 32-bit tool).
 */
unsigned int tool_build_id(const char *path, uint8_t id[TOOL_BUILD_ID_MAX]);

/* @id's @n bytes as lowercase hex into @out (2 * @n + 1 bytes). */
void tool_build_id_hex(const uint8_t *id, unsigned int n, char *out);

#endif /* NTTRACE_TOOLS_BUILDID_H */
