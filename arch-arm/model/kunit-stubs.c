// SPDX-License-Identifier: GPL-2.0
/*
 * What kernel/dma/mapping_kunit.o takes from KUnit and the rest of the
 * kernel when cachemodel --suite runs it: arch-arm/model/run compiles this file
 * with the kbuild command recorded for the configuration's dma-mapping.o
 * and links it with the suite's object, the kernel's DMA mapping code
 * (kernel/dma/mapping.o, direct.o), arch/arm/mm/dma-mapping.o, the cache
 * backend and the kernel's memset()/memcpy().
 *
 * Only allocation and KUnit's bookkeeping are stubbed: kmalloc() hands
 * out the modelled window, through the modelled cache; a failed
 * expectation is counted (the bytes of a failed "wrong == 0" or "lost ==
 * 0" expectation summed); an assertion or a skip ends the case at a trap
 * the model catches. vmap() returns the window's device alias.
 */
#include <kunit/assert.h>
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dmaengine.h>
#include <linux/memblock.h>
#include <linux/scatterlist.h>
#include <linux/swiotlb.h>
#include <linux/vmalloc.h>

/* set by the model: kmalloc()'s window, and the offset to its alias */
unsigned long model_heap_lo, model_heap_hi, model_alias;
/* read by the model after each case */
unsigned int model_failed, model_aborted, model_status, model_warned;
unsigned long long model_wrong;
const char *model_case;
char model_desc[KUNIT_PARAM_DESC_SIZE];

static unsigned long heap;
static struct kunit test;
static struct device dev;
#ifdef CONFIG_SWIOTLB
static struct io_tlb_mem tlb;	/* no bouncing: force_bounce and nslabs 0 */
#endif

#define MAX_ACTIONS	64
static struct {
	kunit_action_t *fn;
	void *ctx;
} actions[MAX_ACTIONS];
static unsigned int nactions;

/* The case ended early, at an assertion or a skip: the model stops here. */
static void __noreturn model_abort(void)
{
	model_aborted = 1;
	model_status = test.status;
	__builtin_trap();
}

void __noreturn __kunit_abort(struct kunit *t)
{
	model_abort();
}

void __noreturn kunit_try_catch_throw(struct kunit_try_catch *tc)
{
	model_abort();
}

void __kunit_do_failed_assertion(struct kunit *t, const struct kunit_loc *loc,
				 enum kunit_assert_type type,
				 const struct kunit_assert *assert,
				 assert_format_t assert_format,
				 const char *fmt, ...)
{
	const struct kunit_binary_assert *b;

	model_failed++;
	t->status = KUNIT_FAILURE;
	if (assert_format != kunit_binary_assert_format)
		return;
	/* the suite's counts: expect_bytes()'s "wrong" and the rounds' "lost" */
	b = container_of(assert, struct kunit_binary_assert, assert);
	if ((!strcmp(b->text->left_text, "wrong") || !strcmp(b->text->left_text, "lost")) &&
	    !strcmp(b->text->operation, "==") && !b->right_value)
		model_wrong += b->left_value;
}

/* Only their addresses are used: the model prints no messages. */
#define FORMAT_STUB(name)						\
void name(const struct kunit_assert *assert,				\
	  const struct va_format *message, struct string_stream *stream) \
{									\
}

FORMAT_STUB(kunit_fail_assert_format)
FORMAT_STUB(kunit_unary_assert_format)
FORMAT_STUB(kunit_ptr_not_err_assert_format)
FORMAT_STUB(kunit_binary_assert_format)
FORMAT_STUB(kunit_binary_ptr_assert_format)

/* kmalloc()'s alignment: a power of two up to a page to itself */
void *kunit_kmalloc_array(struct kunit *t, size_t n, size_t size, gfp_t gfp)
{
	unsigned long align = ARCH_KMALLOC_MINALIGN, p;

	size *= n;
	if (is_power_of_2(size) && size <= 2 * PAGE_SIZE)
		align = max_t(unsigned long, size, align);
	else if (size > PAGE_SIZE)
		align = PAGE_SIZE;
	p = ALIGN(heap, align);
	if (p + size > model_heap_hi)
		return NULL;
	heap = p + size;
	if (gfp & __GFP_ZERO)
		memset((void *)p, 0, size);
	return (void *)p;
}

void kunit_kfree(struct kunit *t, const void *ptr) { }

/* a released action's slot is freed; the free slots at the top are reused */
int kunit_add_action_or_reset(struct kunit *t, kunit_action_t *fn, void *ctx)
{
	while (nactions && !actions[nactions - 1].fn)
		nactions--;
	if (nactions == MAX_ACTIONS) {
		fn(ctx);
		return -ENOMEM;
	}
	actions[nactions].fn = fn;
	actions[nactions++].ctx = ctx;
	return 0;
}

void kunit_release_action(struct kunit *t, kunit_action_t *fn, void *ctx)
{
	unsigned int i = nactions;

	while (i--) {
		if (actions[i].fn != fn || actions[i].ctx != ctx)
			continue;
		actions[i].fn = NULL;
		fn(ctx);
		return;
	}
}

/* a device as kunit_device_register() makes it: no DMA ops, not coherent */
struct device *kunit_device_register(struct kunit *t, const char *name)
{
	memset(&dev, 0, sizeof(dev));
#ifdef CONFIG_SWIOTLB
	dev.dma_io_tlb_mem = &tlb;
#endif
	return &dev;
}

#ifdef CONFIG_DMA_ENGINE
struct dma_chan *__dma_request_channel(const dma_cap_mask_t *mask,
				       dma_filter_fn fn, void *fn_param,
				       struct device_node *np)
{
	return NULL;
}
#endif

/* the device's view of the window: pages of the window are contiguous */
void *vmap(struct page **pages, unsigned int count, unsigned long flags,
	   pgprot_t prot)
{
	return (void *)(unsigned long)(page_to_phys(pages[0]) + model_alias);
}

void vunmap(const void *addr) { }

#ifdef CONFIG_SWIOTLB
bool is_swiotlb_active(struct device *d)
{
	return false;
}
#endif

/* The rest of the kernel, as much of it as the cases' paths reach. */
unsigned long __stack_chk_guard = 0x5a5aa5a5;
unsigned long max_pfn, min_low_pfn;	/* set by the model */
atomic_t __num_online_cpus = ATOMIC_INIT(1);

/* the cases' seeds: a new one every call, the same in every run */
u32 get_random_u32(void)
{
	static u32 x = 0x2545f491;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

void __noreturn __stack_chk_fail(void)
{
	__builtin_trap();
}

#ifdef CONFIG_ARM_HEAVY_MB
void arm_heavy_mb(void)
{
	dsb();
}
#endif

#ifdef CONFIG_MMU
bool is_vmalloc_addr(const void *x)
{
	return false;
}
#endif

const char *dev_driver_string(const struct device *d)
{
	return "";
}

void warn_slowpath_fmt(const char *file, const int line, unsigned int taint,
		       const char *fmt, ...)
{
	model_warned++;
}

int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp)
{
	table->sgl = kunit_kmalloc_array(&test, nents, sizeof(*table->sgl),
					 gfp | __GFP_ZERO);
	if (!table->sgl)
		return -ENOMEM;
	sg_mark_end(&table->sgl[nents - 1]);
	table->nents = nents;
	table->orig_nents = nents;
	return 0;
}

void sg_free_table(struct sg_table *table) { }

/* An inline of <linux/scatterlist.h> since 7.x (suite.py tells). */
#ifndef MODEL_SG_NEXT_INLINE
struct scatterlist *sg_next(struct scatterlist *sg)
{
	return sg_is_last(sg) ? NULL : sg + 1;
}
#endif

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int _printk(const char *fmt, ...)
{
	return 0;
}

void kunit_log_append(struct string_stream *log, const char *fmt, ...) { }

/* the case's log line and a skip's reason are not kept: an empty string */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	if (size)
		buf[0] = '\0';
	return 0;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	return vscnprintf(buf, size, fmt, (va_list){ 0 });
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	return 0;
}

ssize_t sized_strscpy(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	if (size)
		dst[i] = '\0';
	return i;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

#if defined(CONFIG_SPARSEMEM) && !defined(CONFIG_SPARSEMEM_VMEMMAP)
#ifdef CONFIG_SPARSEMEM_EXTREME
#error "the model sets up a static (not EXTREME) mem_section only"
#endif
/*
 * A SPARSEMEM build (assabet_defconfig): pfn_to_page() goes through the
 * window's section, which points at the model's mem_map, and
 * page_to_pfn() reads the section number from each page's flags.
 */
struct mem_section mem_section[NR_SECTION_ROOTS][SECTIONS_PER_ROOT];

static void model_sparse(void)
{
	unsigned long pfn, lo = PHYS_PFN(model_heap_lo), hi = PHYS_PFN(model_heap_hi);
	struct mem_section *ms = __pfn_to_section(lo);

	if (pfn_to_section_nr(lo) != pfn_to_section_nr(hi - 1))
		__builtin_trap();	/* the window must be in one section */
	/* mem_map's first page is the window's first pfn (PHYS_PFN_OFFSET) */
	lo = PHYS_PFN_OFFSET;
	ms->section_mem_map = (unsigned long)(mem_map - lo) | SECTION_MARKED_PRESENT |
			      SECTION_HAS_MEM_MAP;
	for (pfn = lo; pfn < hi; pfn++)
		set_page_section(mem_map + (pfn - lo), pfn_to_section_nr(pfn));
}
#else
static void model_sparse(void) { }
#endif

static struct kunit_suite *suite;
static struct kunit_case *kcase;
static const void *param;

/*
 * Select case @ci of @s with its parameter @pi, as kunit_run_tests()
 * steps through them: 0, with model_case and model_desc naming it; 1 when
 * there is no such case or parameter.
 */
static int __used model_select(struct kunit_suite *s, unsigned int ci, unsigned int pi)
{
	struct kunit_case *c = s->test_cases;
	unsigned int i;

	for (i = 0; i < ci; i++)
		if (!c[i].run_case)
			return 1;
	c += ci;
	if (!c->run_case)
		return 1;
	model_case = c->name;
	model_desc[0] = '\0';
	param = NULL;
	if (c->generate_params) {
		for (i = 0; i <= pi; i++) {
#ifdef KUNIT_CASE_PARAM_WITH_INIT
			/* 7.x: the generator is handed the test */
			param = c->generate_params(&test, param, model_desc);
#else
			param = c->generate_params(param, model_desc);
#endif
			if (!param)
				return 1;
		}
	} else if (pi) {
		return 1;
	}
	suite = s;
	kcase = c;
	test.param_index = pi;
	return 0;
}

/*
 * Run the selected case as KUnit does: the suite's init, then the case.
 * 0 when the case returned (model_failed and model_wrong say how it
 * went), 1 when init failed. A case that ends at an assertion or a skip
 * does not return here (model_abort()).
 */
static int __used model_run(void)
{
	int pi = test.param_index;

	model_sparse();
	heap = model_heap_lo;
	nactions = 0;
	model_failed = 0;
	model_aborted = 0;
	model_warned = 0;
	model_wrong = 0;
	memset(&test, 0, sizeof(test));
	test.name = kcase->name;
	test.param_value = param;
	test.param_index = pi;
	if (suite->init && suite->init(&test))
		return 1;
	kcase->run_case(&test);
	model_status = test.status;
	return 0;
}
