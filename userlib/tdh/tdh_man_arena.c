// SPDX-License-Identifier: LGPL-2.1
/*
 * The memory of one manifest in memory (tdh_man.h): blocks taken from
 * malloc and handed out in pieces, all freed together when the manifest
 * is unloaded, so that the parser needs no free of its own for the many
 * small strings and arrays it makes. And the UTF-16 copies of its strings
 * that the TDH structures hold.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

#define BLOCK	(64 * 1024)

struct nttrace_man_block {
	struct nttrace_man_block *next;
	size_t used, size;
	max_align_t data[];
};

void *nttrace_man_alloc(struct nttrace_man *m, size_t size)
{
	struct nttrace_man_block *b = m->arena;
	size_t need = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (need < size)
		return NULL;
	if (!b || b->size - b->used < need) {
		/* A large piece gets a block of its own, behind the current one. */
		size_t room = need > BLOCK / 4 ? need : BLOCK;

		if (room > SIZE_MAX - sizeof(*b))
			return NULL;
		b = malloc(sizeof(*b) + room);
		if (!b)
			return NULL;
		b->used = 0;
		b->size = room;
		if (need > BLOCK / 4 && m->arena) {
			b->next = m->arena->next;
			m->arena->next = b;
		} else {
			b->next = m->arena;
			m->arena = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += need;
	memset(p, 0, need);
	return p;
}

char *nttrace_man_strdup(struct nttrace_man *m, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = nttrace_man_alloc(m, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void *nttrace_man_push(struct nttrace_man *m, void *v, uint32_t *n, uint32_t *cap, size_t size)
{
	void *arr;

	/* *@v is some type's pointer: copied, not read through a void **. */
	memcpy(&arr, v, sizeof(arr));
	if (*n == *cap) {
		uint32_t c = *cap ? 2 * *cap : 8;
		void *p;

		/* The indices the TDH structures hold are 16-bit. */
		if (*cap >= 0x10000)
			return NULL;
		p = nttrace_man_alloc(m, (size_t)c * size);
		if (!p)
			return NULL;
		if (*n)
			memcpy(p, arr, (size_t)*n * size);	/* the old one stays, unused */
		arr = p;
		memcpy(v, &arr, sizeof(arr));
		*cap = c;
	}
	return (char *)arr + (size_t)(*n)++ * size;
}

void nttrace_man_free(struct nttrace_man *m)
{
	struct nttrace_man_block *b, *next;

	if (!m)
		return;
	for (b = m->arena; b; b = next) {
		next = b->next;
		free(b);
	}
	free(m);
}

size_t nttrace_man_wsize(const char *s)
{
	struct nttrace_tdh_text t = { NULL, 0, 0 };

	if (!s)
		return 0;
	nttrace_tdh_put_utf8(&t, (const uint8_t *)s, strlen(s), 0);
	return 2 * (t.n + 1);
}

ULONG nttrace_man_wput(uint8_t *base, size_t *at, const char *s)
{
	struct nttrace_tdh_text t = { (WCHAR *)(base + *at), SIZE_MAX, 0 };
	ULONG off = *at;

	if (!s)
		return 0;
	nttrace_tdh_put_utf8(&t, (const uint8_t *)s, strlen(s), 0);
	nttrace_tdh_put(&t, 0);
	*at += 2 * t.n;
	return off;
}
