/**
 * One concern of the emulator's state (tokens, strings, processes; later jobs, issues, files...).
 * The persistence layer saves and loads every registered part under its name; reset empties them.
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
