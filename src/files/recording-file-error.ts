/**
 * A recording file that cannot be replayed or appended to (broken JSON, an
 * entry that cannot be served, an existing file in another layout): the CLI
 * says so in one line and exits 1, no stack trace.
 */
export class RecordingFileError extends Error {
  override name = 'RecordingFileError'
}
