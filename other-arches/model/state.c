// SPDX-License-Identifier: GPL-2.0
/*
 * dmamodel's shared state (struct model, dmamodel.h) and the errors of
 * a run: what every other file uses, calling none of them, so that the
 * files call one another one way only (dmamodel.h names the order).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "dmamodel.h"

struct model m;

void die(const char *msg)
{
	fprintf(stderr, "dmamodel: %s\n", msg);
	exit(2);
}

/* keep the first error of a run in m.err and stop the emulation */
void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dma_vfail(m.uc, m.err, sizeof(m.err), fmt, ap);
	va_end(ap);
}
