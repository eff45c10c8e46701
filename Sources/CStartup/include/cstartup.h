// CStartup has no API: it only replaces the Swift runtime's argv lookup (see argv.c).
#ifndef GHLOGIN_CSTARTUP_H
#define GHLOGIN_CSTARTUP_H
#endif
