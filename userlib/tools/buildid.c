// SPDX-License-Identifier: LGPL-2.1
/* ELF build IDs, with libelf and elfutils' libdwelf (buildid.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buildid.h"

#if defined(__x86_64__) && !defined(NTTRACE_NO_LIBDW)
#include <elfutils/libdwelf.h>
#include <libelf.h>

unsigned int tool_build_id(const char *path, uint8_t id[TOOL_BUILD_ID_MAX])
{
	const void *p;
	ssize_t n = 0;
	Elf *e;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e)
		n = dwelf_elf_gnu_build_id(e, &p);
	if (n > 0 && n <= TOOL_BUILD_ID_MAX)
		memcpy(id, p, (size_t)n);
	else
		n = 0;
	if (e)
		elf_end(e);
	close(fd);
	return (unsigned int)n;
}
#else
unsigned int tool_build_id(const char *path, uint8_t id[TOOL_BUILD_ID_MAX])
{
	(void)path;
	(void)id;
	return 0;
}
#endif

void tool_build_id_hex(const uint8_t *id, unsigned int n, char *out)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", id[i]);
	out[2 * n] = 0;
}
