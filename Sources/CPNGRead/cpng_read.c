#include "cpng_read.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cpng_reader {
    unsigned char *bytes;   // a copy of the file's bytes
    size_t size, offset;
    png_structp png;
    png_infop info;
    char message[200];
};

static void on_error(png_structp png, png_const_charp what) {
    cpng_reader *r = png_get_error_ptr(png);
    snprintf(r->message, sizeof r->message, "%s", what);
    longjmp(png_jmpbuf(png), 1);
}

// Warnings (e.g. a bad ancillary chunk's CRC) don't stop the image.
static void on_warning(png_structp png, png_const_charp what) { (void)png; (void)what; }

static void copy_message(const cpng_reader *r, char *message, size_t size) {
    if (size > 0) snprintf(message, size, "%s", r->message[0] ? r->message : "unknown libpng error");
}

void cpng_reader_close(cpng_reader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    free(r->bytes);
    free(r);
}

// libpng asks for bytes; past the end is a truncated file, an error.
static void read_bytes(png_structp png, png_bytep out, png_size_t count) {
    cpng_reader *r = png_get_io_ptr(png);
    if (count > r->size - r->offset) png_error(png, "truncated file");
    memcpy(out, r->bytes + r->offset, count);
    r->offset += count;
}

cpng_reader *cpng_reader_open(const uint8_t *bytes, size_t size, uint32_t *width, uint32_t *height,
                              char *message, size_t message_size) {
    cpng_reader *r = calloc(1, sizeof *r);
    if (!r) { snprintf(message, message_size, "out of memory"); return NULL; }
    r->bytes = malloc(size ? size : 1);
    if (!r->bytes) { snprintf(message, message_size, "out of memory"); cpng_reader_close(r); return NULL; }
    if (size) memcpy(r->bytes, bytes, size);
    r->size = size;
    if (size < 8 || png_sig_cmp(r->bytes, 0, 8) != 0) {
        snprintf(message, message_size, "not a PNG file (bad signature)");
        cpng_reader_close(r);
        return NULL;
    }
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
    if (r->png) r->info = png_create_info_struct(r->png);
    if (!r->png || !r->info) { snprintf(message, message_size, "out of memory"); cpng_reader_close(r); return NULL; }
    if (setjmp(png_jmpbuf(r->png))) {
        copy_message(r, message, message_size);
        cpng_reader_close(r);
        return NULL;
    }
    r->offset = 8;
    png_set_read_fn(r->png, r, read_bytes);
    png_set_sig_bytes(r->png, 8);
    // libpng's own limit is 1,000,000 pixels a side; the caller checks its own.
    png_read_info(r->png, r->info);
    *width = png_get_image_width(r->png, r->info);
    *height = png_get_image_height(r->png, r->info);
    return r;
}

int cpng_reader_read_rgba8(cpng_reader *r, uint8_t *pixels, size_t stride,
                           char *message, size_t message_size) {
    // volatile: it changes after setjmp and is read after the longjmp.
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(r->png))) {
        free(rows);
        copy_message(r, message, message_size);
        return -1;
    }
    png_structp png = r->png;
    png_infop info = r->info;
    const int type = png_get_color_type(png, info);
    const uint32_t height = png_get_image_height(png, info);
    // Palette to RGB, grey below 8 bits to 8 (v * 255 / (2^depth - 1)),
    // tRNS to an alpha channel.
    png_set_expand(png);
    // 16 to 8 bits rounded: (v * 255 + 32895) >> 16, i.e. round(v / 257).
    png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    // No png_set_gamma: samples stay the encoded values whatever gAMA says.
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) > stride) {
        snprintf(r->message, sizeof r->message, "row of %zu bytes exceeds the buffer's %zu",
                 (size_t)png_get_rowbytes(png, info), stride);
        copy_message(r, message, message_size);
        return -1;
    }
    rows = malloc(sizeof *rows * (height ? height : 1));
    if (!rows) { snprintf(message, message_size, "out of memory"); return -1; }
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    return 0;
}
