// SPDX-License-Identifier: GPL-2.0
/*
 * TDH's DecodingSourceWbem (userlib/tdh/tdh_mof.c): classic events of
 * the kernel's MOF classes, built here byte by byte from the classes as
 * Microsoft documents them (Process_TypeGroup1 version 3, StackWalk_Event),
 * described by TdhGetEventInformation (names, types, counts), read by
 * TdhGetProperty and formatted by TdhFormatProperty to the last byte, with
 * 64- and 32-bit pointers; a SID that is a zero ULONG; other events
 * ERROR_NOT_FOUND. 64- and 32-bit builds. TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/tdh.h>
#include "../vm/tap.h"

#define BITS ((int)sizeof(void *) * 8)

static uint8_t data[512];
static uint32_t len;

static void put(const void *p, uint32_t n)
{
	memcpy(data + len, p, n);
	len += n;
}

static void put_le(uint64_t v, uint32_t n)
{
	while (n--) {
		data[len++] = (uint8_t)v;
		v >>= 8;
	}
}

/* A classic event of kernel group @group's GUID, type @opcode, @version. */
static void make_event(EVENT_RECORD *er, uint16_t group, uint8_t opcode, uint8_t version,
		       int ptr32)
{
	const struct nttrace_kernel_group *g = nttrace_kernel_group(group << 8);

	memset(er, 0, sizeof(*er));
	if (g)
		memcpy(&er->EventHeader.ProviderId, &g->guid, 16);
	er->EventHeader.Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
				(ptr32 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
					 EVENT_HEADER_FLAG_64_BIT_HEADER);
	er->EventHeader.EventDescriptor.Opcode = opcode;
	er->EventHeader.EventDescriptor.Version = version;
	er->UserData = data;
	er->UserDataLength = (USHORT)len;
}

static char *utf8(const WCHAR *w)
{
	static char out[1024];
	size_t i;

	for (i = 0; w[i] && i + 1 < sizeof(out); i++)
		out[i] = w[i] < 0x80 ? (char)w[i] : '?';
	out[i] = 0;
	return out;
}

static TRACE_EVENT_INFO *info_of(EVENT_RECORD *er, ULONG *err)
{
	TRACE_EVENT_INFO *t;
	ULONG size = 0;

	*err = TdhGetEventInformation(er, 0, NULL, NULL, &size);
	if (*err != ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	t = malloc(size);
	*err = TdhGetEventInformation(er, 0, NULL, t, &size);
	return t;
}

/* Every property formatted in turn, joined by '|'; the bytes used. */
static uint32_t format_all(const TRACE_EVENT_INFO *t, EVENT_RECORD *er, int psz, char *out,
			   size_t cap)
{
	uint32_t at = 0;
	ULONG i, k;

	out[0] = 0;
	for (i = 0; i < t->TopLevelPropertyCount; i++) {
		const EVENT_PROPERTY_INFO *p = &t->EventPropertyInfoArray[i];

		for (k = 0; k < p->count; k++) {
			WCHAR buf[512];
			ULONG size = sizeof(buf);
			USHORT used = 0;

			if (TdhFormatProperty((PTRACE_EVENT_INFO)t, NULL, psz,
					      p->nonStructType.InType, p->nonStructType.OutType,
					      p->length, (USHORT)(len - at), data + at, &size, buf,
					      &used) != ERROR_SUCCESS)
				return at;
			at += used;
			snprintf(out + strlen(out), cap - strlen(out), "%s%s", *out ? "|" : "",
				 utf8(buf));
		}
	}
	return at;
}

static void test_process(int ptr32)
{
	static const uint8_t sid[] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	static const WCHAR cmd[] = { 'b', 'a', 's', 'h', ' ', '-', 'c', 0 };
	int psz = ptr32 ? 4 : 8;
	PROPERTY_DATA_DESCRIPTOR pd = { 0 };
	TRACE_EVENT_INFO *t;
	EVENT_RECORD er;
	char text[1024], want[256];
	uint32_t pid = 0;
	ULONG err;

	len = 0;
	put_le(0xfffffa8001234560ULL, psz);	/* UniqueProcessKey */
	put_le(1234, 4);			/* ProcessId */
	put_le(1, 4);				/* ParentId */
	put_le(2, 4);				/* SessionId */
	put_le(0xffffffff, 4);			/* ExitStatus */
	put_le(0x1aa000, psz);			/* DirectoryTableBase */
	put_le(0xfffff8a000001230ULL, psz);	/* UserSID: TOKEN_USER, */
	put_le(0, psz);
	put(sid, sizeof(sid));			/* then S-1-5-18 */
	put("bash", 5);				/* ImageFileName */
	put(cmd, sizeof(cmd));			/* CommandLine */
	make_event(&er, 0x03, 1, 3, ptr32);
	t = info_of(&er, &err);
	if (!tap_eq(err, ERROR_SUCCESS, "%d-bit, ptr%d: Process/Start v3 described", BITS, psz * 8))
		return;
	tap_eq(t->DecodingSource, DecodingSourceWbem, "... DecodingSourceWbem");
	tap_eq(t->PropertyCount, 9, "... its 9 MOF properties");
	tap_ok(!strcmp(utf8((WCHAR *)((char *)t + t->TaskNameOffset)), "Process") &&
	       !strcmp(utf8((WCHAR *)((char *)t + t->OpcodeNameOffset)), "Start") &&
	       !strcmp(utf8((WCHAR *)((char *)t + t->ProviderNameOffset)), "MSNT_SystemTrace"),
	       "... task Process, opcode Start, provider MSNT_SystemTrace");
	tap_ok(!memcmp(&t->EventGuid, &er.EventHeader.ProviderId, 16),
	       "... EventGuid the class's GUID");
	tap_ok(!strcmp(utf8((WCHAR *)((char *)t + t->EventPropertyInfoArray[1].NameOffset)),
		       "ProcessId"), "... property 1 ProcessId");
	pd.PropertyName = (ULONGLONG)(uintptr_t)((char *)t +
						 t->EventPropertyInfoArray[1].NameOffset);
	pd.ArrayIndex = 0xFFFFFFFF;
	tap_eq(TdhGetProperty(&er, 0, NULL, 1, &pd, sizeof(pid), (PBYTE)&pid), ERROR_SUCCESS,
	       "... TdhGetProperty ProcessId");
	tap_eq(pid, 1234, "... its value");
	tap_eq(format_all(t, &er, psz, text, sizeof(text)), len,
	       "... every property formatted, to the last byte");
	snprintf(want, sizeof(want), "1234|1|2|-1|0x1AA000|S-1-5-18|bash|bash -c");
	if (!tap_ok(strstr(text, want) != NULL, "... the values"))
		printf("# got %s\n# want ...%s\n", text, want);
	free(t);
}

static void test_no_sid(void)
{
	char text[1024];
	TRACE_EVENT_INFO *t;
	EVENT_RECORD er;
	ULONG err;

	len = 0;
	put_le(1, 8);
	put_le(7, 4);
	put_le(1, 4);
	put_le(2, 4);
	put_le(0, 4);
	put_le(0, 8);
	put_le(0, 4);		/* no SID: a zero ULONG alone */
	put("x", 2);
	put("\0\0", 2);
	make_event(&er, 0x03, 3, 3, 0);
	t = info_of(&er, &err);
	if (!tap_eq(err, ERROR_SUCCESS, "%d-bit: Process/DCStart v3 without a SID described",
		    BITS))
		return;
	tap_eq(format_all(t, &er, 8, text, sizeof(text)), len,
	       "... the zero ULONG taken as the SID, the strings after it read");
	free(t);
}

static void test_stack(int ptr32)
{
	int psz = ptr32 ? 4 : 8, i;
	char text[1024];
	TRACE_EVENT_INFO *t;
	EVENT_RECORD er;
	ULONG err;

	len = 0;
	put_le(0x123456789ULL, 8);	/* EventTimeStamp */
	put_le(4, 4);			/* StackProcess */
	put_le(5, 4);			/* StackThread */
	for (i = 0; i < 3; i++)
		put_le(0x1000 + i, psz);
	make_event(&er, 0x18, 32, 2, ptr32);
	t = info_of(&er, &err);
	if (!tap_eq(err, ERROR_SUCCESS, "%d-bit, ptr%d: StackWalk/Stack described", BITS,
		    psz * 8))
		return;
	tap_eq(t->EventPropertyInfoArray[3].count, 3, "... a stack of 3 frames, by the size");
	tap_ok(t->EventPropertyInfoArray[3].Flags & PropertyParamFixedCount,
	       "... an array of fixed count");
	tap_eq(format_all(t, &er, psz, text, sizeof(text)), len, "... formatted to the end");
	tap_ok(strstr(text, "|0x1000|0x1001|0x1002") != NULL, "... the frames");
	free(t);
}

static void test_not_found(void)
{
	EVENT_RECORD er;
	ULONG size = 0;

	len = 8;
	make_event(&er, 0x03, 1, 3, 0);
	er.EventHeader.Flags &= ~EVENT_HEADER_FLAG_CLASSIC_HEADER;
	tap_eq(TdhGetEventInformation(&er, 0, NULL, NULL, &size), ERROR_NOT_FOUND,
	       "not classic: ERROR_NOT_FOUND");
	make_event(&er, 0x03, 1, 3, 0);
	er.EventHeader.ProviderId.Data1 ^= 0x10000;	/* the groups differ in the low bits */
	tap_eq(TdhGetEventInformation(&er, 0, NULL, NULL, &size), ERROR_NOT_FOUND,
	       "another class GUID: ERROR_NOT_FOUND");
	make_event(&er, 0x03, 200, 3, 0);
	tap_eq(TdhGetEventInformation(&er, 0, NULL, NULL, &size), ERROR_NOT_FOUND,
	       "an event type the class has not: ERROR_NOT_FOUND");
}

int main(void)
{
	test_process(0);
	test_process(1);
	test_no_sid();
	test_stack(0);
	test_stack(1);
	test_not_found();
	return tap_done();
}
