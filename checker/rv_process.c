// SPDX-License-Identifier: GPL-2.0-only
#include "eng.h"

#include "banned.h"

void rv_process_line(struct eng *e)
{
	(void)e;
}

void rv_process_final(struct eng *e)
{
	(void)e;
}

void rv_process_release(struct eng *e)
{
	(void)e;
}
