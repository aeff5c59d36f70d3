// SPDX-License-Identifier: GPL-2.0
/*
 * uapi/nttrace.h has one layout for 32- and 64-bit callers: built with -m32
 * and with -m64, this prints each struct's size and member offsets, and
 * scripts/check compares the two outputs. The static asserts pin the v1
 * sizes that the _SIZE_VER0 constants promise, and the classic event
 * headers at Windows' offsets.
 */
#include <stddef.h>
#include <stdio.h>

#include <nttrace/uapi.h>

_Static_assert(sizeof(struct nttrace_version) == NTTRACE_VERSION_SIZE_VER1, "version size");
_Static_assert(sizeof(struct nttrace_trace_event) == NTTRACE_TRACE_EVENT_SIZE_VER0,
	       "trace_event size");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_TRACE_EVENT) == NTTRACE_TRACE_EVENT_SIZE_VER0,
	       "command encodes v1 size");

/*
 * Classic events (EVENT_TRACE_HEADER, EVENT_INSTANCE_GUID_HEADER, MOF_FIELD):
 * Windows' offsets, the same for both pointer sizes, since the structs are read
 * from and written to buffers that 32- and 64-bit code share.
 */
#define AT(s, m, off) _Static_assert(offsetof(struct s, m) == (off), #s "." #m " offset")
_Static_assert(sizeof(struct nttrace_event_trace_header) == NTTRACE_EVENT_TRACE_HEADER_SIZE,
	       "EVENT_TRACE_HEADER");
_Static_assert(NTTRACE_EVENT_TRACE_HEADER_SIZE == 0x30, "EVENT_TRACE_HEADER is 0x30 bytes");
AT(nttrace_event_trace_header, size, 0x00);
AT(nttrace_event_trace_header, header_type, 0x02);
AT(nttrace_event_trace_header, marker_flags, 0x03);
AT(nttrace_event_trace_header, class_type, 0x04);
AT(nttrace_event_trace_header, class_level, 0x05);
AT(nttrace_event_trace_header, class_version, 0x06);
AT(nttrace_event_trace_header, thread_id, 0x08);
AT(nttrace_event_trace_header, process_id, 0x0C);
AT(nttrace_event_trace_header, time_stamp, 0x10);
AT(nttrace_event_trace_header, guid, 0x18);
AT(nttrace_event_trace_header, guid_ptr, 0x18);
AT(nttrace_event_trace_header, client_context, 0x28);
AT(nttrace_event_trace_header, flags, 0x2C);
AT(nttrace_event_trace_header, kernel_time, 0x28);
AT(nttrace_event_trace_header, user_time, 0x2C);
_Static_assert(sizeof(struct nttrace_event_instance_guid_header) ==
		       NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE,
	       "EVENT_INSTANCE_GUID_HEADER");
_Static_assert(NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE == 0x48,
	       "EVENT_INSTANCE_GUID_HEADER is 0x48");
AT(nttrace_event_instance_guid_header, instance_id, 0x30);
AT(nttrace_event_instance_guid_header, parent_instance_id, 0x34);
AT(nttrace_event_instance_guid_header, parent_guid, 0x38);
_Static_assert(sizeof(struct nttrace_mof_field) == NTTRACE_MOF_FIELD_SIZE &&
		       NTTRACE_MOF_FIELD_SIZE == 16,
	       "MOF_FIELD");
AT(nttrace_mof_field, data_ptr, 0);
AT(nttrace_mof_field, length, 8);
AT(nttrace_mof_field, data_type, 12);
_Static_assert(NTTRACE_MAX_MOF_FIELDS *NTTRACE_MOF_FIELD_SIZE == 0x100,
	       "the MOF_FIELD array is 0x100 bytes");
_Static_assert(NTTRACE_TRACE_HEADER_MARKER_BYTE == 0xC0, "classic records' marker byte");
_Static_assert(NTTRACE_HANDLE(0x1234, 5, 1, 0xAABBCCDD) == 0xAABBCCDD01051234ULL,
	       "TRACE_ENABLE_CONTEXT packing");
_Static_assert(NTTRACE_HANDLE_LOGGER_ID(0xAABBCCDD01051234ULL) == 0x1234 &&
	       NTTRACE_HANDLE_LEVEL(0xAABBCCDD01051234ULL) == 5 &&
	       NTTRACE_HANDLE_INTERNAL(0xAABBCCDD01051234ULL) == 1 &&
	       NTTRACE_HANDLE_FLAGS(0xAABBCCDD01051234ULL) == 0xAABBCCDD,
	       "TRACE_ENABLE_CONTEXT unpacking");

/* EventWrite: EVENT_DESCRIPTOR, EVENT_DATA_DESCRIPTOR, the Fields, EVENT_HEADER. */
_Static_assert(sizeof(struct nttrace_event_descriptor) == NTTRACE_EVENT_DESCRIPTOR_SIZE &&
	       NTTRACE_EVENT_DESCRIPTOR_SIZE == 16, "EVENT_DESCRIPTOR");
AT(nttrace_event_descriptor, id, 0);
AT(nttrace_event_descriptor, version, 2);
AT(nttrace_event_descriptor, channel, 3);
AT(nttrace_event_descriptor, level, 4);
AT(nttrace_event_descriptor, opcode, 5);
AT(nttrace_event_descriptor, task, 6);
AT(nttrace_event_descriptor, keyword, 8);
_Static_assert(sizeof(struct nttrace_event_data_descriptor) == NTTRACE_EVENT_DATA_DESCRIPTOR_SIZE &&
	       NTTRACE_EVENT_DATA_DESCRIPTOR_SIZE == 16, "EVENT_DATA_DESCRIPTOR");
AT(nttrace_event_data_descriptor, ptr, 0);
AT(nttrace_event_data_descriptor, size, 8);
AT(nttrace_event_data_descriptor, reserved, 12);
/* Windows' 0x78-byte block (TRACE_EVENT's Fields), both widths. */
_Static_assert(sizeof(struct nttrace_event_write_user) == NTTRACE_EVENT_WRITE_USER_SIZE &&
	       NTTRACE_EVENT_WRITE_USER_SIZE == 0x78, "the Fields of TRACE_EVENT");
AT(nttrace_event_write_user, header, 0);
AT(nttrace_event_write_user, header.event_property, 0x06);
AT(nttrace_event_write_user, header.descriptor, 0x28);
AT(nttrace_event_write_user, header.descriptor.level, 0x2C);
AT(nttrace_event_write_user, header.descriptor.keyword, 0x30);
AT(nttrace_event_write_user, header.processor_time, 0x38);
AT(nttrace_event_write_user, header.activity_id, 0x40);
AT(nttrace_event_write_user, related_activity, 0x50);
AT(nttrace_event_write_user, spare0, 0x51);
AT(nttrace_event_write_user, filter, 0x52);
AT(nttrace_event_write_user, data_count, 0x54);
AT(nttrace_event_write_user, data, 0x58);
AT(nttrace_event_write_user, related_activity_id, 0x60);
AT(nttrace_event_write_user, flags, 0x70);
AT(nttrace_event_write_user, spare1, 0x74);
_Static_assert(sizeof(struct nttrace_security_register) == NTTRACE_SECURITY_REGISTER_SIZE_VER0,
	       "REGISTER_SECURITY");
AT(nttrace_security_register, size, 0);
AT(nttrace_security_register, flags, 4);
_Static_assert(sizeof(struct nttrace_profile) == NTTRACE_PROFILE_SIZE_VER0, "PROFILE");
AT(nttrace_profile, size, 0);
AT(nttrace_profile, flags, 4);
AT(nttrace_profile, source, 8);
AT(nttrace_profile, interval, 12);
AT(nttrace_profile, min_interval, 16);
AT(nttrace_profile, max_interval, 20);
_Static_assert(sizeof(struct nttrace_stacks) == NTTRACE_STACKS_SIZE_VER0, "STACKS");
AT(nttrace_stacks, size, 0);
AT(nttrace_stacks, logger_id, 4);
AT(nttrace_stacks, flags, 8);
AT(nttrace_stacks, count, 12);
AT(nttrace_stacks, hooks, 16);
_Static_assert(NTTRACE_STATUS_WMI_ALREADY_DISABLED == 0xC0000302U, "ntstatus.h");
_Static_assert(sizeof(struct nttrace_event_header) == NTTRACE_EVENT_HEADER_SIZE &&
		       NTTRACE_EVENT_HEADER_SIZE == 0x50,
	       "EVENT_HEADER");
AT(nttrace_event_header, size, 0);
AT(nttrace_event_header, header_type, 2);
AT(nttrace_event_header, marker_flags, 3);
AT(nttrace_event_header, flags, 4);
AT(nttrace_event_header, event_property, 6);
AT(nttrace_event_header, thread_id, 8);
AT(nttrace_event_header, process_id, 0x0C);
AT(nttrace_event_header, time_stamp, 0x10);
AT(nttrace_event_header, provider_id, 0x18);
AT(nttrace_event_header, descriptor, 0x28);
AT(nttrace_event_header, processor_time, 0x38);
AT(nttrace_event_header, activity_id, 0x40);
_Static_assert(sizeof(struct nttrace_event_extended_item_header) == 8, "extended item header");
AT(nttrace_event_extended_item_header, size, 0);
AT(nttrace_event_extended_item_header, ext_type, 2);
AT(nttrace_event_extended_item_header, linkage, 4);
AT(nttrace_event_extended_item_header, data_size, 6);

/* Providers: the _SIZE constants and the ioctl sizes. */
_Static_assert(sizeof(struct nttrace_enable_info) == NTTRACE_ENABLE_INFO_SIZE, "enable_info");
AT(nttrace_enable_info, sequence, 0);
AT(nttrace_enable_info, logger_handle, 8);
AT(nttrace_enable_info, level, 16);
AT(nttrace_enable_info, match_any_keyword, 24);
AT(nttrace_enable_info, loggers, 40);
_Static_assert(sizeof(struct nttrace_register) == NTTRACE_REGISTER_SIZE_VER0, "register");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_REGISTER) == NTTRACE_REGISTER_SIZE_VER0, "REGISTER size");
_Static_assert(sizeof(struct nttrace_unregister) == NTTRACE_UNREGISTER_SIZE_VER0, "unregister");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_UNREGISTER) == NTTRACE_UNREGISTER_SIZE_VER0,
	       "UNREGISTER size");
_Static_assert(sizeof(struct nttrace_enable) == NTTRACE_ENABLE_SIZE_VER2, "enable");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_ENABLE) == NTTRACE_ENABLE_SIZE_VER2, "ENABLE size");
/* VER0 ends where the filter members begin: they were added at the end. */
AT(nttrace_enable, match_all_keyword, 48);
AT(nttrace_enable, filter_flags, NTTRACE_ENABLE_SIZE_VER0);
AT(nttrace_enable, enable_property, NTTRACE_ENABLE_SIZE_VER1);
AT(nttrace_enable, event_id_count, 60);
AT(nttrace_enable, event_ids, 64);
_Static_assert(sizeof(struct nttrace_notification) == NTTRACE_NOTIFICATION_SIZE_VER0,
	       "notification");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_NOTIFICATION) == NTTRACE_NOTIFICATION_SIZE_VER0,
	       "NOTIFICATION size");
_Static_assert(sizeof(struct nttrace_provider_row) == NTTRACE_PROVIDER_ROW_SIZE, "provider_row");
_Static_assert(sizeof(struct nttrace_provider_list) == NTTRACE_PROVIDER_LIST_SIZE_VER0,
	       "provider_list");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_LIST_PROVIDERS) == NTTRACE_PROVIDER_LIST_SIZE_VER0,
	       "LIST_PROVIDERS size");

#define MEMBER(s, m) printf("%s.%s %zu %zu\n", #s, #m, offsetof(struct s, m), \
			    sizeof(((struct s *)0)->m))

int main(void)
{
	printf("nttrace_version %zu\n", sizeof(struct nttrace_version));
	MEMBER(nttrace_version, size);
	MEMBER(nttrace_version, abi_version);
	MEMBER(nttrace_version, features);
	MEMBER(nttrace_version, types);
	MEMBER(nttrace_version, system_flags);
	MEMBER(nttrace_version, pad0);
	printf("nttrace_trace_event %zu\n", sizeof(struct nttrace_trace_event));
	MEMBER(nttrace_trace_event, size);
	MEMBER(nttrace_trace_event, flags);
	MEMBER(nttrace_trace_event, trace_handle);
	MEMBER(nttrace_trace_event, fields);
	MEMBER(nttrace_trace_event, field_size);
	MEMBER(nttrace_trace_event, status);
	printf("ioctl VERSION 0x%08lx TRACE_EVENT 0x%08lx\n",
	       (unsigned long)NTTRACE_IOC_VERSION, (unsigned long)NTTRACE_IOC_TRACE_EVENT);

	/* Classic events. */
	printf("event_trace_header %zu\n", sizeof(struct nttrace_event_trace_header));
	MEMBER(nttrace_event_trace_header, size);
	MEMBER(nttrace_event_trace_header, header_type);
	MEMBER(nttrace_event_trace_header, marker_flags);
	MEMBER(nttrace_event_trace_header, class_type);
	MEMBER(nttrace_event_trace_header, class_level);
	MEMBER(nttrace_event_trace_header, class_version);
	MEMBER(nttrace_event_trace_header, thread_id);
	MEMBER(nttrace_event_trace_header, process_id);
	MEMBER(nttrace_event_trace_header, time_stamp);
	MEMBER(nttrace_event_trace_header, guid);
	MEMBER(nttrace_event_trace_header, guid_ptr);
	MEMBER(nttrace_event_trace_header, client_context);
	MEMBER(nttrace_event_trace_header, flags);
	MEMBER(nttrace_event_trace_header, kernel_time);
	MEMBER(nttrace_event_trace_header, user_time);
	printf("event_instance_guid_header %zu\n",
	       sizeof(struct nttrace_event_instance_guid_header));
	MEMBER(nttrace_event_instance_guid_header, h);
	MEMBER(nttrace_event_instance_guid_header, instance_id);
	MEMBER(nttrace_event_instance_guid_header, parent_instance_id);
	MEMBER(nttrace_event_instance_guid_header, parent_guid);
	printf("mof_field %zu\n", sizeof(struct nttrace_mof_field));
	MEMBER(nttrace_mof_field, data_ptr);
	MEMBER(nttrace_mof_field, length);
	MEMBER(nttrace_mof_field, data_type);

	/* EventWrite. */
	printf("event_descriptor %zu\n", sizeof(struct nttrace_event_descriptor));
	MEMBER(nttrace_event_descriptor, id);
	MEMBER(nttrace_event_descriptor, version);
	MEMBER(nttrace_event_descriptor, channel);
	MEMBER(nttrace_event_descriptor, level);
	MEMBER(nttrace_event_descriptor, opcode);
	MEMBER(nttrace_event_descriptor, task);
	MEMBER(nttrace_event_descriptor, keyword);
	printf("event_data_descriptor %zu\n", sizeof(struct nttrace_event_data_descriptor));
	MEMBER(nttrace_event_data_descriptor, ptr);
	MEMBER(nttrace_event_data_descriptor, size);
	MEMBER(nttrace_event_data_descriptor, reserved);
	printf("event_write_user %zu\n", sizeof(struct nttrace_event_write_user));
	MEMBER(nttrace_event_write_user, header);
	MEMBER(nttrace_event_write_user, related_activity);
	MEMBER(nttrace_event_write_user, spare0);
	MEMBER(nttrace_event_write_user, filter);
	MEMBER(nttrace_event_write_user, data_count);
	MEMBER(nttrace_event_write_user, data);
	MEMBER(nttrace_event_write_user, related_activity_id);
	MEMBER(nttrace_event_write_user, flags);
	MEMBER(nttrace_event_write_user, spare1);
	printf("security_register %zu\n", sizeof(struct nttrace_security_register));
	MEMBER(nttrace_security_register, size);
	MEMBER(nttrace_security_register, flags);
	printf("profile %zu\n", sizeof(struct nttrace_profile));
	MEMBER(nttrace_profile, size);
	MEMBER(nttrace_profile, flags);
	MEMBER(nttrace_profile, source);
	MEMBER(nttrace_profile, interval);
	MEMBER(nttrace_profile, min_interval);
	MEMBER(nttrace_profile, max_interval);
	printf("stacks %zu\n", sizeof(struct nttrace_stacks));
	MEMBER(nttrace_stacks, size);
	MEMBER(nttrace_stacks, logger_id);
	MEMBER(nttrace_stacks, flags);
	MEMBER(nttrace_stacks, count);
	MEMBER(nttrace_stacks, hooks);
	printf("event_header %zu\n", sizeof(struct nttrace_event_header));
	MEMBER(nttrace_event_header, size);
	MEMBER(nttrace_event_header, header_type);
	MEMBER(nttrace_event_header, marker_flags);
	MEMBER(nttrace_event_header, flags);
	MEMBER(nttrace_event_header, event_property);
	MEMBER(nttrace_event_header, thread_id);
	MEMBER(nttrace_event_header, process_id);
	MEMBER(nttrace_event_header, time_stamp);
	MEMBER(nttrace_event_header, provider_id);
	MEMBER(nttrace_event_header, descriptor);
	MEMBER(nttrace_event_header, processor_time);
	MEMBER(nttrace_event_header, activity_id);
	printf("event_extended_item_header %zu\n",
	       sizeof(struct nttrace_event_extended_item_header));
	MEMBER(nttrace_event_extended_item_header, size);
	MEMBER(nttrace_event_extended_item_header, ext_type);
	MEMBER(nttrace_event_extended_item_header, linkage);
	MEMBER(nttrace_event_extended_item_header, data_size);

	/* Providers. */
	printf("nttrace_enable_info %zu\n", sizeof(struct nttrace_enable_info));
	MEMBER(nttrace_enable_info, sequence);
	MEMBER(nttrace_enable_info, sessions);
	MEMBER(nttrace_enable_info, logger_handle);
	MEMBER(nttrace_enable_info, level);
	MEMBER(nttrace_enable_info, pad);
	MEMBER(nttrace_enable_info, match_any_keyword);
	MEMBER(nttrace_enable_info, match_all_keyword);
	MEMBER(nttrace_enable_info, loggers);
	printf("nttrace_register %zu\n", sizeof(struct nttrace_register));
	MEMBER(nttrace_register, size);
	MEMBER(nttrace_register, type);
	MEMBER(nttrace_register, guid);
	MEMBER(nttrace_register, enable_info);
	MEMBER(nttrace_register, context);
	MEMBER(nttrace_register, handle);
	printf("nttrace_unregister %zu\n", sizeof(struct nttrace_unregister));
	MEMBER(nttrace_unregister, size);
	MEMBER(nttrace_unregister, pad);
	MEMBER(nttrace_unregister, handle);
	printf("nttrace_enable %zu\n", sizeof(struct nttrace_enable));
	MEMBER(nttrace_enable, size);
	MEMBER(nttrace_enable, logger_id);
	MEMBER(nttrace_enable, guid);
	MEMBER(nttrace_enable, control);
	MEMBER(nttrace_enable, level);
	MEMBER(nttrace_enable, enable_flags);
	MEMBER(nttrace_enable, registrations);
	MEMBER(nttrace_enable, match_any_keyword);
	MEMBER(nttrace_enable, match_all_keyword);
	printf("nttrace_notification %zu\n", sizeof(struct nttrace_notification));
	MEMBER(nttrace_notification, size);
	MEMBER(nttrace_notification, control);
	MEMBER(nttrace_notification, handle);
	MEMBER(nttrace_notification, context);
	MEMBER(nttrace_notification, logger_handle);
	MEMBER(nttrace_notification, level);
	MEMBER(nttrace_notification, enable_flags);
	MEMBER(nttrace_notification, match_any_keyword);
	MEMBER(nttrace_notification, match_all_keyword);
	MEMBER(nttrace_notification, logger_id);
	MEMBER(nttrace_notification, dropped);
	printf("nttrace_provider_row %zu\n", sizeof(struct nttrace_provider_row));
	MEMBER(nttrace_provider_row, guid);
	MEMBER(nttrace_provider_row, pid);
	MEMBER(nttrace_provider_row, type);
	MEMBER(nttrace_provider_row, logger_id);
	MEMBER(nttrace_provider_row, level);
	MEMBER(nttrace_provider_row, enable_flags);
	MEMBER(nttrace_provider_row, flags);
	MEMBER(nttrace_provider_row, match_any_keyword);
	MEMBER(nttrace_provider_row, match_all_keyword);
	printf("nttrace_provider_list %zu\n", sizeof(struct nttrace_provider_list));
	MEMBER(nttrace_provider_list, size);
	MEMBER(nttrace_provider_list, count);
	MEMBER(nttrace_provider_list, rows);
	printf("ioctl REGISTER 0x%08lx UNREGISTER 0x%08lx ENABLE 0x%08lx\n",
	       (unsigned long)NTTRACE_IOC_REGISTER, (unsigned long)NTTRACE_IOC_UNREGISTER,
	       (unsigned long)NTTRACE_IOC_ENABLE);
	printf("ioctl NOTIFICATION 0x%08lx LIST_PROVIDERS 0x%08lx\n",
	       (unsigned long)NTTRACE_IOC_NOTIFICATION,
	       (unsigned long)NTTRACE_IOC_LIST_PROVIDERS);
	return 0;
}
