// SPDX-License-Identifier: GPL-2.0
/*
 * <nttrace/tdh.h> lays its structures out as Windows' tdh.h does, for 64-
 * and 32-bit callers. The numbers are Windows': those of the structures
 * mingw-w64's tdh.h (Debian's mingw-w64-common 10) has were checked by
 * compiling the same asserts against it with x86_64-w64-mingw32-gcc; the
 * newer members (customSchemaType, Tags, PROVIDER_EVENT_INFO, payload
 * filters) and every value are from the Windows SDK's tdh.h as Microsoft
 * documents it (learn.microsoft.com, "tdh.h"). Nothing holds a pointer but
 * PAYLOAD_FILTER_PREDICATE, and ULONGLONG is 8-byte aligned in 32-bit
 * builds too (as MSVC aligns it), so the rest is the same for both.
 * Compiled with -m64 and with -m32 by scripts/check; a wrong offset fails
 * the compile.
 */
#include <stddef.h>

#include <nttrace/tdh.h>
#include "layout.h"

SIZE(EVENT_PROPERTY_INFO, 24, 24);
AT(EVENT_PROPERTY_INFO, Flags, 0, 0);
AT(EVENT_PROPERTY_INFO, NameOffset, 4, 4);
AT(EVENT_PROPERTY_INFO, nonStructType.InType, 8, 8);
AT(EVENT_PROPERTY_INFO, nonStructType.OutType, 10, 10);
AT(EVENT_PROPERTY_INFO, nonStructType.MapNameOffset, 12, 12);
AT(EVENT_PROPERTY_INFO, structType.StructStartIndex, 8, 8);
AT(EVENT_PROPERTY_INFO, structType.NumOfStructMembers, 10, 10);
AT(EVENT_PROPERTY_INFO, structType.padding, 12, 12);
AT(EVENT_PROPERTY_INFO, customSchemaType.InType, 8, 8);
AT(EVENT_PROPERTY_INFO, customSchemaType.OutType, 10, 10);
AT(EVENT_PROPERTY_INFO, customSchemaType.CustomSchemaOffset, 12, 12);
AT(EVENT_PROPERTY_INFO, count, 16, 16);
AT(EVENT_PROPERTY_INFO, countPropertyIndex, 16, 16);
AT(EVENT_PROPERTY_INFO, length, 18, 18);
AT(EVENT_PROPERTY_INFO, lengthPropertyIndex, 18, 18);
AT(EVENT_PROPERTY_INFO, Reserved, 20, 20);

SIZE(TRACE_EVENT_INFO, 136, 136);
AT(TRACE_EVENT_INFO, ProviderGuid, 0, 0);
AT(TRACE_EVENT_INFO, EventGuid, 16, 16);
AT(TRACE_EVENT_INFO, EventDescriptor, 32, 32);
AT(TRACE_EVENT_INFO, DecodingSource, 48, 48);
AT(TRACE_EVENT_INFO, ProviderNameOffset, 52, 52);
AT(TRACE_EVENT_INFO, LevelNameOffset, 56, 56);
AT(TRACE_EVENT_INFO, ChannelNameOffset, 60, 60);
AT(TRACE_EVENT_INFO, KeywordsNameOffset, 64, 64);
AT(TRACE_EVENT_INFO, TaskNameOffset, 68, 68);
AT(TRACE_EVENT_INFO, OpcodeNameOffset, 72, 72);
AT(TRACE_EVENT_INFO, EventMessageOffset, 76, 76);
AT(TRACE_EVENT_INFO, ProviderMessageOffset, 80, 80);
AT(TRACE_EVENT_INFO, BinaryXMLOffset, 84, 84);
AT(TRACE_EVENT_INFO, BinaryXMLSize, 88, 88);
AT(TRACE_EVENT_INFO, EventNameOffset, 92, 92);
AT(TRACE_EVENT_INFO, ActivityIDNameOffset, 92, 92);
AT(TRACE_EVENT_INFO, EventAttributesOffset, 96, 96);
AT(TRACE_EVENT_INFO, RelatedActivityIDNameOffset, 96, 96);
AT(TRACE_EVENT_INFO, PropertyCount, 100, 100);
AT(TRACE_EVENT_INFO, TopLevelPropertyCount, 104, 104);
AT(TRACE_EVENT_INFO, Flags, 108, 108);
AT(TRACE_EVENT_INFO, EventPropertyInfoArray, 112, 112);

SIZE(PROPERTY_DATA_DESCRIPTOR, 16, 16);
AT(PROPERTY_DATA_DESCRIPTOR, PropertyName, 0, 0);
AT(PROPERTY_DATA_DESCRIPTOR, ArrayIndex, 8, 8);
AT(PROPERTY_DATA_DESCRIPTOR, Reserved, 12, 12);

SIZE(TDH_CONTEXT, 16, 16);
AT(TDH_CONTEXT, ParameterValue, 0, 0);
AT(TDH_CONTEXT, ParameterType, 8, 8);
AT(TDH_CONTEXT, ParameterSize, 12, 12);

SIZE(EVENT_MAP_ENTRY, 8, 8);
AT(EVENT_MAP_ENTRY, OutputOffset, 0, 0);
AT(EVENT_MAP_ENTRY, Value, 4, 4);
AT(EVENT_MAP_ENTRY, InputOffset, 4, 4);
SIZE(EVENT_MAP_INFO, 24, 24);
AT(EVENT_MAP_INFO, NameOffset, 0, 0);
AT(EVENT_MAP_INFO, Flag, 4, 4);
AT(EVENT_MAP_INFO, EntryCount, 8, 8);
AT(EVENT_MAP_INFO, MapEntryValueType, 12, 12);
AT(EVENT_MAP_INFO, FormatStringOffset, 12, 12);
AT(EVENT_MAP_INFO, MapEntryArray, 16, 16);

SIZE(PROVIDER_FIELD_INFO, 16, 16);
AT(PROVIDER_FIELD_INFO, NameOffset, 0, 0);
AT(PROVIDER_FIELD_INFO, DescriptionOffset, 4, 4);
AT(PROVIDER_FIELD_INFO, Value, 8, 8);
SIZE(PROVIDER_FIELD_INFOARRAY, 24, 24);
AT(PROVIDER_FIELD_INFOARRAY, NumberOfElements, 0, 0);
AT(PROVIDER_FIELD_INFOARRAY, FieldType, 4, 4);
AT(PROVIDER_FIELD_INFOARRAY, FieldInfoArray, 8, 8);

SIZE(TRACE_PROVIDER_INFO, 24, 24);
AT(TRACE_PROVIDER_INFO, SchemaSource, 16, 16);
AT(TRACE_PROVIDER_INFO, ProviderNameOffset, 20, 20);
SIZE(PROVIDER_ENUMERATION_INFO, 32, 32);
AT(PROVIDER_ENUMERATION_INFO, Reserved, 4, 4);
AT(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray, 8, 8);
SIZE(PROVIDER_EVENT_INFO, 24, 24);
AT(PROVIDER_EVENT_INFO, Reserved, 4, 4);
AT(PROVIDER_EVENT_INFO, EventDescriptorsArray, 8, 8);

SIZE(PROVIDER_FILTER_INFO, 40, 40);
AT(PROVIDER_FILTER_INFO, Version, 1, 1);
AT(PROVIDER_FILTER_INFO, MessageOffset, 4, 4);
AT(PROVIDER_FILTER_INFO, Reserved, 8, 8);
AT(PROVIDER_FILTER_INFO, PropertyCount, 12, 12);
AT(PROVIDER_FILTER_INFO, EventPropertyInfoArray, 16, 16);

SIZE(PAYLOAD_FILTER_PREDICATE, 24, 12);
AT(PAYLOAD_FILTER_PREDICATE, CompareOp, 8, 4);
AT(PAYLOAD_FILTER_PREDICATE, Value, 16, 8);

/* Values. */
_Static_assert(TDH_INTYPE_UNICODESTRING == 1 && TDH_INTYPE_INT8 == 3 &&
	       TDH_INTYPE_BOOLEAN == 13 && TDH_INTYPE_BINARY == 14 && TDH_INTYPE_GUID == 15 &&
	       TDH_INTYPE_POINTER == 16 && TDH_INTYPE_FILETIME == 17 &&
	       TDH_INTYPE_SYSTEMTIME == 18 && TDH_INTYPE_SID == 19 &&
	       TDH_INTYPE_HEXINT64 == 21 && TDH_INTYPE_MANIFEST_COUNTEDSTRING == 22 &&
	       TDH_INTYPE_RESERVED24 == 24 && TDH_INTYPE_MANIFEST_COUNTEDBINARY == 25 &&
	       TDH_INTYPE_COUNTEDSTRING == 300 && TDH_INTYPE_UNICODECHAR == 306 &&
	       TDH_INTYPE_WBEMSID == 310, "TDH_INTYPE_*");
_Static_assert(TDH_OUTTYPE_STRING == 1 && TDH_OUTTYPE_BOOLEAN == 13 &&
	       TDH_OUTTYPE_HEXBINARY == 15 && TDH_OUTTYPE_HEXINT8 == 16 &&
	       TDH_OUTTYPE_PID == 20 && TDH_OUTTYPE_PORT == 22 && TDH_OUTTYPE_IPV6 == 24 &&
	       TDH_OUTTYPE_XML == 28 && TDH_OUTTYPE_ERRORCODE == 29 &&
	       TDH_OUTYTPE_ERRORCODE == 29 && TDH_OUTTYPE_HRESULT == 32 &&
	       TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME == 33 && TDH_OUTTYPE_UTF8 == 35 &&
	       TDH_OUTTYPE_DATETIME_UTC == 38 && TDH_OUTTYPE_REDUCEDSTRING == 300 &&
	       TDH_OUTTYPE_NOPRINT == 301, "TDH_OUTTYPE_*");
_Static_assert(PropertyStruct == 1 && PropertyParamLength == 2 && PropertyParamCount == 4 &&
	       PropertyWBEMXmlFragment == 8 && PropertyParamFixedLength == 0x10 &&
	       PropertyParamFixedCount == 0x20 && PropertyHasTags == 0x40 &&
	       PropertyHasCustomSchema == 0x80, "PROPERTY_FLAGS");
_Static_assert(DecodingSourceXMLFile == 0 && DecodingSourceWbem == 1 &&
	       DecodingSourceWPP == 2 && DecodingSourceTlg == 3 && DecodingSourceMax == 4,
	       "DECODING_SOURCE");
_Static_assert(TEMPLATE_EVENT_DATA == 1 && TEMPLATE_USER_DATA == 2 &&
	       TEMPLATE_CONTROL_GUID == 4, "TEMPLATE_FLAGS");
_Static_assert(TDH_CONTEXT_WPP_TMFFILE == 0 && TDH_CONTEXT_WPP_TMFSEARCHPATH == 1 &&
	       TDH_CONTEXT_WPP_GMT == 2 && TDH_CONTEXT_POINTERSIZE == 3 &&
	       TDH_CONTEXT_PDB_PATH == 4 && TDH_CONTEXT_MAXIMUM == 5, "TDH_CONTEXT_TYPE");
_Static_assert(EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP == 1 &&
	       EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP == 4 &&
	       EVENTMAP_INFO_FLAG_WBEM_FLAG == 0x20 && EVENTMAP_INFO_FLAG_WBEM_NO_MAP == 0x40 &&
	       EVENTMAP_ENTRY_VALUETYPE_STRING == 1, "MAP_FLAGS, MAP_VALUETYPE");
_Static_assert(EventKeywordInformation == 0 && EventOpcodeInformation == 4 &&
	       EventInformationMax == 5, "EVENT_FIELD_TYPE");
_Static_assert(PAYLOADFIELD_EQ == 0 && PAYLOADFIELD_GE == 5 && PAYLOADFIELD_MODULO == 8 &&
	       PAYLOADFIELD_CONTAINS == 20 && PAYLOADFIELD_DOESNTCONTAIN == 21 &&
	       PAYLOADFIELD_IS == 30 && PAYLOADFIELD_INVALID == 32 &&
	       MAX_PAYLOAD_PREDICATES == 8, "PAYLOAD_OPERATOR");
_Static_assert(ERROR_INVALID_DATA == 13 && ERROR_NOT_FOUND == 1168 &&
	       ERROR_EVT_INVALID_EVENT_DATA == 15005, "TDH's Win32 errors");
