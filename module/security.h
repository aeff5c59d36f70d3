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

/**
 * nt_security_register() - NTTRACE_IOC_REGISTER_SECURITY
 * @file: the open /dev/nttrace it is made on
 *
 * The calling process becomes the security provider, until @file is
 * released or the process has exited.
 *
 * Return: 0, -EPERM (no CAP_AUDIT_WRITE nor CAP_SYS_ADMIN) or -EBUSY
 * (another process holds it).
 */
int nt_security_register(struct file *file);

/**
 * nt_security_release() - @file is being released
 * @file: the open /dev/nttrace
 *
 * The security-provider registration, if @file holds it, ends.
 */
void nt_security_release(struct file *file);

/**
 * nt_security_caller() - does the calling process hold the registration?
 *
 * Return: true if it is the security provider.
 */
bool nt_security_caller(void);

/**
 * nt_trace_security() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the 0x78-byte Fields the front door captured
 *
 * Only the security provider's process may write (else
 * NTTRACE_STATUS_ACCESS_DENIED, before anything else is looked at); the
 * event goes through the security provider's GUID, by the EventWrite path.
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_security(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_SECURITY_H */
