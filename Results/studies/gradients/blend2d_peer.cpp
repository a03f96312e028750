// Blend2D built natively (with its JIT) drawing the suite's K2 frames, timed
// in this process, as peers.py does through the Python binding: the same
// size, stops, geometry and extend modes, one synchronous BLContext
// (1 thread), SRC_OVER onto a PRGB32 image, fill_all + flush per draw.
// Prints name,median_ms,min_ms like peers.py. The off-centre radial moves
// the centre by (0.3, 0.3) px so no row or column is symmetric.
// Usage: blend2d_peer WIDTH HEIGHT SAMPLES
#include <blend2d/blend2d.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static uint32_t argb(const char* hex) {  // "#RRGGBB", opaque
    return 0xFF000000u | uint32_t(std::strtoul(hex + 1, nullptr, 16));
}

template <class F>
static void timed(const char* name, int samples, F draw) {
    draw();  // warm-up: builds the JIT pipeline and the gradient's table
    std::vector<double> xs;
    for (int i = 0; i < samples; i++) {
        auto t = std::chrono::steady_clock::now();
        draw();
        xs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
    }
    std::sort(xs.begin(), xs.end());
    size_t n = xs.size();
    double med = n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
    std::printf("%s,%.4f,%.4f\n", name, med, xs[0]);
}

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: blend2d_peer WIDTH HEIGHT SAMPLES\n");
        return 2;
    }
    int w = std::atoi(argv[1]), h = std::atoi(argv[2]), samples = std::atoi(argv[3]);
    if (w <= 0 || h <= 0 || samples <= 0) {
        std::fprintf(stderr, "blend2d_peer: WIDTH, HEIGHT and SAMPLES must be positive\n");
        return 2;
    }
    BLImage img(w, h, BL_FORMAT_PRGB32);
    BLContextCreateInfo cci{};
    cci.thread_count = 0;  // synchronous: this thread draws
    BLContext ctx(img, cci);

    const char* telegram[] = {"#7FA381", "#FFF5C5", "#336F55", "#FBE37D"};
    BLGradient lin(BLLinearGradientValues(0, 0, w, h));
    for (int i = 0; i < 4; i++) lin.add_stop(i / 3.0, BLRgba32(argb(telegram[i])));

    double r = 0.25 * std::sqrt(double(w) * w + double(h) * h);
    auto radial = [&](double cx, double cy) {
        BLGradient g(BLRadialGradientValues(cx, cy, cx, cy, r), BL_EXTEND_MODE_REFLECT);
        g.add_stop(0.0, BLRgba32(argb("#FFF5C5")));
        g.add_stop(0.6, BLRgba32(argb("#7FA381")));
        g.add_stop(1.0, BLRgba32(argb("#336F55")));
        return g;
    };
    BLGradient rad = radial(w / 2.0, h / 2.0);
    BLGradient off = radial(w / 2.0 + 0.3, h / 2.0 + 0.3);

    struct Row { const char* name; BLGradient* g; } rows[] = {
        {"blend2d-native/linear", &lin}, {"blend2d-native/radial", &rad}, {"blend2d-native/radial-off", &off}};
    for (auto& row : rows) {
        timed(row.name, samples, [&] {
            ctx.set_fill_style(*row.g);
            ctx.fill_all();
            ctx.flush(BL_CONTEXT_FLUSH_SYNC);
        });
    }
    ctx.end();
    return 0;
}
