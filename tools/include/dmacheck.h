/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ARM cache model (arch-arm/model/) and the model of the other
 * architectures (other-arches/model/) share, kept here where both take it
 * from (each puts tools/include on its include path): the ELF file of the kernel
 * objects (reading it, loading it into Unicorn, its symbols, in either
 * byte order), the scenarios and their checks (which bytes the device
 * wrote, which are the CPU's neighbours of the buffer, what a byte read
 * back after unmap says), and the errors of a run and of a call.
 * static inline, so that each model compiles it without a file of its
 * own.
 */
#ifndef DMACHECK_H
#define DMACHECK_H

#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define DMA_FROM_DEVICE	2
#define SENTINEL	0x00	/* what the CPU wrote, as usbfs zeroing */
#define NEIGHBOUR	0x4e	/* CPU data next to the buffer */

/* what the device writes at A */
static inline uint8_t devdata(uint32_t a)
{
	return 0xd0 | ((a >> 4) & 0xf);
}

/* what memory held at A before the CPU wrote it */
static inline uint8_t stale(uint32_t a)
{
	return 0xa0 | (a & 0xf);
}

/* ---------------------------------------------------------------- */
/* The checks of a scenario                                         */

struct scenario {
	const char *name;
	uint32_t off, size;
	bool dirty, neighbours;
	unsigned int chunk, devlen;	/* device writes devlen of each chunk */
	unsigned int reps;	/* buffers one after another (0: one) */
	bool warm;		/* the CPU read the buffer before writing it (ARM) */
};

struct dma_check {
	uint32_t lo, hi;		/* the buffer */
	uint32_t nlo, nhi;		/* from the line before it to the one after */
	unsigned int chunk, devlen;	/* device writes devlen of each chunk */
	bool neighbours;		/* the CPU wrote the lines either side */
};

enum dma_verdict { DV_OK, DV_NEIGH, DV_DEVWRONG, DV_LOST, DV_EXPOSED };

/* the checks of scenario S on its buffer at LO, with lines of LINE bytes */
static inline struct dma_check dma_check(const struct scenario *s,
					 uint32_t lo, unsigned int line)
{
	struct dma_check k = { lo, lo + s->size, 0, 0, s->chunk, s->devlen,
			       s->neighbours };

	k.nlo = (lo & ~(line - 1)) - line;
	k.nhi = ((k.hi + line - 1) & ~(line - 1)) + line;
	return k;
}

static inline bool dev_wrote(const struct dma_check *k, uint32_t a)
{
	return k->chunk && (a - k->lo) % k->chunk < k->devlen;
}

static inline bool is_neighbour(const struct dma_check *k, uint32_t a)
{
	return k->neighbours && ((a >= k->nlo && a < k->lo) ||
				 (a >= k->hi && a < k->nhi));
}

/* the CPU writes NEIGHBOUR to the lines either side of the buffer */
static inline void dma_write_neighbours(const struct dma_check *k,
					void (*write)(uint32_t a, uint8_t v))
{
	uint32_t a;

	for (a = k->nlo; a < k->nhi; a++)
		if (is_neighbour(k, a))
			write(a, NEIGHBOUR);
}

/*
 * What V, read back at A after unmap, says; WANT is what the CPU had
 * there (WANT[0] is the byte at the buffer's start).
 */
static inline enum dma_verdict dma_verdict(const struct dma_check *k,
					   uint32_t a, uint8_t v,
					   const uint8_t *want)
{
	if (a < k->lo || a >= k->hi)
		return is_neighbour(k, a) && v != NEIGHBOUR ? DV_NEIGH : DV_OK;
	if (dev_wrote(k, a))
		return v != devdata(a) ? DV_DEVWRONG : DV_OK;
	if (v == want[a - k->lo])
		return DV_OK;
	return v == stale(a) ? DV_EXPOSED : DV_LOST;
}

/* add verdict V to a scenario's counts (an exposed byte is lost too) */
static inline void dma_count(enum dma_verdict v, unsigned long *lost,
			     unsigned long *exposed, unsigned long *devwrong,
			     unsigned long *neigh)
{
	*lost += v == DV_LOST || v == DV_EXPOSED;
	*exposed += v == DV_EXPOSED;
	*devwrong += v == DV_DEVWRONG;
	*neigh += v == DV_NEIGH;
}

/*
 * The end of a scenario run: its error line (the error then cleared) and
 * false, or its counts, printed by PRINT, and true.
 */
static inline bool dma_result(bool ok, const char *name, char *err,
			      void (*print)(const char *name))
{
	if (!ok) {
		printf("%s error=\"%s\"\n", name, err);
		err[0] = 0;
		return false;
	}
	print(name);
	return true;
}

/*
 * After uc_emu_start() returned E with the CPU at PC: true if the call
 * returned to RET (PC & MASK), else false with the error in ERR (SIZE
 * bytes), unless ERR already holds one.
 */
static inline bool dma_returned(uc_err e, uint32_t pc, uint32_t mask,
				uint32_t ret, char *err, size_t size)
{
	if (err[0])
		return false;
	if (e) {
		snprintf(err, size, "emulation error '%s' at pc 0x%08x",
			 uc_strerror(e), pc);
		return false;
	}
	if ((pc & mask) != ret) {
		snprintf(err, size, "did not return (pc 0x%08x)", pc);
		return false;
	}
	return true;
}

/* keep the first error of a run in ERR (SIZE bytes) and stop UC */
static inline void dma_vfail(uc_engine *uc, char *err, size_t size,
			     const char *fmt, va_list ap)
{
	if (!err[0])
		vsnprintf(err, size, fmt, ap);
	uc_emu_stop(uc);
}

/* ---------------------------------------------------------------- */
/* The ELF file, in the byte order of its header (BE: big-endian)   */

static inline uint32_t elf_rd32(const void *q, bool be)
{
	const uint8_t *p = q;

	if (be)
		return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

static inline uint16_t elf_rd16(const void *q, bool be)
{
	const uint8_t *p = q;

	return be ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

/* read the file PATH into *ELF; NULL, or what went wrong */
static inline const char *elf_read(const char *path, uint8_t **elf,
				   size_t *size)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return "cannot open the ELF file";
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	rewind(f);
	*elf = malloc(*size);
	if (!*elf || fread(*elf, 1, *size, f) != *size) {
		fclose(f);
		return "cannot read the ELF file";
	}
	fclose(f);
	return NULL;
}

/*
 * Map the pages of ELF's loadable segments in UC and copy them there;
 * their page-aligned span in *LO, *HI. NULL, or what went wrong.
 */
static inline const char *elf_load(uc_engine *uc, const uint8_t *elf,
				   bool be, uint32_t *lo, uint32_t *hi)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)elf;
	uint32_t phoff = elf_rd32(&eh->e_phoff, be);
	unsigned int i, phnum = elf_rd16(&eh->e_phnum, be);
	const Elf32_Phdr *ph = (const Elf32_Phdr *)(elf + phoff);

	*lo = ~0u;
	*hi = 0;
	for (i = 0; i < phnum; i++) {
		uint32_t va = elf_rd32(&ph[i].p_vaddr, be);
		uint32_t msz = elf_rd32(&ph[i].p_memsz, be);

		if (elf_rd32(&ph[i].p_type, be) != PT_LOAD || !msz)
			continue;
		if (va < *lo)
			*lo = va;
		if (va + msz > *hi)
			*hi = va + msz;
	}
	if (*lo >= *hi)
		return "no loadable segment";
	*lo &= ~0xfffu;
	*hi = (*hi + 0xfff) & ~0xfffu;
	if (uc_mem_map(uc, *lo, *hi - *lo, UC_PROT_ALL))
		return "cannot map the code";
	for (i = 0; i < phnum; i++)
		if (elf_rd32(&ph[i].p_type, be) == PT_LOAD &&
		    elf_rd32(&ph[i].p_filesz, be))
			uc_mem_write(uc, elf_rd32(&ph[i].p_vaddr, be),
				     elf + elf_rd32(&ph[i].p_offset, be),
				     elf_rd32(&ph[i].p_filesz, be));
	return NULL;
}

/* the value of the defined symbol NAME in *VAL; false if there is none */
static inline bool elf_sym(const uint8_t *elf, bool be, const char *name,
			   uint32_t *val)
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)elf;
	const Elf32_Shdr *sh = (const Elf32_Shdr *)(elf + elf_rd32(&eh->e_shoff, be));
	unsigned int i, shnum = elf_rd16(&eh->e_shnum, be);

	for (i = 0; i < shnum; i++) {
		const Elf32_Sym *s;
		const char *str;
		uint32_t n, j;

		if (elf_rd32(&sh[i].sh_type, be) != SHT_SYMTAB)
			continue;
		s = (const Elf32_Sym *)(elf + elf_rd32(&sh[i].sh_offset, be));
		str = (const char *)elf +
		      elf_rd32(&sh[elf_rd32(&sh[i].sh_link, be)].sh_offset, be);
		n = elf_rd32(&sh[i].sh_size, be) / sizeof(*s);
		for (j = 0; j < n; j++)
			if (elf_rd16(&s[j].st_shndx, be) != SHN_UNDEF &&
			    !strcmp(str + elf_rd32(&s[j].st_name, be), name)) {
				*val = elf_rd32(&s[j].st_value, be);
				return true;
			}
	}
	return false;
}

#endif
