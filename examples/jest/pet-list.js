/**
 * Renders the first page of pets into a list element: the code under test, as
 * a front-end would have it.
 */
export const renderPets = async ({ apiUrl, apiKey, list }) => {
  const response = await fetch(`${apiUrl}/pets?limit=5`, {
    headers: { authorization: `Bearer ${apiKey}` },
  })
  if (!response.ok) {
    const error = await response.json()
    list.replaceChildren(
      Object.assign(document.createElement('li'), { role: 'alert', textContent: error.code }),
    )
    return
  }
  const pets = await response.json()
  list.replaceChildren(
    ...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })),
  )
}
