// SPDX-License-Identifier: GPL-2.0-only
#include "eng.h"

#include "banned.h"

void rv_uapi_line(struct eng *e)
{
	(void)e;
}

void rv_uapi_final(struct eng *e)
{
	(void)e;
}

void rv_uapi_release(struct eng *e)
{
	(void)e;
}
