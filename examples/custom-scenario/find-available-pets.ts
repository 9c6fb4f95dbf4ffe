/** A pet as this client reads it. */
export interface AvailablePet {
  id: number
  name: string
  categoryId: number
}

export interface FindAvailablePetsOptions {
  baseUrl: string
  apiKey: string
  categoryId: number
  /** Extra request headers, e.g. `X-Sandbox-Scenario` in a test. */
  headers?: Record<string, string>
}

/**
 * The application code under test: the available pets of one category,
 * following the API's next links through every page.
 *
 * @example
 * await findAvailablePets({ baseUrl: 'https://api.example.test/v1', apiKey, categoryId: 3 })
 */
export const findAvailablePets = async (
  options: FindAvailablePetsOptions,
): Promise<AvailablePet[]> => {
  const found: AvailablePet[] = []
  let url: string | undefined = `${options.baseUrl}/pets?status=available&limit=100`
  while (url !== undefined) {
    const response: Response = await fetch(url, {
      headers: { authorization: `Bearer ${options.apiKey}`, ...options.headers },
    })
    if (!response.ok) throw new Error(`Failed to list pets: the API answered ${response.status}.`)
    const pets = (await response.json()) as AvailablePet[]
    found.push(...pets.filter((pet) => pet.categoryId === options.categoryId))
    url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1]
  }
  return found
}
