// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT: EventWrite, EventWriteTransfer, EventWriteEx
 * and EventWriteString of a registered provider. Fields is a
 * struct nttrace_event_write_user (uapi/nttrace.h: Windows' 0x78-byte block),
 * TraceHandle the registration's handle
 * from NTTRACE_IOC_REGISTER. The same block and this write path serve
 * TRACE_EVENT_NOREG (module/noreg.c) and TRACE_SECURITY
 * (module/security.c), which write for a GUID held without a
 * registration (nt_provider_hold()): nt_event_write_reg(). Every session
 * that enables the provider's GUID
 * and whose level and keywords take the event (NTTRACE_LEVEL_KEYWORD_ENABLED,
 * per session) gets one record, as Windows writes it: an EVENT_HEADER
 * (0x50 bytes), the extended items (the related activity ID), the user
 * data, 8-byte aligned.
 *
 * Every user value is read once: the Fields by the front door, the data
 * descriptor array here into kernel memory, and the data bytes by the
 * write path (module/write.c) straight into each reserved record. If that
 * copy faults, the bytes are read once more with faults allowed into a
 * staging buffer, from which the sessions not yet written get the event.
 * A kernel-mode caller's memory does not fault in: for it a failed copy is
 * NTTRACE_STATUS_ACCESS_VIOLATION at once, and nothing sleeps or allocates but
 * with GFP_ATOMIC.
 *
 * The registration and its GUID's sessions are found with no lock, under
 * RCU (module/provider.c: a global handle table and a snapshot of each
 * GUID's enables). A session's logger ID may be freed by a stop and taken
 * by a new session between reading the snapshot and reserving: so once
 * reserved, the snapshot is read again and the reservation discarded if
 * the session no longer wants the event (see nt_write_wanted()).
 *
 * The checks, in order, and their status (Windows documents none of the
 * kernel's; chosen as Windows' EventWrite reports them, ERROR_* in the library's
 * mapping):
 *  1. FieldSize not NTTRACE_EVENT_WRITE_USER_SIZE (0x78): NTTRACE_STATUS_INVALID_PARAMETER.
 *     (The front door reads 0x78 bytes first: an unreadable Fields is
 *     NTTRACE_STATUS_ACCESS_VIOLATION before this.)
 *  2. Fields.flags with a bit other than NTTRACE_EVENT_WRITE_FLAG_*:
 *     NTTRACE_STATUS_INVALID_PARAMETER.
 *  3. Fields.data_count above NTTRACE_MAX_EVENT_DATA_DESCRIPTORS (128), or
 *     data_count and data not both 0 or both non-zero:
 *     NTTRACE_STATUS_INVALID_PARAMETER (the note's checks; EventWrite
 *     documents ERROR_INVALID_PARAMETER for a UserDataCount it cannot
 *     take).
 *  4. TraceHandle not an NTTRACE_REG_EVENT registration of the calling
 *     process (unknown, unregistered, a classic registration's, another
 *     process's, also after fork): NTTRACE_STATUS_INVALID_HANDLE
 *     (ERROR_INVALID_HANDLE, as for a bad REGHANDLE). A kernel-mode
 *     NtTraceEvent (ZwTraceEvent) of this type too: modules write with
 *     nt_event_write_kernel() and their own registration, never with a
 *     process's handle.
 *  5. No session wants the event (none enabled, level or keywords, a
 *     session's event-ID filter, or all left out by Fields.filter):
 *     NTTRACE_STATUS_SUCCESS, and nothing more is read: a disabled event
 *     costs no copy (Windows: ERROR_SUCCESS). An event a session's filter
 *     keeps out is not wanted by it, not lost: no loss is counted.
 *  6. The descriptor array unreadable: NTTRACE_STATUS_ACCESS_VIOLATION.
 *     A descriptor's Size over 0xFFFF: NTTRACE_STATUS_BUFFER_OVERFLOW, the
 *     event dropped (the note: Windows' 0x80000005 for this case).
 *     With NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES, a Type other than
 *     NONE, EVENT_METADATA and PROVIDER_METADATA, or one of the two
 *     twice: NTTRACE_STATUS_INVALID_PARAMETER.
 *  7. Header, item and data over 0xFFFF bytes (the record's Size is 16
 *     bits; the sum is taken in 64 bits, so 32-bit overflow is the same
 *     case): NTTRACE_STATUS_INTEGER_OVERFLOW (ERROR_ARITHMETIC_OVERFLOW, which
 *     Microsoft documents for an event over the 64 KB maximum).
 *  8. Per session, as nt_reserve_rules() applies its rules before
 *     anything is reserved: fits 16 bits but not a buffer of the session,
 *     NTTRACE_STATUS_BUFFER_OVERFLOW (ERROR_MORE_DATA, documented for a buffer too
 *     small); the ring full, NTTRACE_STATUS_NO_MEMORY, the event counted lost
 *     (ERROR_NOT_ENOUGH_MEMORY); a secure session, from a user-mode caller
 *     neither its owner nor privileged, NTTRACE_STATUS_ACCESS_DENIED (as messages;
 *     kernel-mode callers are let in); a kernel-mode caller into an
 *     NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY session, NTTRACE_STATUS_NOT_SUPPORTED. A session
 *     refusing does not keep the others from the event: the call returns
 *     the status of the lowest logger ID that refused it, NTTRACE_STATUS_SUCCESS
 *     when all took it (Windows returns an error when a session lost the
 *     event; which one of several is not documented).
 *  9. A data descriptor's bytes unreadable: NTTRACE_STATUS_ACCESS_VIOLATION, and
 *     no session gets the event (unless the memory went away between two
 *     sessions' copies: then those before keep theirs).
 *
 * Other choices where nothing public says:
 * - The header type, and NTTRACE_EVENT_HEADER_FLAG_32_BIT_HEADER or _64_BIT_HEADER,
 *   are by the caller's pointer size: 32-bit for compat callers and for
 *   NTTRACE_ETW_NT_FLAGS_WOW64_CALL; kernel-mode callers are 64-bit.
 * - NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME is always set and ProcessorTime is 0: no
 *   per-thread CPU time is kept. EventProperty is the caller's, as the
 *   note says Windows copies the caller's header.
 * - Of the caller's header Flags only NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY
 *   (EventWriteString) is kept: Windows copies the header the caller
 *   filled, so that is where a Windows caller says it; the others are the
 *   kernel's to set (items, pointer size, CPU time) and are ignored, not
 *   refused, since ntdll may leave its own there. The data is written as
 *   given.
 * - The sessions left out are Fields.filter (logger IDs 1 to 16) and,
 *   with NTTRACE_EVENT_WRITE_FLAG_FILTER64, the 64 bits of the header's
 *   ProcessorTime: the USHORT names 16 loggers, nttrace has 64, and
 *   ProcessorTime is a header member the kernel overwrites anyway. The
 *   related activity ID is written when Fields.related_activity is
 *   non-zero. Windows' EVENT_WRITE_FLAG_NO_FAULTING and _INPRIVATE are
 *   taken and change nothing (no private sessions here).
 * - Descriptors of no bytes are skipped; a descriptor's Reserved is
 *   ignored unless the caller says its low byte is a Type
 *   (NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES: the library sets it for a
 *   provider that asked with EventSetInformation, as Windows honours Type
 *   only then). The time stamp is the session's clock when the record is
 *   written; thread and process IDs are those of the session's PID
 *   namespace, 0 for a caller outside it (as messages and classic events).
 * - The extended items are the related activity ID, PROV_TRAITS and
 *   EVENT_SCHEMA_TL, in that order (common/record.c), each one's bytes
 *   copied as given: the kernel does not parse TraceLogging metadata, as
 *   Windows' does not (its consumers do).
 * - A session whose enable has NTTRACE_ENABLE_PROPERTY_STACK_TRACE
 *   (EnableTraceEx2's EVENT_ENABLE_PROPERTY_STACK_TRACE) gets a
 *   STACK_TRACE64 item before them (STACK_TRACE32 from a 32-bit process;
 *   the uapi says what it holds). The stack is taken once per call, only
 *   when such a session wants the event; no memory for it is
 *   NTTRACE_STATUS_NO_MEMORY and no session gets the event. MatchId is 0:
 *   Windows sets it to pair a kernel stack with a user stack it adds
 *   later, and these are whole when written.
 * - A metadata descriptor past the 16-bit Size is the same
 *   NTTRACE_STATUS_INTEGER_OVERFLOW as data.
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "eventwrite.h"
#include "provider.h"
#include "stack.h"
#include "write.h"

#define NT_EW_FLAGS		(NTTRACE_EVENT_WRITE_FLAG_NO_FAULTING | \
				 NTTRACE_EVENT_WRITE_FLAG_INPRIVATE | \
				 NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES | \
				 NTTRACE_EVENT_WRITE_FLAG_FILTER64)

struct nt_ew {
	const struct nttrace_call *call;
	const struct nttrace_event_write_user *f;
	struct nt_reg *kreg;	/* a kernel-mode provider's; else by handle */
	bool ptr32;
	struct nt_write w;
	struct nttrace_event_data_descriptor *desc;	/* the descriptors with bytes */
	u64 done;		/* sessions written, or refused for good */
	u64 denied;		/* secure sessions that took us for a stranger */
	u32 fail_id;		/* the lowest logger ID that refused */
	u32 fail_status;
	u64 stacks;		/* sessions that want a stack item */
	struct nt_stack *stack;	/* the writer's, taken once; NULL: none */
};

/*
 * The sessions (bit logger ID - 1) whose enables of @r's GUID take @w's
 * event by its level and keyword and whose event-ID filter lets its id
 * through, less those its Fields.filter leaves out; into @stacks (unless
 * NULL), in the same pass, the sessions that ask for stacks. Under
 * rcu_read_lock().
 */
static u64 nt_write_event_sessions(const struct nt_write *w, const struct nt_reg *r,
				   u64 *stacks)
{
	const struct nttrace_event_descriptor *d = w->event.header.descriptor;

	return nt_reg_wanted_rcu(r, d->id, d->level, d->keyword, stacks) & ~w->event.filter;
}

/*
 * Does session @logger_id still want the event? Its logger ID may have
 * been freed by a stop and taken by a new session since the caller read
 * the enable snapshot.
 */
static bool nt_write_wanted(const struct nt_write *w, u32 logger_id)
{
	/*
	 * Reserving read the session from the logger table; a stop publishes
	 * the GUID's snapshot without it before the ID can be taken by a new
	 * session (module/session.c keeps a stopping session's ID until
	 * nt_provider_session_stopped() returns; the new session is then
	 * published with rcu_assign_pointer()). Pairs with the release in
	 * nt_guid_snapshot() (module/provider.c): if we found a new session,
	 * we see the snapshot that dropped the old one.
	 */
	smp_rmb();
	return nt_write_event_sessions(w, w->event.reg, NULL) & BIT_ULL(logger_id - 1);
}

/*
 * nt_write_one() for an EventWrite record: once reserved, the enable
 * snapshot is read again, and the reservation discarded (-ESTALE) if the
 * session no longer wants the event.
 */
static int nt_ew_write_one(struct nt_write *w, u32 logger_id, int kaddr)
{
	struct nttrace_reservation res;
	u8 *rec;

	rec = nt_write_reserve(w, logger_id, &res);
	if (IS_ERR(rec))
		return PTR_ERR(rec);
	/*
	 * @kaddr >= 0: the record holds kernel frames if it is 1, sized for
	 * a session whose readers may see them if so, and may not if not:
	 * the session found is still that one.
	 */
	if (!nt_write_wanted(w, logger_id) ||
	    (kaddr >= 0 && res.session->kaddr != kaddr)) {
		nttrace_discard(&res);
		return -ESTALE;
	}
	return nt_write_commit(w, logger_id, &res, rec);
}

/*
 * nt_ew_write_one() into a session that wants the writer's stack: the
 * record grows by the stack item, which comes first of the items, so the
 * data and the other items move by its size (common/record.c). Kernel
 * frames go only to a session whose readers may see kernel addresses;
 * frames that would take the record past 16 bits are left out.
 */
static int nt_ew_write_stack(struct nt_ew *ew, u32 logger_id)
{
	struct ntr_event *e = &ew->w.event.header;
	const struct nt_stack *st = ew->stack;
	u32 base = ew->w.total, data_off = ew->w.data_off;
	u32 word = e->stack32 ? 4 : 8, room, skip = 0, nr, grow;
	int kaddr = -1, err;

	if (st->nr_kernel) {
		kaddr = nt_system_slot_wants(logger_id, 0, 0, 1);
		skip = kaddr ? 0 : st->nr_kernel;
	}
	nr = st->nr - skip;
	/* The item's header and MatchId need 16 bytes: without them, none. */
	room = (U16_MAX - base) & ~7U;
	if (room < ntr_event_stack_size(0, e->stack32))
		return nt_ew_write_one(&ew->w, logger_id, -1);
	nr = min(nr, (room - ntr_event_stack_size(0, e->stack32)) / word);
	grow = ntr_event_stack_size(nr, e->stack32);
	e->stack = st->frames + skip;
	e->stack_frames = nr;
	ew->w.total = base + grow;
	ew->w.data_off = data_off + grow;
	err = nt_ew_write_one(&ew->w, logger_id, kaddr);
	ew->w.total = base;
	ew->w.data_off = data_off;
	e->stack = NULL;
	e->stack_frames = 0;
	return err;
}

/* The registration, under rcu_read_lock(). */
static struct nt_reg *nt_ew_reg(const struct nt_ew *ew)
{
	return ew->kreg ? ew->kreg : nt_reg_lookup_rcu(ew->call->trace_handle);
}

static void nt_ew_fail(struct nt_ew *ew, u32 id, u32 status)
{
	if (!ew->fail_id || id < ew->fail_id) {
		ew->fail_id = id;
		ew->fail_status = status;
	}
}

/*
 * One round over the sessions that want the event and have not had it.
 * 0 (the refusals are in @ew), -EBADF (the registration is gone) or
 * -EFAULT (the data faulted: kernel-mode, bad memory; user-mode, stage
 * it and go round again).
 */
static int nt_ew_pass(struct nt_ew *ew)
{
	struct nt_reg *r;
	int err = 0;
	u64 want;

	rcu_read_lock();
	r = nt_ew_reg(ew);
	if (!r) {
		err = -EBADF;
		goto out;
	}
	ew->w.event.reg = r;
	ew->w.event.header.provider_id = nt_reg_guid(r);
	want = nt_write_event_sessions(&ew->w, r, NULL) & ~ew->done;
	while (want) {
		u32 id = __ffs64(want) + 1;
		u64 bit = BIT_ULL(id - 1);

		want &= ~bit;
		if (ew->stack && (ew->stacks & bit))
			err = nt_ew_write_stack(ew, id);
		else
			err = nt_ew_write_one(&ew->w, id, -1);
		if (err == -EFAULT)
			goto out;
		if (err == -EACCES && (ew->w.rules & NT_WRITE_USER) &&
		    !(ew->w.rules & NT_WRITE_PRIVILEGED)) {
			ew->denied |= bit;
			err = 0;
			continue;
		}
		/* A session stopped since the snapshot wants nothing. */
		if (err && err != -EBADF && err != -ESTALE)
			nt_ew_fail(ew, id, nt_write_status(err));
		ew->done |= bit;
		err = 0;
	}
out:
	rcu_read_unlock();
	return err;
}

/* Write to every session that wants the event; returns an NTSTATUS. */
static u32 nt_ew_emit(struct nt_ew *ew)
{
	int err;

	for (;;) {
		err = nt_ew_pass(ew);
		if (err == -EFAULT && !ew->call->kernel_mode && !ew->w.staged) {
			err = nt_write_stage(&ew->w);
			if (err)
				break;
			continue;
		}
		if (err)
			break;
		/*
		 * A secure session took us for a stranger: check privilege
		 * (which may sleep, so not with interrupts off) and offer the
		 * event to those sessions again.
		 */
		if (ew->denied && nt_write_privilege(&ew->w)) {
			ew->denied = 0;
			continue;
		}
		if (ew->denied)
			nt_ew_fail(ew, __ffs64(ew->denied) + 1, NTTRACE_STATUS_ACCESS_DENIED);
		if (ew->fail_id)
			return ew->fail_status;
		break;
	}
	return nt_write_status(err);
}

/*
 * Read the descriptor array once (into @stack, or memory), find the
 * metadata among it, and size and place the record's parts: each kept
 * descriptor's reserved becomes its place after the header (the write
 * path's @placed). Returns an NTSTATUS.
 */
static u32 nt_ew_read_data(struct nt_ew *ew, struct nttrace_event_data_descriptor *stack)
{
	const struct nttrace_event_write_user *f = ew->f;
	struct ntr_event *e = &ew->w.event.header;
	u32 n = f->data_count, i, kept = 0;
	struct ntr_event_layout l;
	s32 traits = -1, schema = -1;
	u64 total;

	ew->desc = stack;
	if (n > NT_EW_STACK_DESCRIPTORS) {
		ew->desc = kmalloc_array(n, sizeof(*ew->desc), nt_gfp(ew->call));
		if (!ew->desc)
			return NTTRACE_STATUS_NO_MEMORY;
	}
	if (n && nt_copy_in(ew->call, ew->desc, f->data, n * sizeof(*ew->desc)))
		return NTTRACE_STATUS_ACCESS_VIOLATION;
	for (i = 0; i < n; i++)
		if (ew->desc[i].size > U16_MAX)
			return NTTRACE_STATUS_BUFFER_OVERFLOW;
	if ((f->flags & NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES) &&
	    ntr_event_metadata(ew->desc, n, &traits, &schema))
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (traits >= 0)
		e->traits_size = ew->desc[traits].size;
	if (schema >= 0)
		e->schema_size = ew->desc[schema].size;
	/* Each at most U16_MAX (above): ntr_event_layout() adds them in 32 bits. */
	/*
	 * At most 128 sizes of 32 bits: a u64 sum cannot wrap. Descriptors
	 * of no bytes are dropped, in place (the kept one is never ahead).
	 */
	ntr_event_layout(e, &l);
	ew->w.data_off = NTTRACE_EVENT_HEADER_SIZE;
	ew->w.placed = true;
	total = l.data;
	for (i = 0; i < n; i++) {
		struct nttrace_event_data_descriptor d = ew->desc[i];

		if (!d.size)
			continue;
		if ((s32)i == traits) {
			d.reserved = l.traits;
		} else if ((s32)i == schema) {
			d.reserved = l.schema;
		} else {
			d.reserved = total;
			total += d.size;
			if (total > U16_MAX)
				return NTTRACE_STATUS_INTEGER_OVERFLOW;
		}
		d.reserved -= ew->w.data_off;
		ew->desc[kept++] = d;
	}
	if (total > U16_MAX)
		return NTTRACE_STATUS_INTEGER_OVERFLOW;
	ew->w.total = total;
	ew->w.pieces = ew->desc;
	ew->w.npieces = kept;
	return NTTRACE_STATUS_SUCCESS;
}

static u32 nt_ew_run(struct nt_ew *ew)
{
	/* Copied in before it is read (see nt_trace_message()). */
	struct nttrace_event_data_descriptor stack[NT_EW_STACK_DESCRIPTORS] __uninitialized;
	const struct nttrace_event_write_user *f = ew->f;
	struct nt_write *w = &ew->w;
	struct nt_reg *r;
	u64 want = 0;
	u32 status;

	status = nt_event_fields_check(ew->call, f);
	if (status)
		return status;
	w->call = ew->call;
	w->rules = ew->call->kernel_mode ? NT_WRITE_KERNEL : NT_WRITE_USER;
	w->kind = NT_RECORD_EVENT;
	w->event.filter = f->filter;
	if (f->flags & NTTRACE_EVENT_WRITE_FLAG_FILTER64)
		w->event.filter |= f->header.processor_time;
	w->event.header = (struct ntr_event) {
		.ptr32 = ew->ptr32,
		.extra_flags = f->header.flags & NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY,
		.event_property = f->header.event_property,
		.descriptor = &f->header.descriptor,
		.activity_id = f->header.activity_id,
		.related_activity_id = f->related_activity ? f->related_activity_id : NULL,
	};
	rcu_read_lock();
	r = nt_ew_reg(ew);
	if (r)
		want = nt_write_event_sessions(w, r, &ew->stacks);
	rcu_read_unlock();
	if (!r)
		return NTTRACE_STATUS_INVALID_HANDLE;
	if (!want)
		return NTTRACE_STATUS_SUCCESS;

	status = nt_ew_read_data(ew, stack);
	if (status == NTTRACE_STATUS_SUCCESS && (want & ew->stacks)) {
		/*
		 * Taken once for all the sessions, here where the writer is;
		 * too big for the kernel stack. No memory: the event is
		 * refused whole, as for its data.
		 */
		ew->stack = kmalloc(sizeof(*ew->stack), nt_gfp(ew->call));
		if (ew->stack) {
			nt_stack_capture_writer(ew->stack, ew->call->kernel_mode);
			w->event.header.stack32 = ew->call->compat;
		} else {
			status = NTTRACE_STATUS_NO_MEMORY;
		}
	}
	if (status == NTTRACE_STATUS_SUCCESS)
		status = nt_ew_emit(ew);
	kfree(ew->stack);
	nt_write_release(w);
	if (ew->desc != stack)
		kfree(ew->desc);
	return status;
}

u32 nt_event_fields_check(const struct nttrace_call *call,
			  const struct nttrace_event_write_user *f)
{
	if (call->field_size != NTTRACE_EVENT_WRITE_USER_SIZE)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (f->flags & ~NT_EW_FLAGS)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (f->data_count > NTTRACE_MAX_EVENT_DATA_DESCRIPTORS ||
	    !f->data_count != !f->data)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	return NTTRACE_STATUS_SUCCESS;
}
EXPORT_SYMBOL_IF_KUNIT(nt_event_fields_check);

static bool nt_ew_ptr32(const struct nttrace_call *call, const struct nttrace_flags *flags)
{
	return !call->kernel_mode && (call->compat || flags->wow64);
}

u32 nt_event_write(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed)
{
	struct nt_ew ew = {
		.call = call,
		.f = fixed,
		.ptr32 = nt_ew_ptr32(call, flags),
	};
	u32 status = nt_event_fields_check(call, fixed);

	if (status)
		return status;
	/* A kernel-mode NtTraceEvent (ZwTraceEvent) has no process handle. */
	if (call->kernel_mode)
		return NTTRACE_STATUS_INVALID_HANDLE;
	return nt_ew_run(&ew);
}
EXPORT_SYMBOL_IF_KUNIT(nt_event_write);

u32 nt_event_write_reg(const struct nttrace_call *call, const struct nttrace_flags *flags,
		       const struct nttrace_event_write_user *fields, struct nt_reg *reg)
{
	struct nt_ew ew = {
		.call = call,
		.f = fields,
		.kreg = reg,
		.ptr32 = nt_ew_ptr32(call, flags),
	};

	return nt_ew_run(&ew);
}
EXPORT_SYMBOL_IF_KUNIT(nt_event_write_reg);

u32 nt_event_write_kernel(struct nt_reg *reg, const struct nttrace_event_write_user *fields)
{
	struct nttrace_call call = {
		.flags = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
		.field_size = NTTRACE_EVENT_WRITE_USER_SIZE,
		.fields = (uintptr_t)fields,
		.kernel_mode = true,
	};
	struct nttrace_flags flags = { .type = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT };

	if (!reg)
		return NTTRACE_STATUS_INVALID_HANDLE;
	return nt_event_write_reg(&call, &flags, fields, reg);
}
EXPORT_SYMBOL_IF_KUNIT(nt_event_write_kernel);
