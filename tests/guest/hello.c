#include <stdio.h>
int main(void) { puts("hello from guest"); return 0; }
