// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhLoadManifestFromBinary's "binary" on Linux: an ELF file (32- or
 * 64-bit, little-endian: what this library runs on) with the manifest's
 * XML, or the compiled manifest and its message table (Windows' PE file's
 * WEVT_TEMPLATE and MESSAGETABLE resources), in sections of their own,
 * found by name through the section headers (<elf.h>, the System V ABI's
 * layout). Every offset and size comes from the file and is checked
 * against what is read; nothing is mapped. The reads of a manifest file are here
 * too (tdh_man_load.c, tdh_man_search.c and `nttrace mc` read a whole XML
 * file with nttrace_man_read_file()).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdh_man.h"

ULONG nttrace_man_errno(int e)
{
	return e == ENOENT || e == ENOTDIR ? ERROR_FILE_NOT_FOUND : nttrace_errno_to_win32(-e);
}

ULONG nttrace_man_read_at(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return nttrace_man_errno(errno);
		if (!n)
			return ERROR_RESOURCE_NOT_FOUND;	/* cut short */
		got += n;
	}
	return ERROR_SUCCESS;
}

ULONG nttrace_man_open(const char *path, int *fd, struct stat *st)
{
	ULONG err = ERROR_SUCCESS;

	/* O_NONBLOCK: a FIFO at @path must not hold the open up. */
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return nttrace_man_errno(errno);
	if (fstat(*fd, st))
		err = nttrace_man_errno(errno);
	else if (!S_ISREG(st->st_mode))
		err = ERROR_FILE_NOT_FOUND;	/* a directory, a device: no manifest file */
	if (err) {
		close(*fd);
		*fd = -1;
	}
	return err;
}

ULONG nttrace_man_read_fd(int fd, const struct stat *st, void **data, size_t *len)
{
	ULONG err;

	*data = NULL;
	if ((uint64_t)st->st_size > NTTRACE_MAN_MAX)
		return ERROR_NOT_ENOUGH_MEMORY;
	*data = malloc(st->st_size ? st->st_size : 1);
	err = *data ? nttrace_man_read_at(fd, *data, st->st_size, 0) : ERROR_NOT_ENOUGH_MEMORY;
	if (err == ERROR_RESOURCE_NOT_FOUND)
		err = ERROR_XML_PARSE_ERROR;	/* shrank while read */
	if (err) {
		free(*data);
		*data = NULL;
	} else {
		*len = st->st_size;
	}
	return err;
}

ULONG nttrace_man_read_file(const char *path, void **data, size_t *len)
{
	struct stat st;
	ULONG err;
	int fd;

	*data = NULL;
	err = nttrace_man_open(path, &fd, &st);
	if (err)
		return err;
	err = nttrace_man_read_fd(fd, &st, data, len);
	close(fd);
	return err;
}

struct sec {
	uint64_t name, offset, size;
	uint32_t type;
};

static ULONG header(int fd, int is64, uint64_t *shoff, unsigned int *shentsize,
		    unsigned int *shnum, unsigned int *shstrndx)
{
	ULONG err;

	if (is64) {
		Elf64_Ehdr h;

		err = nttrace_man_read_at(fd, &h, sizeof(h), 0);
		*shoff = h.e_shoff;
		*shentsize = h.e_shentsize;
		*shnum = h.e_shnum;
		*shstrndx = h.e_shstrndx;
	} else {
		Elf32_Ehdr h;

		err = nttrace_man_read_at(fd, &h, sizeof(h), 0);
		*shoff = h.e_shoff;
		*shentsize = h.e_shentsize;
		*shnum = h.e_shnum;
		*shstrndx = h.e_shstrndx;
	}
	return err;
}

static ULONG section(int fd, int is64, uint64_t at, struct sec *s)
{
	ULONG err;

	if (is64) {
		Elf64_Shdr h;

		err = nttrace_man_read_at(fd, &h, sizeof(h), at);
		*s = (struct sec){ h.sh_name, h.sh_offset, h.sh_size, h.sh_type };
	} else {
		Elf32_Shdr h;

		err = nttrace_man_read_at(fd, &h, sizeof(h), at);
		*s = (struct sec){ h.sh_name, h.sh_offset, h.sh_size, h.sh_type };
	}
	return err;
}

/* A section's bytes (at most NTTRACE_MAN_MAX), newly allocated. */
static ULONG contents(int fd, const struct sec *s, void **data)
{
	ULONG err;

	if (s->size > NTTRACE_MAN_MAX || s->type == SHT_NOBITS)
		return ERROR_RESOURCE_NOT_FOUND;
	*data = malloc(s->size ? s->size : 1);
	if (!*data)
		return ERROR_NOT_ENOUGH_MEMORY;
	err = nttrace_man_read_at(fd, *data, s->size, s->offset);
	if (err) {
		free(*data);
		*data = NULL;
	}
	return err;
}

ULONG nttrace_man_elf_section(int fd, const char *name, void **data, size_t *len)
{
	unsigned char id[EI_NIDENT];
	unsigned int shentsize, shnum, shstrndx, i;
	uint64_t shoff;
	struct sec strs, s;
	char *names = NULL;
	size_t nlen = strlen(name);
	ULONG err;
	int is64;

	*data = NULL;
	err = nttrace_man_read_at(fd, id, sizeof(id), 0);
	if (err)
		return err;
	if (memcmp(id, ELFMAG, SELFMAG) || id[EI_DATA] != ELFDATA2LSB ||
	    (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64))
		return ERROR_RESOURCE_NOT_FOUND;
	is64 = id[EI_CLASS] == ELFCLASS64;
	err = header(fd, is64, &shoff, &shentsize, &shnum, &shstrndx);
	if (err)
		return err;
	if (shentsize != (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) ||
	    shstrndx >= shnum)
		return ERROR_RESOURCE_NOT_FOUND;
	err = section(fd, is64, shoff + (uint64_t)shstrndx * shentsize, &strs);
	if (!err)
		err = contents(fd, &strs, (void **)&names);
	for (i = 0; !err && i < shnum; i++) {
		err = section(fd, is64, shoff + (uint64_t)i * shentsize, &s);
		if (!err && s.name < strs.size && strs.size - s.name > nlen &&
		    !memcmp(names + s.name, name, nlen + 1))
			break;
	}
	if (!err && i == shnum)
		err = ERROR_RESOURCE_NOT_FOUND;
	if (!err)
		err = contents(fd, &s, data);
	if (!err)
		*len = s.size;
	free(names);
	return err;
}
