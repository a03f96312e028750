// libpng through its simplified API (png_image_*), which reads and writes
// 8-bit RGBA without the setjmp error handling of the classic interface.
#include <png.h>

// PNG_FORMAT_RGBA is a composite macro Swift cannot import; name it here.
static const unsigned int cpng_format_rgba = PNG_FORMAT_RGBA;
