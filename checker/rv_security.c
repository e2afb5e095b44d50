// SPDX-License-Identifier: GPL-2.0-only
#include "eng.h"

#include "banned.h"

void rv_security_line(struct eng *e)
{
	(void)e;
}

void rv_security_final(struct eng *e)
{
	(void)e;
}

void rv_security_release(struct eng *e)
{
	(void)e;
}
