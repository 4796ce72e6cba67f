/* cudart/cubin.h - what ptxas decided for each kernel of a cubin (the SASS
 * a fatbinary carries beside its PTX): the registers a thread uses.  ptxemu
 * executes the PTX, but numRegs, occupancy and the timing model's resident
 * blocks are the hardware's when they come from the SASS the program
 * would run on a GPU. */
#ifndef CUDART_CUBIN_H
#define CUDART_CUBIN_H
#include <stdbool.h>
#include <stdint.h>

/* Calls fn(name, regs, user) for each function of the ELF cubin at
 * elf[0..size) whose register count its .nv.info section records
 * (EIATTR_REGCOUNT).  Returns how many, or -1 when the image is not a
 * readable 64-bit cubin (every offset and size is checked). */
int cubin_regcounts(const uint8_t *elf, uint64_t size, void (*fn)(const char *name, unsigned regs, void *user), void *user);
/* Whether the cubin has code: a section named .text.NAME (true too when
 * the image cannot be read as a cubin). */
bool cubin_has_code(const uint8_t *elf, uint64_t size);
#endif
