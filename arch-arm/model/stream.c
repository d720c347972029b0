// SPDX-License-Identifier: GPL-2.0
/*
 * Write streaming ("read allocate mode") of the cores that have it, as
 * their documentation describes it: a write-allocate L1 that sees whole
 * lines written before their linefills complete on a number of linefills
 * in a row stops allocating on write misses, which then go to memory;
 * loads still allocate. It allocates on writes again when a write burst
 * to memory does not cover a whole line, or when a load reads the line
 * being written to memory.
 *
 * The model's reading of "before the linefill completed": every byte of
 * the line written, by stores to that line only, before the next write
 * miss; a load of the line first completes its linefill.
 */

#include <stdint.h>
#include <string.h>
#include "model.h"

static const struct {
	const char *core;
	unsigned int lines;	/* full-line linefills in a row that switch */
	const char *source;
} streamers[] = {
	{ "cortex-a7", 3,
	  "Arm knowledge article ka16133 (Cortex-A7): L1 read allocate mode after 3 consecutive cache lines written before their linefills completed; left on a non-full-line write burst or a load of the line being written" },
	{ "cortex-m7", 3,
	  "Cortex-M7 TRM (ARM DDI 0489F) 5.9.1, dynamic read allocate mode: three consecutive linefills; left on a write burst that is not a full line or a load of the line being written to memory" },
};

static struct {
	unsigned int lines;		/* 0: the core does not stream */
	bool on;			/* read allocate mode */
	unsigned int run;		/* full-line linefills in a row */
	uint32_t line;			/* the linefill, or the burst, in progress */
	uint64_t mask;			/* its bytes written so far */
	bool open;
} st;

const char *stream_source(const char *core)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(streamers); i++)
		if (!strcmp(streamers[i].core, core))
			return streamers[i].source;
	return NULL;
}

void stream_reset(void)
{
	size_t i;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < ARRAY_SIZE(streamers); i++)
		if (!strcmp(streamers[i].core, m.core->name) && m.alloc == AL_WRITE &&
		    !m.no_stream)
			st.lines = streamers[i].lines;
}

static bool full(void)
{
	return st.open && st.mask == (m.line == 64 ? ~0ull : (1ull << m.line) - 1);
}

/*
 * A write miss at A in a write-allocate cache: false when the line is
 * allocated as usual, true when the write goes to memory instead.
 */
bool stream_write_miss(uint32_t a)
{
	uint32_t line = a & ~(m.line - 1);

	if (!st.lines)
		return false;
	if (st.on) {
		/* a burst to memory that was not a whole line ends it */
		if (st.open && st.line != line && !full()) {
			st.on = false;
			st.run = 0;
			st.open = false;
		}
	} else if (st.open && st.line != line) {
		st.run = full() ? st.run + 1 : 0;
		if (st.run >= st.lines) {
			st.on = true;
			m.c.streamed++;
		}
	}
	if (!st.open || st.line != line) {
		st.line = line;
		st.mask = 0;
		st.open = true;
	}
	return st.on;
}

/* every store: the bytes of the linefill or burst in progress */
void stream_store(uint32_t a)
{
	if (st.lines && st.open && (a & ~(m.line - 1)) == st.line)
		st.mask |= 1ull << (a & (m.line - 1));
}

/* every load: one of the line in progress completes it, or ends the mode */
void stream_load(uint32_t a)
{
	if (!st.lines || !st.open || (a & ~(m.line - 1)) != st.line)
		return;
	st.on = false;
	st.run = 0;
	st.open = false;
}
