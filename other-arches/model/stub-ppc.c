// SPDX-License-Identifier: GPL-2.0
/*
 * What the 32-bit PowerPC object of the model (dma-noncoherent.o) needs
 * from the rest of the kernel, compiled with the kernel's own flags.
 */
#include <linux/mm.h>

struct page *mem_map;
