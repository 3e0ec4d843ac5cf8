/**
 * One concern of the emulator's state (tokens, strings, processes, jobs, issues, files, glossaries),
 * so that an API area adds its state without touching the others. The persistence layer saves and
 * loads every registered part under its name; reset empties them.
 */
export interface StorePart {
  readonly name: string
  /** A JSON-serialisable copy of the part's state. */
  snapshot(): unknown
  /** Loads what {@link snapshot} produced (from a data file); unreadable data is ignored. */
  restore(data: unknown): void
  /** Back to empty. */
  reset(): void
}
