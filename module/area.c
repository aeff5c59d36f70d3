// SPDX-License-Identifier: GPL-2.0
/*
 * Memory for the regions a consumer maps (heads, acks, rings). Like the
 * BPF ring buffer, the pages are allocated one by one and charged to the
 * caller's memory cgroup (__GFP_ACCOUNT), then put together with vmap():
 * VM_USERMAP lets remap_vmalloc_range() map them into user space. They
 * are zeroed, so nothing of the kernel's reaches the consumer.
 * __GFP_RETRY_MAYFAIL: a request too large for the machine fails with
 * -ENOMEM instead of invoking the OOM killer.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "area.h"

#define NT_AREA_GFP	(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_RETRY_MAYFAIL | \
			 __GFP_NOWARN)

int nt_area_alloc(struct nt_area *a, size_t size)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	size = PAGE_ALIGN(size);
	if (!size || size >> PAGE_SHIFT > UINT_MAX)
		return -ENOMEM;
	a->size = size;
	a->pages = kvcalloc(size >> PAGE_SHIFT, sizeof(*a->pages),
			    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!a->pages)
		return -ENOMEM;
	for (i = 0; i < size >> PAGE_SHIFT; i++) {
		/* A large start can take a while: let a kill end it. */
		if (fatal_signal_pending(current))
			goto fail;
		a->pages[i] = alloc_page(NT_AREA_GFP);
		if (!a->pages[i])
			goto fail;
		a->nr_pages++;
		cond_resched();
	}
	a->addr = vmap(a->pages, a->nr_pages, VM_MAP | VM_USERMAP, PAGE_KERNEL);
	if (!a->addr)
		goto fail;
	return 0;
fail:
	nt_area_free(a);
	return -ENOMEM;
}

void nt_area_free(struct nt_area *a)
{
	unsigned int i;

	if (a->addr)
		vunmap(a->addr);
	for (i = 0; i < a->nr_pages; i++)
		__free_page(a->pages[i]);
	kvfree(a->pages);
	memset(a, 0, sizeof(*a));
}
