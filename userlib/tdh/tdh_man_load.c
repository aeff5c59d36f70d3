// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhLoadManifest, TdhLoadManifestFromMemory, TdhLoadManifestFromBinary,
 * TdhUnloadManifest and TdhUnloadManifestFromMemory: the manifests this
 * process decodes events with, in one list under one mutex (TDH's functions
 * may be called from any thread, ProcessTrace's callbacks included).
 *
 * Errors as Microsoft documents the functions (learn.microsoft.com, tdh.h):
 * ERROR_INVALID_PARAMETER for a NULL or empty argument, ERROR_FILE_NOT_FOUND
 * for a file that is not there, ERROR_XML_PARSE_ERROR for a manifest that
 * does not parse, ERROR_RESOURCE_NOT_FOUND for a binary without one,
 * ERROR_NOT_ENOUGH_MEMORY. Chosen here, where Microsoft says nothing:
 *  - a path is UTF-16 as every PWSTR, made UTF-8 for Linux, of at most
 *    PATH_MAX bytes (Windows' MAX_PATH is no limit on Linux); another
 *    error of open() or read() is its Win32 counterpart (ERROR_ACCESS_DENIED
 *    and so on; nttrace_errno_to_win32);
 *  - loading the same manifest again (the same file, by its real path, or
 *    the same bytes) counts a reference, and each load wants its unload:
 *    the manifest goes with the last. Unloading what is not loaded is
 *    ERROR_FILE_NOT_FOUND (TdhUnloadManifest's error for a manifest it
 *    cannot find);
 *  - TdhLoadManifestFromMemory takes the manifest's XML, or its compiled
 *    form (a WEVT_TEMPLATE resource, which starts with "CRIM", as Windows
 *    takes it; its messages then have no texts: those are in the message
 *    table, which the call does not get);
 *  - TdhLoadManifestFromBinary reads, from an ELF file, the section
 *    NTTRACE_TDH_MANIFEST_SECTION (<nttrace/tdh.h>), the manifest's XML,
 *    else the section NTTRACE_TDH_WEVT_SECTION, the compiled manifest,
 *    with NTTRACE_TDH_MESSAGE_SECTION's message table if there is one:
 *    what Windows reads from a PE file's WEVT_TEMPLATE and MESSAGETABLE
 *    resources; a build adds them with objcopy --add-section. A file that
 *    starts with "CRIM" is a compiled manifest itself (mc.exe's
 *    NAMETEMP.BIN), its message table the file NAME_MSG00001.bin (as
 *    nttrace mc names it) or MSG00001.bin (mc.exe's name) beside it, the
 *    first there, if any. TdhUnloadManifest with the same path unloads it;
 *  - when two manifests loaded describe one provider, the first loaded
 *    answers for it.
 * In a library built without expat (the 32-bit one where i386's
 * libexpat1-dev is not installed, see the Makefile) every load of XML is
 * ERROR_NOT_SUPPORTED; compiled manifests load.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdh_man.h"

enum key_kind { KEY_PATH, KEY_BYTES };

struct loaded {
	struct loaded *next;
	enum key_kind kind;
	void *key;
	size_t key_len;
	unsigned long refs;
	struct nttrace_man *m;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct loaded *loaded;	/* in the order of loading */
/* What the search path holds (tdh_man_search.c), read at the first lookup. */
static struct nttrace_man **found;
static size_t nfound;
static int searched;

void nttrace_man_lock(void)
{
	pthread_mutex_lock(&lock);
}

void nttrace_man_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

const struct nttrace_man_provider *nttrace_man_provider_at(uint32_t i)
{
	const struct loaded *l;
	size_t k;

	for (l = loaded; l; l = l->next) {
		if (i < l->m->nprovs)
			return &l->m->provs[i];
		i -= l->m->nprovs;
	}
	/* Once, under the lock: lookups wait for the first search to end. */
	if (!searched) {
		searched = 1;
		nfound = nttrace_man_search(&found);
	}
	for (k = 0; k < nfound; k++) {
		if (i < found[k]->nprovs)
			return &found[k]->provs[i];
		i -= found[k]->nprovs;
	}
	return NULL;
}

const struct nttrace_man_provider *nttrace_man_provider(const GUID *g)
{
	const struct nttrace_man_provider *p;
	uint32_t i;

	for (i = 0; (p = nttrace_man_provider_at(i)); i++)
		if (!memcmp(&p->guid, g, sizeof(*g)))
			return p;
	return NULL;
}

static ULONG done(ULONG err)
{
	SetLastError(err);
	return err;
}

/* What a load reads: a manifest's XML, or a compiled one and its message table. */
struct src {
	void *data, *msg;
	size_t len, msglen;
	int wevt;
};

static void src_free(struct src *s)
{
	free(s->data);
	free(s->msg);
	memset(s, 0, sizeof(*s));
}

static ULONG parse(const struct src *s, struct nttrace_man **m)
{
	if (s->wevt)
		return nttrace_man_from_wevt(s->data, s->len, s->msg, s->msglen, m);
	return nttrace_man_parse(s->data, s->len, m);
}

static int is_wevt(const void *data, size_t len)
{
	return len >= 4 && !memcmp(data, "CRIM", 4);
}

/*
 * The message table beside the compiled manifest @path: DIR/NAME_MSG00001.bin
 * for DIR/NAMETEMP.BIN, else DIR/MSG00001.bin; none (no error) when neither
 * is there.
 */
static ULONG beside(const char *path, struct src *s)
{
	const char *base = strrchr(path, '/');
	size_t dir = base ? (size_t)(base + 1 - path) : 0, n;
	char *name = malloc(strlen(path) + sizeof("_MSG00001.bin"));
	ULONG err = ERROR_FILE_NOT_FOUND;

	if (!name)
		return ERROR_NOT_ENOUGH_MEMORY;
	base = path + dir;
	n = strlen(base);
	if (n > 8 && !strcasecmp(base + n - 8, "TEMP.BIN")) {
		sprintf(name, "%.*s_MSG00001.bin", (int)(dir + n - 8), path);
		err = nttrace_man_read_file(name, &s->msg, &s->msglen);
	}
	if (err == ERROR_FILE_NOT_FOUND) {
		sprintf(name, "%.*sMSG00001.bin", (int)dir, path);
		err = nttrace_man_read_file(name, &s->msg, &s->msglen);
	}
	free(name);
	return err == ERROR_FILE_NOT_FOUND ? ERROR_SUCCESS : err;
}

/* The ELF file @fd's manifest: its XML's section, else the compiled one's. */
static ULONG elf_manifest(int fd, struct src *s)
{
	ULONG err = nttrace_man_elf_section(fd, NTTRACE_TDH_MANIFEST_SECTION, &s->data, &s->len);

	if (err != ERROR_RESOURCE_NOT_FOUND)
		return err;
	err = nttrace_man_elf_section(fd, NTTRACE_TDH_WEVT_SECTION, &s->data, &s->len);
	if (err)
		return err;
	s->wevt = 1;
	err = nttrace_man_elf_section(fd, NTTRACE_TDH_MESSAGE_SECTION, &s->msg, &s->msglen);
	return err == ERROR_RESOURCE_NOT_FOUND ? ERROR_SUCCESS : err;
}

/*
 * The whole file @path (at most NTTRACE_MAN_MAX bytes); for a binary, the
 * compiled manifest it is, or its ELF file's manifest.
 */
static ULONG read_manifest(const char *path, int binary, struct src *s)
{
	unsigned char magic[4];
	struct stat st;
	ULONG err;
	int fd;

	if (!binary)
		return nttrace_man_read_file(path, &s->data, &s->len);
	err = nttrace_man_open(path, &fd, &st);
	if (err)
		return err;
	err = nttrace_man_read_at(fd, magic, sizeof(magic), 0);
	if (!err && is_wevt(magic, sizeof(magic))) {
		err = nttrace_man_read_fd(fd, &st, &s->data, &s->len);
		s->wevt = 1;
		if (!err)
			err = beside(path, s);
	} else if (!err || err == ERROR_RESOURCE_NOT_FOUND) {
		/* Shorter than 4 bytes: no ELF file either, which says so. */
		err = elf_manifest(fd, s);
	}
	close(fd);
	if (err)
		src_free(s);
	return err;
}

static struct loaded *find(enum key_kind kind, const void *key, size_t len)
{
	struct loaded *l;

	for (l = loaded; l; l = l->next)
		if (l->kind == kind && l->key_len == len && !memcmp(l->key, key, len))
			return l;
	return NULL;
}

/*
 * Load @s under @key (taken over, freed on failure), or count one more
 * reference to what is loaded under it.
 */
static ULONG load(enum key_kind kind, void *key, size_t key_len, const struct src *s)
{
	struct nttrace_man *m = NULL;
	struct loaded *l, **tail;
	ULONG err;

	nttrace_man_lock();
	l = find(kind, key, key_len);
	if (l) {
		l->refs++;
		nttrace_man_unlock();
		free(key);
		return ERROR_SUCCESS;
	}
	nttrace_man_unlock();
	/* Parsed unlocked: decoding goes on meanwhile. */
	err = parse(s, &m);
	l = err ? NULL : malloc(sizeof(*l));
	if (!err && !l)
		err = ERROR_NOT_ENOUGH_MEMORY;
	if (err) {
		nttrace_man_free(m);
		free(key);
		return err;
	}
	*l = (struct loaded){ NULL, kind, key, key_len, 1, m };
	nttrace_man_lock();
	/* Loaded by another thread meanwhile: one copy is enough. */
	if (find(kind, key, key_len)) {
		find(kind, key, key_len)->refs++;
		nttrace_man_unlock();
		nttrace_man_free(m);
		free(key);
		free(l);
		return ERROR_SUCCESS;
	}
	for (tail = &loaded; *tail; tail = &(*tail)->next)
		;
	*tail = l;
	nttrace_man_unlock();
	return ERROR_SUCCESS;
}

static ULONG unload(enum key_kind kind, const void *key, size_t key_len)
{
	struct loaded **pl, *l = NULL;

	nttrace_man_lock();
	for (pl = &loaded; *pl; pl = &(*pl)->next) {
		if ((*pl)->kind == kind && (*pl)->key_len == key_len &&
		    !memcmp((*pl)->key, key, key_len)) {
			l = *pl;
			if (!--l->refs)
				*pl = l->next;
			break;
		}
	}
	nttrace_man_unlock();
	if (!l)
		return ERROR_FILE_NOT_FOUND;
	if (!l->refs) {
		nttrace_man_free(l->m);
		free(l->key);
		free(l);
	}
	return ERROR_SUCCESS;
}

/* A file's key: its real path, or the path as given when it has none. */
static char *path_key(const char *path)
{
	char *real = realpath(path, NULL);

	return real ? real : strdup(path);
}

static int parser_present(void)
{
#ifdef NTTRACE_NO_EXPAT
	return 0;
#else
	return 1;
#endif
}

static ULONG load_path(PWSTR Path, int binary)
{
	struct src s = { 0 };
	char *path, *key;
	ULONG err;

	/* Only XML needs expat: a binary may hold a compiled manifest. */
	if (!binary && !parser_present())
		return ERROR_NOT_SUPPORTED;
	err = nttrace_tdh_utf8(Path, PATH_MAX, &path);
	if (err)
		return err;
	err = read_manifest(path, binary, &s);
	key = err ? NULL : path_key(path);
	if (!err && !key)
		err = ERROR_NOT_ENOUGH_MEMORY;
	if (!err)
		err = load(KEY_PATH, key, strlen(key) + 1, &s);
	src_free(&s);
	free(path);
	return err;
}

TDHSTATUS WINAPI TdhLoadManifest(PWSTR Manifest)
{
	return done(load_path(Manifest, 0));
}

TDHSTATUS WINAPI TdhLoadManifestFromBinary(PWSTR BinaryPath)
{
	return done(load_path(BinaryPath, 1));
}

TDHSTATUS WINAPI TdhUnloadManifest(PWSTR Manifest)
{
	char *path, *key;
	ULONG err;

	err = nttrace_tdh_utf8(Manifest, PATH_MAX, &path);
	if (err)
		return done(err);
	key = path_key(path);
	err = key ? unload(KEY_PATH, key, strlen(key) + 1) : ERROR_NOT_ENOUGH_MEMORY;
	/* Its real path may have changed since (a link moved): try it as given. */
	if (err == ERROR_FILE_NOT_FOUND)
		err = unload(KEY_PATH, path, strlen(path) + 1);
	free(key);
	free(path);
	return done(err);
}

TDHSTATUS WINAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	struct src s = { (void *)pData, NULL, cbData, 0, 0 };
	void *key;

	if (!pData || !cbData)
		return done(ERROR_INVALID_PARAMETER);
	s.wevt = is_wevt(pData, cbData);
	if (!s.wevt && !parser_present())
		return done(ERROR_NOT_SUPPORTED);
	if (cbData > NTTRACE_MAN_MAX)
		return done(ERROR_NOT_ENOUGH_MEMORY);
	key = malloc(cbData);
	if (!key)
		return done(ERROR_NOT_ENOUGH_MEMORY);
	memcpy(key, pData, cbData);
	return done(load(KEY_BYTES, key, cbData, &s));
}

TDHSTATUS WINAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData)
{
	if (!pData || !cbData)
		return done(ERROR_INVALID_PARAMETER);
	return done(unload(KEY_BYTES, pData, cbData));
}
