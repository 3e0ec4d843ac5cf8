import type { EmulatorSeed } from '../types'
import { Directory } from './directory'
import { StoreEvents } from './events'
import type { StorePart } from './part'
import { ProcessStore } from './processes'
import { StringStore } from './strings'
import { TokenStore } from './tokens'

export type { ProjectRecord, UserRecord } from './directory'
export { Directory } from './directory'
export type { StoreEventMap } from './events'
export type { StorePart } from './part'
export type { ProcessRecord, ProcessState, ProcessStatistics } from './processes'
export type { FileStringInput, StoredString, StringInput, TranslationState, WorkflowStep } from './strings'
export {
  computeHashcode,
  DEFAULT_NAMESPACE,
  parseTranslation,
  workflowStepOf,
  workflowStepUid,
} from './strings'
export type { TokenPair } from './tokens'

/** The emulator's whole state: the seed's directory plus one part per concern. */
export class EmulatorStore {
  readonly events: StoreEvents = new StoreEvents()
  readonly tokens: TokenStore
  readonly strings: StringStore
  readonly processes: ProcessStore
  #directory: Directory
  readonly #parts: StorePart[] = []
  readonly #onChange: () => void

  constructor(seed: EmulatorSeed, onChange: () => void) {
    this.#directory = new Directory(seed)
    this.#onChange = onChange
    this.tokens = this.register(new TokenStore(onChange))
    this.strings = this.register(new StringStore(() => this.#directory, this.events, onChange))
    this.processes = this.register(new ProcessStore(onChange))
  }

  get directory(): Directory {
    return this.#directory
  }

  /** Adds a part (jobs, issues, files...) so it is persisted and reset with the rest. */
  register<T extends StorePart>(part: T): T {
    if (this.#parts.some((p) => p.name === part.name))
      throw new Error(`store part ${part.name} registered twice`)
    this.#parts.push(part)
    return part
  }

  /** A registered part by name, for areas that read another area's state (jobs reading files). */
  part(name: string): StorePart | undefined {
    return this.#parts.find((p) => p.name === name)
  }

  /**
   * Empties every part except the tokens: sessions survive a reset, so a client holding a token
   * keeps working. A new seed replaces users, projects and translation memory.
   */
  reset(seed?: EmulatorSeed): void {
    if (seed) this.#directory = new Directory(seed)
    for (const part of this.#parts) if (part !== this.tokens) part.reset()
    this.#onChange()
  }

  snapshot(): Record<string, unknown> {
    return Object.fromEntries(this.#parts.map((p) => [p.name, p.snapshot()]))
  }

  restore(data: Record<string, unknown>): void {
    for (const part of this.#parts) if (data[part.name] !== undefined) part.restore(data[part.name])
  }
}
