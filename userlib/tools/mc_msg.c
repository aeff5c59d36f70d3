// SPDX-License-Identifier: GPL-2.0
/*
 * The messages of a manifest and NAME_MSG00001.bin, the message table
 * mc.exe writes for them (a Windows MESSAGETABLE resource, RT_MESSAGETABLE,
 * as winnt.h's MESSAGE_RESOURCE_DATA lays it out):
 *   u32 NumberOfBlocks
 *   NumberOfBlocks x { u32 LowId, u32 HighId, u32 OffsetToEntries }
 *   the entries of each block in turn, one per ID from LowId to HighId:
 *     u16 Length (the entry's bytes, these 4 with them), u16 Flags (1:
 *     the text is UTF-16), the text in UTF-16LE followed by "\r\n" and a
 *     NUL, zeros up to a multiple of 4 bytes.
 * A block holds consecutive IDs: the messages, sorted by ID, start a new
 * one wherever an ID is not the one before plus 1.
 *
 * How the IDs are numbered: mc_prov.c. The name a header gives a message
 * is "MSG_" and its string ID with each character that cannot be in a C
 * name made '_' (the sample's
 * Microsoft-ServiceBus-MessagingStore-BlockStorage.keyword._loginfo.message
 * is MSG_Microsoft_ServiceBus_MessagingStore_BlockStorage_keyword__loginfo_message,
 * winmeta.xml's level.Error MSG_level_Error).
 */
#include <stdlib.h>
#include <string.h>

#include "mc_prov.h"

struct collect {
	struct mc_msg *v;
	size_t n, cap;
	int oom;
};

static char *symbol(const char *sid, uint32_t len)
{
	char *s;
	uint32_t i;

	if (!sid)
		return NULL;
	s = malloc((size_t)len + 1);
	if (!s)
		return NULL;
	for (i = 0; i < len; i++) {
		char c = sid[i];

		s[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ?
		       c : '_';
	}
	s[len] = 0;
	return s;
}

static void add(struct collect *c, uint32_t id, const char *text, const char *sid,
		uint32_t sidlen)
{
	struct mc_msg *m;

	if (!text || id == MC_NO_MESSAGE || c->oom)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct mc_msg *v = realloc(c->v, cap * sizeof(*v));

		if (!v) {
			c->oom = 1;
			return;
		}
		c->v = v;
		c->cap = cap;
	}
	m = &c->v[c->n];
	m->id = id;
	m->text = text;
	m->symbol = symbol(sid, sidlen);
	if (sid && !m->symbol) {
		c->oom = 1;
		return;
	}
	c->n++;
}

static void add_list(struct collect *c, const struct mc_list *l)
{
	uint32_t i;

	for (i = 0; i < l->n; i++)
		add(c, l->v[i].msgid, l->v[i].text, l->v[i].sid, l->v[i].sidlen);
}

static void add_prov(struct collect *c, const struct mc_prov *v)
{
	const struct nttrace_man_provider *p = v->p;
	uint32_t i, k;

	add(c, v->msgid, v->text, v->sid, v->sidlen);
	add_list(c, &v->channels);
	add_list(c, &v->levels);
	add_list(c, &v->tasks);
	add_list(c, &v->opcodes);
	add_list(c, &v->keywords);
	for (i = 0; i < p->nevents; i++) {
		const struct nttrace_man_event *e = v->ev[i].e;
		uint32_t len = 0;
		const char *sid = NULL;
		static const char ref[] = "$(string.";

		if (e->message_s && !strncmp(e->message_s, ref, sizeof(ref) - 1) &&
		    strlen(e->message_s) > sizeof(ref)) {
			sid = e->message_s + sizeof(ref) - 1;
			len = (uint32_t)strlen(sid) - 1;
		}
		add(c, v->ev[i].msgid, e->message, sid, len);
	}
	for (i = 0; i < p->nmaps; i++)
		for (k = 0; k < p->maps[i].n; k++)
			add(c, v->maps[i].v[k].msgid, v->maps[i].v[k].text, v->maps[i].v[k].sid,
			    v->maps[i].v[k].sidlen);
}

static int msg_cmp(const void *a, const void *b)
{
	const struct mc_msg *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

void mc_msgs_free(struct mc_msgs *msgs)
{
	size_t i;

	for (i = 0; i < msgs->n; i++)
		free((char *)msgs->v[i].symbol);
	free(msgs->v);
	msgs->v = NULL;
	msgs->n = 0;
}

ULONG mc_messages(const struct nttrace_man *m, struct mc_msgs *out)
{
	struct collect c = { 0 };
	struct mc_ctx ctx;
	ULONG err = ERROR_SUCCESS;
	uint32_t i;
	size_t k;

	out->v = NULL;
	out->n = 0;
	mc_ctx_init(&ctx, m);
	for (i = 0; i < m->nprovs && !err && !c.oom; i++) {
		struct mc_prov v;

		err = mc_prov_make(&ctx, i, &v);
		if (err)
			break;
		add_prov(&c, &v);
		mc_prov_free(&v);
	}
	mc_ctx_free(&ctx);
	if (!err && c.oom)
		err = ERROR_NOT_ENOUGH_MEMORY;
	if (!err && c.n) {
		qsort(c.v, c.n, sizeof(*c.v), msg_cmp);
		/* Two messages of one ID: mc.exe could not tell them apart either. */
		for (k = 1; k < c.n; k++)
			if (c.v[k].id == c.v[k - 1].id)
				err = ERROR_INVALID_DATA;
	}
	out->v = c.v;
	out->n = c.n;
	if (err)
		mc_msgs_free(out);
	return err;
}

/* The bytes of the entry of @text: its UTF-16 units, "\r\n", a NUL; a multiple of 4. */
static size_t entry_size(const char *text)
{
	size_t n = 4 + 2 * ((size_t)mc_utf16_units(text) + 3);

	return (n + 3) & ~(size_t)3;
}

static void put_u32(struct mc_out *o, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	mc_out_bytes(o, b, 4);
}

ULONG mc_write_msg_table(const struct mc_msgs *msgs, struct mc_out *o)
{
	static const uint8_t tail[8] = { '\r', 0, '\n', 0 };
	size_t start = o->len, i, k, nblocks = 0, at;

	for (i = 0; i < msgs->n; i++) {
		if (i && msgs->v[i].id <= msgs->v[i - 1].id)
			return ERROR_INVALID_PARAMETER;
		/* Length is 16 bits. */
		if (entry_size(msgs->v[i].text) > 0xFFFF)
			return ERROR_INVALID_DATA;
		if (!i || msgs->v[i].id != msgs->v[i - 1].id + 1)
			nblocks++;
	}
	if (nblocks > (UINT32_MAX - 4) / 12)
		return ERROR_INVALID_DATA;
	put_u32(o, (uint32_t)nblocks);
	at = 4 + 12 * nblocks;
	for (i = 0; i < msgs->n; i = k) {
		for (k = i + 1; k < msgs->n && msgs->v[k].id == msgs->v[k - 1].id + 1; k++)
			;
		if (at > UINT32_MAX)
			goto too_big;
		put_u32(o, msgs->v[i].id);
		put_u32(o, msgs->v[k - 1].id);
		put_u32(o, (uint32_t)at);
		for (; i < k; i++)
			at += entry_size(msgs->v[i].text);
	}
	for (i = 0; i < msgs->n; i++) {
		size_t n = entry_size(msgs->v[i].text);
		uint32_t units;
		uint8_t h[4] = { n, n >> 8, 1, 0 };

		mc_out_bytes(o, h, 4);
		units = mc_put_utf16(o, msgs->v[i].text);
		mc_out_bytes(o, tail, n - 4 - 2 * (size_t)units);
	}
	if (o->oom) {
		o->len = start;
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	return ERROR_SUCCESS;
too_big:
	o->len = start;
	return ERROR_INVALID_DATA;
}
