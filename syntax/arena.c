// arena.c — where tree-sitter's memory comes from.
//
// Tree-sitter allocates through four global hooks (ts_set_allocator). A parse
// makes millions of small allocations and, once the tree is deleted, as many
// frees: with libc's malloc that bookkeeping was a sixth of all parse time.
// So every parse runs with a fresh parser inside the goroutine's arena
// (structls_scratch): an allocation pops a free list of its size class or
// bumps a pointer, a free pushes the block on its list (the parser discards
// many stack nodes and subtrees as it goes; reusing them keeps the arena near
// what libc's heap would hold: 553 MB peak against 665 MB with libc for a
// 9 MB Go file), and when the tree has been written out the whole arena is
// rewound at once. The hooks find the arena through a thread-local pointer
// that is set only for the length of one call from Go (a goroutine stays on
// one thread during a cgo call), so tree-sitter calls made anywhere else —
// the Go binding's own objects — get libc's malloc as before.
//
// Running out of memory. Tree-sitter cannot recover from a failed
// allocation (its own allocator aborts the process). Inside an arena there is
// no need to: everything the parse allocated is in the arena, so a failed
// allocation jumps back (longjmp) to the structls_parse or structls_flatten
// call that set the thread's jump target, which rewinds the arena and
// reports OUT_OF_MEMORY for that one file. Only tree-sitter's own C frames
// lie between the two, and none of their state outlives the arena. An arena
// may also be given a budget (structls_set_arena_budget, for tests): a parse
// that needs more fails the same way.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

#include "syntax.h"

// current is the arena the calling thread allocates from, or NULL for libc;
// out_of_memory is where a failed allocation in it jumps to.
static __thread structls_scratch *current;
static __thread jmp_buf *out_of_memory;

// arena_budget caps the bytes in one arena's chunks.
static size_t arena_budget = SIZE_MAX;

enum {
	HEADER = 8,                 // per allocation: its size (blocks are 8-byte aligned, all tree-sitter needs)
	FIRST_CHUNK = 4 << 20,      // chunks double from here
	HUGE_PAGE = 2 << 20,        // a chunk starts on one (see chunk_new)
};

// or_die is for libc allocations outside any parse: with no jump target,
// failing is all that can be done (as tree-sitter's own allocator does).
static void *or_die(void *p, size_t n) {
	if (!p && n > 0) {
		fprintf(stderr, "structls: tree-sitter could not allocate %zu bytes\n", n);
		abort();
	}
	return p;
}

// arena_failed gives up the parse that asked for n more bytes: it jumps
// back to the call from Go when there is one (during a parse), and otherwise
// dies.
static void *arena_failed(size_t n) {
	if (out_of_memory) longjmp(*out_of_memory, 1);
	return or_die(NULL, n);
}

void structls_set_arena_budget(size_t bytes) { arena_budget = bytes; }

// arena_bytes counts the bytes in every arena's chunks, for
// structls_arena_bytes.
static size_t arena_bytes;

size_t structls_arena_bytes(void) { return __atomic_load_n(&arena_bytes, __ATOMIC_RELAXED); }

static size_t rounded(size_t n) { return HEADER + ((n + 7) & ~(size_t)7); }

// owns reports whether p was allocated from the arena.
static bool owns(const structls_scratch *s, const void *p) {
	for (const arena_chunk *c = s->chunks; c; c = c->next) {
		const char *base = (const char *)(c + 1);
		if ((const char *)p >= base && (const char *)p < base + c->size) return true;
	}
	return false;
}

// size_class is the free list a block of n bytes goes on, or -1 for none.
static int size_class(size_t n) {
	size_t c = (n + 7) / 8;
	return c > 0 && c <= ARENA_CLASSES ? (int)c - 1 : -1;
}

// chunk_new maps a chunk of size bytes (after its header) straight from
// the kernel, and chunk_free unmaps it: a chunk is megabytes, and libc's
// malloc keeps blocks that large once freed (its mmap threshold rises to
// 32 MB after the first free), so the memory of a large file's parse
// stayed in the process after the arena let go of it.
//
// A chunk asks for transparent huge pages (MADV_HUGEPAGE; a no-op where
// they are off, and what the kernel's "madvise" mode waits for):
// the bump pointer touches a chunk from its start, page after page, and
// each fresh 4 KiB page is a page fault. Where a fault is dear (a virtual
// machine: ~20 us each on the 2-core test machine) that was a tenth of a
// parse; with 2 MiB pages a 4 MiB chunk takes two faults. Only whole, aligned
// 2 MiB ranges can be huge pages, so a chunk is mapped 2 MiB larger and
// trimmed to start on a boundary. The cost: the huge page a chunk's last
// allocation touches is resident whole. Measured there, five runs of each
// build in alternation: X-Ray's parse-only evaluator over src/net took
// 7,491-8,902 page faults and 910-996 ms of CPU before (median 936), 3,944-4,340
// and 805-888 ms after (median 828); the JSON outline of the standard
// library, two runs each, 44,000 faults and 94-97 MB peak RSS before, 27,200-28,600
// and 103-104 MB after.
static arena_chunk *chunk_new(size_t size) {
	size_t total = sizeof(arena_chunk) + size;
	char *raw = mmap(NULL, total + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) return NULL;
	char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (p > raw) munmap(raw, (size_t)(p - raw));
	munmap(p + total, (size_t)(raw + HUGE_PAGE - p)); // the rest of the extra 2 MiB: never empty, p < raw + HUGE_PAGE
	madvise(p, total, MADV_HUGEPAGE); // advice only: nothing to do if refused
	arena_chunk *c = (arena_chunk *)p;
	*c = (arena_chunk){ .size = size };
	__atomic_add_fetch(&arena_bytes, size, __ATOMIC_RELAXED);
	return c;
}

static void chunk_free(arena_chunk *c) {
	__atomic_sub_fetch(&arena_bytes, c->size, __ATOMIC_RELAXED);
	munmap(c, sizeof(arena_chunk) + c->size);
}

static void *arena_alloc(structls_scratch *s, size_t n) {
	if (n > ((size_t)1 << 40)) return arena_failed(n);
	int class = size_class(n);
	if (class >= 0 && s->free_lists[class]) {
		char *p = s->free_lists[class];
		s->free_lists[class] = *(void **)p;
		*(size_t *)(p - HEADER) = n;
		return p;
	}
	size_t need = rounded(n);
	arena_chunk *c = s->chunks;
	if (!c || c->size - c->used < need) {
		size_t size = c ? c->size * 2 : FIRST_CHUNK;
		while (size < need) size *= 2;
		if (size > arena_budget || s->reserved > arena_budget - size) return arena_failed(size);
		arena_chunk *fresh = chunk_new(size);
		if (!fresh) return arena_failed(size);
		*fresh = (arena_chunk){ .next = c, .size = size };
		s->chunks = c = fresh;
		s->reserved += size;
	}
	char *p = (char *)(c + 1) + c->used;
	c->used += need;
	*(size_t *)p = n;
	return p + HEADER;
}

// arena_free puts a block on the free list of its size class (larger blocks
// wait for the rewind).
static void arena_free(structls_scratch *s, void *p) {
	int class = size_class(*(size_t *)((char *)p - HEADER));
	if (class < 0) return;
	*(void **)p = s->free_lists[class];
	s->free_lists[class] = p;
}

// arena_realloc grows the newest allocation in place (tree-sitter's arrays
// grow by doubling, one at a time); anything else moves.
static void *arena_realloc(structls_scratch *s, void *p, size_t n) {
	char *header = (char *)p - HEADER;
	size_t old = *(size_t *)header;
	arena_chunk *c = s->chunks;
	if (header + rounded(old) == (char *)(c + 1) + c->used && c->used - rounded(old) + rounded(n) <= c->size) {
		c->used = c->used - rounded(old) + rounded(n);
		*(size_t *)header = n;
		return p;
	}
	void *q = arena_alloc(s, n);
	memcpy(q, p, old < n ? old : n);
	arena_free(s, p);
	return q;
}

static void *hook_malloc(size_t n) {
	structls_scratch *s = current;
	return s ? arena_alloc(s, n) : or_die(malloc(n), n);
}

static void *hook_calloc(size_t count, size_t size) {
	structls_scratch *s = current;
	if (!s) return or_die(calloc(count, size), count * size);
	if (size && count > SIZE_MAX / size) return arena_failed(SIZE_MAX);
	void *p = arena_alloc(s, count * size);
	memset(p, 0, count * size);
	return p;
}

static void *hook_realloc(void *p, size_t n) {
	structls_scratch *s = current;
	if (!p) return hook_malloc(n);
	if (s && owns(s, p)) return arena_realloc(s, p, n);
	void *q = realloc(p, n); // a block from before the parse: libc's
	return q || n == 0 ? q : arena_failed(n);
}

static void hook_free(void *p) {
	structls_scratch *s = current;
	if (!p) return;
	if (s && owns(s, p)) {
		arena_free(s, p);
		return;
	}
	free(p);
}

void structls_use_arena_allocator(void) { ts_set_allocator(hook_malloc, hook_calloc, hook_realloc, hook_free); }

void structls_arena_enter(structls_scratch *s, jmp_buf *jump) {
	current = s;
	out_of_memory = jump;
}

void structls_arena_leave(void) {
	current = NULL;
	out_of_memory = NULL;
}

// structls_arena_reset rewinds the arena: all its memory is free again. It
// keeps the largest of its chunks within s->keep, whose pages the parses
// so far have touched, so the next files parse without faulting in fresh
// ones; the other chunks go back to the kernel. Memory kept costs resident
// bytes, memory given back costs page faults when the next large file
// touches fresh pages: the Go side chooses each scratch's keep. (Replacing
// the chunks by one new chunk as large as all of them saved a growth for
// the next file of that size, but every such chunk was fresh pages again:
// X-Ray over the Go standard library faulted in 150,000 pages, ast-grep
// 35,000.)
void structls_arena_reset(structls_scratch *s) {
	memset(s->free_lists, 0, sizeof s->free_lists);
	arena_chunk *kept = NULL;
	for (arena_chunk *c = s->chunks; c; c = c->next) {
		if (c->size <= s->keep && (!kept || c->size > kept->size)) kept = c;
	}
	for (arena_chunk *c = s->chunks, *next; c; c = next) {
		next = c->next;
		if (c != kept) chunk_free(c);
	}
	s->chunks = kept;
	s->reserved = 0;
	if (kept) {
		kept->next = NULL;
		kept->used = 0;
		s->reserved = kept->size;
	}
}

void structls_arena_give_back(structls_scratch *s) {
	structls_release(s);
	if (s->chunks) chunk_free(s->chunks);
	s->chunks = NULL;
	s->reserved = 0;
}

void structls_scratch_free(structls_scratch *s) {
	structls_arena_give_back(s);
	free(s->levels);
	free(s->path);
	free(s->ranges);
	free(s);
}
