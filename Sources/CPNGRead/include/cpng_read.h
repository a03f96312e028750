// PNG reading through libpng's classic interface, in C because its errors
// arrive by longjmp, which Swift cannot catch.
//
// Why not the simplified API (png_image_*) that the writer uses: asked for
// 8-bit output it treats 16-bit input as linear light and converts it to
// sRGB (a 16-bit grey 0x8080 reads as 186 instead of 128), and libpng
// 1.6.39's simplified reader shuffles the rows of interlaced 16-bit files.
// docs/contract.md §1 keeps colour in encoded values: a 16-bit sample v becomes
// round(v / 257), a 1/2/4-bit grey v becomes v * 255 / (2^depth - 1).
#ifndef CPNG_READ_H
#define CPNG_READ_H

#include <stddef.h>
#include <stdint.h>

/// An open PNG whose header has been read.
typedef struct cpng_reader cpng_reader;

/// Reads the header of the PNG in `bytes` (copied; the caller's buffer may
/// go) and decodes nothing yet, so a caller can check the size before
/// allocating. The caller reads the file (only a regular file: InputFile).
/// Returns NULL with a one-line reason in `message` on failure.
cpng_reader *cpng_reader_open(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height,
                              char *message, size_t message_size);

/// Decodes the whole image as 8-bit straight-alpha RGBA into `pixels`
/// (`stride` bytes a row, at least width * 4). Returns 0 on success, -1 with
/// a reason in `message`. Call once per reader.
int cpng_reader_read_rgba8(cpng_reader *reader, uint8_t *pixels, size_t stride,
                           char *message, size_t message_size);

/// Frees the reader and its bytes (NULL is allowed).
void cpng_reader_close(cpng_reader *reader);

#endif
