/* stdin-from FILE PROGRAM [ARG...]: runs PROGRAM (an absolute path) with FILE as its standard
 * input. hyperfine 1.15 (Debian 12) has no --input option and gives commands /dev/null; this
 * static helper adds one small exec to a command, and bench/run measures that cost
 * (`stdin-from FILE /usr/bin/true` against `/usr/bin/true`) and subtracts it. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: stdin-from FILE PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0 || dup2(fd, 0) < 0) {
    perror(argv[1]);
    return 2;
  }
  execv(argv[2], argv + 2);
  perror(argv[2]);
  return 127;
}
