/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <initguid.h> for Windows sources: DEFINE_GUID from here on defines the
 * GUID, rather than declaring it (<guiddef.h>).
 */
#ifndef INITGUID
#define INITGUID
#endif
#include "guiddef.h"
