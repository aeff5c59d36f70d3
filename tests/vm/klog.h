/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NT Kernel Logger for the VM tests of its events: start it with some
 * flags, and give each kernel record (SYSTEM64 or PERFINFO64 header) a
 * drain finds to a function, with the CPU whose buffer held it.
 */
#ifndef NTTRACE_TEST_KLOG_H
#define NTTRACE_TEST_KLOG_H

#include <stdint.h>
#include <string.h>

#include <nttrace/session.h>

#include "emit.h"
#include "expect.h"

#define KL NTTRACE_KERNEL_LOGGER_ID

typedef void (*klog_record_fn)(void *ctx, const uint8_t *rec, uint32_t size, unsigned int cpu);

struct klog_walk {
	klog_record_fn fn;
	void *ctx;
};

/* A buffer's records are 8-byte aligned, after its 0x48-byte header. */
static inline int klog_on_buffer(void *ctx, const void *buf, uint32_t bsize, unsigned int cpu)
{
	const struct klog_walk *w = ctx;
	const uint8_t *b = buf;
	uint32_t end = get_le(b + 0x04, 4), off = 0x48;

	(void)bsize;
	while (off + 8 <= end) {
		const uint8_t *p = b + off;
		uint32_t size = record_size(p);

		if (size < 8 || size > end - off)
			break;
		if (p[3] == 0xC0 && (p[2] == 0x02 || p[2] == 0x11))
			w->fn(w->ctx, p, size, cpu);
		off += (size + 7) & ~7u;
	}
	return 0;
}

/* flush_drain() of the NT Kernel Logger, each kernel record to @fn. */
static inline void klog_drain(struct nttrace_consumer *kc, klog_record_fn fn, void *ctx)
{
	struct klog_walk w = { fn, ctx };

	flush_drain(kc, KL, klog_on_buffer, &w);
}

/* The NT Kernel Logger with @flags (and no SysConfig events): 0 or -errno. */
static inline int klog_start(uint32_t flags)
{
	struct nttrace_logger_info kl;

	memset(&kl, 0, sizeof(kl));
	nttrace_set_name(&kl, NTTRACE_KERNEL_LOGGER_NAME);
	kl.buffer_size_kb = 64;
	kl.max_buffers = 64;
	kl.group_mask[0] = flags | NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG;
	return nttrace_start(&kl);
}

#endif /* NTTRACE_TEST_KLOG_H */
