/* SPDX-License-Identifier: GPL-2.0 */
/* Whole files in and out, for the tests that check what was written. */
#ifndef NTTRACE_TEST_FILES_H
#define NTTRACE_TEST_FILES_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole of @file (NULL if unreadable); its size in *@len. */
static inline uint8_t *slurp(const char *file, size_t *len)
{
	struct stat st;
	uint8_t *buf = NULL;
	int fd = open(file, O_RDONLY);

	*len = 0;
	if (fd >= 0 && !fstat(fd, &st)) {
		buf = malloc(st.st_size + 1);
		if (buf && read(fd, buf, st.st_size) == st.st_size)
			*len = st.st_size;
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

/* Write @len bytes of @buf as the whole of @file. */
static inline void spew(const char *file, const void *buf, size_t len)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		printf("# could not write %s\n", file);
	if (fd >= 0)
		close(fd);
}

#endif /* NTTRACE_TEST_FILES_H */
