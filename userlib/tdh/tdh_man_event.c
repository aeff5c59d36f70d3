// SPDX-License-Identifier: LGPL-2.1
/*
 * A manifest event's description as TRACE_EVENT_INFO (TdhGetEventInformation
 * with DecodingSourceXMLFile, TdhGetManifestEventInformation): the event is
 * found by its provider's GUID, its Id and its Version, as Windows matches
 * an EventWrite record to its manifest (tdh.h's TRACE_EVENT_INFO and
 * EVENT_PROPERTY_INFO as Microsoft documents them).
 *
 * The layout: the fixed part, the properties (the template's top-level
 * fields in order, then each structure's members, as tdh_tlg.c lays out
 * TraceLogging's), then the strings. Each field is a property; a count or
 * length the manifest gives as a number is PropertyParamFixedCount or
 * PropertyParamFixedLength with that number, one that names a field is
 * PropertyParamCount or PropertyParamLength with that field's property
 * index; a fixed-size type's length is its size. A field with a map has
 * its map's name (MapNameOffset) for TdhGetEventMapInformation.
 *
 * Names: a level, task, opcode or channel gives its message when the
 * manifest has one, else its name (winmeta.xml's own have messages:
 * tdh_man_types.c); KeywordsNameOffset lists every keyword whose bits the
 * event's mask holds, each as its message or name, the list ending in an
 * empty string; EventMessageOffset is the event's message as the manifest
 * has it (%1 and the like left for the consumer); EventNameOffset is the
 * event's name attribute, when it has one. EventGuid is zero (Microsoft:
 * GUID_NULL for manifest events).
 *
 * Each step is linear in the template's fields and the provider's
 * keywords: a structure's members are counted in one pass over the
 * fields, the keywords an event has listed in one pass over them.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

const struct nttrace_man_event *nttrace_man_event(const struct nttrace_man_provider *p,
						  uint16_t id, uint8_t version)
{
	uint32_t key = (uint32_t)id << 8 | version, lo = 0, hi = p->by_id ? p->nevents : 0;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct nttrace_man_event *e = &p->events[p->by_id[mid]];

		nttrace_man_steps++;
		if (((uint32_t)e->id << 8 | e->version) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < (p->by_id ? p->nevents : 0)) {
		const struct nttrace_man_event *e = &p->events[p->by_id[lo]];

		if (e->id == id && e->version == version)
			return e;
	}
	return NULL;
}

static const char *shown(const struct nttrace_man_item *it)
{
	return !it ? NULL : it->message ? it->message : it->name;
}

/*
 * The keywords @ev has, the provider's, then winmeta.xml's, into @kw
 * (room for the provider's and 16 more); how many.
 */
static uint32_t keywords(const struct nttrace_man_provider *p,
			 const struct nttrace_man_event *ev, const struct nttrace_man_item **kw)
{
	const struct nttrace_man_item *k;
	uint32_t j, n = 0;

	if (!ev->keywords)
		return 0;
	for (j = 0; j < p->keywords.n + 16; j++) {
		nttrace_man_steps++;
		k = j < p->keywords.n ? &p->keywords.v[j] :
		    nttrace_man_winmeta_at(MAN_KEYWORD, j - p->keywords.n);
		if (!k)
			break;
		if (k->value && (ev->keywords & k->value) == k->value)
			kw[n++] = k;
	}
	return n;
}

/*
 * The template's data in property order: top level, then each top-level
 * structure's members (which follow it: tdh_man_parse.c allows no deeper
 * structure), in one pass; @members[i], a structure's count of them.
 */
static uint32_t order(const struct nttrace_man_template *t, uint32_t *ord, uint32_t *pidx,
		      uint32_t *members, uint32_t *top)
{
	uint32_t n = 0, i, at;

	for (i = 0; i < t->n; i++) {
		int32_t parent = t->v[i].parent;

		nttrace_man_steps++;
		members[i] = 0;
		if (parent < 0)
			ord[n++] = i;
		else if ((uint32_t)parent < i && t->v[parent].parent < 0 && t->v[parent].is_struct)
			members[parent]++;
	}
	*top = n;
	/* Each structure's members from where the ones before it end. */
	for (i = 0, at = n; i < *top; i++) {
		pidx[ord[i]] = at;
		at += members[ord[i]];
	}
	for (i = 0; i < t->n; i++) {
		int32_t parent = t->v[i].parent;

		nttrace_man_steps++;
		if (parent >= 0 && (uint32_t)parent < i && t->v[parent].parent < 0 &&
		    t->v[parent].is_struct)
			ord[pidx[parent]++] = i;
	}
	for (i = 0; i < at; i++)
		pidx[ord[i]] = i;
	return at;
}

static void property(const struct nttrace_man_template *t, const uint32_t *pidx,
		     const uint32_t *members, uint32_t d, uint32_t psz, EVENT_PROPERTY_INFO *e)
{
	const struct nttrace_man_data *x = &t->v[d];
	uint32_t n = members[d];

	e->count = 1;
	if (x->has_count && x->count_ref) {
		e->Flags |= PropertyParamCount;
		e->countPropertyIndex = (USHORT)pidx[x->count];
	} else if (x->has_count) {
		e->Flags |= PropertyParamFixedCount;
		e->count = (USHORT)x->count;
	}
	if (x->is_struct) {
		e->Flags |= PropertyStruct;
		/* Its members follow it (pidx: d + 1 is the first, if any). */
		if (n)
			e->structType.StructStartIndex = (USHORT)pidx[d + 1];
		e->structType.NumOfStructMembers = (USHORT)n;
		return;
	}
	e->nonStructType.InType = x->in;
	e->nonStructType.OutType = x->out;
	if (x->has_length && x->length_ref) {
		e->Flags |= PropertyParamLength;
		e->lengthPropertyIndex = (USHORT)pidx[x->length];
	} else if (x->has_length) {
		e->Flags |= PropertyParamFixedLength;
		e->length = (USHORT)x->length;
	} else {
		e->length = nttrace_tdh_fixed_size(x->in, psz);
	}
}

ULONG nttrace_man_event_info(const struct nttrace_man_provider *p,
			     const struct nttrace_man_event *ev, const EVENT_DESCRIPTOR *desc,
			     uint32_t psz, TRACE_EVENT_INFO **out, ULONG *out_size)
{
	const struct nttrace_man_template *t = ev->tmpl;
	uint32_t n = t ? t->n : 0, np = 0, top = 0, nkw, i;
	uint32_t *ord = malloc((n + 1) * sizeof(*ord)), *pidx = malloc((n + 1) * sizeof(*pidx));
	uint32_t *members = malloc((n + 1) * sizeof(*members));
	const struct nttrace_man_item **kw = malloc((p->keywords.n + 16) * sizeof(*kw));
	TRACE_EVENT_INFO *tei = NULL;
	ULONG err = ERROR_NOT_ENOUGH_MEMORY;
	size_t size, at;
	uint8_t *b;

	if (!ord || !pidx || !members || !kw)
		goto out;
	if (t)
		np = order(t, ord, pidx, members, &top);
	nkw = keywords(p, ev, kw);
	size = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
	       (size_t)np * sizeof(EVENT_PROPERTY_INFO);
	if (size < sizeof(TRACE_EVENT_INFO))
		size = sizeof(TRACE_EVENT_INFO);
	at = size;
	size += nttrace_man_wsize(p->name) + nttrace_man_wsize(shown(ev->level_i)) +
		nttrace_man_wsize(shown(ev->channel_i)) + nttrace_man_wsize(shown(ev->task_i)) +
		nttrace_man_wsize(shown(ev->opcode_i)) + nttrace_man_wsize(ev->message) +
		nttrace_man_wsize(p->message) + nttrace_man_wsize(ev->name);
	for (i = 0; i < nkw; i++)
		size += nttrace_man_wsize(shown(kw[i]));
	if (nkw)
		size += 2;	/* the empty string that ends the list */
	for (i = 0; i < np; i++) {
		size += nttrace_man_wsize(t->v[ord[i]].name);
		if (t->v[ord[i]].map)
			size += nttrace_man_wsize(t->v[ord[i]].map->name);
	}
	err = ERROR_INVALID_DATA;
	if (size > 0xFFFFFFFF)
		goto out;
	err = ERROR_NOT_ENOUGH_MEMORY;
	tei = calloc(1, size);
	if (!tei)
		goto out;
	b = (uint8_t *)tei;
	tei->ProviderGuid = p->guid;
	tei->EventDescriptor = *desc;
	tei->DecodingSource = DecodingSourceXMLFile;
	tei->PropertyCount = np;
	tei->TopLevelPropertyCount = top;
	tei->ProviderNameOffset = nttrace_man_wput(b, &at, p->name);
	tei->LevelNameOffset = nttrace_man_wput(b, &at, shown(ev->level_i));
	tei->ChannelNameOffset = nttrace_man_wput(b, &at, shown(ev->channel_i));
	tei->TaskNameOffset = nttrace_man_wput(b, &at, shown(ev->task_i));
	tei->OpcodeNameOffset = nttrace_man_wput(b, &at, shown(ev->opcode_i));
	tei->EventMessageOffset = nttrace_man_wput(b, &at, ev->message);
	tei->ProviderMessageOffset = nttrace_man_wput(b, &at, p->message);
	tei->EventNameOffset = nttrace_man_wput(b, &at, ev->name);
	for (i = 0; i < nkw; i++) {
		ULONG off = nttrace_man_wput(b, &at, shown(kw[i]));

		if (!i)
			tei->KeywordsNameOffset = off;
	}
	if (nkw)
		at += 2;	/* calloc's zeros */
	for (i = 0; i < np; i++) {
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];

		e->NameOffset = nttrace_man_wput(b, &at, t->v[ord[i]].name);
		property(t, pidx, members, ord[i], psz, e);
		if (t->v[ord[i]].map)
			e->nonStructType.MapNameOffset = nttrace_man_wput(b, &at,
									 t->v[ord[i]].map->name);
	}
	*out = tei;
	*out_size = size;
	err = ERROR_SUCCESS;
out:
	free(ord);
	free(pidx);
	free(members);
	free(kw);
	return err;
}

ULONG nttrace_tdh_man_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			   ULONG *size)
{
	const EVENT_DESCRIPTOR *d = &er->EventHeader.EventDescriptor;
	const struct nttrace_man_provider *p;
	const struct nttrace_man_event *ev = NULL;
	ULONG err = ERROR_NOT_FOUND;
	uint32_t i;

	nttrace_man_lock();
	for (i = 0; (p = nttrace_man_provider_at(i)); i++) {
		if (memcmp(&p->guid, &er->EventHeader.ProviderId, sizeof(GUID)))
			continue;
		ev = nttrace_man_event(p, d->Id, d->Version);
		if (ev)
			break;
	}
	if (ev)
		err = nttrace_man_event_info(p, ev, d, psz, tei, size);
	nttrace_man_unlock();
	return err;
}
