/* SPDX-License-Identifier: GPL-2.0 */
/* Zeroed kernel memory that can be mapped into a consumer. */
#ifndef NTTRACE_AREA_H
#define NTTRACE_AREA_H

#include <linux/mm_types.h>
#include <linux/types.h>

struct nt_area {
	void *addr;		/* virtually contiguous, page aligned */
	size_t size;		/* a multiple of PAGE_SIZE */
	struct page **pages;
	unsigned int nr_pages;
};

/* 0 or -ENOMEM; @size is rounded up to whole pages. May sleep. */
int nt_area_alloc(struct nt_area *a, size_t size);
void nt_area_free(struct nt_area *a);

#endif /* NTTRACE_AREA_H */
