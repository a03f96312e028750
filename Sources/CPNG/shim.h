// libpng through its simplified API (png_image_*), which reads and writes
// 8-bit RGBA without the setjmp error handling of the classic interface.
#include <png.h>
