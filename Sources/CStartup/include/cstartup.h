// CStartup has no API: it replaces the Swift runtime's argv lookup (argv.c) and defines the C
// math functions, loading libm on first use (libm.c).
#ifndef GHLOGIN_CSTARTUP_H
#define GHLOGIN_CSTARTUP_H
#endif
