// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1
/*
 * The SysConfig and EventTrace extension payloads of common/sysconfig.h,
 * through the writer of common/sysrec_w.h. Built into nttrace.ko (Kbuild)
 * and libnttrace (Makefile).
 */
#ifdef __KERNEL__
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/stddef.h>
#else
#include <stddef.h>
#define EXPORT_SYMBOL_IF_KUNIT(sym) _Static_assert(1, #sym)
#endif

#include "sysconfig.h"
#include "sysrec_w.h"

static void cpu_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_cpu *c = x;

	w_int(w, c->mhz, 4);
	w_int(w, c->nr_processors, 4);
	w_int(w, c->mem_size, 4);
	w_int(w, c->page_size, 4);
	w_int(w, c->allocation_granularity, 4);
	w_wchars(w, &c->computer_name, 256);
	w_wchars(w, &c->domain_name, 134);
	w_ptr(w, c->hyper_threading_flag);
}

__u32 ntr_sr_cpu_size(const struct ntr_sr_cpu *c, bool ptr32)
{
	return sr_size(cpu_put, c, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_cpu_size);

__u32 ntr_sr_cpu_write(void *buf, __u32 room, const struct ntr_sr_cpu *c, bool ptr32)
{
	return sr_write(cpu_put, buf, room, c, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_cpu_write);

static void phydisk_put(struct sr_w *w, const void *x)
{
	static const struct ntr_sr_str none;
	const struct ntr_sr_phydisk *d = x;

	w_int(w, d->disk_number, 4);
	w_int(w, d->bytes_per_sector, 4);
	w_int(w, d->sectors_per_track, 4);
	w_int(w, d->tracks_per_cylinder, 4);
	w_int(w, d->cylinders, 8);
	w_int(w, d->scsi_port, 4);
	w_int(w, d->scsi_path, 4);
	w_int(w, d->scsi_target, 4);
	w_int(w, d->scsi_lun, 4);
	w_wchars(w, &d->manufacturer, 256);
	w_int(w, d->partition_count, 4);
	w_int(w, d->write_cache_enabled, 1);
	w_int(w, 0, 1);				/* Pad */
	w_wchars(w, &d->boot_drive_letter, 3);
	w_wchars(w, &none, 2);			/* Spare */
}

__u32 ntr_sr_phydisk_size(const struct ntr_sr_phydisk *d, bool ptr32)
{
	return sr_size(phydisk_put, d, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_phydisk_size);

__u32 ntr_sr_phydisk_write(void *buf, __u32 room, const struct ntr_sr_phydisk *d, bool ptr32)
{
	return sr_write(phydisk_put, buf, room, d, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_phydisk_write);

static void logdisk_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_logdisk *d = x;

	w_int(w, d->start_offset, 8);
	w_int(w, d->partition_size, 8);
	w_int(w, d->disk_number, 4);
	w_int(w, d->size, 4);
	w_int(w, d->drive_type, 4);
	w_wchars(w, &d->drive_letter, 4);
	w_int(w, 0, 4);				/* Pad1 */
	w_int(w, d->partition_number, 4);
	w_int(w, d->sectors_per_cluster, 4);
	w_int(w, d->bytes_per_sector, 4);
	w_int(w, 0, 4);				/* Pad2 */
	w_int(w, (__u64)d->free_clusters, 8);
	w_int(w, (__u64)d->total_clusters, 8);
	w_wchars(w, &d->file_system, 16);
	w_int(w, d->volume_ext, 4);
	w_int(w, 0, 4);				/* Pad3 */
}

__u32 ntr_sr_logdisk_size(const struct ntr_sr_logdisk *d, bool ptr32)
{
	return sr_size(logdisk_put, d, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_logdisk_size);

__u32 ntr_sr_logdisk_write(void *buf, __u32 room, const struct ntr_sr_logdisk *d, bool ptr32)
{
	return sr_write(logdisk_put, buf, room, d, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_logdisk_write);

static void nic_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_nic *n = x;

	w_int(w, n->physical_addr, 8);
	w_int(w, n->physical_addr_len, 4);
	w_int(w, n->ipv4_index, 4);
	w_int(w, n->ipv6_index, 4);
	w_utf16(w, &n->description, NTR_SR_NAME_MAX);
	w_utf16(w, &n->ip_addresses, NTR_SR_PATH_MAX);
	w_utf16(w, &n->dns_server_addresses, NTR_SR_PATH_MAX);
}

__u32 ntr_sr_nic_size(const struct ntr_sr_nic *n, bool ptr32)
{
	return sr_size(nic_put, n, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_nic_size);

__u32 ntr_sr_nic_write(void *buf, __u32 room, const struct ntr_sr_nic *n, bool ptr32)
{
	return sr_write(nic_put, buf, room, n, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_nic_write);

static void extension_put(struct sr_w *w, const void *x)
{
	const struct ntr_sr_extension *e = x;
	unsigned int i;

	for (i = 0; i < 8; i++)
		w_int(w, e->group_mask[i], 4);
	w_int(w, e->kernel_event_version, 4);
}

__u32 ntr_sr_extension_size(const struct ntr_sr_extension *e, bool ptr32)
{
	return sr_size(extension_put, e, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_extension_size);

__u32 ntr_sr_extension_write(void *buf, __u32 room, const struct ntr_sr_extension *e,
			     bool ptr32)
{
	return sr_write(extension_put, buf, room, e, ptr32);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_sr_extension_write);
