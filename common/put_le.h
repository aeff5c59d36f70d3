/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * A little-endian store, inline: the record encoders (common/sysrec.c and
 * sysrec_w.h) and the tools that write ETL and CTF (userlib/tools) use it
 * a field at a time.
 */
#ifndef NTTRACE_COMMON_PUT_LE_H
#define NTTRACE_COMMON_PUT_LE_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/compiler.h>
#elif !defined(__always_inline)
#define __always_inline	inline
#endif

/**
 * ntr_put_le() - stores a little-endian integer
 * @p: where
 * @v: the value
 * @n: its bytes, at most 8
 */
static __always_inline void ntr_put_le(__u8 *p, __u64 v, unsigned int n)
{
	unsigned int i;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * One store of @n bytes where the size is known when compiling: GCC
	 * left the loop below as a loop of byte stores (a CSwitch's payload
	 * took 24 steps and 24 stores; convert's CTF writer spent an eighth
	 * of its time there).
	 */
	if (__builtin_constant_p(n) && (n == 1 || n == 2 || n == 4 || n == 8)) {
		__builtin_memcpy(p, &v, n);
		return;
	}
#endif
	for (i = 0; i < n; i++)
		p[i] = (__u8)(v >> (8 * i));
}

#endif
