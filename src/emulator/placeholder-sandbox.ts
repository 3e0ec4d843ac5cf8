import { Worker } from 'node:worker_threads'
import {
  APP_PLACEHOLDER_SOURCE,
  type ParsedText,
  type PlaceholderMatch,
  type PlaceholderSpec,
  PlaceholderSpecError,
  parsedFrom,
  placeholderRegex,
  scanPlaceholders,
} from '../core/model/placeholders'

/**
 * How long a caller's own regex may run over the texts of one request. A sane placeholder regex
 * takes milliseconds over a request's largest texts; a catastrophic one ((a+)+$, 28 characters)
 * takes seconds to years.
 */
export const CUSTOM_REGEX_TIME_LIMIT_MS = 1000

/** Regexes that overran the limit, remembered (at most this many) so a repeat is refused at once. */
export const SLOW_REGEX_MEMORY = 256

/** Placeholders of one spec for a known set of texts, answered synchronously. */
export interface PlaceholderParser {
  readonly spec: PlaceholderSpec
  scan(text: string): PlaceholderMatch[]
  parse(text: string): ParsedText
}

/**
 * The worker's code. A caller's regex is compiled and run only here: the emulator's own thread
 * never executes it, so a catastrophic pattern costs the worker (stopped at the time limit) and
 * no other client waits. Matches come back as [start, end] pairs per text; `%%` and empty matches
 * are skipped as in core/model/placeholders.ts.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const finished = new Int32Array(workerData)
parentPort.on('message', ({ id, source, texts }) => {
  let re
  try {
    re = new RegExp(source, 'gu')
  } catch (error) {
    parentPort.postMessage({ id, error: 'placeholderFormatCustom is not a valid regular expression: ' + error.message })
    return
  }
  if (re.test('')) {
    parentPort.postMessage({ id, error: 'placeholderFormatCustom must not match the empty string' })
    return
  }
  try {
    const found = texts.map((text) => {
      const pairs = []
      re.lastIndex = 0
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0] === '') { re.lastIndex++; continue }
        if (m[0] === '%%') continue
        pairs.push(m.index, m.index + m[0].length)
      }
      return pairs
    })
    Atomics.store(finished, 0, id)
    parentPort.postMessage({ id, found })
  } catch (error) {
    parentPort.postMessage({ id, error: 'placeholderFormatCustom could not be run: ' + error.message })
  }
})
`

interface Job {
  id: number
  source: string
  texts: string[]
  resolve: (found: number[][]) => void
  reject: (error: Error) => void
}

type Answer = { id: number; found: number[][] } | { id: number; error: string }

/** A spec of the emulator's own (a named format, the app's syntax): known to run in linear time. */
function trusted(spec: PlaceholderSpec): boolean {
  return spec.custom == null || spec.custom === '' || spec.custom === APP_PLACEHOLDER_SOURCE
}

function inThread(spec: PlaceholderSpec): PlaceholderParser {
  return {
    spec,
    scan: (text) => scanPlaceholders(text, spec),
    parse: (text) => parsedFrom(text, scanPlaceholders(text, spec)),
  }
}

/**
 * Runs callers' custom placeholder regexes in a worker thread, one request's texts at a time, and
 * stops the worker when they take longer than {@link CUSTOM_REGEX_TIME_LIMIT_MS}. Stopping is what
 * bounds the work: no check of a pattern's shape catches every catastrophic one (backreferences,
 * overlapping alternatives, nested quantifiers in disguise), while a time limit does, whatever the
 * pattern. The emulator's own specs run in the calling thread, as everywhere else.
 */
export class PlaceholderSandbox {
  readonly #limitMs: number
  #worker: Worker | null = null
  #queue: Job[] = []
  /** The job the worker runs; no timer while a new worker is still starting. */
  #running: { job: Job; timer: NodeJS.Timeout | undefined } | null = null
  #online = false
  /** The id of the last job the worker finished, written by the worker as soon as it has. */
  readonly #finished = new Int32Array(new SharedArrayBuffer(4))
  #nextId = 1
  #slow = new Set<string>()
  #closed = false

  constructor(limitMs: number = CUSTOM_REGEX_TIME_LIMIT_MS) {
    this.#limitMs = limitMs
  }

  /**
   * Checks what can be checked at once: a named format exists, a custom regex compiles (V8 parses
   * a pattern without running it). Throws {@link PlaceholderSpecError}.
   */
  check(spec: PlaceholderSpec): void {
    if (trusted(spec)) {
      placeholderRegex(spec)
      return
    }
    try {
      new RegExp(spec.custom!, 'gu')
    } catch (error) {
      throw new PlaceholderSpecError(
        'placeholderFormatCustom',
        `placeholderFormatCustom is not a valid regular expression: ${(error as Error).message}`,
      )
    }
    if (this.#slow.has(spec.custom!)) throw this.#overrun()
  }

  /**
   * A parser for `texts` under `spec`. A custom regex runs in the worker over all of them at once;
   * the parser then answers only for those texts. Rejects with {@link PlaceholderSpecError} for a
   * regex that is invalid, matches the empty string or overruns the time limit.
   */
  async parser(spec: PlaceholderSpec, texts: Iterable<string>): Promise<PlaceholderParser> {
    this.check(spec)
    if (trusted(spec)) return inThread(spec)
    const source = spec.custom!
    const unique = [...new Set(texts)]
    const found = await this.#run(source, unique)
    const byText = new Map<string, PlaceholderMatch[]>()
    unique.forEach((text, i) => {
      const pairs = found[i]!
      const matches: PlaceholderMatch[] = []
      for (let p = 0; p < pairs.length; p += 2) {
        matches.push({ text: text.slice(pairs[p]!, pairs[p + 1]!), start: pairs[p]!, end: pairs[p + 1]! })
      }
      byText.set(text, matches)
    })
    const scan = (text: string): PlaceholderMatch[] => {
      const matches = byText.get(text)
      if (!matches)
        throw new Error(`[unplugin-tms] emulator: no placeholder scan prepared for ${JSON.stringify(text)}`)
      return matches
    }
    return { spec, scan, parse: (text) => parsedFrom(text, scan(text)) }
  }

  /** Stops the worker; work still queued is refused. */
  async close(): Promise<void> {
    this.#closed = true
    const stopped = new Error('[unplugin-tms] emulator is closing')
    for (const job of this.#queue.splice(0)) job.reject(stopped)
    if (this.#running) {
      clearTimeout(this.#running.timer)
      this.#running.job.reject(stopped)
      this.#running = null
    }
    const worker = this.#worker
    this.#worker = null
    await worker?.terminate()
  }

  /** How many overrunning regexes are remembered now (for tests of the bound). */
  get slowCount(): number {
    return this.#slow.size
  }

  #overrun(): PlaceholderSpecError {
    return new PlaceholderSpecError(
      'placeholderFormatCustom',
      `placeholderFormatCustom ran longer than ${this.#limitMs} ms and was stopped: a pattern with nested or ` +
        'overlapping repetition, such as (a+)+ or (a|a)*, backtracks without end on some texts; write one ' +
        'that matches each placeholder in a single way',
    )
  }

  #run(source: string, texts: string[]): Promise<number[][]> {
    if (this.#closed) return Promise.reject(new Error('[unplugin-tms] emulator is closing'))
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, source, texts, resolve, reject })
      this.#next()
    })
  }

  #next(): void {
    if (this.#running || this.#closed) return
    const job = this.#queue.shift()
    if (!job) return
    const { worker, online } = this.#ensureWorker()
    // The limit times the regex, not the worker's start: a new thread boots a whole Node instance,
    // which on a loaded machine can itself take longer than the limit.
    if (!online) {
      this.#running = { job, timer: undefined }
      worker.once('online', () => {
        if (this.#running?.job !== job) return
        this.#running = null
        this.#queue.unshift(job)
        this.#next()
      })
      return
    }
    const timer = setTimeout(() => {
      // A busy event loop can run this timer after the answer arrived but before its message is
      // read: the worker marks each finished job, and a finished one is not stopped.
      if (Atomics.load(this.#finished, 0) === job.id) return
      // Terminating the worker interrupts the regex mid-match; the next job gets a new worker.
      this.#running = null
      this.#worker = null
      void worker.terminate()
      this.#remember(job.source)
      job.reject(this.#overrun())
      this.#next()
    }, this.#limitMs)
    timer.unref()
    this.#running = { job, timer }
    worker.postMessage({ id: job.id, source: job.source, texts: job.texts })
  }

  #ensureWorker(): { worker: Worker; online: boolean } {
    if (this.#worker) return { worker: this.#worker, online: this.#online }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.#finished.buffer })
    this.#online = false
    worker.once('online', () => {
      if (this.#worker === worker) this.#online = true
    })
    // Idle, the worker must not keep a process alive that is otherwise done.
    worker.unref()
    worker.on('message', (answer: Answer) => {
      const running = this.#running
      if (!running || running.job.id !== answer.id) return
      clearTimeout(running.timer)
      this.#running = null
      if ('error' in answer)
        running.job.reject(new PlaceholderSpecError('placeholderFormatCustom', answer.error))
      else running.job.resolve(answer.found)
      this.#next()
    })
    worker.on('error', (error) => {
      const running = this.#running
      if (this.#worker === worker) this.#worker = null
      if (!running) return
      clearTimeout(running.timer)
      this.#running = null
      running.job.reject(error)
      this.#next()
    })
    this.#worker = worker
    return { worker, online: false }
  }

  #remember(source: string): void {
    this.#slow.add(source)
    if (this.#slow.size > SLOW_REGEX_MEMORY) this.#slow.delete(this.#slow.values().next().value!)
  }
}
