import { AutoTranslator } from './auto-translator'
import { CallbackSender } from './callbacks'
import { Clock } from './clock'
import { configFromOptions, type EmulatorConfig } from './config'
import { FaultInjector } from './faults'
import { Persistence } from './persistence'
import { PlaceholderSandbox } from './placeholder-sandbox'
import { RequestLog } from './request-log'
import { loadSeed } from './seed'
import { EmulatorStore } from './store'
import { TimerSet } from './timers'
import type { AutoTranslateSettings, EmulatorOptions, EmulatorSeed, FaultSettings } from './types'

/**
 * Everything a route needs: state, time, tunables and the background workers. One per running
 * emulator; routes receive it when they are registered.
 */
export class EmulatorContext {
  readonly clock: Clock = new Clock()
  readonly timers: TimerSet = new TimerSet(this.clock)
  readonly faults: FaultInjector = new FaultInjector()
  readonly requestLog: RequestLog = new RequestLog()
  /** Where callers' own placeholder regexes run, off the thread that answers requests. */
  readonly placeholders: PlaceholderSandbox = new PlaceholderSandbox()
  readonly store: EmulatorStore
  readonly callbacks: CallbackSender
  readonly autoTranslator: AutoTranslator
  readonly persistence: Persistence | null
  readonly log: (line: string) => void
  config: EmulatorConfig
  readonly #initial: {
    seed: EmulatorSeed
    config: EmulatorConfig
    autoTranslate?: AutoTranslateSettings
    faults?: FaultSettings
  }

  constructor(options: EmulatorOptions) {
    const seed = loadSeed(options.seed)
    this.config = configFromOptions(options)
    this.#initial = {
      seed,
      config: this.config,
      autoTranslate: options.autoTranslate,
      faults: options.faults,
    }
    this.log = options.log ?? (() => {})
    this.persistence = options.dataFile
      ? new Persistence(options.dataFile, () => this.store.snapshot())
      : null
    this.store = new EmulatorStore(seed, () => this.persistence?.schedule())
    this.callbacks = new CallbackSender({
      store: () => this.store,
      clock: this.clock,
      config: () => this.config,
      timers: this.timers,
      log: this.log,
    })
    this.callbacks.attach(this.store)
    this.autoTranslator = new AutoTranslator(this.clock, this.timers)
    this.autoTranslator.attach(this.store)
    try {
      this.faults.set(options.faults)
      this.autoTranslator.setDefaults(options.autoTranslate)
    } catch (error) {
      throw new Error(`[unplugin-tms] startEmulator: options.${(error as Error).message}`)
    }
  }

  /**
   * Loads the data file into the store. Called once every area has registered its store part (see
   * server.ts), so each part gets its saved state back.
   */
  restorePersisted(): void {
    const saved = this.persistence?.load()
    if (saved) this.store.restore(saved)
  }

  now(): number {
    return this.clock.now()
  }

  /** Back to the state at start (or a new seed): content, settings, faults, log and clock. */
  reset(seed?: EmulatorSeed): void {
    this.timers.clear()
    this.store.reset(seed ?? this.#initial.seed)
    this.config = this.#initial.config
    this.faults.set(this.#initial.faults)
    this.autoTranslator.setDefaults(this.#initial.autoTranslate)
    this.requestLog.clear()
    this.callbacks.clear()
    this.clock.reset()
  }
}
