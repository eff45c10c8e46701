// libm_check: every math stub in Sources/CStartup/libm.c against the real libm.
//
// Built by `LibmStubTests` with libm.c (-DGHLOGIN_STATIC_STARTUP) and without -lm, as the
// release binary is, so each call below reaches the stub. The real functions come from
// dlopen("libm.so.6"). Each stub is called with arguments of its signature and must return
// the same bits (and store the same int through a pointer parameter); the five that libm.c
// computes instead of loading (ceil, floor, trunc, round, rint) are compared on edge cases and
// 1,000,000 random bit patterns each.
// Prints "checked N functions" and exits 0, or names the first mismatch and exits 1.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../Sources/CStartup/libm_functions.h"

// The stubs' prototypes (no <math.h>: its declarations would let the compiler fold calls).
#define GHL_DECLARE(kind, name) GHL_LIBM_T_##kind name GHL_LIBM_P_##kind;
GHL_LIBM_FUNCTIONS(GHL_DECLARE)
#define GHL_DECLARE_ROUNDING(name) double name(double x);
GHL_LIBM_ROUNDING(GHL_DECLARE_ROUNDING)

static void *libm;
static int failures, checked;

static int same(const void *a, const void *b, size_t size) { return memcmp(a, b, size) == 0; }

// Arguments for each kind: values inside every function's domain, and one int for jn/yn.
static const float fx = 0.375f, fy = 1.625f, fz = -2.5f;
static const double dx = 0.375, dy = 1.625, dz = -2.5;
static const long double lx = 0.375L, ly = 1.625L, lz = -2.5L;
#define ARGS_F1 (fx)
#define ARGS_D1 (dx)
#define ARGS_L1 (lx)
#define ARGS_F2 (fx, fy)
#define ARGS_D2 (dx, dy)
#define ARGS_L2 (lx, ly)
#define ARGS_F3 (fx, fy, fz)
#define ARGS_D3 (dx, dy, dz)
#define ARGS_L3 (lx, ly, lz)
#define ARGS_FQ (fy, fx, &stubInt)
#define ARGS_DQ (dy, dx, &stubInt)
#define ARGS_LQ (ly, lx, &stubInt)
#define REAL_ARGS_FQ (fy, fx, &realInt)
#define REAL_ARGS_DQ (dy, dx, &realInt)
#define REAL_ARGS_LQ (ly, lx, &realInt)
#define ARGS_FG (fz, &stubInt)
#define ARGS_DG (dz, &stubInt)
#define ARGS_LG (lz, &stubInt)
#define REAL_ARGS_FG (fz, &realInt)
#define REAL_ARGS_DG (dz, &realInt)
#define REAL_ARGS_LG (lz, &realInt)
#define ARGS_FN ("")
#define ARGS_LN ("")
#define ARGS_DJ (3, dy)
#define REAL_ARGS_F1 ARGS_F1
#define REAL_ARGS_D1 ARGS_D1
#define REAL_ARGS_L1 ARGS_L1
#define REAL_ARGS_F2 ARGS_F2
#define REAL_ARGS_D2 ARGS_D2
#define REAL_ARGS_L2 ARGS_L2
#define REAL_ARGS_F3 ARGS_F3
#define REAL_ARGS_D3 ARGS_D3
#define REAL_ARGS_L3 ARGS_L3
#define REAL_ARGS_FN ARGS_FN
#define REAL_ARGS_LN ARGS_LN
#define REAL_ARGS_DJ ARGS_DJ
// The significant bytes: long double has 10, the rest of its 16 is padding.
#define SIZE_OF(type) (sizeof(type) == 16 ? 10 : sizeof(type))

#define GHL_CHECK(kind, name)                                                                   \
  {                                                                                             \
    int stubInt = -7, realInt = -7;                                                             \
    GHL_LIBM_T_##kind(*real) GHL_LIBM_P_##kind =                                                \
        (GHL_LIBM_T_##kind(*) GHL_LIBM_P_##kind)dlsym(libm, #name);                             \
    if (!real) {                                                                                \
      printf("libm has no %s\n", #name);                                                        \
      failures++;                                                                               \
    } else {                                                                                    \
      GHL_LIBM_T_##kind stubResult = name ARGS_##kind;                                          \
      GHL_LIBM_T_##kind realResult = real REAL_ARGS_##kind;                                     \
      if (!same(&stubResult, &realResult, SIZE_OF(GHL_LIBM_T_##kind)) || stubInt != realInt) { \
        printf("%s: the stub's result differs from libm's\n", #name);                           \
        failures++;                                                                             \
      }                                                                                         \
    }                                                                                           \
    checked++;                                                                                  \
  }

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next(void) {  // xorshift64*
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717u;
}

static void checkRounding(const char *name, double (*computed)(double)) {
  double (*real)(double) = (double (*)(double))dlsym(libm, name);
  if (!real) {
    printf("libm has no %s\n", name);
    failures++;
    return;
  }
  const double edges[] = {0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5, 0.1, -0.1,
                          0.49999999999999994, -0.49999999999999994, 0x1p-1074, -0x1p-1074,
                          0x1p-1022, -0x1p-1022, 0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5),
                          0x1p52 - 1.5, 0x1p52 + 1, 0x1p53, -0x1p53, 0x1p63, -0x1p63, 0x1p64, 1e300,
                          -1e300, 4503599627370495.5, 9007199254740991.0, 1990000000.75,
                          __builtin_inf(), -__builtin_inf(), __builtin_nan(""), -__builtin_nan(""),
                          __builtin_nans(""), -__builtin_nans("")};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    double mine = computed(edges[i]), expected = real(edges[i]);
    if (!same(&mine, &expected, sizeof mine)) {
      printf("%s(%a): %a, libm %a\n", name, edges[i], mine, expected);
      failures++;
    }
  }
  for (int i = 0; i < 1000000; i++) {
    uint64_t bits = next();
    // Half the patterns get an exponent near 2^-16..2^63, where the rounding happens.
    if (i & 1) bits = (bits & 0x800FFFFFFFFFFFFFu) | ((uint64_t)(0x3EF + next() % 80) << 52);
    double x;
    memcpy(&x, &bits, sizeof x);
    double mine = computed(x), expected = real(x);
    if (!same(&mine, &expected, sizeof mine)) {
      printf("%s(%a): %a, libm %a\n", name, x, mine, expected);
      failures++;
      break;
    }
  }
  checked++;
}

int main(void) {
  libm = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  if (!libm) {
    printf("cannot load libm.so.6: %s\n", dlerror());
    return 1;
  }
  GHL_LIBM_FUNCTIONS(GHL_CHECK)
#define GHL_CHECK_ROUNDING(name) checkRounding(#name, name);
  GHL_LIBM_ROUNDING(GHL_CHECK_ROUNDING)
  if (failures) return 1;
  printf("checked %d functions\n", checked);
  return 0;
}
