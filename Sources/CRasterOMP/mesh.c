// K7 mesh gradient: the same schedule as RasterKit's SIMD backend (see
// MeshRaster.swift and SIMDMeshShader), in C. The lattice comes from the
// shared Swift set-up; this file rasterises it strip by strip into (u, v)
// winner planes (fold rule: largest v, then largest u) and shades each
// covered pixel: one Newton step on position(u, v) = q (exact variant),
// the bicubic colour, clamped, source-over.
#include "raster_omp.h"
#include "pixel.h"
#include <math.h>

#define MESH_LANES 8

static inline float mesh_minf(float a, float b) { return a < b ? a : b; }
static inline float mesh_maxf(float a, float b) { return a > b ? a : b; }

/// Rasterises one triangle (nodes p0..p2 at parameters w0..w2, clamped to
/// the quad's box [lo, hi]) into the planes, rows [r0, r1), plane row 0 = r0.
static void mesh_triangle(const float *p0, const float *p1, const float *p2, const float *w0, const float *w1,
                          const float *w2, const float *c0, const float *c1, const float *c2, const float *lo,
                          const float *hi, int r0, int r1, int width, float *pu, float *pv, float *pc,
                          ptrdiff_t plane) {
    const float d1x = p1[0] - p0[0], d1y = p1[1] - p0[1], d2x = p2[0] - p0[0], d2y = p2[1] - p0[1];
    const float area = d1x * d2y - d1y * d2x;
    if (area == 0 || !isfinite(area)) return;
    const float inv = 1 / area;
    const float e1u = w1[0] - w0[0], e1v = w1[1] - w0[1], e2u = w2[0] - w0[0], e2v = w2[1] - w0[1];
    const float slack = RASTER_MESH_EDGE_SLACK;
    const float bx0 = mesh_minf(p0[0], mesh_minf(p1[0], p2[0])), bx1 = mesh_maxf(p0[0], mesh_maxf(p1[0], p2[0]));
    const float by0 = mesh_minf(p0[1], mesh_minf(p1[1], p2[1])), by1 = mesh_maxf(p0[1], mesh_maxf(p1[1], p2[1]));
    int y0 = (int)ceilf(mesh_maxf(by0 - 0.5f - 0.01f, -1)), y1 = (int)floorf(mesh_minf(by1 - 0.5f + 0.01f, (float)r1));
    if (y0 < r0) y0 = r0;
    if (y1 > r1 - 1) y1 = r1 - 1;
    if (y0 > y1) return;
    int x0 = (int)ceilf(mesh_maxf(bx0 - 0.5f - 0.01f, -1)), x1 = (int)floorf(mesh_minf(bx1 - 0.5f + 0.01f, (float)width));
    if (x0 < 0) x0 = 0;
    if (x1 > width - 1) x1 = width - 1;
    if (x0 > x1) return;
    const float m1 = d2y * inv, m2 = -d1y * inv, m0 = -(m1 + m2);
    for (int y = y0; y <= y1; y++) {
        const float qy = (float)y + 0.5f - p0[1];
        float qx = (float)x0 + 0.5f - p0[0];
        const float l1 = (qx * d2y - qy * d2x) * inv, l2 = (qy * d1x - qx * d1y) * inv;
        const float ls[3] = {1 - l1 - l2, l1, l2}, ms[3] = {m0, m1, m2};
        int xa = x0, xb = x1;
        // The span where every barycentric >= -slack, widened by a pixel;
        // the per-pixel test decides.
        for (int e = 0; e < 3; e++) {
            const float l = ls[e], m = ms[e];
            if (m > 0) {
                const float bound = (float)x0 + (-slack - l) / m;
                if (bound > (float)(xb + 1)) xa = xb + 1;
                else if (bound > (float)xa) { int b = (int)ceilf(bound) - 1; if (b > xa) xa = b; }
            } else if (m < 0) {
                const float bound = (float)x0 + (-slack - l) / m;
                if (bound < (float)(xa - 1)) xb = xa - 1;
                else if (bound < (float)xb) { int b = (int)floorf(bound) + 1; if (b < xb) xb = b; }
            } else if (l < -slack) {
                xb = xa - 1;
            }
        }
        float *ru = pu + (ptrdiff_t)(y - r0) * width, *rv = pv + (ptrdiff_t)(y - r0) * width;
        // Branch-free (selects, unconditional stores) so that the span
        // vectorises; the inside test as one compare of the smallest barycentric.
        float *rc = pc ? pc + (ptrdiff_t)(y - r0) * width : NULL;
        #pragma omp simd
        for (int x = xa; x <= xb; x++) {
            const float qx = (float)x + 0.5f - p0[0];
            const float b1 = (qx * d2y - qy * d2x) * inv, b2 = (qy * d1x - qx * d1y) * inv;
            const float u = mesh_minf(mesh_maxf(w0[0] + b1 * e1u + b2 * e2u, lo[0]), hi[0]);
            const float v = mesh_minf(mesh_maxf(w0[1] + b1 * e1v + b2 * e2v, lo[1]), hi[1]);
            const float bu = ru[x], bv = rv[x];
            const int win = mesh_minf(mesh_minf(b1, b2), 1 - b1 - b2) >= -slack && (v > bv || (v == bv && u > bu));
            ru[x] = win ? u : bu;
            rv[x] = win ? v : bv;
            if (rc) {
                for (int ch = 0; ch < 4; ch++) {
                    const float c = c0[ch] + b1 * (c1[ch] - c0[ch]) + b2 * (c2[ch] - c0[ch]);
                    rc[ch * plane + x] = win ? c : rc[ch * plane + x];
                }
            }
        }
    }
}

static void mesh_quad(const raster_omp_mesh *m, int q, int r0, int r1, int width, float *pu, float *pv, float *pc,
                      ptrdiff_t plane) {
    const int nu = m->nu, a = q % (nu - 1), b = q / (nu - 1);
    const float *p00 = m->nodes + 2 * ((ptrdiff_t)b * nu + a), *p10 = p00 + 2;
    const float *p01 = m->nodes + 2 * ((ptrdiff_t)(b + 1) * nu + a), *p11 = p01 + 2;
    const float lo[2] = {m->lattice_u[a], m->lattice_v[b]}, hi[2] = {m->lattice_u[a + 1], m->lattice_v[b + 1]};
    const float w10[2] = {hi[0], lo[1]}, w01[2] = {lo[0], hi[1]};
    static const float none[4] = {0, 0, 0, 0};
    const float *c00 = none, *c10 = none, *c01 = none, *c11 = none;
    if (m->node_colors) {
        c00 = m->node_colors + 4 * ((ptrdiff_t)b * nu + a); c10 = c00 + 4;
        c01 = m->node_colors + 4 * ((ptrdiff_t)(b + 1) * nu + a); c11 = c01 + 4;
    }
    mesh_triangle(p00, p10, p11, lo, w10, hi, c00, c10, c11, lo, hi, r0, r1, width, pu, pv, pc, plane);
    mesh_triangle(p00, p11, p01, lo, hi, w01, c00, c11, c01, lo, hi, r0, r1, width, pu, pv, pc, plane);
}

/// A channel's value at (s, t), and its partials (Horner, as MeshShade).
static inline float mesh_value(const float *a, float s, float t) {
    float r[4];
    for (int l = 0; l < 4; l++) {
        const float *c = a + 4 * l;
        r[l] = ((c[3] * s + c[2]) * s + c[1]) * s + c[0];
    }
    return ((r[3] * t + r[2]) * t + r[1]) * t + r[0];
}

static inline float mesh_channel(const float *a, float s, float t, float *ds, float *dt) {
    float r[4], d[4];
    for (int l = 0; l < 4; l++) {
        const float *c = a + 4 * l;
        r[l] = ((c[3] * s + c[2]) * s + c[1]) * s + c[0];
        d[l] = (3 * c[3] * s + 2 * c[2]) * s + c[1];
    }
    *ds = ((d[3] * t + d[2]) * t + d[1]) * t + d[0];
    *dt = (3 * r[3] * t + 2 * r[2]) * t + r[1];
    return ((r[3] * t + r[2]) * t + r[1]) * t + r[0];
}

static inline int mesh_cell(float p, int cells) {
    int i = (int)p;
    if (i < 0) i = 0;
    if (i > cells - 1) i = cells - 1;
    return i;
}

/// Newton step (if refine), colour, source-over onto 4 bytes.
static inline void mesh_shade(const float *cell, int i, int j, int cc, int cr, float s, float t, float qx, float qy,
                              int refine, uint8_t *p) {
    if (refine) {
        float xs, xt, ys, yt;
        const float x = mesh_channel(cell, s, t, &xs, &xt), y = mesh_channel(cell + 16, s, t, &ys, &yt);
        const float ex = x - qx, ey = y - qy, det = xs * yt - xt * ys;
        if (det != 0) {
            const float inv = 1 / det;
            const float s1 = s - (yt * ex - xt * ey) * inv, t1 = t - (xs * ey - ys * ex) * inv;
            s = mesh_minf(mesh_maxf(s1, mesh_maxf(-(float)i, -1)), mesh_minf((float)(cc - i), 2));
            t = mesh_minf(mesh_maxf(t1, mesh_maxf(-(float)j, -1)), mesh_minf((float)(cr - j), 2));
        }
    }
    const float a = mesh_minf(mesh_maxf(mesh_value(cell + 80, s, t), 0), 255);
    const float k = 1 - a * (1.0f / 255);
    float src[4];
    for (int ch = 0; ch < 3; ch++) src[ch] = mesh_minf(mesh_maxf(mesh_value(cell + 32 + 16 * ch, s, t), 0), a);
    src[3] = a;
    for (int ch = 0; ch < 4; ch++) p[ch] = (uint8_t)raster_quantize(src[ch] + (float)p[ch] * k);
}

/// One row: vectors of MESH_LANES pixels whose covered pixels share a cell
/// go through a `omp simd` loop with the cell's coefficients broadcast;
/// others pixel by pixel.
static void mesh_shade_row(const raster_omp_mesh *m, const float *pu, const float *pv, int y, uint8_t *row,
                           int width) {
    const int cc = m->cell_columns, cr = m->cell_rows;
    const uint8_t *newton = m->refine;
    const float qy = (float)y + 0.5f;
    for (int x0 = 0; x0 < width; x0 += MESH_LANES) {
        const int n = width - x0 < MESH_LANES ? width - x0 : MESH_LANES;
        int first = -1;
        for (int k = 0; k < n; k++) if (pv[x0 + k] >= 0) { first = k; break; }
        if (first < 0) continue;
        const int i = mesh_cell(pu[x0 + first], cc), j = mesh_cell(pv[x0 + first], cr);
        const float fi = (float)i, fj = (float)j;
        int same = 1;
        for (int k = 0; k < n; k++) {
            const float u = pu[x0 + k], v = pv[x0 + k];
            if (v < 0) continue;
            const int uin = u >= fi && (i == cc - 1 ? u <= fi + 1 : u < fi + 1);
            const int vin = v >= fj && (j == cr - 1 ? v <= fj + 1 : v < fj + 1);
            if (!(uin && vin)) same = 0;
        }
        if (!same) {
            for (int k = 0; k < n; k++) {
                const float u = pu[x0 + k], v = pv[x0 + k];
                if (v < 0) continue;
                const int ci = mesh_cell(u, cc), cj = mesh_cell(v, cr);
                mesh_shade(m->coefficients + ((ptrdiff_t)cj * cc + ci) * RASTER_MESH_CELL_FLOATS, ci, cj, cc, cr,
                           u - (float)ci, v - (float)cj, (float)(x0 + k) + 0.5f, qy,
                           newton && newton[cj * cc + ci], row + 4 * (x0 + k));
            }
            continue;
        }
        const float *cell = m->coefficients + ((ptrdiff_t)j * cc + i) * RASTER_MESH_CELL_FLOATS;
        const int refine = newton && newton[j * cc + i];
        // Stage by stage over the vector, each loop a straight `omp simd`
        // run with the cell's coefficients broadcast; uncovered lanes borrow
        // the first covered pixel's (u, v) and are not stored.
        float s[MESH_LANES], t[MESH_LANES], src[4][MESH_LANES];
        #pragma omp simd
        for (int k = 0; k < MESH_LANES; k++) {
            const int covered = k < n && pv[x0 + k] >= 0;
            s[k] = (covered ? pu[x0 + k] : pu[x0 + first]) - fi;
            t[k] = (covered ? pv[x0 + k] : pv[x0 + first]) - fj;
        }
        if (newton && newton[j * cc + i]) {
            const float slo = mesh_maxf(-fi, -1), shi = mesh_minf((float)(cc - i), 2);
            const float tlo = mesh_maxf(-fj, -1), thi = mesh_minf((float)(cr - j), 2);
            #pragma omp simd
            for (int k = 0; k < MESH_LANES; k++) {
                float xs, xt, ys, yt;
                const float x = mesh_channel(cell, s[k], t[k], &xs, &xt), y = mesh_channel(cell + 16, s[k], t[k], &ys, &yt);
                const float ex = x - ((float)(x0 + k) + 0.5f), ey = y - qy, det = xs * yt - xt * ys;
                const float inv = 1 / (det != 0 ? det : 1);
                const float s1 = mesh_minf(mesh_maxf(s[k] - (yt * ex - xt * ey) * inv, slo), shi);
                const float t1 = mesh_minf(mesh_maxf(t[k] - (xs * ey - ys * ex) * inv, tlo), thi);
                s[k] = det != 0 ? s1 : s[k];
                t[k] = det != 0 ? t1 : t[k];
            }
        }
        #pragma omp simd
        for (int k = 0; k < MESH_LANES; k++) {
            const float a = mesh_minf(mesh_maxf(mesh_value(cell + 80, s[k], t[k]), 0), 255);
            src[3][k] = a;
            for (int ch = 0; ch < 3; ch++) src[ch][k] = mesh_minf(mesh_maxf(mesh_value(cell + 32 + 16 * ch, s[k], t[k]), 0), a);
        }
        uint8_t *p = row + 4 * x0;
        for (int k = 0; k < n; k++) {
            if (pv[x0 + k] < 0) continue;
            const float keep = 1 - src[3][k] * (1.0f / 255);
            for (int ch = 0; ch < 4; ch++) p[4 * k + ch] = (uint8_t)raster_quantize(src[ch][k] + (float)p[4 * k + ch] * keep);
        }
    }
}

/// The `coarse` second pass: interpolated colours, clamped, source-over.
static void mesh_composite_row(const float *pc, ptrdiff_t plane, const float *pv, uint8_t *row, int width) {
    uint32_t *px = (uint32_t *)(void *)row;
    #pragma omp simd
    for (int x = 0; x < width; x++) {
        // Uncovered pixels composite a zero source: the same bytes back.
        const int covered = pv[x] >= 0;
        const float a = covered ? mesh_minf(mesh_maxf(pc[3 * plane + x], 0), 255) : 0, keep = 1 - a * (1.0f / 255);
        const uint32_t d = px[x];
        float c[3];
        for (int ch = 0; ch < 3; ch++) c[ch] = covered ? mesh_minf(mesh_maxf(pc[ch * plane + x], 0), a) : 0;
        px[x] = raster_pack(c[0] + (float)(d & 0xFF) * keep, c[1] + (float)(d >> 8 & 0xFF) * keep,
                            c[2] + (float)(d >> 16 & 0xFF) * keep, a + (float)(d >> 24) * keep);
    }
}

/// One strip; `pu`, `pv` (and `pc`, 4 planes, for coarse) are `plane` floats each.
static void mesh_strip(const raster_omp_mesh *m, int k, float *pu, float *pv, float *pc, ptrdiff_t plane,
                       uint8_t *dst, int width, int height, ptrdiff_t stride) {
    const int32_t q0 = m->strip_start[k], q1 = m->strip_start[k + 1];
    if (q0 == q1) return;
    const int r0 = k * RASTER_MESH_STRIP_ROWS;
    const int r1 = r0 + RASTER_MESH_STRIP_ROWS < height ? r0 + RASTER_MESH_STRIP_ROWS : height;
    const ptrdiff_t count = (ptrdiff_t)(r1 - r0) * width;
    for (ptrdiff_t i = 0; i < count; i++) pv[i] = -1;
    for (int32_t q = q0; q < q1; q++) mesh_quad(m, m->strip_quads[q], r0, r1, width, pu, pv, pc, plane);
    for (int y = r0; y < r1; y++) {
        const ptrdiff_t off = (ptrdiff_t)(y - r0) * width;
        if (pc) mesh_composite_row(pc + off, plane, pv + off, dst + (ptrdiff_t)y * stride, width);
        else mesh_shade_row(m, pu + off, pv + off, y, dst + (ptrdiff_t)y * stride, width);
    }
}

void raster_omp_mesh_rgba8(const raster_omp_mesh *mesh, float *planes, uint8_t *dst, int width, int height,
                           ptrdiff_t stride, int threads) {
    const ptrdiff_t plane = (ptrdiff_t)width * RASTER_MESH_STRIP_ROWS;
    const int strips = mesh->strips;
    int team = threads < strips ? threads : strips;
    if (team < 1) team = 1;
    int next = 0;
    static _Thread_local raster_team_site site;
    raster_team_watch watch;
    if (team > 1) team = raster_team_fork(&watch, &site, team, &next, strips);
    if (team == 1) {
        // Directly on the caller: libomp allocates even for a one-thread team.
        float *pc = mesh->node_colors ? planes + 2 * plane : NULL;
        for (int k = 0; k < strips; k++) mesh_strip(mesh, k, planes, planes + plane, pc, plane, dst, width, height, stride);
        return;
    }
    #pragma omp parallel num_threads(team)
    {
        raster_team_arrive(&watch);
#ifdef _OPENMP
        const int me = omp_get_thread_num();
#else
        const int me = 0;
#endif
        float *pu = planes + RASTER_MESH_PLANES(mesh->node_colors != NULL) * plane * me, *pv = pu + plane;
        float *pc = mesh->node_colors ? pu + 2 * plane : NULL;
        // Strips taken as threads come free (raster_omp.h says why).
        RASTER_CLAIM(next, strips, k) mesh_strip(mesh, k, pu, pv, pc, plane, dst, width, height, stride);
        raster_team_leave(&watch);
    }
    raster_team_join(&watch);
}
