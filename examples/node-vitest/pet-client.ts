/**
 * A tiny client of the Pet Store API, as an application would write it. The
 * tests beside it run it against petstore-sandbox instead of production.
 */
export interface Pet {
  id: number
  name: string
  categoryId: number
  status: 'available' | 'pending' | 'sold'
}

export interface NewPet {
  name: string
  categoryId: number
  status?: Pet['status']
}

export interface PetClientOptions {
  /** e.g. `https://api.example.test/v1` */
  baseUrl: string
  apiKey: string
  /** Pets per page when listing (1 to 100). */
  pageSize?: number
}

/** An Error answer of the API, with its machine-readable code. */
export class PetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message)
    this.name = 'PetApiError'
  }
}

const nextLink = (response: Response): string | undefined =>
  /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1]

/**
 * @example
 * const client = createPetClient({ baseUrl: 'https://api.example.test/v1', apiKey: 'sandbox-free' })
 * const pets = await client.listAvailablePets()
 */
export const createPetClient = ({ baseUrl, apiKey, pageSize = 100 }: PetClientOptions) => {
  const call = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, ...init.headers },
    })
    if (response.ok) return response
    const body = (await response.json()) as {
      code: string
      message: string
      details?: { field: string; message: string }[]
    }
    throw new PetApiError(response.status, body.code, body.message, body.details)
  }

  return {
    /** Every available pet, following the `Link: rel="next"` pages to the end. */
    async listAvailablePets(): Promise<Pet[]> {
      const pets: Pet[] = []
      let url: string | undefined = `${baseUrl}/pets?status=available&limit=${pageSize}`
      while (url !== undefined) {
        const response = await call(url)
        pets.push(...((await response.json()) as Pet[]))
        url = nextLink(response)
      }
      return pets
    },

    /** Puts a pet up for adoption; resolves to the stored pet. */
    async addPet(pet: NewPet): Promise<Pet> {
      const response = await call(`${baseUrl}/pets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(pet),
      })
      return (await response.json()) as Pet
    },
  }
}
