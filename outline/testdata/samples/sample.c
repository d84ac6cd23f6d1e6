#include <stdio.h>
#include "local.h"
#define MAX 10
#define SQ(x) ((x) * (x))

struct point {
    int x, y;
    char *name;
};

typedef struct { int a; } anon_t;

union value { int i; float f; };

enum color { RED, GREEN = 2 };

static int counter = 0;
int shared;
const char *names[] = {"a"};

static void helper(void) {}

int main(int argc, char **argv) {
    return 0;
}

int *make(void);
