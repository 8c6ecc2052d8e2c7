/*
 * tcpxfer: moves a deterministic byte stream over TCP and verifies every byte on arrival,
 * for the two-guest LAN tests and the LAN throughput benchmark.
 *
 *   tcpxfer recv PORT BYTES SEED          listen, accept one connection, verify, print stats
 *   tcpxfer send HOST PORT BYTES SEED     connect (retrying for 60 s), send
 *
 * The stream is xorshift64* output seeded with SEED, so both ends know it without exchanging
 * checksums. Exit 0 only if exactly BYTES bytes arrived intact.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 65536

static uint64_t next_word(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* Fills @buf with the next @len bytes of the stream. */
static void fill(uint64_t *state, uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = next_word(state);

        memcpy(buf + i, &w, len - i < 8 ? len - i : 8);
    }
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long long parse(const char *s, const char *what)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end || end == s) {
        fprintf(stderr, "tcpxfer: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

static int do_recv(unsigned port, unsigned long long bytes, uint64_t seed)
{
    static uint8_t buf[CHUNK], want[CHUNK];
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0), cs;
    unsigned long long got = 0, checked = 0;
    size_t have = 0;
    uint64_t st = seed ? seed : 1;
    double t0;

    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 1) < 0) {
        perror("tcpxfer: listen");
        return 1;
    }
    cs = accept(ls, NULL, NULL);
    if (cs < 0) {
        perror("tcpxfer: accept");
        return 1;
    }
    t0 = now();
    for (;;) {
        ssize_t n = read(cs, buf + have, sizeof(buf) - have);

        if (n < 0) {
            perror("tcpxfer: read");
            return 1;
        }
        have += n;
        got += n;
        /* Verify whole chunks as they complete (the stream is generated per CHUNK). */
        if (have == sizeof(buf) || (n == 0 && have)) {
            fill(&st, want, sizeof(want));
            if (memcmp(buf, want, have)) {
                for (size_t i = 0; i < have; i++) {
                    if (buf[i] != want[i]) {
                        printf("tcpxfer: MISMATCH at byte %llu\n", checked + i);
                        return 1;
                    }
                }
            }
            checked += have;
            have = 0;
        }
        if (n == 0) {
            break;
        }
    }
    printf("tcpxfer: received %llu bytes, all verified, %.1f Mbit/s\n", got,
           got * 8 / 1e6 / (now() - t0));
    if (got != bytes) {
        printf("tcpxfer: expected %llu bytes\n", bytes);
        return 1;
    }
    return 0;
}

static int do_send(const char *host, unsigned port, unsigned long long bytes, uint64_t seed)
{
    static uint8_t buf[CHUNK];
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    unsigned long long sent = 0;
    uint64_t st = seed ? seed : 1;
    double t0, deadline = now() + 60;
    int s = -1;

    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
        fprintf(stderr, "tcpxfer: bad host '%s'\n", host);
        return 2;
    }
    while (now() < deadline) {
        s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0) {
            break;
        }
        close(s);
        s = -1;
        usleep(200000);
    }
    if (s < 0) {
        fprintf(stderr, "tcpxfer: could not connect to %s:%u\n", host, port);
        return 1;
    }
    t0 = now();
    while (sent < bytes) {
        size_t n = bytes - sent < CHUNK ? bytes - sent : CHUNK, off = 0;

        fill(&st, buf, CHUNK);
        while (off < n) {
            ssize_t w = write(s, buf + off, n - off);

            if (w < 0) {
                perror("tcpxfer: write");
                return 1;
            }
            off += w;
        }
        sent += n;
    }
    shutdown(s, SHUT_WR);
    while (read(s, buf, sizeof(buf)) > 0) {
    }
    close(s);
    printf("tcpxfer: sent %llu bytes, %.1f Mbit/s\n", sent, sent * 8 / 1e6 / (now() - t0));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "recv")) {
        return do_recv(parse(argv[2], "port"), parse(argv[3], "byte count"), parse(argv[4], "seed"));
    }
    if (argc == 6 && !strcmp(argv[1], "send")) {
        return do_send(argv[2], parse(argv[3], "port"), parse(argv[4], "byte count"),
                       parse(argv[5], "seed"));
    }
    fprintf(stderr, "usage: tcpxfer recv PORT BYTES SEED | tcpxfer send HOST PORT BYTES SEED\n");
    return 2;
}
