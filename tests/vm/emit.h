/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test helpers: write one message event through raw NtTraceEvent (the
 * library's TraceMessage is not used here, so these tests stand alone),
 * start sessions, and read them back.
 */
#ifndef NTTRACE_TEST_EMIT_H
#define NTTRACE_TEST_EMIT_H

#include <stdint.h>
#include <string.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>

/* One message whose data is @len bytes at @data; returns the NTSTATUS. */
static inline uint32_t emit(uint32_t logger, uint32_t flags, uint16_t number,
			    const void *data, uint32_t len)
{
	struct nttrace_message_trace_user m;
	uintptr_t list[3] = { (uintptr_t)data, len, 0 };

	memset(&m, 0, sizeof(m));
	m.message_number = number;
	m.message_flags = flags;
	m.data = (uintptr_t)list;
	m.data_size = sizeof(list);
	return (uint32_t)NtTraceEvent((HANDLE)(uintptr_t)logger,
				      NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, sizeof(m), &m);
}

/* Start session @name with @max_buffers of @kb KB per CPU and @mode. */
static inline int start_session(const char *name, uint32_t kb,
				uint32_t max_buffers, uint32_t mode,
				struct nttrace_logger_info *info)
{
	memset(info, 0, sizeof(*info));
	nttrace_set_name(info, name);
	info->buffer_size_kb = kb;
	info->max_buffers = max_buffers;
	info->log_file_mode = mode;
	return nttrace_start(info);
}

static inline int stop_session(uint32_t id)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = id;
	return nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_STOP);
}

/*
 * Flush every CPU's partial buffer of session @logger, then give all that
 * is published to @fn (@c attached to it).
 */
static inline long flush_drain(struct nttrace_consumer *c, uint32_t logger,
			       nttrace_buffer_fn fn, void *ctx)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = logger;
	nttrace_control(&info, NTTRACE_EVENT_TRACE_CONTROL_FLUSH);
	return nttrace_consumer_drain(c, fn, ctx);
}

#endif /* NTTRACE_TEST_EMIT_H */
