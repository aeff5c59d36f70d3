/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A provider of a manifest as mc.exe lays it out in its binary outputs
 * (mc_prov.c): its levels, tasks, opcodes, keywords and channels with the
 * winmeta.xml ones its events name added, each in the order the
 * WEVT_TEMPLATE lists them, with the message ID mc.exe gives it; its
 * events in the order of their values, each naming its items by their
 * index in those lists. The message table (mc_msg.c) and the
 * WEVT_TEMPLATE (mc_wevt.c) are both written from it, so that the IDs
 * they carry are the same.
 */
#ifndef NTTRACE_MC_PROV_H
#define NTTRACE_MC_PROV_H

#include "mc.h"

/* The message ID of what has no message. */
#define MC_NO_MESSAGE	0xFFFFFFFFU

struct mc_item {
	const char *name;	/* as the WEVT_TEMPLATE names it (win:Error) */
	const char *text;	/* its message; NULL: none */
	const char *sid;	/* the string ID of the message (sidlen bytes); NULL: none */
	const GUID *guid;	/* a task's eventGUID; NULL: none */
	uint64_t value;		/* a keyword's mask */
	uint32_t msgid;		/* MC_NO_MESSAGE: none */
	uint32_t off;		/* its entry's offset in the WEVT_TEMPLATE (mc_wevt.c) */
	uint32_t sidlen;
	uint16_t task;		/* an opcode's task value, 0 for none */
	uint8_t imported;	/* an importChannel */
	uint8_t winmeta;	/* winmeta.xml's */
	uint8_t sid_owned;	/* sid is allocated, freed with the list */
};

struct mc_list {
	struct mc_item *v;
	uint32_t n;
};

struct mc_ev {
	const struct nttrace_man_event *e;
	int32_t level, task, opcode, channel;	/* indices in the lists; -1: none */
	uint32_t kw, nkw;	/* its keywords: kws[kw .. kw + nkw), by mask */
	uint64_t keywords;	/* the descriptor's: with the channel's bit */
	uint32_t msgid;
};

struct mc_map_item {
	uint32_t value, msgid, sidlen;
	const char *text, *sid;
};

struct mc_map {
	const struct nttrace_man_map *m;
	struct mc_map_item *v;	/* by value */
	uint32_t off;		/* its VMAP/BMAP's offset (mc_wevt.c) */
};

struct mc_prov {
	const struct nttrace_man_provider *p;
	uint32_t index;		/* in the manifest */
	uint32_t msgid, sidlen;
	const char *text, *sid;
	struct mc_list levels, tasks, opcodes, keywords, channels;
	struct mc_ev *ev;	/* by value, then in the manifest's order */
	uint32_t *kws;		/* indices in keywords */
	struct mc_map *maps;	/* in the manifest's order */
};

struct mc_string_key;

/*
 * What the providers of one manifest share: the counters mc.exe numbers
 * channels, the providers' messages and map entries by (one for the whole
 * manifest, not one per provider), and the string table by ID.
 */
struct mc_ctx {
	const struct nttrace_man *m;
	uint32_t generated, value_map, bit_map;
	struct mc_string_key *strings;	/* built when first needed */
	uint32_t nstrings;
};

/* A context for @m's providers, taken in their order; freed with mc_ctx_free(). */
void mc_ctx_init(struct mc_ctx *c, const struct nttrace_man *m);
void mc_ctx_free(struct mc_ctx *c);

/*
 * The provider @i of c->m, its message IDs numbered on from @c's
 * counters: ERROR_NOT_ENOUGH_MEMORY, or ERROR_INVALID_DATA when it needs
 * IDs mc.exe cannot give (from the 17th provider on, none has a number of
 * its own) or names what the manifest does not define. Freed with
 * mc_prov_free().
 */
ULONG mc_prov_make(struct mc_ctx *c, uint32_t i, struct mc_prov *v);
void mc_prov_free(struct mc_prov *v);

/* UTF-16 units of UTF-8 @s. */
uint32_t mc_utf16_units(const char *s);
/* @s as UTF-16LE appended to @o (no terminator); its units. */
uint32_t mc_put_utf16(struct mc_out *o, const char *s);

#endif /* NTTRACE_MC_PROV_H */
