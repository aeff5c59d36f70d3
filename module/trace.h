/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nttrace's kernel tracepoints (TRACE_SYSTEM nttrace), so that Linux's own
 * tools see what the module does: perf (`perf record -e 'nttrace:*'`),
 * ftrace (/sys/kernel/tracing/events/nttrace/) and bpftrace
 * (`tracepoint:nttrace:nttrace_write`), with named fields:
 *
 *  nttrace_write          an event written into a session, just before its
 *                         commit (module/write.c: every NtTraceEvent type and
 *                         EtwWrite; the NT Kernel Logger's kernel events,
 *                         whole, from nt_sys_emit())
 *  nttrace_session_start  a session started (module/session.c)
 *  nttrace_session_stop   a session stopped
 *  nttrace_events_lost    an event its CPU's ring had no room for (module/ring.c)
 *  nttrace_buffers_lost   a buffer a real-time consumer missed
 *
 * nttrace_write withholds the payload (its length is 0; size still says
 * the record's) of the events of a secure session (EVENT_TRACE_SECURE_MODE)
 * and of the security provider {54849625-5478-4994-A5BA-3E3B0328C30D}:
 * perf, tracefs and BPF readers need CAP_PERFMON or the tracefs files'
 * permissions, not the session owner's identity or CAP_AUDIT_READ, which
 * those events' readers must have (README, "Who may do what").
 *
 * A disabled tracepoint is a static branch, patched out; built with
 * NTTRACE_TRACEPOINTS=n (Kbuild) they are not compiled at all and
 * trace_nttrace_*() are empty (make bench measures the two).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nttrace

#if !defined(NTTRACE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define NTTRACE_TRACE_H

#include <linux/tracepoint.h>
#include <linux/version.h>

#ifndef NTTRACE_TRACE_TYPES
#define NTTRACE_TRACE_TYPES
/* The payload a tracepoint copies at most (the record's size is a field). */
#define NT_TP_PAYLOAD_MAX	512

/* What nttrace_write shows of an event (module/write.c fills it). */
struct nt_tp_write {
	u8 kind;		/* enum nt_record_kind */
	u8 level;
	u8 opcode;		/* Opcode, Class.Type, a kernel hook's type */
	u16 logger_id;
	u16 id;			/* event ID, message number, kernel hook ID */
	u64 keyword;
	const u8 *guid;		/* provider, class or message GUID; NULL: none */
	u32 pid, tid;
	u32 size;		/* the record's data, in bytes */
	const u8 *payload;
	bool withheld;		/* the payload is not shown (see above) */
};
#endif

/*
 * __assign_str takes no source argument from Linux 6.10 (it takes the
 * __string()'s); below 6.10 the source is the argument of the same name.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#define nt_tp_assign_str(field)	__assign_str(field, field)
#else
#define nt_tp_assign_str(field)	__assign_str(field)
#endif

#ifdef NTTRACE_NO_TRACEPOINTS
/* Compiled out: the calls are empty, and their arguments go unused. */
static inline bool trace_nttrace_write_enabled(void) { return false; }
static inline void trace_nttrace_write(const struct nt_tp_write *e) {}
static inline void trace_nttrace_session_start(u16 logger_id, const char *name, u32 mode,
					       u32 buffer_size) {}
static inline bool trace_nttrace_session_stop_enabled(void) { return false; }
static inline void trace_nttrace_session_stop(u16 logger_id, const char *name,
					      u64 events_lost, u64 buffers_written) {}
static inline void trace_nttrace_events_lost(u16 logger_id, u32 cpu, u32 size) {}
static inline void trace_nttrace_buffers_lost(u16 logger_id, u32 cpu, u32 events) {}
#else

TRACE_EVENT(nttrace_write,
	TP_PROTO(const struct nt_tp_write *e),
	TP_ARGS(e),
	TP_STRUCT__entry(
		__field(u16, logger_id)
		__field(u8, kind)
		__array(u8, guid, 16)
		__field(u16, id)
		__field(u8, level)
		__field(u8, opcode)
		__field(u64, keyword)
		__field(u32, pid)
		__field(u32, tid)
		__field(u32, size)
		__dynamic_array(u8, payload,
				e->withheld ? 0 : min_t(u32, e->size, NT_TP_PAYLOAD_MAX))
	),
	TP_fast_assign(
		__entry->logger_id = e->logger_id;
		__entry->kind = e->kind;
		if (e->guid)
			memcpy(__entry->guid, e->guid, 16);
		else
			memset(__entry->guid, 0, 16);
		__entry->id = e->id;
		__entry->level = e->level;
		__entry->opcode = e->opcode;
		__entry->keyword = e->keyword;
		__entry->pid = e->pid;
		__entry->tid = e->tid;
		__entry->size = e->size;
		memcpy(__get_dynamic_array(payload), e->payload,
		       __get_dynamic_array_len(payload));
	),
	TP_printk("logger=%u kind=%s guid=%pUl id=%u level=%u opcode=%u keyword=0x%llx pid=%u tid=%u size=%u payload=%s",
		  __entry->logger_id,
		  __print_symbolic(__entry->kind, { 0, "message" }, { 1, "classic" },
				   { 2, "event" }, { 3, "system" }, { 4, "raw" }),
		  __entry->guid, __entry->id, __entry->level, __entry->opcode,
		  __entry->keyword, __entry->pid, __entry->tid, __entry->size,
		  __print_hex(__get_dynamic_array(payload), __get_dynamic_array_len(payload)))
);

TRACE_EVENT(nttrace_session_start,
	TP_PROTO(u16 logger_id, const char *name, u32 mode, u32 buffer_size),
	TP_ARGS(logger_id, name, mode, buffer_size),
	TP_STRUCT__entry(
		__field(u16, logger_id)
		__string(name, name)
		__field(u32, mode)
		__field(u32, buffer_size)
	),
	TP_fast_assign(
		__entry->logger_id = logger_id;
		nt_tp_assign_str(name);
		__entry->mode = mode;
		__entry->buffer_size = buffer_size;
	),
	TP_printk("logger=%u name=%s mode=0x%x buffer_size=%u", __entry->logger_id,
		  __get_str(name), __entry->mode, __entry->buffer_size)
);

TRACE_EVENT(nttrace_session_stop,
	TP_PROTO(u16 logger_id, const char *name, u64 events_lost, u64 buffers_written),
	TP_ARGS(logger_id, name, events_lost, buffers_written),
	TP_STRUCT__entry(
		__field(u16, logger_id)
		__string(name, name)
		__field(u64, events_lost)
		__field(u64, buffers_written)
	),
	TP_fast_assign(
		__entry->logger_id = logger_id;
		nt_tp_assign_str(name);
		__entry->events_lost = events_lost;
		__entry->buffers_written = buffers_written;
	),
	TP_printk("logger=%u name=%s events_lost=%llu buffers_written=%llu", __entry->logger_id,
		  __get_str(name), __entry->events_lost, __entry->buffers_written)
);

TRACE_EVENT(nttrace_events_lost,
	TP_PROTO(u16 logger_id, u32 cpu, u32 size),
	TP_ARGS(logger_id, cpu, size),
	TP_STRUCT__entry(
		__field(u16, logger_id)
		__field(u32, cpu)
		__field(u32, size)
	),
	TP_fast_assign(
		__entry->logger_id = logger_id;
		__entry->cpu = cpu;
		__entry->size = size;
	),
	TP_printk("logger=%u cpu=%u size=%u", __entry->logger_id, __entry->cpu, __entry->size)
);

TRACE_EVENT(nttrace_buffers_lost,
	TP_PROTO(u16 logger_id, u32 cpu, u32 events),
	TP_ARGS(logger_id, cpu, events),
	TP_STRUCT__entry(
		__field(u16, logger_id)
		__field(u32, cpu)
		__field(u32, events)
	),
	TP_fast_assign(
		__entry->logger_id = logger_id;
		__entry->cpu = cpu;
		__entry->events = events;
	),
	TP_printk("logger=%u cpu=%u events=%u", __entry->logger_id, __entry->cpu,
		  __entry->events)
);

#endif /* NTTRACE_NO_TRACEPOINTS */

#endif /* NTTRACE_TRACE_H */

#ifndef NTTRACE_NO_TRACEPOINTS
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
#endif
