// SPDX-License-Identifier: MIT
/*
 * The test providers' GUIDs, as a Windows header declares them. Each
 * program includes <initguid.h> first, so that DEFINE_GUID defines them.
 */
#pragma once

#include <guiddef.h>

#define WINTEST_SESSION	L"NtWindowsTest"

/* {5f0c8a52-7d1e-4b7a-9a39-2c4e6b8d1f01}: the manifest-based provider. */
DEFINE_GUID(ManifestProvider, 0x5f0c8a52, 0x7d1e, 0x4b7a, 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x01);
/* {5f0c8a52-7d1e-4b7a-9a39-2c4e6b8d1f02}: the classic provider's control GUID. */
DEFINE_GUID(ClassicProvider, 0x5f0c8a52, 0x7d1e, 0x4b7a, 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x02);
/* {5f0c8a52-7d1e-4b7a-9a39-2c4e6b8d1f03}: its event class. */
DEFINE_GUID(ClassicEventClass, 0x5f0c8a52, 0x7d1e, 0x4b7a, 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x03);
/*
 * {5f0c8a52-7d1e-4b7a-9a39-2c4e6b8d1f04}: the TraceLogging provider
 * "NtWindowsTest.TraceLogging" (provider.c gives TRACELOGGING_DEFINE_PROVIDER
 * the same value).
 */
DEFINE_GUID(TraceLoggingProvider, 0x5f0c8a52, 0x7d1e, 0x4b7a, 0x9a, 0x39, 0x2c, 0x4e, 0x6b, 0x8d, 0x1f, 0x04);

/* What the providers write, which the consumer checks. */
#define WINTEST_MANIFEST_EVENT_ID	1
#define WINTEST_MESSAGE_NUMBER		7
#define WINTEST_GREETING		L"h\u00e9llo, w\u00f6rld"
