/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the libFuzzer harnesses: the input as a file the library opens by
 * path. One memfd per process, rewritten for each input, opened again
 * through /proc/self/fd (the readers take paths); no file on disk.
 */
#ifndef NTTRACE_FUZZ_FILE_H
#define NTTRACE_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_file {
	int fd;
	char path[40];
};

/* @f holding exactly the @size bytes at @data; its path in @f->path. */
static inline void fuzz_file_set(struct fuzz_file *f, const char *name,
				 const uint8_t *data, size_t size)
{
	if (!f->fd) {
		f->fd = memfd_create(name, MFD_CLOEXEC);
		if (f->fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	}
	if (ftruncate(f->fd, 0) || (size && pwrite(f->fd, data, size, 0) != (ssize_t)size)) {
		perror("memfd write");
		abort();
	}
}

#endif /* NTTRACE_FUZZ_FILE_H */
