// SPDX-License-Identifier: LGPL-2.1
/*
 * What a manifest may name without defining it: winmeta.xml's (the Windows
 * SDK's Include\Winmeta.xml, as learn.microsoft.com's EventManifest schema
 * pages list it: "InputType Complex Type", "OutputType Complex Type",
 * LevelType, OpcodeType, TaskType, KeywordType, ChannelType).
 *
 * The input types are numbered as TDH_INTYPE (tdh.h says 1 to 25 are
 * winmeta.xml's); the counted ones' names are those of the SDK's
 * TraceLoggingProvider.h. Output types likewise are TDH_OUTTYPE's numbers.
 * Names are compared without regard to case, since Microsoft's pages spell
 * some two ways (xs:dateTime, xs:datetime).
 *
 * The predefined levels, opcodes, task, keywords and channels have the
 * values of winmeta.h (<nttrace/winmeta.h>). Their messages: the levels'
 * and opcodes' as Windows shows them (Event Viewer's "Information" for
 * win:Informational); the keywords', task's and channels', for which this
 * library has no source, are their names without "win:".
 */
#include <strings.h>

#include <nttrace/winmeta.h>

#include "tdh_man.h"

struct type_name {
	const char *name;
	USHORT value;
};

static const struct type_name in_types[] = {
	{ "win:UnicodeString", TDH_INTYPE_UNICODESTRING },
	{ "win:AnsiString", TDH_INTYPE_ANSISTRING },
	{ "win:Int8", TDH_INTYPE_INT8 },
	{ "win:UInt8", TDH_INTYPE_UINT8 },
	{ "win:Int16", TDH_INTYPE_INT16 },
	{ "win:UInt16", TDH_INTYPE_UINT16 },
	{ "win:Int32", TDH_INTYPE_INT32 },
	{ "win:UInt32", TDH_INTYPE_UINT32 },
	{ "win:Int64", TDH_INTYPE_INT64 },
	{ "win:UInt64", TDH_INTYPE_UINT64 },
	{ "win:Float", TDH_INTYPE_FLOAT },
	{ "win:Double", TDH_INTYPE_DOUBLE },
	{ "win:Boolean", TDH_INTYPE_BOOLEAN },
	{ "win:Binary", TDH_INTYPE_BINARY },
	{ "win:GUID", TDH_INTYPE_GUID },
	{ "win:Pointer", TDH_INTYPE_POINTER },
	{ "win:FILETIME", TDH_INTYPE_FILETIME },
	{ "win:SYSTEMTIME", TDH_INTYPE_SYSTEMTIME },
	{ "win:SID", TDH_INTYPE_SID },
	{ "win:HexInt32", TDH_INTYPE_HEXINT32 },
	{ "win:HexInt64", TDH_INTYPE_HEXINT64 },
	{ "win:CountedUnicodeString", TDH_INTYPE_MANIFEST_COUNTEDSTRING },
	{ "win:CountedAnsiString", TDH_INTYPE_MANIFEST_COUNTEDANSISTRING },
	{ "win:CountedBinary", TDH_INTYPE_MANIFEST_COUNTEDBINARY },
};

static const struct type_name out_types[] = {
	{ "xs:string", TDH_OUTTYPE_STRING },
	{ "xs:dateTime", TDH_OUTTYPE_DATETIME },
	{ "xs:byte", TDH_OUTTYPE_BYTE },
	{ "xs:unsignedByte", TDH_OUTTYPE_UNSIGNEDBYTE },
	{ "xs:short", TDH_OUTTYPE_SHORT },
	{ "xs:unsignedShort", TDH_OUTTYPE_UNSIGNEDSHORT },
	{ "xs:int", TDH_OUTTYPE_INT },
	{ "xs:unsignedInt", TDH_OUTTYPE_UNSIGNEDINT },
	{ "xs:long", TDH_OUTTYPE_LONG },
	{ "xs:unsignedLong", TDH_OUTTYPE_UNSIGNEDLONG },
	{ "xs:float", TDH_OUTTYPE_FLOAT },
	{ "xs:double", TDH_OUTTYPE_DOUBLE },
	{ "xs:boolean", TDH_OUTTYPE_BOOLEAN },
	{ "xs:GUID", TDH_OUTTYPE_GUID },
	{ "xs:hexBinary", TDH_OUTTYPE_HEXBINARY },
	{ "win:HexInt8", TDH_OUTTYPE_HEXINT8 },
	{ "win:HexInt16", TDH_OUTTYPE_HEXINT16 },
	{ "win:HexInt32", TDH_OUTTYPE_HEXINT32 },
	{ "win:HexInt64", TDH_OUTTYPE_HEXINT64 },
	{ "win:PID", TDH_OUTTYPE_PID },
	{ "win:TID", TDH_OUTTYPE_TID },
	{ "win:Port", TDH_OUTTYPE_PORT },
	{ "win:IPv4", TDH_OUTTYPE_IPV4 },
	{ "win:IPv6", TDH_OUTTYPE_IPV6 },
	{ "win:SocketAddress", TDH_OUTTYPE_SOCKETADDRESS },
	{ "win:CIMDateTime", TDH_OUTTYPE_CIMDATETIME },
	{ "win:ETWTIME", TDH_OUTTYPE_ETWTIME },
	{ "win:Xml", TDH_OUTTYPE_XML },
	{ "win:ErrorCode", TDH_OUTTYPE_ERRORCODE },
	{ "win:Win32Error", TDH_OUTTYPE_WIN32ERROR },
	{ "win:NTSTATUS", TDH_OUTTYPE_NTSTATUS },
	{ "win:HResult", TDH_OUTTYPE_HRESULT },
	{ "win:DateTimeCultureInsensitive", TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME },
	{ "win:Json", TDH_OUTTYPE_JSON },
	{ "win:Utf8", TDH_OUTTYPE_UTF8 },
	{ "win:Pkcs7WithTypeInfo", TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO },
	{ "win:CodePointer", TDH_OUTTYPE_CODE_POINTER },
	{ "win:DateTimeUtc", TDH_OUTTYPE_DATETIME_UTC },
};

int nttrace_man_number(const char *s, uint64_t max, uint64_t *v)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	uint64_t n = 0, base = hex ? 16 : 10;
	const char *p = hex ? s + 2 : s;

	if (!*p)
		return -1;
	for (; *p; p++) {
		unsigned int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (hex && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (hex && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return -1;
		if (n > (UINT64_MAX - d) / base)
			return -1;
		n = n * base + d;
	}
	if (n > max)
		return -1;
	*v = n;
	return 0;
}

static USHORT lookup(const struct type_name *t, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(t[i].name, name))
			return t[i].value;
	return 0;
}

USHORT nttrace_man_intype(const char *name)
{
	return lookup(in_types, sizeof(in_types) / sizeof(in_types[0]), name);
}

USHORT nttrace_man_outtype(const char *name)
{
	return lookup(out_types, sizeof(out_types) / sizeof(out_types[0]), name);
}

static const char *name_of(const struct type_name *t, size_t n, USHORT v)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

const char *nttrace_man_intype_name(USHORT v)
{
	return name_of(in_types, sizeof(in_types) / sizeof(in_types[0]), v);
}

const char *nttrace_man_outtype_name(USHORT v)
{
	return name_of(out_types, sizeof(out_types) / sizeof(out_types[0]), v);
}

#define IT(n, msg, v)	{ .name = (n), .message = (msg), .value = (v) }

static const struct nttrace_man_item levels[] = {
	IT("win:LogAlways", "Log Always", WINEVENT_LEVEL_LOG_ALWAYS),
	IT("win:Critical", "Critical", WINEVENT_LEVEL_CRITICAL),
	IT("win:Error", "Error", WINEVENT_LEVEL_ERROR),
	IT("win:Warning", "Warning", WINEVENT_LEVEL_WARNING),
	IT("win:Informational", "Information", WINEVENT_LEVEL_INFO),
	IT("win:Verbose", "Verbose", WINEVENT_LEVEL_VERBOSE),
};

static const struct nttrace_man_item tasks[] = {
	IT("win:None", "None", WINEVENT_TASK_NONE),
};

static const struct nttrace_man_item opcodes[] = {
	IT("win:Info", "Info", WINEVENT_OPCODE_INFO),
	IT("win:Start", "Start", WINEVENT_OPCODE_START),
	IT("win:Stop", "Stop", WINEVENT_OPCODE_STOP),
	IT("win:DC_Start", "DCStart", WINEVENT_OPCODE_DC_START),
	IT("win:DC_Stop", "DCStop", WINEVENT_OPCODE_DC_STOP),
	IT("win:Extension", "Extension", WINEVENT_OPCODE_EXTENSION),
	IT("win:Reply", "Reply", WINEVENT_OPCODE_REPLY),
	IT("win:Resume", "Resume", WINEVENT_OPCODE_RESUME),
	IT("win:Suspend", "Suspend", WINEVENT_OPCODE_SUSPEND),
	IT("win:Send", "Send", WINEVENT_OPCODE_SEND),
	IT("win:Receive", "Receive", WINEVENT_OPCODE_RECEIVE),
};

static const struct nttrace_man_item keywords[] = {
	IT("win:ResponseTime", "ResponseTime", WINEVENT_KEYWORD_RESPONSE_TIME),
	IT("win:WDIDiag", "WDIDiag", WINEVENT_KEYWORD_WDI_DIAG),
	IT("win:SQM", "SQM", WINEVENT_KEYWORD_SQM),
	IT("win:AuditFailure", "AuditFailure", WINEVENT_KEYWORD_AUDIT_FAILURE),
	IT("win:AuditSuccess", "AuditSuccess", WINEVENT_KEYWORD_AUDIT_SUCCESS),
	IT("win:CorrelationHint", "CorrelationHint", WINEVENT_KEYWORD_CORRELATION_HINT),
	IT("win:EventlogClassic", "EventlogClassic", WINEVENT_KEYWORD_EVENTLOG_CLASSIC),
};

/* Imported by name (<importChannel name="System" .../>). */
static const struct nttrace_man_item channels[] = {
	IT("TraceClassic", "TraceClassic", WINEVENT_CHANNEL_CLASSIC_TRACE),
	IT("System", "System", WINEVENT_CHANNEL_GLOBAL_SYSTEM),
	IT("Application", "Application", WINEVENT_CHANNEL_GLOBAL_APPLICATION),
	IT("Security", "Security", WINEVENT_CHANNEL_GLOBAL_SECURITY),
	IT("TraceLogging", "TraceLogging", WINEVENT_CHANNEL_TRACELOGGING),
	IT("ProviderMetadata", "ProviderMetadata", WINEVENT_CHANNEL_PROVIDERMETADATA),
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

static const struct nttrace_man_item *table(enum nttrace_man_kind kind, uint32_t *n)
{
	switch (kind) {
	case MAN_LEVEL:
		*n = N(levels);
		return levels;
	case MAN_TASK:
		*n = N(tasks);
		return tasks;
	case MAN_OPCODE:
		*n = N(opcodes);
		return opcodes;
	case MAN_KEYWORD:
		*n = N(keywords);
		return keywords;
	case MAN_CHANNEL:
		*n = N(channels);
		return channels;
	}
	*n = 0;
	return NULL;
}

const struct nttrace_man_item *nttrace_man_winmeta_at(enum nttrace_man_kind kind, uint32_t i)
{
	uint32_t n;
	const struct nttrace_man_item *t = table(kind, &n);

	return i < n ? &t[i] : NULL;
}

const struct nttrace_man_item *nttrace_man_winmeta(enum nttrace_man_kind kind, const char *name)
{
	const struct nttrace_man_item *it;
	uint32_t i;

	/* Channels are imported with their bare names, or win: ones. */
	if (kind == MAN_CHANNEL && !strncasecmp(name, "win:", 4))
		name += 4;
	for (i = 0; (it = nttrace_man_winmeta_at(kind, i)); i++)
		if (!strcasecmp(it->name, name))
			return it;
	return NULL;
}
