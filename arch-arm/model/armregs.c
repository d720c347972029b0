// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated ARM core's registers, and whether a condition passes
 * with its flags now: what the decoder (decode.c) and the calls
 * (emu.c) read and set.
 */

#include "model.h"

uint32_t reg(int r)
{
	uint32_t v;

	uc_reg_read(m.uc, r, &v);
	return v;
}

void set_reg(int r, uint32_t v)
{
	uc_reg_write(m.uc, r, &v);
}

/* the condition COND of an ARM or Thumb-2 instruction, with the CPSR now */
bool cond_passed(unsigned int cond)
{
	uint32_t psr = reg(UC_ARM_REG_CPSR);
	bool n = psr >> 31 & 1, z = psr >> 30 & 1;
	bool c = psr >> 29 & 1, v = psr >> 28 & 1, r;

	switch (cond >> 1) {
	case 0:
		r = z;
		break;
	case 1:
		r = c;
		break;
	case 2:
		r = n;
		break;
	case 3:
		r = v;
		break;
	case 4:
		r = c && !z;
		break;
	case 5:
		r = n == v;
		break;
	case 6:
		r = !z && n == v;
		break;
	default:
		return true;
	}
	return (cond & 1) ? !r : r;
}
