/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replacement choices both cache models make: which way of a set a
 * line that misses takes. Each model keeps its own state (a round-robin
 * pointer per set or per cache, the LFSR, the stamps) and calls these.
 */
#ifndef VICTIM_H
#define VICTIM_H

#include <stdint.h>

/* the first of a set's WAYS slots whose VALID flag is clear, or -1 */
static inline int first_invalid_way(const uint8_t *valid, unsigned int ways)
{
	unsigned int w;

	for (w = 0; w < ways; w++)
		if (!valid[w])
			return (int)w;
	return -1;
}

/* the next state of a 16-bit Fibonacci LFSR, taps 16 14 13 11 */
static inline uint32_t lfsr16_next(uint32_t l)
{
	return (l >> 1) | ((((l >> 0) ^ (l >> 2) ^ (l >> 3) ^ (l >> 5)) & 1) << 15);
}

/* the way of a set's WAYS slots with the oldest use STAMP */
static inline unsigned int lru_way(const unsigned long *stamp, unsigned int ways)
{
	unsigned int w, best = 0;

	for (w = 1; w < ways; w++)
		if (stamp[w] < stamp[best])
			best = w;
	return best;
}

#endif
