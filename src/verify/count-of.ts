/**
 * A count and its noun, singular for exactly one: the report's wording.
 *
 * @example
 * countOf(1, 'gap') // '1 gap'
 * countOf(3, 'pet') // '3 pets'
 */
export const countOf = (count: number, noun: string): string =>
  `${count} ${noun}${count === 1 ? '' : 's'}`
