/* SPDX-License-Identifier: GPL-2.0 */
/* The NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE handler. */
#ifndef NTTRACE_MESSAGE_H
#define NTTRACE_MESSAGE_H

#include "ntevent.h"

u32 nt_trace_message(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_MESSAGE_H */
