import { randomUUID } from 'node:crypto'
import type { StorePart } from './part'

export type ProcessState = 'open' | 'closed' | 'failed'

export interface ProcessStatistics {
  requested: number
  processed: number
  errored: number
  skipped: number
}

export interface ProcessRecord {
  processUid: string
  projectId: string
  processState: ProcessState
  createdDate: number
  modifiedDate: number
  processStatistics: ProcessStatistics
}

/**
 * Finished processes kept at most, oldest dropped first. Every create-strings request opens one (its
 * uid is in the answer), so under sustained load the TTL alone let memory grow by the hour's traffic.
 */
export const MAX_FINISHED_PROCESSES = 100_000

/** Create-strings processes. A finished one is queryable for the configured lifespan, then gone. */
export class ProcessStore implements StorePart {
  readonly name = 'processes'
  #processes = new Map<string, ProcessRecord>()
  readonly #onChange: () => void

  constructor(onChange: () => void) {
    this.#onChange = onChange
  }

  open(
    projectId: string,
    requested: number,
    now: number,
    ttlMs: number = Number.POSITIVE_INFINITY,
  ): ProcessRecord {
    this.#sweep(now, ttlMs)
    const record: ProcessRecord = {
      processUid: randomUUID(),
      projectId,
      processState: 'open',
      createdDate: now,
      modifiedDate: now,
      processStatistics: { requested, processed: 0, errored: 0, skipped: 0 },
    }
    this.#processes.set(record.processUid, record)
    this.#onChange()
    return record
  }

  finish(processUid: string, state: 'closed' | 'failed', statistics: ProcessStatistics, now: number): void {
    const record = this.#processes.get(processUid)
    if (!record) return
    record.processState = state
    record.processStatistics = statistics
    record.modifiedDate = now
    this.#onChange()
  }

  /**
   * Drops finished processes past their lifespan, and the oldest finished ones beyond the cap. The map
   * is in creation order, so the scan stops at the first finished process that may stay: a few steps
   * per call, whatever the number kept.
   */
  #sweep(now: number, ttlMs: number): void {
    let dropped = false
    for (const [uid, record] of this.#processes) {
      if (record.processState === 'open') continue
      if (record.modifiedDate + ttlMs > now && this.#processes.size < MAX_FINISHED_PROCESSES) break
      this.#processes.delete(uid)
      dropped = true
    }
    if (dropped) this.#onChange()
  }

  /** The process, unless unknown, of another project, or finished more than `ttlMs` ago. */
  find(projectId: string, processUid: string, now: number, ttlMs: number): ProcessRecord | undefined {
    const record = this.#processes.get(processUid)
    if (!record || record.projectId !== projectId) return undefined
    if (record.processState !== 'open' && record.modifiedDate + ttlMs <= now) {
      this.#processes.delete(processUid)
      this.#onChange()
      return undefined
    }
    return record
  }

  get size(): number {
    return this.#processes.size
  }

  snapshot(): ProcessRecord[] {
    return [...this.#processes.values()]
  }

  restore(data: unknown): void {
    if (!Array.isArray(data)) return
    for (const record of data as ProcessRecord[]) {
      // Work still running when the emulator stopped was lost with it.
      if (record.processState === 'open') record.processState = 'failed'
      this.#processes.set(record.processUid, record)
    }
  }

  reset(): void {
    this.#processes.clear()
  }
}
