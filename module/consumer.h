/* SPDX-License-Identifier: GPL-2.0 */
/* An open /dev/nttrace: the consumer side (attach, mmap, poll), its providers. */
#ifndef NTTRACE_CONSUMER_H
#define NTTRACE_CONSUMER_H

#include <linux/fs.h>
#include <linux/poll.h>
#include <nttrace/uapi.h>

/**
 * nt_file_open() - a /dev/nttrace is opened
 * @file: the file
 *
 * Return: 0 or -ENOMEM.
 */
int nt_file_open(struct file *file);

/**
 * nt_file_release() - a /dev/nttrace is released
 * @file: the file
 *
 * Its provider registrations end, and its consumer slot, if it attached,
 * is given back.
 */
void nt_file_release(struct file *file);

/**
 * nt_file_attach() - NTTRACE_IOC_ATTACH: consume a session
 * @file: the file, which attaches once
 * @a: the caller's request, and the mapping's layout filled in
 *
 * Takes the attach lock (the top of the lock order, module/session.h).
 *
 * Return: 0; -EINVAL (unknown flags); -EBUSY (the file attached already,
 * or no slot free); or nt_session_get_consumable()'s and
 * nt_session_attach()'s errors.
 */
int nt_file_attach(struct file *file, struct nttrace_attach *a);

/**
 * nt_file_mmap() - map the attached session's heads, acks or data
 * @file: the file
 * @vma: the mapping; its offset picks the region (struct nttrace_attach)
 *
 * Only the file's own slot of the acks may be mapped writable.
 *
 * Return: 0, -EINVAL, or remap_vmalloc_range()'s error.
 */
int nt_file_mmap(struct file *file, struct vm_area_struct *vma);

/**
 * nt_file_poll() - poll() on a /dev/nttrace
 * @file: the file
 * @wait: the poll table
 *
 * Return: EPOLLPRI for a provider notification waiting; EPOLLIN for a
 * buffer the file's slot has not read; EPOLLHUP once the session stopped;
 * EPOLLERR for a file that neither attached nor registered.
 */
__poll_t nt_file_poll(struct file *file, poll_table *wait);

/**
 * nt_file_provider() - the file's provider state (module/provider.c)
 * @file: the file
 *
 * Return: its struct nt_prov_file.
 */
struct nt_prov_file *nt_file_provider(struct file *file);

#endif /* NTTRACE_CONSUMER_H */
