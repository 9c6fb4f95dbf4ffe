// A module hook (node --import) that appends every module URL Node loads to
// the file named by RECORD_LOADS_TO, one a line.
import { register } from 'node:module'

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs'
    const to = ${JSON.stringify(process.env.RECORD_LOADS_TO ?? '')}
    export async function load(url, context, next) {
      if (to !== '') appendFileSync(to, url + '\\n')
      return next(url, context)
    }
  `)}`,
)
