// Times a bare ts_parser_parse_string (and ts_tree_delete) of each file named
// on the command line, ROUNDS times; prints MB/s of CPU time (clock()).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "api.h"
const TSLanguage *tree_sitter_go(void);
int main(int argc, char **argv) {
  int rounds = atoi(getenv("ROUNDS") ? getenv("ROUNDS") : "5");
  char **buf = malloc(sizeof(char*) * argc); long *len = malloc(sizeof(long) * argc); long total = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb"); fseek(f, 0, SEEK_END); len[i] = ftell(f); rewind(f);
    buf[i] = malloc(len[i]); fread(buf[i], 1, len[i], f); fclose(f); total += len[i];
  }
  TSParser *p = ts_parser_new(); ts_parser_set_language(p, tree_sitter_go());
  double best = 1e9, parseOnly = 0;
  for (int r = 0; r < rounds; r++) {
    clock_t t0 = clock(); double tp = 0;
    for (int i = 1; i < argc; i++) {
      clock_t a = clock();
      TSTree *t = ts_parser_parse_string(p, NULL, buf[i], len[i]);
      tp += (double)(clock() - a) / CLOCKS_PER_SEC;
      ts_tree_delete(t);
    }
    double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (s < best) { best = s; parseOnly = tp; }
  }
  printf("%.2f MB in %d files: best round %.3f s CPU = %.2f MB/s (parse alone %.2f MB/s)\n", total / 1e6, argc - 1, best, total / 1e6 / best, total / 1e6 / parseOnly);
  return 0;
}
