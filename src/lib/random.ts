/**
 * Uniform random numbers in [0, 1) for one partner's random choices (webhook chaos). Injected so
 * a seeded source can replay a chaotic run exactly; domain code never calls Math.random. The
 * partner's RandomStream (`lib/random-streams.ts`, seeded by `--seed`) is one.
 */
export interface Random {
  next(): number;
}

/** The random source of each partner (the same object for the same partner). */
export type RandomSource = (partnerId: string) => Random;
