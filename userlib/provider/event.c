// SPDX-License-Identifier: LGPL-2.1
/*
 * TraceEvent, TraceEventInstance and CreateTraceInstanceId: the classic
 * (RegisterTraceGuids) provider's events, to a kernel session through
 * NtTraceEvent (NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE,
 * as Windows' NtTraceEvent takes them) or to the process's user-mode logger (umlogger.c), which
 * writes the same record without a system call.
 *
 * The checks, in order, each before anything later is read:
 *   - TraceHandle 0, EventTrace NULL (and InstInfo NULL):
 *     ERROR_INVALID_PARAMETER, as the documentation lists them;
 *   - logger ID (the handle's low 16 bits) 0 or 0xFFFF: ERROR_INVALID_HANDLE
 *     (0xFFFF is the NT Kernel Logger, which the documentation names);
 *   - the header unreadable: ERROR_NOACCESS;
 *   - Flags without WNODE_FLAG_TRACED_GUID: ERROR_INVALID_FLAG_NUMBER for
 *     TraceEvent, ERROR_INVALID_FLAGS for TraceEventInstance (each as its
 *     documentation says);
 *   - Size below the header, or with WNODE_FLAG_USE_MOF_PTR more than
 *     MAX_MOF_FIELDS whole MOF_FIELDs after it: ERROR_INVALID_PARAMETER
 *     ("the Size member is incorrect"). The kernel's answer to the latter
 *     would be STATUS_ARRAY_BOUNDS_EXCEEDED, an exception code that
 *     RtlNtStatusToDosError hands back unchanged: no Win32 error at all.
 *     Bytes after the last whole MOF_FIELD are ignored (NtTraceEvent counts
 *     whole structures);
 *   - (TraceEventInstance) InstInfo, ParentInstInfo and their RegHandles:
 *     see read_info();
 *   - the MOF_FIELD array unreadable: ERROR_NOACCESS; the record over
 *     0xFFFF bytes: ERROR_MORE_DATA (see read_mofs()).
 * The logger then answers the rest (handle not running, room, faults in
 * the data), the kernel with an NTSTATUS mapped by RtlNtStatusToDosError,
 * the user-mode logger with the Win32 error that status maps to.
 *
 * No heap memory per event. TraceEvent passes the caller's header and
 * data to the kernel as they are. TraceEventInstance must turn the
 * caller's 0x38-byte EVENT_INSTANCE_HEADER into the 0x48-byte
 * EVENT_INSTANCE_GUID_HEADER NtTraceEvent takes: the new header is built
 * on the stack and followed by a MOF_FIELD array, the caller's own (copied:
 * at most 0x100 bytes) or, for inline data, one item pointing at it, so
 * that the data itself is read once, by the logger, into the record.
 * TraceEvent with WNODE_FLAG_USE_MOF_PTR passes its copy of the header and
 * array too, so that the kernel reads the array that was checked.
 */
#include <string.h>

#include "provider_internal.h"

/* EVENT_INSTANCE_HEADER as the caller passes it. */
#define INSTANCE_HEADER_SIZE	0x38

/* The header NtTraceEvent(TRACE_HEADER) takes, and its MOF_FIELD array. */
struct event_fields {
	struct nttrace_event_trace_header h;
	struct nttrace_mof_field mof[MAX_MOF_FIELDS];
};

/* The header NtTraceEvent(TRACE_INSTANCE) takes, and its MOF_FIELD array. */
struct instance_fields {
	struct nttrace_event_instance_guid_header g;
	struct nttrace_mof_field mof[MAX_MOF_FIELDS];
};

_Static_assert(sizeof(EVENT_TRACE_HEADER) == NTTRACE_EVENT_TRACE_HEADER_SIZE,
	       "EVENT_TRACE_HEADER is the uapi's event_trace_header");
_Static_assert(sizeof(struct nttrace_event_trace_header) == NTTRACE_EVENT_TRACE_HEADER_SIZE &&
	       sizeof(struct nttrace_event_instance_guid_header) ==
	       NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE, "uapi header sizes");
_Static_assert(sizeof(EVENT_INSTANCE_HEADER) == INSTANCE_HEADER_SIZE,
	       "EVENT_INSTANCE_HEADER is 0x38 bytes");
_Static_assert(sizeof(MOF_FIELD) == NTTRACE_MOF_FIELD_SIZE &&
	       sizeof(struct nttrace_mof_field) == NTTRACE_MOF_FIELD_SIZE, "MOF_FIELD");
_Static_assert(offsetof(struct instance_fields, mof) ==
	       NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE &&
	       offsetof(struct event_fields, mof) == NTTRACE_EVENT_TRACE_HEADER_SIZE,
	       "the array right after the header");

static ULONG check_handle(TRACEHANDLE handle)
{
	uint32_t id = NTTRACE_HANDLE_LOGGER_ID(handle);

	if (!handle)
		return ERROR_INVALID_PARAMETER;
	if (handle & TRACE_USER_MODE_LOGGER_BIT)
		return ERROR_SUCCESS;	/* the user-mode logger checks the rest */
	if (id == 0 || id == 0xFFFF)
		return ERROR_INVALID_HANDLE;
	return ERROR_SUCCESS;
}

/*
 * The whole MOF_FIELDs in @size bytes after a @hdr_size-byte header into
 * *@n; ERROR_INVALID_PARAMETER past MAX_MOF_FIELDS.
 */
static ULONG mof_count(uint32_t size, uint32_t hdr_size, uint32_t *n)
{
	*n = (size - hdr_size) / NTTRACE_MOF_FIELD_SIZE;
	return *n > MAX_MOF_FIELDS ? ERROR_INVALID_PARAMETER : ERROR_SUCCESS;
}

/*
 * The MOF_FIELD array after a @hdr_size-byte header of @size bytes at
 * @event into @mof, its item count into *@n. Its whole items only (as
 * NtTraceEvent counts them); more than MAX_MOF_FIELDS: ERROR_INVALID_PARAMETER; unreadable:
 * ERROR_NOACCESS; the record (header, as written, and items) over 0xFFFF
 * bytes, which its 16-bit Size cannot say: ERROR_MORE_DATA, decided here
 * for both loggers (the kernel's own answer, one of the statuses NtTraceEvent
 * has when there is no room, might be STATUS_INTEGER_OVERFLOW, which
 * is no error Microsoft documents for these functions).
 */
static ULONG read_mofs(uint32_t size, uint32_t hdr_size, const void *event,
		       struct nttrace_mof_field *mof, uint32_t *n)
{
	uint32_t out_hdr = hdr_size == NTTRACE_EVENT_TRACE_HEADER_SIZE ?
				   NTTRACE_EVENT_TRACE_HEADER_SIZE :
				   NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE;
	uint64_t total = out_hdr;
	uint32_t i;
	ULONG err = mof_count(size, hdr_size, n);

	if (err)
		return err;
	if (nttrace_safe_copy(mof, (const uint8_t *)event + hdr_size, *n * NTTRACE_MOF_FIELD_SIZE))
		return ERROR_NOACCESS;
	for (i = 0; i < *n; i++)
		total += mof[i].length;
	return total > 0xFFFF ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

/*
 * A RegHandle: a class RegisterTraceGuids registered and has not
 * unregistered, found in its table (provider_internal.h). Anything else is
 * ERROR_INVALID_HANDLE: it is a bad handle, not a bad buffer.
 */
static ULONG read_reg(HANDLE reg_handle, GUID *guid)
{
	const struct nttrace_guid_reg *c = nttrace_class_of(reg_handle);

	if (!c)
		return ERROR_INVALID_HANDLE;
	*guid = c->guid;
	return ERROR_SUCCESS;
}

/* An address the caller passed as ULONG64, as a pointer; -1 if it cannot be one. */
static int to_pointer(uint64_t addr, const void **p)
{
	if (addr > UINTPTR_MAX)
		return -1;
	*p = (const void *)(uintptr_t)addr;
	return 0;
}

static ULONG trace_event(TRACEHANDLE handle, PEVENT_TRACE_HEADER event)
{
	struct event_fields k;
	struct nttrace_event_instance_guid_header um_hdr;
	struct nttrace_event_trace_header *h = &k.h;
	uint32_t n = 0;
	ULONG err;

	if (!event)
		return ERROR_INVALID_PARAMETER;
	err = check_handle(handle);
	if (err)
		return err;
	if (nttrace_safe_copy(h, event, NTTRACE_EVENT_TRACE_HEADER_SIZE))
		return ERROR_NOACCESS;
	if (!(h->flags & WNODE_FLAG_TRACED_GUID))
		return ERROR_INVALID_FLAG_NUMBER;
	if (h->size < NTTRACE_EVENT_TRACE_HEADER_SIZE)
		return ERROR_INVALID_PARAMETER;
	if (h->flags & WNODE_FLAG_USE_MOF_PTR) {
		err = read_mofs(h->size, NTTRACE_EVENT_TRACE_HEADER_SIZE, event, k.mof, &n);
		if (err)
			return err;
		/* The kernel gets the array checked here, and only its whole items. */
		h->size = NTTRACE_EVENT_TRACE_HEADER_SIZE + n * NTTRACE_MOF_FIELD_SIZE;
	}
	if (!(handle & TRACE_USER_MODE_LOGGER_BIT))
		/*
		 * The kernel reads GuidPtr and the data itself: inline data
		 * where the caller has it, items through the array.
		 */
		return RtlNtStatusToDosError(NtTraceEvent(
			(HANDLE)(uintptr_t)NTTRACE_HANDLE_LOGGER_ID(handle),
			NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, h->size,
			h->flags & WNODE_FLAG_USE_MOF_PTR ? (PVOID)&k : (PVOID)event));

	/* The user-mode logger: the GUID and the items, as the kernel reads them. */
	if (h->flags & WNODE_FLAG_USE_GUID_PTR) {
		const void *g;

		if (to_pointer(h->guid_ptr, &g) ||
		    nttrace_safe_copy(h->guid, g, sizeof(h->guid)))
			return ERROR_NOACCESS;
	}
	if (h->flags & WNODE_FLAG_USE_MOF_PTR) {
		/* read above */
	} else if (h->size > NTTRACE_EVENT_TRACE_HEADER_SIZE) {
		k.mof[0].data_ptr = (uintptr_t)event + NTTRACE_EVENT_TRACE_HEADER_SIZE;
		k.mof[0].length = h->size - NTTRACE_EVENT_TRACE_HEADER_SIZE;
		k.mof[0].data_type = 0;
		n = 1;
	}
	memcpy(&um_hdr.h, h, NTTRACE_EVENT_TRACE_HEADER_SIZE);
	return nttrace_um_trace_event(handle, &um_hdr, NTTRACE_EVENT_TRACE_HEADER_SIZE, k.mof, n);
}

ULONG TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace)
{
	ULONG err = trace_event(TraceHandle, EventTrace);

	SetLastError(err);
	return err;
}

/* An EVENT_INSTANCE_INFO's class: its GUID and instance ID into @guid, @id. */
static ULONG read_info(PEVENT_INSTANCE_INFO info, uint8_t guid[16], uint32_t *id)
{
	EVENT_INSTANCE_INFO ii;
	GUID g;

	if (nttrace_safe_copy(&ii, info, sizeof(ii)))
		return ERROR_NOACCESS;
	/* "A member of InstInfo is NULL": the handle; 0 is an instance ID. */
	if (!ii.RegHandle)
		return ERROR_INVALID_PARAMETER;
	if (read_reg(ii.RegHandle, &g))
		return ERROR_INVALID_HANDLE;
	memcpy(guid, &g, 16);
	*id = ii.InstanceId;
	return ERROR_SUCCESS;
}

static ULONG trace_instance(TRACEHANDLE handle, PEVENT_INSTANCE_HEADER event,
			    PEVENT_INSTANCE_INFO inst, PEVENT_INSTANCE_INFO parent)
{
	struct instance_fields k;
	EVENT_INSTANCE_HEADER in;
	uint32_t n = 0;
	ULONG err;

	if (!event || !inst)
		return ERROR_INVALID_PARAMETER;
	err = check_handle(handle);
	if (err)
		return err;
	if (nttrace_safe_copy(&in, event, sizeof(in)))
		return ERROR_NOACCESS;
	if (!(in.Flags & WNODE_FLAG_TRACED_GUID))
		return ERROR_INVALID_FLAGS;
	if (in.Size < INSTANCE_HEADER_SIZE)
		return ERROR_INVALID_PARAMETER;
	if (in.Flags & WNODE_FLAG_USE_MOF_PTR) {
		err = read_mofs(in.Size, INSTANCE_HEADER_SIZE, event, k.mof, &n);
		if (err)
			return err;
	} else if ((uint32_t)in.Size - INSTANCE_HEADER_SIZE +
			   NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE >
		   0xFFFF) {
		return ERROR_MORE_DATA;	/* inline data that would not fit Size */
	}

	/*
	 * The header as NtTraceEvent takes it: the caller's Class, TimeStamp
	 * (kept with WNODE_FLAG_USE_TIMESTAMP) and Flags, the GUIDs and IDs
	 * from the EVENT_INSTANCE_INFOs. The header's RegHandle, InstanceId,
	 * ParentInstanceId and ParentRegHandle are not read (our choice: the
	 * arguments say the same, and are what the documentation requires).
	 * USE_GUID_PTR means nothing here (the GUID is the class's).
	 */
	memset(&k.g, 0, sizeof(k.g));
	err = read_info(inst, k.g.h.guid, &k.g.instance_id);
	if (!err && parent)
		err = read_info(parent, k.g.parent_guid, &k.g.parent_instance_id);
	if (err)
		return err;
	k.g.h.class_type = in.Class.Type;
	k.g.h.class_level = in.Class.Level;
	k.g.h.class_version = in.Class.Version;
	k.g.h.time_stamp = in.TimeStamp.QuadPart;
	k.g.h.flags = (in.Flags & ~WNODE_FLAG_USE_GUID_PTR) | WNODE_FLAG_USE_MOF_PTR;

	if (in.Flags & WNODE_FLAG_USE_MOF_PTR) {
		/* read above */
	} else if (in.Size > INSTANCE_HEADER_SIZE) {
		/* Inline data: one item pointing at it, read by the logger. */
		k.mof[0].data_ptr = (uintptr_t)event + INSTANCE_HEADER_SIZE;
		k.mof[0].length = in.Size - INSTANCE_HEADER_SIZE;
		k.mof[0].data_type = 0;
		n = 1;
	}
	k.g.h.size = NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE + n * NTTRACE_MOF_FIELD_SIZE;
	if (handle & TRACE_USER_MODE_LOGGER_BIT)
		return nttrace_um_trace_event(handle, &k.g, NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE,
					      k.mof, n);
	return RtlNtStatusToDosError(NtTraceEvent(
		(HANDLE)(uintptr_t)NTTRACE_HANDLE_LOGGER_ID(handle),
		NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, k.g.h.size, &k));
}

ULONG TraceEventInstance(TRACEHANDLE TraceHandle, PEVENT_INSTANCE_HEADER EventTrace,
			 PEVENT_INSTANCE_INFO InstInfo, PEVENT_INSTANCE_INFO ParentInstInfo)
{
	ULONG err = trace_instance(TraceHandle, EventTrace, InstInfo, ParentInstInfo);

	SetLastError(err);
	return err;
}

static ULONG create_instance_id(HANDLE reg_handle, PEVENT_INSTANCE_INFO info)
{
	struct nttrace_guid_reg *live;
	EVENT_INSTANCE_INFO out;
	uint32_t id;

	if (!reg_handle || !info)
		return ERROR_INVALID_PARAMETER;
	live = nttrace_class_of(reg_handle);
	if (!live)
		return ERROR_INVALID_HANDLE;
	/*
	 * Per class and per process, from 1; after 0xFFFFFFFF it starts over
	 * at 1, as the documentation says: 0 is skipped.
	 */
	do
		id = __atomic_add_fetch(&live->next_instance, 1, __ATOMIC_RELAXED);
	while (!id);
	out.RegHandle = reg_handle;
	out.InstanceId = id;
	if (nttrace_safe_store(info, &out, sizeof(out)))
		return ERROR_NOACCESS;
	return ERROR_SUCCESS;
}

ULONG CreateTraceInstanceId(HANDLE RegHandle, PEVENT_INSTANCE_INFO InstInfo)
{
	ULONG err = create_instance_id(RegHandle, InstInfo);

	SetLastError(err);
	return err;
}
