/* SPDX-License-Identifier: GPL-2.0 */
/* An open /dev/nttrace: the consumer side (attach, mmap, poll), its providers. */
#ifndef NTTRACE_CONSUMER_H
#define NTTRACE_CONSUMER_H

#include <linux/fs.h>
#include <linux/poll.h>
#include <nttrace/uapi.h>

int nt_file_open(struct file *file);
void nt_file_release(struct file *file);
int nt_file_attach(struct file *file, struct nttrace_attach *a);
int nt_file_mmap(struct file *file, struct vm_area_struct *vma);
__poll_t nt_file_poll(struct file *file, poll_table *wait);
/* The file's provider state (module/provider.c). */
struct nt_prov_file *nt_file_provider(struct file *file);

#endif /* NTTRACE_CONSUMER_H */
