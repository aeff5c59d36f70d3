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

#include <stdint.h>
#include <nttrace.h>
#include <nttrace/etl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Start a session from @info (name and properties); fills in the rest. */
int nttrace_start(struct nttrace_logger_info *info);
/* QUERY, STOP, UPDATE or FLUSH the session @info names (ID, or name). */
int nttrace_control(struct nttrace_logger_info *info, uint32_t code);
/* The running sessions' IDs: up to @room in @ids, all counted in @count. */
int nttrace_list(uint32_t *ids, uint32_t room, uint32_t *count);
/* Copy @name into a logger_info's name field; -EINVAL if too long. */
int nttrace_set_name(struct nttrace_logger_info *info, const char *name);

struct nttrace_consumer {
	int fd;
	struct nttrace_attach a;
	uint8_t *heads, *acks, *data;
	uint8_t *copy;		/* one buffer, copied out of the ring */
	uint64_t buffers;	/* buffers delivered */
	uint64_t overwritten;	/* buffers overwritten before or while read */
};

/*
 * Attach to a session as @flags say (0: its logger, or
 * NTTRACE_ATTACH_REAL_TIME: a real-time consumer; see uapi/nttrace.h) and
 * map its rings. nttrace_consumer_open() attaches the logger.
 */
int nttrace_consumer_attach(struct nttrace_consumer *c, uint32_t logger_id,
			    uint32_t flags);
int nttrace_consumer_open(struct nttrace_consumer *c, uint32_t logger_id);
void nttrace_consumer_close(struct nttrace_consumer *c);

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
 * took from it, and their events).
 */
struct nttrace_counts {
	uint64_t events_written, events_lost, events_overwritten;
	uint64_t buffers_written, buffers_overwritten;
	uint64_t real_time_buffers_lost;
	uint64_t my_buffers_lost, my_events_lost;
};
void nttrace_consumer_counts(const struct nttrace_consumer *c,
			     struct nttrace_counts *n);

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
