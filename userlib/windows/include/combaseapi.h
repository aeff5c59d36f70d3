/* SPDX-License-Identifier: LGPL-2.1 */
/* <combaseapi.h> for Windows sources: <objbase.h>'s StringFromGUID2. */
#include "objbase.h"
