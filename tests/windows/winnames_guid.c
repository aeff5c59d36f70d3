// SPDX-License-Identifier: MIT
/*
 * winnames' second translation unit: it defines winnames.h's GUID, handle
 * and descriptor too, and says where its definitions are.
 */
#include "winnames.h"

EXTERN_C const GUID *WinNamesProviderThere(void)
{
	return &WinNamesProvider;
}

EXTERN_C REGHANDLE *WinNamesHandleThere(void)
{
	return &WinNamesHandle;
}

EXTERN_C const EVENT_DESCRIPTOR *WinNamesEventThere(void)
{
	return &WinNamesEvent;
}
