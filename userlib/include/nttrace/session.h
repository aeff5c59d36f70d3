/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: logger sessions and their consumer, over the
 * ioctls of uapi/nttrace.h. Functions return 0 (or a count) on success and
 * a negative errno on failure: the module's (uapi/nttrace.h), or -ENODEV
 * when the module is not loaded (/dev/nttrace missing, or no driver behind
 * it), which the module itself never returns.
 */
#ifndef NTTRACE_SESSION_H
#define NTTRACE_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <nttrace/uapi.h>
#include <nttrace/etl.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Sizes come from the caller's compilation, not the library's. The uapi
 * structs are size-first and grow at their end; a
 * program built against older headers and run against a newer library has
 * a shorter struct than the library's sizeof(). So the exported functions
 * take the caller's @size, touch no byte of the struct past it and hand it
 * to the kernel (which reads and writes back at most that many bytes); the
 * inline wrappers below pass sizeof(*info) as the caller was compiled.
 * A @size below NTTRACE_LOGGER_INFO_SIZE_VER0 is -EINVAL.
 */
/* Start a session from @info (name and properties); fills in the rest. */
int nttrace_start_opts(struct nttrace_logger_info *info, size_t size);
/* QUERY, STOP, UPDATE or FLUSH the session @info names (ID, or name). */
int nttrace_control_opts(struct nttrace_logger_info *info, size_t size,
			 uint32_t code);

static inline int nttrace_start(struct nttrace_logger_info *info)
{
	return nttrace_start_opts(info, sizeof(*info));
}

static inline int nttrace_control(struct nttrace_logger_info *info,
				  uint32_t code)
{
	return nttrace_control_opts(info, sizeof(*info), code);
}

/* The running sessions' IDs: up to @room in @ids, all counted in @count. */
int nttrace_list(uint32_t *ids, uint32_t room, uint32_t *count);
/* Copy @name into a logger_info's name field; -EINVAL if too long. */
int nttrace_set_name(struct nttrace_logger_info *info, const char *name);

/*
 * A consumer is opaque: the library allocates it, so that it can grow
 * (its struct nttrace_attach did, with @flags) without a caller built
 * against older headers holding too little room for it.
 */
struct nttrace_consumer;

/*
 * Attach to a session as @flags say (0: its logger, or
 * NTTRACE_ATTACH_REAL_TIME: a real-time consumer; see uapi/nttrace.h) and
 * map its rings: 0 and the new consumer in *@cp, or -errno and NULL there.
 * nttrace_consumer_open() attaches the logger. nttrace_consumer_close()
 * unmaps and frees it (NULL: nothing to do).
 */
int nttrace_consumer_attach(struct nttrace_consumer **cp, uint32_t logger_id,
			    uint32_t flags);
int nttrace_consumer_open(struct nttrace_consumer **cp, uint32_t logger_id);
void nttrace_consumer_close(struct nttrace_consumer *c);

/*
 * What the kernel answered to the attach, copied to @a: the first @size
 * bytes of it at most (the caller's sizeof, as nttrace_start_opts()), the
 * rest of a longer struct zeroed.
 */
void nttrace_consumer_attach_info_opts(const struct nttrace_consumer *c,
				       struct nttrace_attach *a, size_t size);

static inline void nttrace_consumer_attach_info(const struct nttrace_consumer *c,
						struct nttrace_attach *a)
{
	nttrace_consumer_attach_info_opts(c, a, sizeof(*a));
}

/* The consumer's own file (poll it, or mmap its regions again). */
int nttrace_consumer_fd(const struct nttrace_consumer *c);
/* Buffers delivered, and buffers overwritten before or while read. */
uint64_t nttrace_consumer_buffers(const struct nttrace_consumer *c);
uint64_t nttrace_consumer_overwritten(const struct nttrace_consumer *c);
/* The mapped regions: the heads (session head first), CPU @cpu's ring, ack. */
const void *nttrace_consumer_heads(const struct nttrace_consumer *c);
const void *nttrace_consumer_ring(const struct nttrace_consumer *c,
				  unsigned int cpu);
struct nttrace_ring_ack *nttrace_consumer_ack(const struct nttrace_consumer *c,
					      unsigned int cpu);

/*
 * Deliver every published buffer, CPU by CPU and in order, to @fn, then
 * acknowledge them. A logger's @fn reads the ring in place when the
 * session never overwrites (the kernel leaves unacknowledged buffers
 * alone), else a copy checked not to have been overwritten while it was
 * taken; a real-time consumer's, a copy the kernel did not take from it
 * meanwhile. Returns the number of buffers delivered, or @fn's first
 * non-zero return value.
 */
typedef int (*nttrace_buffer_fn)(void *ctx, const void *buf, uint32_t size,
				 unsigned int cpu);
long nttrace_consumer_drain(struct nttrace_consumer *c, nttrace_buffer_fn fn,
			    void *ctx);

/*
 * A real-time consumer's next buffer of CPU @cpu, copied to @dst (the
 * attach's buffer_size bytes) and claimed: 1, 0 when none is waiting, or
 * -EINVAL (not a real-time consumer, no such CPU), -EIO (the ack was
 * moved back: not by the kernel).
 */
int nttrace_consumer_take(struct nttrace_consumer *c, unsigned int cpu, void *dst);

/* 1 once the session has stopped (drain once more, then all is read). */
int nttrace_consumer_stopped(const struct nttrace_consumer *c);
/* Wait for a buffer or the stop: 1 ready, 0 timed out, -errno. */
int nttrace_consumer_wait(struct nttrace_consumer *c, int timeout_ms);
const struct nttrace_ring_head *nttrace_consumer_head(
	const struct nttrace_consumer *c, unsigned int cpu);

/*
 * The session's counters summed over the CPUs, read from the mapping, and
 * this consumer's own losses (a real-time consumer's: buffers the kernel
 * took from it, and their events). New counters go at the end: the library
 * fills the first @size bytes (the caller's sizeof, as nttrace_start_opts())
 * and zeroes what it does not know of a longer struct.
 */
struct nttrace_counts {
	uint64_t events_written, events_lost, events_overwritten;
	uint64_t buffers_written, buffers_overwritten;
	uint64_t real_time_buffers_lost;
	uint64_t my_buffers_lost, my_events_lost;
};
void nttrace_consumer_counts_opts(const struct nttrace_consumer *c,
				  struct nttrace_counts *n, size_t size);

static inline void nttrace_consumer_counts(const struct nttrace_consumer *c,
					   struct nttrace_counts *n)
{
	nttrace_consumer_counts_opts(c, n, sizeof(*n));
}

/*
 * The logger process of a session StartTrace starts with a log file,
 * `nttrace record --id N -o FILE --report-fd FD`, reports on FD, once it
 * has attached and created the file (or failed to), three int32_t: 0 or
 * -errno, its process ID, and which step failed (0: none).
 */
#define NTTRACE_LOGGER_FAILED_ATTACH	1
#define NTTRACE_LOGGER_FAILED_FILE	2

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_SESSION_H */
