/**
 * Spreading the parse of many files over worker threads, with the calling thread working too.
 *
 * Files go out in small batches on request, so a thread that started late or drew heavy files does
 * not hold the others up. Each worker loads oxc-parser on its own (tens of milliseconds), so small
 * trees stay on the calling thread. Any worker failure (no worker file, a crash) falls back to the
 * calling thread for the files that worker had not returned: workers only ever make it faster.
 *
 * Kept over tinypool (measured 2026-11, bench's 5,000-file corpus, two threads, whole process, five
 * paired runs on a loaded 2-core machine): wall median 38.6 s here against 39.4 s with tinypool running
 * the same batches (ratio 0.98), CPU 4.99 s against 5.15 s. Not faster, and it would add a runtime
 * dependency while the messages-only run's claims on shared memory have no counterpart in it.
 */
import { createRequire } from 'node:module'
import { availableParallelism, loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { type ExtractOutcome, extractFileFromDisk } from './file'
import { type Merger, RunMerger } from './merge'
import type { ResolvedExtractOptions } from './options'
import { storedExtraction } from './payload'
import type { Diagnostic, FileExtraction, Message } from './types'

export type WorkerRequest = { type: 'batch'; files: string[] } | { type: 'stop' }
export type WorkerReply =
  | { type: 'ready' }
  | {
      type: 'results'
      items: { file: string; hash: string; payload: string; outcome: ExtractOutcome | 'unreadable' }[]
    }
  | { type: 'run'; batch: number; run: BatchRun }

/** What a worker of a messages-only run starts with (see {@link extractMessagesInThreads}). */
export interface MessagesWorkerData {
  mode: 'messages'
  options: ResolvedExtractOptions
  files: readonly string[]
  /** One Int32 per batch: 0 free, 1 taken by the calling thread, 2 + n taken by worker n. */
  claims: Int32Array
  worker: number
}

/** One batch of a messages-only run: its messages merged as a {@link RunMerger} merges them. */
export interface BatchRun {
  messages: Message[]
  diagnostics: Diagnostic[]
  parsed: number
  skipped: number
}

export interface ParsedFile {
  result: FileExtraction
  outcome: ExtractOutcome | 'unreadable'
  /** The encoded result, when a worker sent it so. */
  payload?: string
}

/** 'auto' uses worker threads only when this many cores are free. */
const AUTO_MIN_FREE_CORES = 3
/** Below this many files to parse, 'auto' stays on the calling thread. */
export const AUTO_WORKER_THRESHOLD = 1500
const BATCH = 48

/**
 * How many threads in all (calling thread included) 'auto' or an explicit count gives. 'auto' counts
 * only the cores other work is not already using (the 1-minute load average): on a busy machine
 * (a CI runner, parallel builds) extra threads cost more in start-up and transfer than they parse.
 */
export function threadCount(
  setting: number | 'auto',
  files: number,
  cores: number = availableParallelism(),
  load: number = loadavg()[0] ?? 0,
): number {
  if (setting === 'auto') {
    if (files < AUTO_WORKER_THRESHOLD) return 1
    // Measured on 2 idle cores (5,000-file corpus, Node 20 and 22): one thread beat two by 0.2 s, the
    // worker's start-up and transfer costing more than it parsed. Workers pay from 3 free cores on.
    const free = cores - load
    return free < AUTO_MIN_FREE_CORES ? 1 : Math.min(Math.floor(free + 0.5), 4)
  }
  return Math.max(1, Math.min(setting, Math.ceil(files / BATCH)))
}

/**
 * What a worker runs. From dist: the extract-worker.mjs entry next to this chunk. From the TypeScript
 * sources (tests, tsx scripts): worker.ts behind tsx's loader, registered inside the worker because
 * `--import` in a worker's execArgv does not reach its module loader. Null when neither is available.
 */
function workerSource(): { source: URL | string; eval: boolean } | null {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return { source: new URL('./extract-worker.mjs', here), eval: false }
  let api: string
  try {
    // The package's CommonJS entry is what require can find; its ES module twin sits beside it.
    api = pathToFileURL(
      createRequire(here)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href
  } catch {
    return null
  }
  const entry = new URL('./worker.ts', here).href
  return {
    source: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}) })`,
    eval: true,
  }
}

/** Extracts `files` with `threads` threads in all; results come back in `files` order. */
export async function extractInThreads(
  files: readonly string[],
  options: ResolvedExtractOptions,
  threads: number,
  /** Tests set it false so that every batch goes through a worker. */
  callerWorks = true,
): Promise<{ results: ParsedFile[]; workers: number }> {
  const results = new Array<ParsedFile | undefined>(files.length)
  const batches: number[][] = []
  for (let i = 0; i < files.length; i += BATCH) {
    batches.push(Array.from({ length: Math.min(BATCH, files.length - i) }, (_, k) => i + k))
  }
  const runLocal = (batch: number[]): void => {
    for (const i of batch) results[i] = extractFileFromDisk(files[i]!, options)
  }
  if (threads <= 1 || batches.length <= 1) {
    for (const batch of batches) runLocal(batch)
    return { results: results as ParsedFile[], workers: 0 }
  }

  const spawn = workerSource()
  if (spawn === null) {
    for (const batch of batches) runLocal(batch)
    return { results: results as ParsedFile[], workers: 0 }
  }
  // Workers that returned at least one batch: the ones that really helped.
  let helped = 0
  const workers: Promise<void>[] = []
  // Workers not holding a batch, stopped once the calling thread runs dry (one still starting up
  // would otherwise be waited for with nothing left to do).
  const idle = new Set<Worker>()
  for (let w = 0; w < threads - 1; w++) {
    workers.push(
      new Promise<void>((resolve) => {
        let worker: Worker
        try {
          worker = new Worker(spawn.source, {
            eval: spawn.eval,
            workerData: { options },
            stdout: false,
            stderr: false,
          })
        } catch {
          resolve()
          return
        }
        let delivered = false
        let current: number[] | null = null
        idle.add(worker)
        const finish = (): void => {
          // Whatever this worker held goes back to the queue for the others (or the calling thread).
          if (current !== null) batches.push(current)
          current = null
          idle.delete(worker)
          resolve()
        }
        worker.on('message', (reply: WorkerReply) => {
          if (reply.type === 'results' && current !== null) {
            reply.items.forEach((item, k) => {
              results[current![k]!] = {
                result: storedExtraction(item.file, item.hash, item.payload, options.namespace),
                outcome: item.outcome,
                payload: item.payload,
              }
            })
            current = null
            idle.add(worker)
            if (!delivered) {
              delivered = true
              helped++
            }
          }
          const next = batches.shift()
          if (next === undefined) {
            worker.postMessage({ type: 'stop' } satisfies WorkerRequest)
            return
          }
          idle.delete(worker)
          current = next
          worker.postMessage({ type: 'batch', files: next.map((i) => files[i]!) } satisfies WorkerRequest)
        })
        worker.on('error', finish)
        worker.on('exit', finish)
      }),
    )
  }
  // The calling thread takes batches too, yielding between them so worker replies are handled.
  for (let batch = callerWorks ? batches.shift() : undefined; batch !== undefined; batch = batches.shift()) {
    runLocal(batch)
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  if (callerWorks) for (const worker of idle) void worker.terminate()
  await Promise.all(workers)
  // Batches given back by a failed worker after the calling thread ran dry.
  for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) runLocal(batch)
  return { results: results as ParsedFile[], workers: helped }
}

/** The files of batch `b` (BATCH files each, the last one fewer), from disk, as one merged run. */
export function extractBatchRun(
  files: readonly string[],
  b: number,
  options: ResolvedExtractOptions,
): BatchRun {
  const run = new RunMerger()
  let parsed = 0
  let skipped = 0
  for (let i = b * BATCH; i < Math.min(files.length, (b + 1) * BATCH); i++) {
    const { result, outcome } = extractFileFromDisk(files[i]!, options)
    if (outcome === 'parsed') parsed++
    else if (outcome === 'skipped') skipped++
    run.add(result)
  }
  return { ...run.finish(), parsed, skipped }
}

/**
 * A messages-only run over `threads` threads in all, merged into `merger` in file order. The calling
 * thread takes batches from the front, the workers from the back, each claiming a batch with one
 * atomic compare-and-swap on shared memory: nobody waits for a batch to be handed out, and the calling
 * thread merges its unbroken first run of batches as it goes. Workers merge each batch they take
 * ({@link RunMerger}) and post it; the batches after the calling thread's first run are merged in
 * order at the end. A worker that fails or never starts costs nothing: the calling thread extracts
 * whatever it claimed and did not deliver.
 */
export async function extractMessagesInThreads(
  files: readonly string[],
  options: ResolvedExtractOptions,
  threads: number,
  merger: Merger,
  /** Tests set it false so that every batch goes through a worker. */
  callerWorks = true,
): Promise<{ parsed: number; skipped: number; workers: number }> {
  const count = Math.ceil(files.length / BATCH)
  const claims = new Int32Array(new SharedArrayBuffer(4 * count))
  const runs = new Array<BatchRun | undefined>(count)
  const spawn = threads > 1 && count > 1 ? workerSource() : null
  const workers: { worker: Worker; done: Promise<void> }[] = []
  for (let w = 0; spawn !== null && w < threads - 1; w++) {
    let worker: Worker
    try {
      worker = new Worker(spawn.source, {
        eval: spawn.eval,
        workerData: { mode: 'messages', options, files, claims, worker: w } satisfies MessagesWorkerData,
        stdout: false,
        stderr: false,
      })
    } catch {
      break
    }
    const done = new Promise<void>((resolve) => {
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'run') runs[reply.batch] = reply.run
      })
      worker.on('error', () => resolve())
      worker.on('exit', () => resolve())
    })
    workers.push({ worker, done })
  }

  let parsed = 0
  let skipped = 0
  const take = (run: BatchRun): void => {
    merger.add(run)
    parsed += run.parsed
    skipped += run.skipped
  }
  // The calling thread's first run of batches is merged at once; past the first batch a worker took,
  // its batches wait for their turn like the workers'.
  let unbroken = count
  for (let b = 0; callerWorks && b < count; b++) {
    if (Atomics.compareExchange(claims, b, 0, 1) !== 0) {
      if (unbroken === count) unbroken = b
      continue
    }
    const run = extractBatchRun(files, b, options)
    if (b < unbroken) take(run)
    else runs[b] = run
  }
  if (!callerWorks) unbroken = 0
  // Every batch is claimed now (unless the calling thread stays out). Wait for the workers holding
  // some; stop the others.
  const holding = new Set<number>()
  for (let b = unbroken; b < count; b++) if (claims[b]! >= 2) holding.add(claims[b]! - 2)
  await Promise.all(
    workers.map(({ worker, done }, w) => (callerWorks && !holding.has(w) ? worker.terminate() : done)),
  )
  // Workers that delivered at least one batch: the ones that really helped.
  const helped = new Set<number>()
  for (let b = unbroken; b < count; b++) {
    const run = runs[b]
    if (run !== undefined && claims[b]! >= 2) helped.add(claims[b]!)
    // A batch a failed worker did not deliver is extracted here.
    take(run ?? extractBatchRun(files, b, options))
  }
  return { parsed, skipped, workers: helped.size }
}
