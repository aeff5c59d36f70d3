/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The security log: NtTraceEvent's NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY
 * (EtwWriteUMSecurityEvent) and the security-provider registration
 * (NTTRACE_IOC_REGISTER_SECURITY; Windows' EtwRegisterSecurityProvider).
 * The rules are in uapi/nttrace.h, "Events without a registration, and
 * the security log".
 */
#ifndef NTTRACE_SECURITY_H
#define NTTRACE_SECURITY_H

#include <linux/fs.h>

#include "ntevent.h"

/*
 * NTTRACE_IOC_REGISTER_SECURITY on @file: 0, -EPERM (no CAP_AUDIT_WRITE
 * nor CAP_SYS_ADMIN) or -EBUSY (held).
 */
int nt_security_register(struct file *file);

/* @file is being released: its registration, if it holds it, ends. */
void nt_security_release(struct file *file);

/* Whether the calling process holds the registration. */
bool nt_security_caller(void);

/* The handler of NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY. */
u32 nt_trace_security(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_SECURITY_H */
