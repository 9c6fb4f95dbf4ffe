const PREFIX = 'anon:'

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
const ipv6Groups = (address: string): number[] | undefined => {
  const text = address.split('%')[0] ?? ''
  if (!text.includes(':') || !/^[0-9a-f:.]+$/i.test(text)) return undefined
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const parse = (part: string | undefined): number[] | undefined => {
    if (part === undefined || part === '') return []
    const groups: number[] = []
    for (const group of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined
      groups.push(Number.parseInt(group, 16))
    }
    return groups
  }
  const head = parse(halves[0])
  const tail = parse(halves[1])
  if (head === undefined || tail === undefined) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  const missing = 8 - head.length - tail.length
  return missing < 1 ? undefined : [...head, ...Array<number>(missing).fill(0), ...tail]
}

/**
 * The bucket an anonymous caller counts against (contract §3): one per IPv4
 * address (IPv4-mapped IPv6 included), one per IPv6 /64, since a single
 * client usually holds a whole /64 and could otherwise take endless buckets.
 * Other bucket names pass through.
 *
 * @example
 * anonymousBucketName('anon:2001:db8:1:2::7') // 'anon:2001:db8:1:2::/64'
 */
export const anonymousBucketName = (bucket: string): string => {
  if (!bucket.startsWith(PREFIX)) return bucket
  const address = bucket.slice(PREFIX.length)
  const mapped = /^::ffff:([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$/i.exec(address)
  if (mapped?.[1] !== undefined) return `${PREFIX}${mapped[1]}`
  const groups = ipv6Groups(address)
  if (groups === undefined) return bucket
  return `${PREFIX}${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}
