/**
 * Uniform random numbers in [0, 1) for one partner's random choices (webhook chaos). Injected so
 * a seeded source can replay a chaotic run exactly; domain code never calls Math.random.
 */
export interface Random {
  next(): number;
}

/** The random source of each partner (the same object for the same partner). */
export type RandomSource = (partnerId: string) => Random;

/** The default outside deterministic mode: Math.random, one shared stream. */
export const mathRandom: RandomSource = () => MATH_RANDOM;

const MATH_RANDOM: Random = { next: () => Math.random() };
