import { createSeededRandom } from './create-seeded-random.js'

/**
 * One number in [0, 1) as a function of a seed, a scenario's name, a
 * request's position in its session and the how-manieth number that request
 * draws: what a shared store (Redis) gives `random()`, so that every instance
 * draws the same number for the same request (decision 0024).
 *
 * @example
 * seededDraw(7, 'flaky', 12, 0) // the same on every instance, run and machine
 */
export const seededDraw = (seed: number, name: string, position: number, index: number): number =>
  createSeededRandom(seed, `${name}#${position}:${index}`)()
