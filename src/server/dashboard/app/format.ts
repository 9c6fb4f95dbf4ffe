/** Small display helpers; no data ever goes through innerHTML. */

/** "2 h 05 min", "4 min 07 s", "12 s". */
export const formatDuration = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000))
  if (s >= 3600)
    return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
  if (s >= 60) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${s} s`
}

/** The time of day of an ISO date, UTC, with milliseconds: "12:34:56.789". */
export const timeOfDay = (iso: string): string => iso.slice(11, 23)

/** "2030-12-05 12:34:56 UTC". */
export const formatInstant = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`

export const formatCount = (n: number): string => n.toLocaleString('en-US')

/** Pretty JSON when the body is JSON, else the text as it is. */
export const prettyBody = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}
