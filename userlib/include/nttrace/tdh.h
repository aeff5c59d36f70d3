/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: the Windows tdh.h (Trace Data Helper), with which a
 * consumer decodes the events ProcessTrace hands it: TdhGetEventInformation
 * describes an event's fields (TRACE_EVENT_INFO), TdhGetProperty fetches
 * one field's bytes, TdhFormatProperty turns a field into text.
 *
 * Names, values and layouts are Windows' (the Windows SDK's tdh.h as
 * Microsoft documents it on learn.microsoft.com, and mingw-w64's tdh.h for
 * the older part): one layout for 32- and 64-bit callers, but
 * PAYLOAD_FILTER_PREDICATE, which holds pointers. tests/host/tdh_layout.c
 * checks every offset. Strings in the structures are UTF-16 (WCHAR), at
 * offsets from the structure's start.
 *
 * What is decoded: TraceLogging events (their EVENT_HEADER_EXT_TYPE_EVENT_
 * SCHEMA_TL item; DecodingSource is DecodingSourceTlg), manifest-based
 * events whose manifest was loaded (TdhLoadManifest below; DecodingSource
 * is DecodingSourceXMLFile), and the classic events of the NT Kernel
 * Logger's MOF classes (DecodingSourceWbem, from the table `nttrace dump`
 * reads them with: TaskName the class, OpcodeName the event type,
 * ProviderName MSNT_SystemTrace), and message events (TraceMessage,
 * DoTraceMessage) given their formats by a TMF context or a decoding
 * handle (DecodingSourceWPP, below). Other events have no decoding
 * information here: ERROR_NOT_FOUND. The functions return a Win32 error
 * and also store it as
 * the thread's last error, as this library's functions do.
 */
#ifndef NTTRACE_TDH_H
#define NTTRACE_TDH_H

#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/winerror.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef ULONG TDHSTATUS;
#define TDHAPI TDHSTATUS WINAPI
typedef HANDLE TDH_HANDLE, *PTDH_HANDLE;

/*
 * How a field's bytes are laid out (EVENT_PROPERTY_INFO's InType). 1 to 25
 * are winmeta.xml's types (a TraceLogging field's type byte uses the same
 * numbers); from 300 WBEM's.
 */
enum _TDH_IN_TYPE {
	TDH_INTYPE_NULL = 0,
	TDH_INTYPE_UNICODESTRING = 1,	/* UTF-16, NUL-terminated or of length */
	TDH_INTYPE_ANSISTRING = 2,	/* bytes, NUL-terminated or of length */
	TDH_INTYPE_INT8 = 3,
	TDH_INTYPE_UINT8 = 4,
	TDH_INTYPE_INT16 = 5,
	TDH_INTYPE_UINT16 = 6,
	TDH_INTYPE_INT32 = 7,
	TDH_INTYPE_UINT32 = 8,
	TDH_INTYPE_INT64 = 9,
	TDH_INTYPE_UINT64 = 10,
	TDH_INTYPE_FLOAT = 11,
	TDH_INTYPE_DOUBLE = 12,
	TDH_INTYPE_BOOLEAN = 13,	/* 4 bytes, a Win32 BOOL */
	TDH_INTYPE_BINARY = 14,		/* length bytes (16 for OutType IPV6) */
	TDH_INTYPE_GUID = 15,
	TDH_INTYPE_POINTER = 16,	/* the event's pointer size */
	TDH_INTYPE_FILETIME = 17,
	TDH_INTYPE_SYSTEMTIME = 18,
	TDH_INTYPE_SID = 19,		/* 8 bytes and 4 per sub-authority */
	TDH_INTYPE_HEXINT32 = 20,
	TDH_INTYPE_HEXINT64 = 21,
	/* A UINT16 byte count, then that many bytes. */
	TDH_INTYPE_MANIFEST_COUNTEDSTRING = 22,
	TDH_INTYPE_MANIFEST_COUNTEDANSISTRING = 23,
	TDH_INTYPE_RESERVED24 = 24,
	TDH_INTYPE_MANIFEST_COUNTEDBINARY = 25,
	TDH_INTYPE_COUNTEDSTRING = 300,
	TDH_INTYPE_COUNTEDANSISTRING = 301,
	TDH_INTYPE_REVERSEDCOUNTEDSTRING = 302,	/* big-endian count */
	TDH_INTYPE_REVERSEDCOUNTEDANSISTRING = 303,
	TDH_INTYPE_NONNULLTERMINATEDSTRING = 304,	/* to the data's end */
	TDH_INTYPE_NONNULLTERMINATEDANSISTRING = 305,
	TDH_INTYPE_UNICODECHAR = 306,
	TDH_INTYPE_ANSICHAR = 307,
	TDH_INTYPE_SIZET = 308,		/* the event's pointer size */
	TDH_INTYPE_HEXDUMP = 309,	/* a UINT32 byte count, then the bytes */
	TDH_INTYPE_WBEMSID = 310,	/* a TOKEN_USER, then the SID */
};

/*
 * How a field is shown (OutType); TDH_OUTTYPE_NULL and combinations a
 * decoder does not know mean the InType's own way.
 */
enum _TDH_OUT_TYPE {
	TDH_OUTTYPE_NULL = 0,
	TDH_OUTTYPE_STRING = 1,
	TDH_OUTTYPE_DATETIME = 2,
	TDH_OUTTYPE_BYTE = 3,
	TDH_OUTTYPE_UNSIGNEDBYTE = 4,
	TDH_OUTTYPE_SHORT = 5,
	TDH_OUTTYPE_UNSIGNEDSHORT = 6,
	TDH_OUTTYPE_INT = 7,
	TDH_OUTTYPE_UNSIGNEDINT = 8,
	TDH_OUTTYPE_LONG = 9,
	TDH_OUTTYPE_UNSIGNEDLONG = 10,
	TDH_OUTTYPE_FLOAT = 11,
	TDH_OUTTYPE_DOUBLE = 12,
	TDH_OUTTYPE_BOOLEAN = 13,
	TDH_OUTTYPE_GUID = 14,
	TDH_OUTTYPE_HEXBINARY = 15,
	TDH_OUTTYPE_HEXINT8 = 16,
	TDH_OUTTYPE_HEXINT16 = 17,
	TDH_OUTTYPE_HEXINT32 = 18,
	TDH_OUTTYPE_HEXINT64 = 19,
	TDH_OUTTYPE_PID = 20,
	TDH_OUTTYPE_TID = 21,
	TDH_OUTTYPE_PORT = 22,		/* network byte order */
	TDH_OUTTYPE_IPV4 = 23,
	TDH_OUTTYPE_IPV6 = 24,
	TDH_OUTTYPE_SOCKETADDRESS = 25,
	TDH_OUTTYPE_CIMDATETIME = 26,
	TDH_OUTTYPE_ETWTIME = 27,
	TDH_OUTTYPE_XML = 28,
	TDH_OUTTYPE_ERRORCODE = 29,
	TDH_OUTTYPE_WIN32ERROR = 30,
	TDH_OUTTYPE_NTSTATUS = 31,
	TDH_OUTTYPE_HRESULT = 32,
	TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME = 33,
	TDH_OUTTYPE_JSON = 34,
	TDH_OUTTYPE_UTF8 = 35,
	TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO = 36,
	TDH_OUTTYPE_CODE_POINTER = 37,
	TDH_OUTTYPE_DATETIME_UTC = 38,
	TDH_OUTTYPE_REDUCEDSTRING = 300,
	TDH_OUTTYPE_NOPRINT = 301,
};
/* The SDK's misspelt name, kept for the sources that use it. */
#define TDH_OUTYTPE_ERRORCODE	TDH_OUTTYPE_ERRORCODE

/* EVENT_PROPERTY_INFO.Flags. */
typedef enum _PROPERTY_FLAGS {
	PropertyStruct = 0x1,		/* structType holds its members */
	PropertyParamLength = 0x2,	/* lengthPropertyIndex, not length */
	PropertyParamCount = 0x4,	/* countPropertyIndex, not count */
	PropertyWBEMXmlFragment = 0x8,
	PropertyParamFixedLength = 0x10,	/* length is fixed, even 0 */
	PropertyParamFixedCount = 0x20,	/* an array, even of count 1 */
	PropertyHasTags = 0x40,		/* Tags holds the field's tags */
	PropertyHasCustomSchema = 0x80,	/* customSchemaType applies */
} PROPERTY_FLAGS;

/* One field of an event (24 bytes). */
typedef struct _EVENT_PROPERTY_INFO {
	PROPERTY_FLAGS Flags;
	ULONG NameOffset;	/* from the TRACE_EVENT_INFO's start */
	union {
		struct {
			USHORT InType;		/* enum _TDH_IN_TYPE */
			USHORT OutType;		/* enum _TDH_OUT_TYPE */
			ULONG MapNameOffset;	/* 0: no value map */
		} nonStructType;
		struct {
			USHORT StructStartIndex;	/* its first member's index */
			USHORT NumOfStructMembers;
			ULONG padding;
		} structType;
		/*
		 * Data serialised by a protocol of its own (Bond, protocol
		 * buffers). CustomSchemaOffset points to a UINT16 protocol, a
		 * UINT16 length and that many bytes of schema.
		 */
		struct {
			USHORT InType;
			USHORT OutType;
			ULONG CustomSchemaOffset;
		} customSchemaType;
	};
	union {
		USHORT count;			/* elements; 1 for a scalar */
		USHORT countPropertyIndex;	/* PropertyParamCount */
	};
	union {
		USHORT length;			/* bytes (characters for UTF-16) */
		USHORT lengthPropertyIndex;	/* PropertyParamLength */
	};
	union {
		ULONG Reserved;
		struct {
			ULONG Tags : 28;	/* PropertyHasTags */
		};
	};
} EVENT_PROPERTY_INFO, *PEVENT_PROPERTY_INFO;

/* Where TRACE_EVENT_INFO's description came from. */
typedef enum _DECODING_SOURCE {
	DecodingSourceXMLFile = 0,	/* an instrumentation manifest */
	DecodingSourceWbem = 1,		/* a MOF class */
	DecodingSourceWPP = 2,		/* a TMF */
	DecodingSourceTlg = 3,		/* TraceLogging's metadata */
	DecodingSourceMax = 4,
} DECODING_SOURCE;

typedef enum _TEMPLATE_FLAGS {
	TEMPLATE_EVENT_DATA = 1,
	TEMPLATE_USER_DATA = 2,
	TEMPLATE_CONTROL_GUID = 4,	/* EventGuid is the control GUID */
} TEMPLATE_FLAGS;

/*
 * An event's description, as TdhGetEventInformation fills it: the fixed
 * part, PropertyCount EVENT_PROPERTY_INFO (the TopLevelPropertyCount
 * top-level fields first, structures' members after them), then the
 * strings the offsets point to (0: none). For TraceLogging events
 * ProviderGuid is the provider's (control) GUID, EventGuid is zero, and
 * TaskNameOffset and EventNameOffset both give the event's name.
 */
typedef struct _TRACE_EVENT_INFO {
	GUID ProviderGuid;
	GUID EventGuid;
	EVENT_DESCRIPTOR EventDescriptor;
	DECODING_SOURCE DecodingSource;
	ULONG ProviderNameOffset;
	ULONG LevelNameOffset;
	ULONG ChannelNameOffset;
	ULONG KeywordsNameOffset;	/* a list, ending in an empty string */
	ULONG TaskNameOffset;
	ULONG OpcodeNameOffset;
	ULONG EventMessageOffset;
	ULONG ProviderMessageOffset;
	ULONG BinaryXMLOffset;
	ULONG BinaryXMLSize;
	union {
		ULONG EventNameOffset;		/* manifest and TraceLogging */
		ULONG ActivityIDNameOffset;	/* WBEM */
	};
	union {
		ULONG EventAttributesOffset;	/* manifest */
		ULONG RelatedActivityIDNameOffset;	/* WBEM */
	};
	ULONG PropertyCount;
	ULONG TopLevelPropertyCount;
	union {
		TEMPLATE_FLAGS Flags;
		struct {
			ULONG Reserved : 4;	/* the TEMPLATE_FLAGS */
			ULONG Tags : 28;	/* the event's tags */
		};
	};
	EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} TRACE_EVENT_INFO, *PTRACE_EVENT_INFO;

/*
 * A step of the path to a field for TdhGetProperty: a top-level field's
 * name, then a member's of that structure, and so on. ArrayIndex picks
 * an element; ULONG_MAX (0xFFFFFFFF) asks for a whole array, or a
 * scalar.
 */
typedef struct _PROPERTY_DATA_DESCRIPTOR {
	ULONGLONG PropertyName;	/* the name's (LPCWSTR) address */
	ULONG ArrayIndex;
	ULONG Reserved;
} PROPERTY_DATA_DESCRIPTOR, *PPROPERTY_DATA_DESCRIPTOR;

/* Decoding parameters (TdhGetEventInformation, TdhGetProperty, ...). */
typedef enum _TDH_CONTEXT_TYPE {
	TDH_CONTEXT_WPP_TMFFILE = 0,		/* LPCWSTR: a format file or binary */
	TDH_CONTEXT_WPP_TMFSEARCHPATH = 1,	/* LPCWSTR: directories, ';' between */
	TDH_CONTEXT_WPP_GMT = 2,		/* 1: WPP times in UTC, else local */
	TDH_CONTEXT_POINTERSIZE = 3,		/* 4 or 8, when the header has none */
	TDH_CONTEXT_PDB_PATH = 4,		/* LPCWSTR: PDB files (not read) */
	TDH_CONTEXT_MAXIMUM = 5,
} TDH_CONTEXT_TYPE;

typedef struct _TDH_CONTEXT {
	ULONGLONG ParameterValue;	/* the value, or an LPCWSTR's address */
	TDH_CONTEXT_TYPE ParameterType;
	ULONG ParameterSize;		/* reserved: 0 */
} TDH_CONTEXT, *PTDH_CONTEXT;

/* Value maps of manifest fields (TdhGetEventMapInformation). */
typedef enum _MAP_FLAGS {
	EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP = 0x1,
	EVENTMAP_INFO_FLAG_MANIFEST_BITMAP = 0x2,
	EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP = 0x4,
	EVENTMAP_INFO_FLAG_WBEM_VALUEMAP = 0x8,
	EVENTMAP_INFO_FLAG_WBEM_BITMAP = 0x10,
	EVENTMAP_INFO_FLAG_WBEM_FLAG = 0x20,
	EVENTMAP_INFO_FLAG_WBEM_NO_MAP = 0x40,
} MAP_FLAGS;

typedef enum _MAP_VALUETYPE {
	EVENTMAP_ENTRY_VALUETYPE_ULONG = 0,
	EVENTMAP_ENTRY_VALUETYPE_STRING = 1,
} MAP_VALUETYPE;

typedef struct _EVENT_MAP_ENTRY {
	ULONG OutputOffset;
	union {
		ULONG Value;		/* value and bit maps */
		ULONG InputOffset;	/* pattern maps, WBEM string maps */
	};
} EVENT_MAP_ENTRY, *PEVENT_MAP_ENTRY;

typedef struct _EVENT_MAP_INFO {
	ULONG NameOffset;
	MAP_FLAGS Flag;
	ULONG EntryCount;
	union {
		MAP_VALUETYPE MapEntryValueType;
		ULONG FormatStringOffset;	/* pattern maps */
	};
	EVENT_MAP_ENTRY MapEntryArray[ANYSIZE_ARRAY];
} EVENT_MAP_INFO, *PEVENT_MAP_INFO;

/* Providers and their fields (TdhEnumerateProviders and the rest). */
typedef enum _EVENT_FIELD_TYPE {
	EventKeywordInformation = 0,
	EventLevelInformation = 1,
	EventChannelInformation = 2,
	EventTaskInformation = 3,
	EventOpcodeInformation = 4,
	EventInformationMax = 5,
} EVENT_FIELD_TYPE;

typedef struct _PROVIDER_FIELD_INFO {
	ULONG NameOffset;
	ULONG DescriptionOffset;
	ULONGLONG Value;
} PROVIDER_FIELD_INFO, *PPROVIDER_FIELD_INFO;

typedef struct _PROVIDER_FIELD_INFOARRAY {
	ULONG NumberOfElements;
	EVENT_FIELD_TYPE FieldType;
	PROVIDER_FIELD_INFO FieldInfoArray[ANYSIZE_ARRAY];
} PROVIDER_FIELD_INFOARRAY, *PPROVIDER_FIELD_INFOARRAY;

typedef struct _TRACE_PROVIDER_INFO {
	GUID ProviderGuid;
	ULONG SchemaSource;	/* 0: manifest, 1: MOF */
	ULONG ProviderNameOffset;
} TRACE_PROVIDER_INFO, *PTRACE_PROVIDER_INFO;

typedef struct _PROVIDER_ENUMERATION_INFO {
	ULONG NumberOfProviders;
	ULONG Reserved;
	TRACE_PROVIDER_INFO TraceProviderInfoArray[ANYSIZE_ARRAY];
} PROVIDER_ENUMERATION_INFO, *PPROVIDER_ENUMERATION_INFO;

typedef struct _PROVIDER_EVENT_INFO {
	ULONG NumberOfEvents;
	ULONG Reserved;
	EVENT_DESCRIPTOR EventDescriptorsArray[ANYSIZE_ARRAY];
} PROVIDER_EVENT_INFO, *PPROVIDER_EVENT_INFO;

typedef struct _PROVIDER_FILTER_INFO {
	UCHAR Id;
	UCHAR Version;
	ULONG MessageOffset;
	ULONG Reserved;
	ULONG PropertyCount;
	EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY];
} PROVIDER_FILTER_INFO, *PPROVIDER_FILTER_INFO;

/* Payload filters (TdhCreatePayloadFilter): field, operator, value(s). */
typedef enum _PAYLOAD_OPERATOR {
	PAYLOADFIELD_EQ = 0,		/* integers */
	PAYLOADFIELD_NE = 1,
	PAYLOADFIELD_LE = 2,
	PAYLOADFIELD_GT = 3,
	PAYLOADFIELD_LT = 4,
	PAYLOADFIELD_GE = 5,
	PAYLOADFIELD_BETWEEN = 6,	/* two values, both bounds included */
	PAYLOADFIELD_NOTBETWEEN = 7,
	PAYLOADFIELD_MODULO = 8,
	PAYLOADFIELD_CONTAINS = 20,	/* strings */
	PAYLOADFIELD_DOESNTCONTAIN = 21,
	PAYLOADFIELD_IS = 30,		/* strings and other values */
	PAYLOADFIELD_ISNOT = 31,
	PAYLOADFIELD_INVALID = 32,
} PAYLOAD_OPERATOR;

typedef struct _PAYLOAD_FILTER_PREDICATE {
	LPWSTR FieldName;
	USHORT CompareOp;	/* PAYLOAD_OPERATOR */
	LPWSTR Value;
} PAYLOAD_FILTER_PREDICATE, *PPAYLOAD_FILTER_PREDICATE;

#define MAX_PAYLOAD_PREDICATES	8

/*
 * Decoding (userlib/tdh/tdh.c, tdh_format.c). A size in and out is
 * in bytes; a buffer too small (or a size of 0) gives
 * ERROR_INSUFFICIENT_BUFFER with the size needed. A message event
 * (EVENT_HEADER_FLAG_TRACE_MESSAGE) given a TDH_CONTEXT_WPP_TMFFILE or
 * _TMFSEARCHPATH context is described by its format (DecodingSourceWPP:
 * the WPP properties below); TdhGetProperty hands out those properties'
 * values, which are not in UserData (TdhFormatProperty over UserData does
 * not apply to them). The formats a set of paths loaded are kept for the
 * process's later calls.
 */
TDHSTATUS WINAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
					PTDH_CONTEXT TdhContext, PTRACE_EVENT_INFO Buffer,
					PULONG BufferSize);
TDHSTATUS WINAPI TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				    PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				    PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG *pPropertySize);
TDHSTATUS WINAPI TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG BufferSize,
				PBYTE pBuffer);
TDHSTATUS WINAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
				   ULONG PointerSize, USHORT PropertyInType,
				   USHORT PropertyOutType, USHORT PropertyLength,
				   USHORT UserDataLength, PBYTE UserData, PULONG BufferSize,
				   PWCHAR Buffer, PUSHORT UserDataConsumed);
TDHSTATUS WINAPI TdhGetEventMapInformation(PEVENT_RECORD pEvent, PWSTR pMapName,
					   PEVENT_MAP_INFO pBuffer, ULONG *pBufferSize);

/*
 * Instrumentation manifests (userlib/tdh/tdh_man*.c): the XML that
 * describes manifest-based providers (EventRegister/EventWrite), read with
 * expat. While one is loaded, TdhGetEventInformation decodes the events of
 * its providers (matched by provider GUID, Id and Version; DecodingSource
 * DecodingSourceXMLFile; events with a TraceLogging schema keep theirs),
 * TdhGetEventMapInformation hands out their value maps and bit maps, and
 * TdhFormatProperty shows a value through such a map.
 *
 * Read: providers (name, guid, message), events (value, version, level,
 * task, opcode, keywords, channel, template, message, name), levels,
 * tasks and their opcodes, opcodes, keywords, channels and imported ones,
 * valueMap and bitMap, templates of data (winmeta.xml's inTypes, win:
 * UnicodeString to win:HexInt64 and the three Counted ones; its outTypes;
 * count and length as numbers or as the names of earlier fields) and
 * struct (of data), the string
 * table of the locale's culture (LC_ALL, LC_MESSAGES, LANG; else en-US,
 * else the first) for $(string.ID) messages. Not read: patternMap,
 * filters, eventGUID and MOF-era attributes, the messages' %1 inserts
 * (handed out as written), an event's attributes (EventAttributesOffset).
 *
 * Errors as Microsoft documents them: ERROR_FILE_NOT_FOUND, ERROR_INVALID_
 * PARAMETER (NULL, empty, longer than PATH_MAX), ERROR_XML_PARSE_ERROR (no
 * well-formed XML, an unknown inType, a name that refers to nothing),
 * ERROR_RESOURCE_NOT_FOUND (a binary without a manifest). Loading one file
 * (by real path) or one buffer twice counts a reference: each load wants an
 * unload; unloading what is not loaded is ERROR_FILE_NOT_FOUND. Unlike
 * Windows:
 *  - TdhLoadManifestFromMemory and TdhUnloadManifestFromMemory take the
 *    manifest's XML text, or its compiled form, a WEVT_TEMPLATE resource
 *    (it starts with "CRIM"), as Windows takes it (its messages have no
 *    texts then: those are in the message table);
 *  - TdhLoadManifestFromBinary reads an ELF file's section named
 *    NTTRACE_TDH_MANIFEST_SECTION holding the manifest's XML, else the one
 *    named NTTRACE_TDH_WEVT_SECTION holding the compiled manifest (mc.exe's
 *    NAMETEMP.BIN) with the message table (MSG00001.bin) in the section
 *    NTTRACE_TDH_MESSAGE_SECTION, if any, which a build adds with
 *      objcopy --add-section .nttrace.manifest=my.man prog
 *    or
 *      objcopy --add-section .WEVT_TEMPLATE=myTEMP.BIN \
 *              --set-section-flags .WEVT_TEMPLATE=noload,readonly \
 *              --add-section .MESSAGETABLE=MSG00001.bin \
 *              --set-section-flags .MESSAGETABLE=noload,readonly prog
 *    (Windows reads a PE file's WEVT_TEMPLATE and MESSAGETABLE resources);
 *    a file starting with "CRIM" is a compiled manifest itself, its message
 *    table the file NAME_MSG00001.bin or else MSG00001.bin beside
 *    NAMETEMP.BIN. TdhUnloadManifest with the same path unloads it. A
 *    compiled manifest has no provider name, event names or template
 *    names (nor does Windows' WEVT_TEMPLATE); what does not make sense in
 *    it is ERROR_INVALID_DATA.
 * A library built without expat (the 32-bit one on a machine without
 * i386's libexpat1-dev) returns ERROR_NOT_SUPPORTED from every load of XML.
 */
#define NTTRACE_TDH_MANIFEST_SECTION	".nttrace.manifest"
#define NTTRACE_TDH_WEVT_SECTION	".WEVT_TEMPLATE"
#define NTTRACE_TDH_MESSAGE_SECTION	".MESSAGETABLE"

TDHSTATUS WINAPI TdhLoadManifest(PWSTR Manifest);
TDHSTATUS WINAPI TdhLoadManifestFromBinary(PWSTR BinaryPath);
TDHSTATUS WINAPI TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData);
TDHSTATUS WINAPI TdhUnloadManifest(PWSTR Manifest);
TDHSTATUS WINAPI TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData);

/*
 * Manifests TDH finds without a load, as Windows' TDH finds those `wevtutil
 * im` installed: the files and directories (their *.man and *.xml files,
 * by name) of NTTRACE_MANIFEST_PATH, separated by ':', then the installed
 * directory, nttrace_tdh_manifest_dir(): NTTRACE_MANIFEST_DIR if set, else
 * /var/lib/nttrace/manifests (`nttrace manifest install` writes there).
 * Read once per process, at TDH's first lookup of a provider; a manifest
 * loaded with TdhLoadManifest answers for its providers before them, and
 * the first one found before the rest. Both variables are ignored by a
 * set-user-ID program.
 */
const char *nttrace_tdh_manifest_dir(void);

/*
 * nttrace's: the providers of the manifest file @path, parsed alone (not
 * loaded): @fn is called with each one's GUID and name (UTF-8). The errors
 * of TdhLoadManifest.
 */
ULONG nttrace_tdh_manifest_providers(const char *path,
				     void (*fn)(void *ctx, const GUID *guid, const char *name),
				     void *ctx);

/*
 * What the manifests loaded say of their providers. TdhEnumerateProviders
 * lists their providers (SchemaSource 0), each GUID once; providers that
 * only registered have no schema here and are not listed, as on Windows
 * those without a manifest or MOF class are not. TdhEnumerateProviders-
 * ForDecodingSource gives the same for DecodingSourceXMLFile and an empty
 * list for the other sources. The field functions give a provider's own
 * levels, tasks, opcodes, keywords and channels, then winmeta.xml's that
 * its events use, with name and message (description); an opcode of a task
 * has the Value TdhQueryProviderFieldInformation takes for it (task in bits
 * 0-15, opcode in 16-23). TdhEnumerateManifestProviderEvents lists the
 * events' descriptors, TdhGetManifestEventInformation describes one (by Id
 * and Version). ERROR_NOT_FOUND for a provider no manifest loaded has.
 */
TDHSTATUS WINAPI TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer, ULONG *pBufferSize);
TDHSTATUS WINAPI TdhEnumerateProvidersForDecodingSource(DECODING_SOURCE filter,
							PROVIDER_ENUMERATION_INFO *buffer,
							ULONG bufferSize, ULONG *bufferRequired);
TDHSTATUS WINAPI TdhEnumerateProviderFieldInformation(LPGUID pGuid,
						      EVENT_FIELD_TYPE EventFieldType,
						      PPROVIDER_FIELD_INFOARRAY pBuffer,
						      ULONG *pBufferSize);
TDHSTATUS WINAPI TdhQueryProviderFieldInformation(LPGUID pGuid, ULONGLONG EventFieldValue,
						  EVENT_FIELD_TYPE EventFieldType,
						  PPROVIDER_FIELD_INFOARRAY pBuffer,
						  ULONG *pBufferSize);
TDHSTATUS WINAPI TdhEnumerateManifestProviderEvents(LPGUID ProviderGuid,
						    PPROVIDER_EVENT_INFO Buffer,
						    ULONG *BufferSize);
TDHSTATUS WINAPI TdhGetManifestEventInformation(LPGUID ProviderGuid,
						PEVENT_DESCRIPTOR EventDescriptor,
						PTRACE_EVENT_INFO Buffer, ULONG *BufferSize);

/* These four are there: userlib/filter/tdh_filter.c says how. */
TDHSTATUS WINAPI TdhCreatePayloadFilter(LPCGUID ProviderGuid,
					PCEVENT_DESCRIPTOR EventDescriptor,
					BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
					PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
					PVOID *PayloadFilter);
TDHSTATUS WINAPI TdhDeletePayloadFilter(PVOID *PayloadFilter);
TDHSTATUS WINAPI TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID *PayloadFilterPtrs,
					    PBOOLEAN EventMatchALLFlags,
					    PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);
TDHSTATUS WINAPI TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR
							EventFilterDescriptor);

/*
 * Not there yet: returns ERROR_NOT_SUPPORTED (userlib/consumer/
 * tdh_stub.c).
 */
TDHSTATUS WINAPI TdhEnumerateProviderFilters(LPGUID Guid, ULONG TdhContextCount,
					     PTDH_CONTEXT TdhContext, ULONG *FilterCount,
					     PPROVIDER_FILTER_INFO *Buffer, ULONG *BufferSize);

/*
 * WPP decoding (userlib/tdh/tdh_wpp*.c). A "TMF" is what <nttrace/
 * tmf.h> loads: a format file (`nttrace formats` writes them) or an ELF
 * binary with the nttrace_wpp section. A decoding handle holds one value
 * per TDH_CONTEXT_TYPE, set one TDH_CONTEXT at a time: TMFFILE a path (a
 * name without '/' is looked for in the TMFSEARCHPATH directories, then
 * TRACE_FORMAT_SEARCH_PATH's, then the current directory), TMFSEARCHPATH
 * directories separated by ';' (without TMFFILE, every file of theirs
 * that loads), GMT (SystemTime in UTC, else local time), POINTERSIZE;
 * PDB_PATH is ERROR_NOT_SUPPORTED. A TMF that is not there or does not
 * load is ERROR_INVALID_PARAMETER, the handle keeping what it had; so is a
 * handle that is not open, and, in TdhGetDecodingParameter, a type never
 * set (a string comes back as the handle's own copy).
 *
 * The WPP properties (PROPERTY_DATA_DESCRIPTOR's table), by
 * TdhGetWppProperty or TdhGetProperty: FormattedString (UTF-16: the
 * message as `nttrace dump --formats` renders it), SequenceNum (UINT32,
 * always 0: EVENT_RECORD carries none), FunctionName, ComponentName,
 * SubComponentName, FlagsName, LevelName (empty strings: nttrace's formats
 * have none), TraceGuid (the message GUID), GuidTypeName ("FILE:LINE"),
 * SystemTime (SYSTEMTIME of the time stamp). TdhGetWppMessage gives
 * FormattedString. A message without a format, an event that is no
 * message: ERROR_NOT_FOUND; a NULL Buffer with *BufferSize 0 asks for the
 * size.
 */
TDHSTATUS WINAPI TdhOpenDecodingHandle(PTDH_HANDLE Handle);
TDHSTATUS WINAPI TdhCloseDecodingHandle(TDH_HANDLE Handle);
TDHSTATUS WINAPI TdhSetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHSTATUS WINAPI TdhGetDecodingParameter(TDH_HANDLE Handle, PTDH_CONTEXT TdhContext);
TDHSTATUS WINAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				   PWSTR PropertyName, PULONG BufferSize, PBYTE Buffer);
TDHSTATUS WINAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				  PULONG BufferSize, PBYTE Buffer);

/*
 * The SDK's helpers for the strings of the structures above: the string
 * at an offset from the structure's start, NULL for offset 0.
 */
static inline PWSTR nttrace_tdh_string_(const void *base, ULONG offset)
{
	return offset ? (PWSTR)((const BYTE *)base + offset) : NULL;
}

static inline PWSTR TEI_PROVIDER_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->ProviderNameOffset);
}

static inline PWSTR TEI_LEVEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->LevelNameOffset);
}

static inline PWSTR TEI_CHANNEL_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->ChannelNameOffset);
}

static inline PWSTR TEI_KEYWORDS_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->KeywordsNameOffset);
}

static inline PWSTR TEI_TASK_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->TaskNameOffset);
}

static inline PWSTR TEI_OPCODE_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->OpcodeNameOffset);
}

static inline PWSTR TEI_EVENT_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->EventMessageOffset);
}

static inline PWSTR TEI_PROVIDER_MESSAGE(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->ProviderMessageOffset);
}

static inline PWSTR TEI_ACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->ActivityIDNameOffset);
}

static inline PWSTR TEI_RELATEDACTIVITYID_NAME(PTRACE_EVENT_INFO EventInfo)
{
	return nttrace_tdh_string_(EventInfo, EventInfo->RelatedActivityIDNameOffset);
}

static inline PWSTR TEI_PROPERTY_NAME(PTRACE_EVENT_INFO EventInfo,
				      PEVENT_PROPERTY_INFO Property)
{
	return nttrace_tdh_string_(EventInfo, Property->NameOffset);
}

static inline PWSTR TEI_MAP_NAME(PTRACE_EVENT_INFO EventInfo, PEVENT_PROPERTY_INFO Property)
{
	return nttrace_tdh_string_(EventInfo, Property->nonStructType.MapNameOffset);
}

static inline PWSTR EMI_MAP_NAME(PEVENT_MAP_INFO MapInfo)
{
	return nttrace_tdh_string_(MapInfo, MapInfo->NameOffset);
}

static inline PWSTR EMI_MAP_OUTPUT(PEVENT_MAP_INFO MapInfo, PEVENT_MAP_ENTRY Map)
{
	return nttrace_tdh_string_(MapInfo, Map->OutputOffset);
}

/* A pattern map's format and inputs; other maps have none. */
static inline PWSTR EMI_MAP_FORMAT(PEVENT_MAP_INFO MapInfo)
{
	if (!(MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP))
		return NULL;
	return nttrace_tdh_string_(MapInfo, MapInfo->FormatStringOffset);
}

static inline PWSTR EMI_MAP_INPUT(PEVENT_MAP_INFO MapInfo, PEVENT_MAP_ENTRY Map)
{
	if (!(MapInfo->Flag & EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP))
		return NULL;
	return nttrace_tdh_string_(MapInfo, Map->InputOffset);
}

static inline PWSTR PEI_PROVIDER_NAME(PPROVIDER_ENUMERATION_INFO ProviderEnum,
				      PTRACE_PROVIDER_INFO ProviderInfo)
{
	return nttrace_tdh_string_(ProviderEnum, ProviderInfo->ProviderNameOffset);
}

static inline PWSTR PFI_FIELD_NAME(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
				   PPROVIDER_FIELD_INFO FieldInfo)
{
	return nttrace_tdh_string_(FieldInfoArray, FieldInfo->NameOffset);
}

static inline PWSTR PFI_FIELD_MESSAGE(PPROVIDER_FIELD_INFOARRAY FieldInfoArray,
				      PPROVIDER_FIELD_INFO FieldInfo)
{
	return nttrace_tdh_string_(FieldInfoArray, FieldInfo->DescriptionOffset);
}

static inline PWSTR PFI_FILTER_MESSAGE(PPROVIDER_FILTER_INFO FilterInfo)
{
	return nttrace_tdh_string_(FilterInfo, FilterInfo->MessageOffset);
}

static inline PWSTR PFI_PROPERTY_NAME(PPROVIDER_FILTER_INFO FilterInfo,
				      PEVENT_PROPERTY_INFO Property)
{
	return nttrace_tdh_string_(FilterInfo, Property->NameOffset);
}

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_TDH_H */
