// libwebp: the still-image encoder (WebPConfig, WebPPicture), the animation
// encoder WebPAnimEncoder from libwebpmux, and WebPAnimDecoder from
// libwebpdemux (the tests decode what the encoder wrote to check the round
// trip). The ABI-versioned initialisers (WebPConfigInit, WebPAnimEncoderNew,
// ...) are static inline in these headers; Swift imports them as functions.
#include <webp/encode.h>
#include <webp/mux.h>
#include <webp/demux.h>
