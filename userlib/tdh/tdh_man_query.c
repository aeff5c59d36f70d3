// SPDX-License-Identifier: LGPL-2.1
/*
 * What TDH tells of the providers the manifests loaded describe:
 * TdhEnumerateProviders and TdhEnumerateProvidersForDecodingSource (the
 * providers), TdhEnumerateProviderFieldInformation and
 * TdhQueryProviderFieldInformation (their levels, tasks, opcodes, keywords
 * and channels), TdhEnumerateManifestProviderEvents and
 * TdhGetManifestEventInformation (their events). Sizes and errors as
 * Microsoft documents the functions (learn.microsoft.com, tdh.h):
 * ERROR_INSUFFICIENT_BUFFER with the size needed, ERROR_NOT_FOUND for a
 * provider no manifest describes or a field it does not have,
 * ERROR_NOT_SUPPORTED for a field type that is none.
 *
 * Chosen here, where Microsoft says nothing or Linux has nothing:
 *  - the providers listed are those of the manifests loaded (SchemaSource
 *    0, the manifest's), each GUID once: the machine keeps no manifests or
 *    MOF classes of its own, and providers that only registered
 *    (EnumerateTraceGuidsEx) have no schema to decode with, which is what
 *    Microsoft says the list is of;
 *  - a provider's fields are its own, then those of winmeta.xml its events
 *    use (win:Informational...), each with its name and its message as
 *    description; an opcode defined in a task has the Value TdhQuery-
 *    ProviderFieldInformation takes for it (the task in bits 0-15, the
 *    opcode in bits 16-23), one defined for the provider its value.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

/* @want bytes built at @b: copied out, or the size asked for. */
static ULONG hand_out(void *b, ULONG want, void *buf, ULONG *size)
{
	ULONG err = ERROR_SUCCESS;

	if (!buf || *size < want)
		err = ERROR_INSUFFICIENT_BUFFER;
	else
		memcpy(buf, b, want);
	*size = want;
	free(b);
	return err;
}

/* ---- providers ---- */

static int seen_before(uint32_t i, const GUID *g)
{
	return nttrace_man_provider(g) != nttrace_man_provider_at(i);
}

static ULONG providers(DECODING_SOURCE source, void **out, ULONG *out_size)
{
	const struct nttrace_man_provider *p;
	PROVIDER_ENUMERATION_INFO *pe;
	size_t size, at;
	uint32_t i, n = 0;

	for (i = 0; source == DecodingSourceXMLFile && (p = nttrace_man_provider_at(i)); i++)
		if (!seen_before(i, &p->guid))
			n++;
	size = offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) +
	       (size_t)n * sizeof(TRACE_PROVIDER_INFO);
	if (size < sizeof(*pe))
		size = sizeof(*pe);
	at = size;
	for (i = 0; source == DecodingSourceXMLFile && (p = nttrace_man_provider_at(i)); i++)
		if (!seen_before(i, &p->guid))
			size += nttrace_man_wsize(p->name);
	if (size > 0xFFFFFFFF)
		return ERROR_INVALID_DATA;
	pe = calloc(1, size);
	if (!pe)
		return ERROR_NOT_ENOUGH_MEMORY;
	pe->NumberOfProviders = n;
	for (i = 0, n = 0; source == DecodingSourceXMLFile && (p = nttrace_man_provider_at(i));
	     i++) {
		TRACE_PROVIDER_INFO *t = &pe->TraceProviderInfoArray[n];

		if (seen_before(i, &p->guid))
			continue;
		t->ProviderGuid = p->guid;
		t->SchemaSource = 0;
		t->ProviderNameOffset = nttrace_man_wput((uint8_t *)pe, &at, p->name);
		n++;
	}
	*out = pe;
	*out_size = size;
	return ERROR_SUCCESS;
}

TDHSTATUS WINAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer, ULONG *pBufferSize)
{
	void *b;
	ULONG size, err;

	if (!pBufferSize)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_man_lock();
	err = providers(DecodingSourceXMLFile, &b, &size);
	nttrace_man_unlock();
	return done(err ? err : hand_out(b, size, pBuffer, pBufferSize));
}

TDHSTATUS WINAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
							PROVIDER_ENUMERATION_INFO *buffer,
							ULONG bufferSize, ULONG *bufferRequired)
{
	void *b;
	ULONG size = 0, err;

	if (!bufferRequired || (unsigned int)filter >= DecodingSourceMax)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_man_lock();
	err = providers(filter, &b, &size);
	nttrace_man_unlock();
	if (err)
		return done(err);
	err = hand_out(b, size, buffer, &bufferSize);
	*bufferRequired = size;
	return done(err);
}

/* ---- fields ---- */

static const struct nttrace_man_list *own(const struct nttrace_man_provider *p,
					  EVENT_FIELD_TYPE type, enum nttrace_man_kind *kind)
{
	static const enum nttrace_man_kind kinds[] = {
		[EventKeywordInformation] = MAN_KEYWORD, [EventLevelInformation] = MAN_LEVEL,
		[EventChannelInformation] = MAN_CHANNEL, [EventTaskInformation] = MAN_TASK,
		[EventOpcodeInformation] = MAN_OPCODE,
	};

	*kind = kinds[type];
	switch (type) {
	case EventKeywordInformation:
		return &p->keywords;
	case EventLevelInformation:
		return &p->levels;
	case EventChannelInformation:
		return &p->channels;
	case EventTaskInformation:
		return &p->tasks;
	default:
		return &p->opcodes;
	}
}

/* Whether an event of @p uses winmeta.xml's item @w. */
static int used(const struct nttrace_man_provider *p, enum nttrace_man_kind kind,
		const struct nttrace_man_item *w)
{
	uint32_t i;

	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = &p->events[i];

		if ((kind == MAN_LEVEL && e->level_i == w) || (kind == MAN_TASK && e->task_i == w) ||
		    (kind == MAN_OPCODE && e->opcode_i == w) ||
		    (kind == MAN_CHANNEL && e->channel_i == w) ||
		    (kind == MAN_KEYWORD && (e->keywords & w->value) == w->value))
			return 1;
	}
	return 0;
}

/* The @i-th field of @p of @type (its own, then winmeta.xml's it uses). */
static const struct nttrace_man_item *field(const struct nttrace_man_provider *p,
					    EVENT_FIELD_TYPE type, uint32_t i)
{
	enum nttrace_man_kind kind;
	const struct nttrace_man_list *l = own(p, type, &kind);
	const struct nttrace_man_item *w;
	uint32_t j;

	if (i < l->n)
		return &l->v[i];
	i -= l->n;
	for (j = 0; (w = nttrace_man_winmeta_at(kind, j)); j++)
		if (used(p, kind, w) && !i--)
			return w;
	return NULL;
}

static uint64_t field_value(const struct nttrace_man_item *it, EVENT_FIELD_TYPE type)
{
	if (type == EventOpcodeInformation && it->in_task)
		return it->value << 16 | it->task;
	return it->value;
}

/* Whether @it answers TdhQueryProviderFieldInformation's @v. */
static int matches(const struct nttrace_man_item *it, EVENT_FIELD_TYPE type, uint64_t v)
{
	if (type == EventKeywordInformation)
		return it->value && (v & it->value) == it->value;
	if (type == EventOpcodeInformation && !it->in_task)
		return it->value == (v >> 16 & 0xFF);
	return field_value(it, type) == v;
}

static ULONG fields(const GUID *g, EVENT_FIELD_TYPE type, int query, uint64_t v, void **out,
		    ULONG *out_size)
{
	const struct nttrace_man_provider *p = nttrace_man_provider(g);
	const struct nttrace_man_item *it;
	PROVIDER_FIELD_INFOARRAY *fa;
	size_t size, at;
	uint32_t i, n = 0;

	if (!p)
		return ERROR_NOT_FOUND;
	size = 0;
	for (i = 0; (it = field(p, type, i)); i++) {
		if (query && !matches(it, type, v))
			continue;
		n++;
		size += nttrace_man_wsize(it->name) + nttrace_man_wsize(it->message);
	}
	if (!n)
		return ERROR_NOT_FOUND;
	at = offsetof(PROVIDER_FIELD_INFOARRAY, FieldInfoArray) +
	     (size_t)n * sizeof(PROVIDER_FIELD_INFO);
	size += at;
	if (size > 0xFFFFFFFF)
		return ERROR_INVALID_DATA;
	fa = calloc(1, size);
	if (!fa)
		return ERROR_NOT_ENOUGH_MEMORY;
	fa->NumberOfElements = n;
	fa->FieldType = type;
	for (i = 0, n = 0; (it = field(p, type, i)); i++) {
		PROVIDER_FIELD_INFO *f = &fa->FieldInfoArray[n];

		if (query && !matches(it, type, v))
			continue;
		f->NameOffset = nttrace_man_wput((uint8_t *)fa, &at, it->name);
		f->DescriptionOffset = nttrace_man_wput((uint8_t *)fa, &at, it->message);
		f->Value = field_value(it, type);
		n++;
	}
	*out = fa;
	*out_size = size;
	return ERROR_SUCCESS;
}

static ULONG field_info(LPGUID pGuid, EVENT_FIELD_TYPE type, int query, ULONGLONG v,
			PPROVIDER_FIELD_INFOARRAY pBuffer, ULONG *pBufferSize)
{
	void *b;
	ULONG size, err;

	if (!pGuid || !pBufferSize)
		return ERROR_INVALID_PARAMETER;
	if ((unsigned int)type >= EventInformationMax)
		return ERROR_NOT_SUPPORTED;
	nttrace_man_lock();
	err = fields(pGuid, type, query, v, &b, &size);
	nttrace_man_unlock();
	return err ? err : hand_out(b, size, pBuffer, pBufferSize);
}

TDHSTATUS WINAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid,
						      EVENT_FIELD_TYPE EventFieldType,
						      PPROVIDER_FIELD_INFOARRAY pBuffer,
						      ULONG *pBufferSize)
{
	return done(field_info(pGuid, EventFieldType, 0, 0, pBuffer, pBufferSize));
}

TDHSTATUS WINAPI TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
						  EVENT_FIELD_TYPE EventFieldType,
						  PPROVIDER_FIELD_INFOARRAY pBuffer,
						  ULONG *pBufferSize)
{
	return done(field_info(pGuid, EventFieldType, 1, EventFieldValue, pBuffer,
			       pBufferSize));
}

/* ---- events ---- */

static EVENT_DESCRIPTOR descriptor(const struct nttrace_man_event *e)
{
	EVENT_DESCRIPTOR d = { 0 };

	d.Id = e->id;
	d.Version = e->version;
	d.Channel = e->channel;
	d.Level = e->level;
	d.Opcode = e->opcode;
	d.Task = e->task;
	d.Keyword = e->keywords;
	return d;
}

TDHSTATUS WINAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid,
						    PPROVIDER_EVENT_INFO Buffer,
						    ULONG *BufferSize)
{
	const struct nttrace_man_provider *p;
	PROVIDER_EVENT_INFO *pe = NULL;
	ULONG err = ERROR_NOT_FOUND;
	size_t size = 0;
	uint32_t i;

	if (!ProviderGuid || !BufferSize)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_man_lock();
	p = nttrace_man_provider(ProviderGuid);
	if (p) {
		size = offsetof(PROVIDER_EVENT_INFO, EventDescriptorsArray) +
		       (size_t)p->nevents * sizeof(EVENT_DESCRIPTOR);
		if (size < sizeof(*pe))
			size = sizeof(*pe);
		pe = calloc(1, size);
		err = pe ? ERROR_SUCCESS : ERROR_NOT_ENOUGH_MEMORY;
	}
	for (i = 0; pe && i < p->nevents; i++)
		pe->EventDescriptorsArray[i] = descriptor(&p->events[i]);
	if (pe)
		pe->NumberOfEvents = p->nevents;
	nttrace_man_unlock();
	return done(err ? err : hand_out(pe, (ULONG)size, Buffer, BufferSize));
}

TDHSTATUS WINAPI TdhGetManifestEventInformation(LPGUID ProviderGuid,
						PEVENT_DESCRIPTOR EventDescriptor,
						PTRACE_EVENT_INFO Buffer, ULONG *BufferSize)
{
	const struct nttrace_man_provider *p;
	const struct nttrace_man_event *ev = NULL;
	TRACE_EVENT_INFO *tei = NULL;
	EVENT_DESCRIPTOR d;
	ULONG err = ERROR_NOT_FOUND, size = 0;
	uint32_t i;

	if (!ProviderGuid || !EventDescriptor || !BufferSize)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_man_lock();
	for (i = 0; !ev && (p = nttrace_man_provider_at(i)); i++)
		if (!memcmp(&p->guid, ProviderGuid, sizeof(GUID)))
			ev = nttrace_man_event(p, EventDescriptor->Id, EventDescriptor->Version);
	if (ev) {
		/* The manifest's descriptor; the pointer size is this process's. */
		d = descriptor(ev);
		err = nttrace_man_event_info(p, ev, &d, sizeof(void *), &tei, &size);
	}
	nttrace_man_unlock();
	return done(err ? err : hand_out(tei, size, Buffer, BufferSize));
}
