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

/**
 * nt_area_alloc() - allocate a zeroed area a consumer may map
 * @a: the area, filled in
 * @size: its size, rounded up to whole pages
 *
 * The pages are charged to the caller's memory cgroup. May sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int nt_area_alloc(struct nt_area *a, size_t size);

/**
 * nt_area_free() - free what nt_area_alloc() allocated
 * @a: the area; one never allocated (zeroed) is left alone
 */
void nt_area_free(struct nt_area *a);

#endif /* NTTRACE_AREA_H */
