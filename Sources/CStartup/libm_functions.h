// The C math functions libswiftCore.a and libswiftGlibc.a reference, by signature, but for the
// five that round a Double (libm.c computes those). libm.c makes each a stub that loads
// libm.so.6 on first call; a function missing here fails the release link ("undefined symbol").
//
// X(kind, name), where kind is the signature (T is float, double or long double by suffix):
//   F1/D1/L1  T(T)        F2/D2/L2  T(T, T)        F3/D3/L3  T(T, T, T)
//   FQ/DQ/LQ  T(T, T, int *)  (remquo)            FG/DG/LG  T(T, int *)  (lgamma_r)
//   FN/LN     T(const char *) (nan)               DJ        double(int, double)  (jn, yn)
#define GHL_LIBM_FUNCTIONS(X) \
  X(D1, cos) X(D1, exp) X(D1, exp2) X(D1, log) X(D1, log10) X(D1, log2) X(D1, nearbyint) \
  X(D1, sin) X(D1, sqrt) \
  X(F1, acosf) X(F1, acoshf) X(F1, asinf) X(F1, asinhf) X(F1, atanf) X(F1, atanhf) X(F1, cbrtf) \
  X(F1, ceilf) X(F1, cosf) X(F1, coshf) X(F1, erff) X(F1, erfcf) X(F1, expf) X(F1, exp2f) \
  X(F1, expm1f) X(F1, floorf) X(F1, log10f) X(F1, log1pf) X(F1, log2f) X(F1, logbf) X(F1, logf) \
  X(F1, nearbyintf) X(F1, rintf) X(F1, roundf) X(F1, sinf) X(F1, sinhf) X(F1, sqrtf) X(F1, tanf) \
  X(F1, tanhf) X(F1, tgammaf) X(F1, truncf) \
  X(L1, acosl) X(L1, acoshl) X(L1, asinl) X(L1, asinhl) X(L1, atanl) X(L1, atanhl) X(L1, cbrtl) \
  X(L1, ceill) X(L1, cosl) X(L1, coshl) X(L1, erfl) X(L1, erfcl) X(L1, expl) X(L1, exp2l) \
  X(L1, expm1l) X(L1, floorl) X(L1, log10l) X(L1, log1pl) X(L1, log2l) X(L1, logbl) X(L1, logl) \
  X(L1, nearbyintl) X(L1, rintl) X(L1, roundl) X(L1, sinl) X(L1, sinhl) X(L1, sqrtl) X(L1, tanl) \
  X(L1, tanhl) X(L1, tgammal) X(L1, truncl) \
  X(D2, fmod) X(D2, remainder) \
  X(F2, atan2f) X(F2, fdimf) X(F2, fmodf) X(F2, hypotf) X(F2, nextafterf) X(F2, powf) X(F2, remainderf) \
  X(L2, atan2l) X(L2, fdiml) X(L2, fmaxl) X(L2, fminl) X(L2, fmodl) X(L2, hypotl) X(L2, nextafterl) \
  X(L2, powl) X(L2, remainderl) \
  X(D3, fma) X(F3, fmaf) X(L3, fmal) \
  X(DQ, remquo) X(FQ, remquof) X(LQ, remquol) \
  X(DG, lgamma_r) X(FG, lgammaf_r) X(LG, lgammal_r) \
  X(FN, nanf) X(LN, nanl) \
  X(DJ, jn) X(DJ, yn)

// Each kind's return type (T), parameters (P) and the arguments that pass them on (A).
#define GHL_LIBM_T_F1 float
#define GHL_LIBM_P_F1 (float x)
#define GHL_LIBM_A_F1 (x)
#define GHL_LIBM_T_F2 float
#define GHL_LIBM_P_F2 (float x, float y)
#define GHL_LIBM_A_F2 (x, y)
#define GHL_LIBM_T_F3 float
#define GHL_LIBM_P_F3 (float x, float y, float z)
#define GHL_LIBM_A_F3 (x, y, z)
#define GHL_LIBM_T_FQ float
#define GHL_LIBM_P_FQ (float x, float y, int *quotient)
#define GHL_LIBM_A_FQ (x, y, quotient)
#define GHL_LIBM_T_FG float
#define GHL_LIBM_P_FG (float x, int *sign)
#define GHL_LIBM_A_FG (x, sign)
#define GHL_LIBM_T_D1 double
#define GHL_LIBM_P_D1 (double x)
#define GHL_LIBM_A_D1 (x)
#define GHL_LIBM_T_D2 double
#define GHL_LIBM_P_D2 (double x, double y)
#define GHL_LIBM_A_D2 (x, y)
#define GHL_LIBM_T_D3 double
#define GHL_LIBM_P_D3 (double x, double y, double z)
#define GHL_LIBM_A_D3 (x, y, z)
#define GHL_LIBM_T_DQ double
#define GHL_LIBM_P_DQ (double x, double y, int *quotient)
#define GHL_LIBM_A_DQ (x, y, quotient)
#define GHL_LIBM_T_DG double
#define GHL_LIBM_P_DG (double x, int *sign)
#define GHL_LIBM_A_DG (x, sign)
#define GHL_LIBM_T_L1 long double
#define GHL_LIBM_P_L1 (long double x)
#define GHL_LIBM_A_L1 (x)
#define GHL_LIBM_T_L2 long double
#define GHL_LIBM_P_L2 (long double x, long double y)
#define GHL_LIBM_A_L2 (x, y)
#define GHL_LIBM_T_L3 long double
#define GHL_LIBM_P_L3 (long double x, long double y, long double z)
#define GHL_LIBM_A_L3 (x, y, z)
#define GHL_LIBM_T_LQ long double
#define GHL_LIBM_P_LQ (long double x, long double y, int *quotient)
#define GHL_LIBM_A_LQ (x, y, quotient)
#define GHL_LIBM_T_LG long double
#define GHL_LIBM_P_LG (long double x, int *sign)
#define GHL_LIBM_A_LG (x, sign)
#define GHL_LIBM_T_FN float
#define GHL_LIBM_P_FN (const char *tag)
#define GHL_LIBM_A_FN (tag)
#define GHL_LIBM_T_LN long double
#define GHL_LIBM_P_LN (const char *tag)
#define GHL_LIBM_A_LN (tag)
#define GHL_LIBM_T_DJ double
#define GHL_LIBM_P_DJ (int n, double x)
#define GHL_LIBM_A_DJ (n, x)

// The five that round a Double, computed in libm.c, not loaded.
#define GHL_LIBM_ROUNDING(X) X(ceil) X(floor) X(trunc) X(round) X(rint)
