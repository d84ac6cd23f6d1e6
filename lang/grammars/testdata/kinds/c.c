#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
typedef struct point { int x, y; } point_t;
enum color { RED, GREEN = 2 };
static int sum(const int *xs, size_t n) {
  int total = 0;
  for (size_t i = 0; i < n; i++) {
    total += xs[i];
  }
  return total;
}
int main(int argc, char **argv) {
  point_t p = {.x = 1, .y = 2};
  char *s = malloc(sizeof(char) * 10);
  if (argc > 1 && s != NULL) {
    printf("%d %s\n", p.x, argv[1]);
  } else {
    switch (argc) { case 0: break; default: goto out; }
  }
out:
  free(s);
  return sum((int[]){1, 2}, 2);
}
