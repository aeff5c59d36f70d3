/* SPDX-License-Identifier: GPL-2.0 */
/* The consumer side of /dev/nttrace: attach, mmap, poll. */
#ifndef NTTRACE_CONSUMER_H
#define NTTRACE_CONSUMER_H

#include <linux/fs.h>
#include <linux/poll.h>
#include <nttrace.h>

int nt_file_open(struct file *file);
void nt_file_release(struct file *file);
int nt_file_attach(struct file *file, struct nttrace_attach *a);
int nt_file_mmap(struct file *file, struct vm_area_struct *vma);
__poll_t nt_file_poll(struct file *file, poll_table *wait);

#endif /* NTTRACE_CONSUMER_H */
