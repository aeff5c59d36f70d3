/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The SysConfig events Windows tools expect at the start of a kernel trace
 * (group 0x0B, EventTraceConfig), and the EventTrace group's header
 * extension, as common/sysrec.h's payloads: ntr_sr_X_size() counts,
 * ntr_sr_X_write() writes in place, 0 when it cannot. Full headers
 * (NTR_SR_FULL), as every such event of the Windows-written files has.
 *
 * Versions: 2, the one Microsoft's pages describe ("SystemConfig_CPU",
 * "_PhyDisk", "_LogDisk", "_NIC"; kernel_classes.c has the same layouts).
 * The files carry CPU at version 3, 20 bytes longer than 2 with fields no
 * public source names: version 2 is written, which every reader knows.
 * Fixed char16 arrays (the Max qualifier) hold the string, a NUL and zeros.
 */
#ifndef NTTRACE_COMMON_SYSCONFIG_H
#define NTTRACE_COMMON_SYSCONFIG_H

#include "sysrec.h"

enum {
	NTR_SR_CONFIG_CPU = NTR_SR_HOOK(0x0B, 10),
	NTR_SR_CONFIG_PHYDISK = NTR_SR_HOOK(0x0B, 11),
	NTR_SR_CONFIG_LOGDISK = NTR_SR_HOOK(0x0B, 12),
	NTR_SR_CONFIG_NIC = NTR_SR_HOOK(0x0B, 13),
	NTR_SR_HEADER_EXTENSION = NTR_SR_HOOK(0x00, 5),
	NTR_SR_RUNDOWN_COMPLETE = NTR_SR_HOOK(0x00, 8),
	NTR_SR_END_EXTENSION = NTR_SR_HOOK(0x00, 32),
};

#define NTR_SR_CONFIG_VERSION	2

/*
 * [MS systemconfig-cpu]: MHz, NumberOfProcessors, MemSize (MB),
 * PageSize, AllocationGranularity, ComputerName (256 units), DomainName
 * (134 units: PerfView's reading from version 2 on, which the files'
 * sizes confirm; the page says 132), HyperThreadingFlag (pointer-sized:
 * 808 bytes at 8-byte pointers [files]).
 */
struct ntr_sr_cpu {
	__u32 mhz;
	__u32 nr_processors;
	__u32 mem_size;
	__u32 page_size;
	__u32 allocation_granularity;
	struct ntr_sr_str computer_name;
	struct ntr_sr_str domain_name;
	__u64 hyper_threading_flag;
};

/**
 * ntr_sr_cpu_size() - the payload's bytes of a SystemConfig CPU event
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_cpu_size(const struct ntr_sr_cpu *c, bool ptr32);
/**
 * ntr_sr_cpu_write() - writes the payload of a SystemConfig CPU event
 * @buf: where
 * @room: @buf's bytes
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_cpu_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_cpu_write(void *buf, __u32 room, const struct ntr_sr_cpu *c, bool ptr32);

/*
 * [MS systemconfig-phydisk], 568 bytes: DiskNumber, BytesPerSector,
 * SectorsPerTrack, TracksPerCylinder, Cylinders (64-bit), SCSIPort,
 * SCSIPath, SCSITarget, SCSILun, Manufacturer (256 units),
 * PartitionCount, WriteCacheEnabled, Pad, BootDriveLetter (3 units),
 * Spare (2 units).
 */
struct ntr_sr_phydisk {
	__u32 disk_number;
	__u32 bytes_per_sector;
	__u32 sectors_per_track;
	__u32 tracks_per_cylinder;
	__u64 cylinders;
	__u32 scsi_port;
	__u32 scsi_path;
	__u32 scsi_target;
	__u32 scsi_lun;
	struct ntr_sr_str manufacturer;
	__u32 partition_count;
	__u8 write_cache_enabled;
	struct ntr_sr_str boot_drive_letter;
};

/**
 * ntr_sr_phydisk_size() - the payload's bytes of a SystemConfig PhyDisk event
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_phydisk_size(const struct ntr_sr_phydisk *d, bool ptr32);
/**
 * ntr_sr_phydisk_write() - writes the payload of a SystemConfig PhyDisk event
 * @buf: where
 * @room: @buf's bytes
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_phydisk_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_phydisk_write(void *buf, __u32 room, const struct ntr_sr_phydisk *d, bool ptr32);

/*
 * [MS systemconfig-logdisk], 112 bytes: StartOffset, PartitionSize,
 * DiskNumber, Size, DriveType, DriveLetterString (4 units), Pad1,
 * PartitionNumber, SectorsPerCluster, BytesPerSector, Pad2,
 * NumberOfFreeClusters, TotalNumberOfClusters, FileSystem (16 units),
 * VolumeExt, Pad3.
 */
struct ntr_sr_logdisk {
	__u64 start_offset;
	__u64 partition_size;
	__u32 disk_number;
	__u32 size;
	__u32 drive_type;
	struct ntr_sr_str drive_letter;
	__u32 partition_number;
	__u32 sectors_per_cluster;
	__u32 bytes_per_sector;
	__s64 free_clusters;
	__s64 total_clusters;
	struct ntr_sr_str file_system;
	__u32 volume_ext;
};

/**
 * ntr_sr_logdisk_size() - the payload's bytes of a SystemConfig LogDisk event
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_logdisk_size(const struct ntr_sr_logdisk *d, bool ptr32);
/**
 * ntr_sr_logdisk_write() - writes the payload of a SystemConfig LogDisk event
 * @buf: where
 * @room: @buf's bytes
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_logdisk_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_logdisk_write(void *buf, __u32 room, const struct ntr_sr_logdisk *d, bool ptr32);

/*
 * [MS systemconfig-nic]: PhysicalAddr (64-bit), PhysicalAddrLen,
 * Ipv4Index, Ipv6Index, NICDescription, IpAddresses, DnsServerAddresses
 * (UTF-16, NUL-ended; the lists comma-separated, the page says).
 */
struct ntr_sr_nic {
	__u64 physical_addr;
	__u32 physical_addr_len;
	__u32 ipv4_index;
	__u32 ipv6_index;
	struct ntr_sr_str description;
	struct ntr_sr_str ip_addresses;
	struct ntr_sr_str dns_server_addresses;
};

/**
 * ntr_sr_nic_size() - the payload's bytes of a SystemConfig NIC event
 * @n: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_nic_size(const struct ntr_sr_nic *n, bool ptr32);
/**
 * ntr_sr_nic_write() - writes the payload of a SystemConfig NIC event
 * @buf: where
 * @room: @buf's bytes
 * @n: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_nic_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_nic_write(void *buf, __u32 room, const struct ntr_sr_nic *n, bool ptr32);

/*
 * EventTrace's Extension (5) and EndExtension (32), version 2
 * (Header_Extension_TypeGroup, [MOF] in kernel_classes.c, 36 bytes
 * [files]): GroupMask1 to GroupMask8 (the session's PERFINFO_GROUPMASK,
 * the first EnableFlags) and KernelEventVersion. RDComplete (8) has no
 * payload: a header alone.
 */
struct ntr_sr_extension {
	__u32 group_mask[8];
	__u32 kernel_event_version;
};

/**
 * ntr_sr_extension_size() - the payload's bytes of the SystemConfig extension events
 * @e: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_extension_size(const struct ntr_sr_extension *e, bool ptr32);
/**
 * ntr_sr_extension_write() - writes the payload of the SystemConfig extension events
 * @buf: where
 * @room: @buf's bytes
 * @e: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_extension_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_extension_write(void *buf, __u32 room, const struct ntr_sr_extension *e,
			     bool ptr32);

#endif /* NTTRACE_COMMON_SYSCONFIG_H */
