/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The payload writer of common/sysrec.c and common/sysconfig.c, inline:
 * the fields of a payload, each checked against the room left (so no sum
 * can overflow), written at their offsets, or only counted when there is
 * no buffer. Not for the glue: it calls the encoders of sysrec.h.
 */
#ifndef NTTRACE_COMMON_SYSREC_W_H
#define NTTRACE_COMMON_SYSREC_W_H

#include "put_le.h"
#include "sysrec.h"
#include "utf16.h"

/*
 * The per-field steps and the two passes, always inline in the kernel.
 * A payload's put function must be __always_inline too for the passes to
 * fold (sysrec.c marks those of the fixed-size payloads written at high
 * rates: CSwitch on every context switch, ReadyThread, system calls,
 * samples, faults, disk I/O): its size pass then compiles to a constant
 * and its write pass to one store a field. Left to itself GCC made the
 * put function an out-of-line call from each pass, counting and writing
 * byte by byte (a CSwitch's 24 bytes cost a context switch about 500 ns
 * under QEMU TCG; 30 after).
 */
#ifdef __KERNEL__
#include <linux/compiler.h>
#elif !defined(__always_inline)
/* The library: plain inline, the compiler's choice. */
#define __always_inline	inline
#endif

/* The most payload a record holds, under the largest header. */
#define SR_PAYLOAD_MAX		(NTR_SR_RECORD_MAX - 0x20)

struct sr_w {
	__u8 *p;		/* NULL: counting */
	__u32 at, room;		/* at <= room, always */
	bool ptr32, bad;
};

/**
 * w_init() - starts a payload
 * @w: the writer
 * @buf: where the payload goes, or NULL to count only
 * @ptr32: the trace is a 32-bit kernel's
 */
static __always_inline void w_init(struct sr_w *w, void *buf, bool ptr32)
{
	w->p = buf;
	w->at = 0;
	w->room = SR_PAYLOAD_MAX;
	w->ptr32 = ptr32;
	w->bad = false;
}

/**
 * w_room() - checks that @n more bytes fit
 * @w: the writer
 * @n: the bytes
 *
 * Return: whether they fit; once they do not, the payload cannot be
 * written and every later call says so too.
 */
static __always_inline bool w_room(struct sr_w *w, __u32 n)
{
	if (w->bad || n > w->room - w->at)
		w->bad = true;
	return !w->bad;
}

/**
 * w_int() - a little-endian integer field
 * @w: the writer
 * @v: the value
 * @n: its bytes, at most 8
 */
static __always_inline void w_int(struct sr_w *w, __u64 v, unsigned int n)
{
	if (!w_room(w, n))
		return;
	if (w->p)
		ntr_put_le(w->p + w->at, v, n);
	w->at += n;
}

/**
 * w_ptr() - a pointer field: 4 bytes in a 32-bit kernel's trace, else 8
 * @w: the writer
 * @v: the value
 */
static __always_inline void w_ptr(struct sr_w *w, __u64 v)
{
	w_int(w, v, w->ptr32 ? 4 : 8);
}

/**
 * w_bytes() - bytes as they are
 * @w: the writer
 * @src: the bytes
 * @n: their number
 */
static inline void w_bytes(struct sr_w *w, const void *src, __u32 n)
{
	const __u8 *s = src;
	__u32 i;

	if (!w_room(w, n))
		return;
	if (w->p)
		for (i = 0; i < n; i++)
			w->p[w->at + i] = s[i];
	w->at += n;
}

/**
 * w_utf16() - a UTF-16LE string and its NUL
 * @w: the writer
 * @s: the string
 * @max: the most units before the NUL
 */
static inline void w_utf16(struct sr_w *w, const struct ntr_sr_str *s, __u32 max)
{
	__u32 units = s->s ? ntr_utf8_to_utf16(NULL, max, s->s, s->len) : 0;

	/* units <= max <= NTR_SR_CMDLINE_MAX: 2 * units cannot overflow. */
	if (!w_room(w, 2 * units + 2))
		return;
	if (w->p && units)
		ntr_utf8_to_utf16(w->p + w->at, units, s->s, s->len);
	w->at += 2 * units;
	w_int(w, 0, 2);
}

/**
 * w_ansi() - an ANSI string and its NUL
 * @w: the writer
 * @s: the string
 * @max: the most bytes before the NUL
 *
 * ASCII goes as it is, each other character (and each byte of invalid
 * UTF-8) as '?', the default character Windows' own Unicode-to-ANSI
 * conversion puts for what the code page lacks; nttrace knows no code page
 * of the reader's.
 */
static inline void w_ansi(struct sr_w *w, const struct ntr_sr_str *s, __u32 max)
{
	const __u8 *p = (const __u8 *)s->s;
	__u32 n = p ? s->len : 0, cp, len, i;

	for (i = 0; i < max && n && *p; i++) {
		len = ntr_utf8_next(p, n, &cp);
		w_int(w, cp < 0x80 ? cp : '?', 1);
		p += len;
		n -= len;
	}
	w_int(w, 0, 1);
}

/**
 * w_wchars() - a char16 array of fixed size (the Max qualifier)
 * @w: the writer
 * @s: the string, at most @count - 1 units of it so that a NUL follows
 * @count: the array's units; zeros fill it to the end
 */
static inline void w_wchars(struct sr_w *w, const struct ntr_sr_str *s, __u32 count)
{
	__u32 units = s->s ? ntr_utf8_to_utf16(NULL, count - 1, s->s, s->len) : 0;

	/* count <= 256: 2 * count cannot overflow. */
	if (!w_room(w, 2 * count))
		return;
	if (w->p && units)
		ntr_utf8_to_utf16(w->p + w->at, units, s->s, s->len);
	w->at += 2 * units;
	while (units++ < count)
		w_int(w, 0, 2);
}

/**
 * w_done() - ends a payload
 * @w: the writer
 *
 * Return: the payload's bytes, or 0 if it did not fit.
 */
static __always_inline __u32 w_done(const struct sr_w *w)
{
	return w->bad ? 0 : w->at;
}

typedef void (*sr_put_fn)(struct sr_w *w, const void *x);

/**
 * sr_size() - a payload's size, @put run counting
 * @put: the payload's fields, written with the w_*() steps
 * @x: the event @put writes
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the payload's bytes, or 0 if it does not fit in a record.
 */
static __always_inline __u32 sr_size(sr_put_fn put, const void *x, bool ptr32)
{
	struct sr_w w;

	w_init(&w, NULL, ptr32);
	put(&w, x);
	return w_done(&w);
}

/**
 * sr_write() - writes a payload
 * @put: the payload's fields, written with the w_*() steps
 * @buf: where
 * @room: @buf's bytes
 * @x: the event @put writes
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, what sr_size() counts; 0, writing nothing, if
 * @room does not hold them.
 */
static __always_inline __u32 sr_write(sr_put_fn put, void *buf, __u32 room, const void *x, bool ptr32)
{
	__u32 size = sr_size(put, x, ptr32);
	struct sr_w w;

	if (!size || size > room)
		return 0;
	w_init(&w, buf, ptr32);
	put(&w, x);
	return w_done(&w);
}

#endif /* NTTRACE_COMMON_SYSREC_W_H */
