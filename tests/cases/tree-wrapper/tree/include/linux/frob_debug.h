/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FROB_DEBUG_H
#define _LINUX_FROB_DEBUG_H

#define FROB_BUG_ON(cond)	BUG_ON(cond)
#define FROB_ASSERT(cond) \
	do { \
		if (!(cond)) \
			FROB_BUG_ON(1); \
	} while (0)

#endif
