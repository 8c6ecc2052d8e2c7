/*
 * ck_outside.c - what the helpers' Check assertions call, for programs that use the helpers
 * outside Check (the fuzzer, the benchmark): there a failed assertion is a bug of the program
 * or of the device, reported and aborted on.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <check.h>

void _mark_point(const char *file, int line)
{
    (void)file;
    (void)line;
}

/* As Check reports it: the message if the macro has one (a format and its values), else the
 * expression. */
void _ck_assert_failed(const char *file, int line, const char *expr, const char *msg, ...)
{
    fprintf(stderr, "%s:%d: ", file, line);
    if (msg) {
        va_list ap;

        va_start(ap, msg);
        vfprintf(stderr, msg, ap);
        va_end(ap);
    } else {
        fputs(expr, stderr);
    }
    fputc('\n', stderr);
    abort();
}
