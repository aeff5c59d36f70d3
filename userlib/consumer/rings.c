// SPDX-License-Identifier: LGPL-2.1
/* A session's consumer: its mapped rings (see <nttrace/session.h>). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>

static void *map_region(int fd, uint64_t off, uint64_t size, int prot)
{
	void *p = mmap(NULL, size, prot, MAP_SHARED, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Private to the library, which allocates it: it may grow (as its attach
 * did) without a caller's build knowing its size.
 */
struct nttrace_consumer {
	int fd;
	struct nttrace_attach a;
	uint8_t *heads, *acks, *data;
	uint8_t *copy;		/* one buffer, copied out of the ring */
	uint64_t buffers;	/* buffers delivered */
	uint64_t overwritten;	/* buffers overwritten before or while read */
};

void nttrace_consumer_close(struct nttrace_consumer *c)
{
	if (!c)
		return;
	if (c->heads)
		munmap(c->heads, c->a.heads_size);
	if (c->acks)
		munmap(c->acks, c->a.acks_size);
	if (c->data)
		munmap(c->data, c->a.data_size);
	free(c->copy);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

int nttrace_consumer_attach(struct nttrace_consumer **cp, uint32_t logger_id,
			    uint32_t flags)
{
	struct nttrace_consumer *c;
	int ret;

	*cp = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	/* A file of its own: attaching binds the file to the session. */
	c->fd = open(NTTRACE_DEVICE, O_RDWR | O_CLOEXEC);
	if (c->fd < 0) {
		/* The module is not loaded: -ENODEV, as nttrace_device_fd(). */
		ret = errno == ENOENT || errno == ENXIO ? -ENODEV : -errno;
		goto fail;
	}
	c->a.size = sizeof(c->a);	/* ours: the library's own struct */
	c->a.logger_id = logger_id;
	c->a.flags = flags;
	if (ioctl(c->fd, NTTRACE_IOC_ATTACH, &c->a) < 0) {
		ret = -errno;
		goto fail;
	}
	c->heads = map_region(c->fd, c->a.heads_offset, c->a.heads_size, PROT_READ);
	c->acks = map_region(c->fd, c->a.acks_offset, c->a.acks_size,
			     PROT_READ | PROT_WRITE);
	c->data = map_region(c->fd, c->a.data_offset, c->a.data_size, PROT_READ);
	c->copy = malloc(c->a.buffer_size);
	if (!c->heads || !c->acks || !c->data || !c->copy) {
		ret = -errno ?: -ENOMEM;
		goto fail;
	}
	*cp = c;
	return 0;
fail:
	nttrace_consumer_close(c);
	return ret;
}

int nttrace_consumer_open(struct nttrace_consumer **cp, uint32_t logger_id)
{
	return nttrace_consumer_attach(cp, logger_id, 0);
}

void nttrace_consumer_attach_info_opts(const struct nttrace_consumer *c,
				       struct nttrace_attach *a, size_t size)
{
	size_t n = size < sizeof(c->a) ? size : sizeof(c->a);

	/* No more than the caller has; a newer caller's tail: nothing known. */
	memcpy(a, &c->a, n);
	if (size > n)
		memset((uint8_t *)a + n, 0, size - n);
	if (size >= sizeof(a->size))
		a->size = (uint32_t)size;
}

int nttrace_consumer_fd(const struct nttrace_consumer *c)
{
	return c->fd;
}

uint64_t nttrace_consumer_buffers(const struct nttrace_consumer *c)
{
	return c->buffers;
}

uint64_t nttrace_consumer_overwritten(const struct nttrace_consumer *c)
{
	return c->overwritten;
}

const void *nttrace_consumer_heads(const struct nttrace_consumer *c)
{
	return c->heads;
}

const void *nttrace_consumer_ring(const struct nttrace_consumer *c,
				  unsigned int cpu)
{
	return c->data + (size_t)cpu * c->a.ring_stride;
}

const struct nttrace_ring_head *nttrace_consumer_head(
	const struct nttrace_consumer *c, unsigned int cpu)
{
	return (const void *)(c->heads + sizeof(struct nttrace_session_head) +
			      (size_t)cpu * c->a.head_stride);
}

struct nttrace_ring_ack *nttrace_consumer_ack(const struct nttrace_consumer *c,
					      unsigned int cpu)
{
	return (void *)(c->acks + (size_t)cpu * c->a.ack_stride);
}

int nttrace_consumer_stopped(const struct nttrace_consumer *c)
{
	const struct nttrace_session_head *s = (const void *)c->heads;

	/* Pairs with the kernel's store-release after the final flush. */
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) ==
	       NTTRACE_SESSION_STOPPED;
}

/*
 * The logger's CPU @cpu: every buffer published, then one acknowledgement.
 * 0, or @fn's first non-zero return value; *@n counts the buffers.
 */
static int drain_logger(struct nttrace_consumer *c, unsigned int cpu,
			nttrace_buffer_fn fn, void *ctx, long *n)
{
	const struct nttrace_ring_head *h = nttrace_consumer_head(c, cpu);
	struct nttrace_ring_ack *ack = nttrace_consumer_ack(c, cpu);
	const uint8_t *ring = c->data + cpu * c->a.ring_stride;
	uint32_t bufsize = c->a.buffer_size, nbuf = c->a.buffers_per_cpu;
	/* As the kernel decides it (module/session.c). */
	int overwrites = !!(c->a.log_file_mode & (NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR |
						  NTTRACE_EVENT_TRACE_BUFFERING_MODE));
	/* Pairs with the kernel's store-release of produced. */
	uint64_t p = __atomic_load_n(&h->produced, __ATOMIC_ACQUIRE);
	uint64_t i = ack->consumed;
	uint64_t oldest = __atomic_load_n(&h->oldest, __ATOMIC_RELAXED);
	int ret;

	if (i < oldest) {	/* overwritten before we came */
		c->overwritten += oldest - i;
		i = oldest;
	}
	for (; i < p; i++) {
		const uint8_t *buf = ring + (i % nbuf) * bufsize;

		/*
		 * A session that never overwrites leaves a buffer alone until
		 * we acknowledge it: @fn reads it in place. One that
		 * overwrites may reuse it under us: copy it, then check it
		 * was not.
		 */
		if (overwrites) {
			memcpy(c->copy, buf, bufsize);
			buf = c->copy;
			/*
			 * Pairs with the kernel's smp_wmb() between advancing
			 * oldest and reusing a buffer: if the copy holds any
			 * reused byte, oldest is seen above i.
			 */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (__atomic_load_n(&h->oldest, __ATOMIC_RELAXED) > i) {
				c->overwritten++;
				continue;
			}
		}
		ret = fn(ctx, buf, bufsize, cpu);
		if (ret) {
			__atomic_store_n(&ack->consumed, i + 1, __ATOMIC_RELEASE);
			return ret;
		}
		c->buffers++;
		(*n)++;
	}
	/*
	 * Pairs with the kernel's load-acquire of consumed: our reads of
	 * these buffers are done before it may reuse them.
	 */
	__atomic_store_n(&ack->consumed, p, __ATOMIC_RELEASE);
	return 0;
}

int nttrace_consumer_take(struct nttrace_consumer *c, unsigned int cpu, void *dst)
{
	const struct nttrace_ring_head *h;
	struct nttrace_ring_ack *ack;
	const uint8_t *ring;
	uint32_t bufsize = c->a.buffer_size, nbuf = c->a.buffers_per_cpu;
	/* The ack's own type: the compare-and-swap below takes its address. */
	__u64 p, i;

	if (!(c->a.flags & NTTRACE_ATTACH_REAL_TIME) || cpu >= c->a.nr_cpus)
		return -EINVAL;
	h = nttrace_consumer_head(c, cpu);
	ack = nttrace_consumer_ack(c, cpu);
	ring = c->data + cpu * c->a.ring_stride;
	/* Pairs with the kernel's store-release of produced. */
	p = __atomic_load_n(&h->produced, __ATOMIC_ACQUIRE);
	i = __atomic_load_n(&ack->consumed, __ATOMIC_RELAXED);
	while (i < p) {
		__u64 was = i;

		memcpy(dst, ring + (i % nbuf) * bufsize, bufsize);
		/*
		 * Pairs with the kernel's fully ordered compare-and-swap
		 * before it reuses the buffer: if ours wins, the copy was
		 * done before the kernel writes into it.
		 */
		if (__atomic_compare_exchange_n(&ack->consumed, &i, i + 1, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			c->buffers++;
			return 1;
		}
		/* Taken: i is now where to go on (the kernel counted it). */
		if (i < was)	/* not the kernel's doing */
			return -EIO;
		c->overwritten += i - was;
	}
	return 0;
}

/* A real-time consumer's CPU @cpu, as drain_logger(). */
static int drain_real_time(struct nttrace_consumer *c, unsigned int cpu,
			   nttrace_buffer_fn fn, void *ctx, long *n)
{
	int ret;

	while ((ret = nttrace_consumer_take(c, cpu, c->copy)) > 0) {
		ret = fn(ctx, c->copy, c->a.buffer_size, cpu);
		if (ret)
			return ret;
		(*n)++;
	}
	return ret;
}

long nttrace_consumer_drain(struct nttrace_consumer *c, nttrace_buffer_fn fn,
			    void *ctx)
{
	int real_time = !!(c->a.flags & NTTRACE_ATTACH_REAL_TIME);
	unsigned int cpu;
	long n = 0;
	int ret;

	for (cpu = 0; cpu < c->a.nr_cpus; cpu++) {
		ret = real_time ? drain_real_time(c, cpu, fn, ctx, &n) :
				  drain_logger(c, cpu, fn, ctx, &n);
		if (ret)
			return ret;
	}
	return n;
}

int nttrace_consumer_wait(struct nttrace_consumer *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	int ret = poll(&pfd, 1, timeout_ms);

	if (ret < 0)
		return -errno;
	return ret > 0;
}

void nttrace_consumer_counts_opts(const struct nttrace_consumer *c,
				  struct nttrace_counts *out, size_t size)
{
	struct nttrace_counts all, *n = &all;
	unsigned int cpu;

	memset(n, 0, sizeof(*n));
	for (cpu = 0; cpu < c->a.nr_cpus; cpu++) {
		const struct nttrace_ring_head *h = nttrace_consumer_head(c, cpu);
		const struct nttrace_ring_ack *ack = nttrace_consumer_ack(c, cpu);

		n->events_written += __atomic_load_n(&h->events_written, __ATOMIC_RELAXED);
		n->events_lost += __atomic_load_n(&h->events_lost, __ATOMIC_RELAXED);
		n->events_overwritten += __atomic_load_n(&h->events_overwritten,
							 __ATOMIC_RELAXED);
		n->buffers_written += __atomic_load_n(&h->produced, __ATOMIC_RELAXED);
		n->buffers_overwritten += __atomic_load_n(&h->buffers_overwritten,
							  __ATOMIC_RELAXED);
		n->real_time_buffers_lost += __atomic_load_n(&h->real_time_buffers_lost,
							     __ATOMIC_RELAXED);
		n->my_buffers_lost += __atomic_load_n(&ack->buffers_lost, __ATOMIC_RELAXED);
		n->my_events_lost += __atomic_load_n(&ack->events_lost, __ATOMIC_RELAXED);
	}
	/* No more than the caller's build has room for (see the header). */
	memcpy(out, n, size < sizeof(*n) ? size : sizeof(*n));
	if (size > sizeof(*n))
		memset((uint8_t *)out + sizeof(*n), 0, size - sizeof(*n));
}
