// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE: a MESSAGE_TRACE_USER and its argument list
 * become one message event in the session's buffer on this CPU, laid out
 * as Windows' TraceMessage writes it (common/record.h).
 *
 * Every user value is read once: the MESSAGE_TRACE_USER by the front door,
 * the argument list here into a kernel array, and the argument bytes by
 * the write path (module/write.c) straight into the reserved record.
 *
 * Choices where Windows' documented interface is silent:
 * - FieldSize other than 0x28: NTTRACE_STATUS_INVALID_PARAMETER.
 * - The logger ID is the low 16 bits of TraceHandle, as Windows takes it.
 * - The argument list must be aligned to the caller's pointer size, and
 *   must end with its NULL within DataSize (else NTTRACE_STATUS_INVALID_PARAMETER);
 *   DataSize 0 means no arguments. At most NTTRACE_MESSAGE_MAX_ARGS
 *   arguments.
 * - An event whose size overflows 16 bits: NTTRACE_STATUS_INTEGER_OVERFLOW; one
 *   that fits 16 bits but not the session's buffer: NTTRACE_STATUS_BUFFER_OVERFLOW;
 *   a full ring (the event is counted lost): NTTRACE_STATUS_NO_MEMORY, which the
 *   library turns into ERROR_NOT_ENOUGH_MEMORY as ETW does.
 * - Thread and process IDs are those the session's owner sees: the IDs in
 *   the PID namespace of the process that started the session, 0 for a
 *   caller outside it (as perf reports IDs in its event's namespace).
 * - The sequence number is logger-wide (or global, in
 *   NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE mode) and taken only when the event is
 *   committed, so a gap always means a lost event.
 * - A secure session (NTTRACE_EVENT_TRACE_SECURE_MODE) takes events only from its
 *   owner or a privileged caller (module/policy.c); others get
 *   NTTRACE_STATUS_ACCESS_DENIED and nothing is written or counted.
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "message.h"
#include "write.h"

#define NT_FAST_ARGS		16	/* arguments kept on the stack */

/* One pointer-sized word of the caller's argument list. */
static u64 nt_word(const u8 *p, bool ptr32)
{
	u32 w32;
	u64 w64;

	if (ptr32) {
		memcpy(&w32, p, 4);
		return w32;
	}
	memcpy(&w64, p, 8);
	return w64;
}

/*
 * Read @m's argument list once into *@argsp (the caller's stack array, or
 * memory this allocates in its place), and size @w's record from it and
 * @w->data_off (header and items). Returns an NTSTATUS.
 */
static u32 nt_read_args(struct nt_write *w, const struct nttrace_message_trace_user *m,
			struct nttrace_event_data_descriptor **argsp, bool ptr32)
{
	unsigned int psz = ptr32 ? 4 : 8, room = NT_FAST_ARGS, n = 0;
	u64 list = m->data;
	u32 left = m->data_size, sum = 0;
	/* Filled before it is read: no zeroing per event (see nt_trace_message). */
	u8 chunk[128] __uninitialized;

	if (!left)
		goto done;
	if (left % psz)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (m->data & (psz - 1))
		return NTTRACE_STATUS_DATATYPE_MISALIGNMENT;

	while (left) {
		u32 len = min_t(u32, left, sizeof(chunk)), i;

		/* Whole pairs only, unless this is the list's last word. */
		if (len < left)
			len -= len % (2 * psz);
		if (nt_copy_in(w->call, chunk, list, len))
			return NTTRACE_STATUS_ACCESS_VIOLATION;
		list += len;
		left -= len;
		for (i = 0; i < len; i += 2 * psz) {
			u64 ptr = nt_word(chunk + i, ptr32), size;

			if (!ptr)
				goto done;
			if (i + 2 * psz > len)	/* a pointer with no size */
				return NTTRACE_STATUS_INVALID_PARAMETER;
			size = nt_word(chunk + i + psz, ptr32);
			if (size > U16_MAX || check_add_overflow(sum, (u32)size, &sum))
				return NTTRACE_STATUS_INTEGER_OVERFLOW;
			if (n == NTTRACE_MESSAGE_MAX_ARGS)
				return NTTRACE_STATUS_INVALID_PARAMETER;
			if (n == room) {
				struct nttrace_event_data_descriptor *more;

				room = NTTRACE_MESSAGE_MAX_ARGS;
				more = kmalloc_array(room, sizeof(*more),
						     nt_gfp(w->call));
				if (!more)
					return NTTRACE_STATUS_NO_MEMORY;
				memcpy(more, *argsp, n * sizeof(*more));
				*argsp = more;
			}
			(*argsp)[n].ptr = ptr;
			(*argsp)[n].size = size;
			n++;
		}
	}
	/* DataSize ran out before the NULL that ends the list. */
	return NTTRACE_STATUS_INVALID_PARAMETER;
done:
	w->pieces = *argsp;
	w->npieces = n;
	if (check_add_overflow(w->data_off, sum, &w->total) || w->total > U16_MAX)
		return NTTRACE_STATUS_INTEGER_OVERFLOW;
	return NTTRACE_STATUS_SUCCESS;
}

u32 nt_trace_message(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed)
{
	/*
	 * Each entry is written before it is read. __uninitialized: a kernel
	 * built with CONFIG_INIT_STACK_ALL_ZERO (Debian's are) would otherwise
	 * clear these 256 bytes, the list's 128 and the front door's 72 on
	 * every event; in the bench kernel under TCG, TraceMessage went from
	 * 3.1 to 2.9 times a no-op ioctl without it (A/B boots).
	 */
	struct nttrace_event_data_descriptor stack_args[NT_FAST_ARGS] __uninitialized;
	struct nttrace_event_data_descriptor *args = stack_args;
	const struct nttrace_message_trace_user *m = fixed;
	bool ptr32 = call->compat || flags->wow64;
	u32 logger_id = call->trace_handle & 0xFFFF;
	struct nt_write w = {
		.call = call,
		.rules = call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER,
		.kind = NT_RECORD_MESSAGE,
		.message = {
			.number = m->message_number,
			.option_flags = (m->message_flags & NTTRACE_TRACE_MESSAGE_FLAG_MASK) |
					(ptr32 ? NTTRACE_TRACE_MESSAGE_POINTER32 :
						 NTTRACE_TRACE_MESSAGE_POINTER64),
			.guid = m->message_guid,
		},
	};
	u32 status;

	if (call->field_size != NTTRACE_MESSAGE_TRACE_USER_SIZE)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (!logger_id || logger_id == 0xFFFF)
		return NTTRACE_STATUS_INVALID_HANDLE;

	w.data_off = ntr_message_items_size(w.message.option_flags);
	status = nt_read_args(&w, m, &args, ptr32);
	if (status == NTTRACE_STATUS_SUCCESS) {
		status = nt_write_session(&w, logger_id);
		nt_write_release(&w);
	}
	if (args != stack_args)
		kfree(args);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_message);
