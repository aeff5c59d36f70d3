// SPDX-License-Identifier: LGPL-2.1
/* Placeholder: filled in by the consumer work (issue 16). */
