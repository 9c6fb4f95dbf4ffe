// The whole-text reading `report --from` and `pact --from` did before issue 31 item 7
// (JSON.parse of the file, then every entry as a journal entry at once), kept as the
// baseline of bench/har-reader.ts: `npx tsx bench/har-reader-whole-text.ts report|pact FILE`.
import { readFileSync } from 'node:fs'
import { useEnglishZodMessages } from '../src/contract/zod-messages.js'
import { entriesFromHAR } from '../src/judge/entries-from-har.js'
import { reportClient } from '../src/judge/report-client.js'
import { pactOfJournal } from '../src/pact/pact-on-demand.js'

const [mode, file = ''] = process.argv.slice(2)
useEnglishZodMessages()
const sessions = entriesFromHAR(JSON.parse(readFileSync(file, 'utf8')))
const out =
  mode === 'pact'
    ? pactOfJournal(
        sessions.flatMap((s) => s.entries),
        { consumer: 'pet-store-client', provider: 'pet-store' },
      ).pact
    : sessions.map(({ session, entries }) => reportClient(entries, { session }))
process.stdout.write(`${JSON.stringify(out).length} characters of output\n`)
