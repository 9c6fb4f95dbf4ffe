// What the controls import on first use (one dynamic import, one chunk): the
// assertions with their diff, the client-behaviour report and coverage. A browser
// app loads it only when something judges its client (decision 0032).
export { expectInJournal, findInJournal } from './assert-requests.js'
export { measureCoverage } from './measure-coverage.js'
export { reportClient } from './report-client.js'
