/* emu/timing_par.c - a team of threads stepping through windows together
 * (see timing_par.h).  The threads stay started for the launch; each
 * window the caller bumps a generation and waits until every thread has
 * run its part. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include "emu/timing_par.h"

struct tteam {
  uint32_t n;
  void (*fn)(void *, uint32_t);
  void *ctx;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  uint64_t gen;
  uint32_t pending;                  /* threads still running this generation */
  bool quit;
  pthread_t *th;
  struct targ { tteam *t; uint32_t i; } *arg;
};

static void *team_main(void *p) {
  struct targ *a = p;
  tteam *t = a->t;
  uint64_t seen = 0;
  pthread_mutex_lock(&t->mu);
  for (;;) {
    while (t->gen == seen && !t->quit) pthread_cond_wait(&t->go, &t->mu);
    if (t->quit) break;
    seen = t->gen;
    pthread_mutex_unlock(&t->mu);
    t->fn(t->ctx, a->i);
    pthread_mutex_lock(&t->mu);
    if (--t->pending == 0) pthread_cond_signal(&t->done);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

static void stop_threads(tteam *t, uint32_t started) {
  pthread_mutex_lock(&t->mu);
  t->quit = true;
  pthread_cond_broadcast(&t->go);
  pthread_mutex_unlock(&t->mu);
  for (uint32_t i = 1; i < started; i++) pthread_join(t->th[i], NULL);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->go);
  pthread_cond_destroy(&t->done);
  free(t->th);
  free(t->arg);
  free(t);
}

tteam *tteam_new(uint32_t n, void (*fn)(void *, uint32_t), void *ctx) {
  tteam *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->n = n;
  t->fn = fn;
  t->ctx = ctx;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->go, NULL);
  pthread_cond_init(&t->done, NULL);
  t->th = calloc(n, sizeof *t->th);
  t->arg = calloc(n, sizeof *t->arg);
  if (!t->th || !t->arg) { stop_threads(t, 1); return NULL; }
  for (uint32_t i = 1; i < n; i++) {
    t->arg[i] = (struct targ){ t, i };
    if (pthread_create(&t->th[i], NULL, team_main, &t->arg[i])) { stop_threads(t, i); return NULL; }
  }
  return t;
}

void tteam_run(tteam *t) {
  pthread_mutex_lock(&t->mu);
  t->gen++;
  t->pending = t->n - 1;
  pthread_cond_broadcast(&t->go);
  pthread_mutex_unlock(&t->mu);
  t->fn(t->ctx, 0);
  pthread_mutex_lock(&t->mu);
  while (t->pending) pthread_cond_wait(&t->done, &t->mu);
  pthread_mutex_unlock(&t->mu);
}

void tteam_free(tteam *t) { if (t) stop_threads(t, t->n); }
