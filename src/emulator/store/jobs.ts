import { randomUUID } from 'node:crypto'
import type { JobProcessState, JobStatus } from '../../core/model/wire'
import { isoDate } from '../clock'
import { invalidInput } from './errors'
import { shortUid } from './ids'
import type { StorePart } from './part'
import { type StringStore, workflowStepOf } from './strings'

export type { JobProcessState, JobStatus }
export const JOB_STATUSES: readonly JobStatus[] = [
  'DRAFT',
  'AWAITING_AUTHORIZATION',
  'IN_PROGRESS',
  'COMPLETE',
  'CLOSED',
  'CANCELLED',
]

export type JobEvent = 'job.completed' | 'job.localeCompleted' | 'job.cancelled'

export interface JobFields {
  jobName: string
  targetLocaleIds: string[]
  description: string | null
  dueDate: number | null
  referenceNumber: string | null
  callbackUrl: string | null
  callbackMethod: 'GET' | 'POST' | null
}

export interface JobRecord extends JobFields {
  translationJobUid: string
  projectId: string
  createdDate: number
  modifiedDate: number
  createdByUserUid: string
  modifiedByUserUid: string
  jobStatus: JobStatus
  firstCompletedDate: number | null
  lastCompletedDate: number | null
  cancelReason: string | null
  /** Hashcodes in the job per locale, in the order they were added. */
  content: Record<string, string[]>
  /** Files added with file/add (a file with no strings still belongs to the job). */
  fileUris: string[]
  /** Locales whose `job.localeCompleted` went out for the content they hold now. */
  completedLocaleIds: string[]
}

export interface JobProcessRecord {
  processUid: string
  translationJobUid: string
  projectId: string
  processState: JobProcessState
  createdDate: number
  modifiedDate: number
}

export interface CountResult {
  successCount: number
  failCount: number
}

interface JobDeps {
  strings: StringStore
  now: () => number
  /** Sends a job callback (the caller knows the job's URL and method). */
  notify: (job: JobRecord, event: JobEvent, extra: Record<string, string | number>) => void
  onChange: () => void
}

interface JobsSnapshot {
  jobs: JobRecord[]
  processes: JobProcessRecord[]
}

const pairKey = (projectId: string, hashcode: string, localeId: string): string =>
  `${projectId}\u0000${hashcode}\u0000${localeId}`

/** Where content may be added or removed: not in a job that is over. */
const OPEN_STATES: readonly JobStatus[] = ['DRAFT', 'AWAITING_AUTHORIZATION', 'IN_PROGRESS', 'COMPLETE']
const CANCELLABLE: readonly JobStatus[] = ['DRAFT', 'AWAITING_AUTHORIZATION', 'IN_PROGRESS']

function refuse(job: JobRecord, action: string, allowed: readonly JobStatus[]) {
  return invalidInput(
    'translationJobUid',
    `job ${job.translationJobUid} is ${job.jobStatus}; ${action} needs ${allowed.join(' or ')}`,
    'invalid_job_status',
  )
}

/**
 * Translation jobs and their state machine (DESIGN.md): DRAFT (no content) -> AWAITING_AUTHORIZATION
 * (content added) -> IN_PROGRESS (authorized) -> COMPLETE (every string of every locale published)
 * -> CLOSED; cancel from the first three gives CANCELLED. A (string, locale) pair belongs to at most
 * one job; `#holders` indexes that. Jobs authorize and unauthorize strings through the StringStore,
 * and hear of publications through {@link onPublished}.
 */
export class JobStore implements StorePart {
  readonly name = 'jobs'
  #jobs = new Map<string, JobRecord>()
  #processes = new Map<string, JobProcessRecord>()
  #holders = new Map<string, string>()
  /**
   * Per job and locale, the hashcodes not yet published: built on first need and kept up to date
   * as content and publications change, so a publication costs O(1) and not a walk of the locale
   * (a walk per publication made publishing a job of 20,000 strings quadratic).
   */
  #unpublished = new Map<string, Map<string, Set<string>>>()
  readonly #deps: JobDeps

  constructor(deps: JobDeps) {
    this.#deps = deps
  }

  list(projectId: string): JobRecord[] {
    return [...this.#jobs.values()].filter((j) => j.projectId === projectId)
  }

  get(projectId: string, translationJobUid: string): JobRecord | undefined {
    const job = this.#jobs.get(translationJobUid)
    return job?.projectId === projectId ? job : undefined
  }

  /** The job holding a string in a locale, if any. */
  holder(projectId: string, hashcode: string, localeId: string): JobRecord | undefined {
    const uid = this.#holders.get(pairKey(projectId, hashcode, localeId))
    return uid === undefined ? undefined : this.#jobs.get(uid)
  }

  /** Every hashcode in the job, whatever the locale, in order of first addition. */
  hashcodes(job: JobRecord): string[] {
    return [...new Set(Object.values(job.content).flat())]
  }

  create(projectId: string, fields: JobFields, userUid: string): JobRecord {
    if (this.list(projectId).some((j) => j.jobName === fields.jobName)) {
      throw invalidInput(
        'jobName',
        `a job named ${JSON.stringify(fields.jobName)} already exists in project ${projectId}`,
        'job_name_exists',
      )
    }
    const now = this.#deps.now()
    const job: JobRecord = {
      translationJobUid: shortUid(),
      projectId,
      ...fields,
      createdDate: now,
      modifiedDate: now,
      createdByUserUid: userUid,
      modifiedByUserUid: userUid,
      jobStatus: 'DRAFT',
      firstCompletedDate: null,
      lastCompletedDate: null,
      cancelReason: null,
      content: Object.fromEntries(fields.targetLocaleIds.map((l) => [l, []])),
      fileUris: [],
      completedLocaleIds: [],
    }
    this.#jobs.set(job.translationJobUid, job)
    this.#deps.onChange()
    return job
  }

  requireOpen(job: JobRecord, action: string): void {
    if (!OPEN_STATES.includes(job.jobStatus)) throw refuse(job, action, OPEN_STATES)
  }

  requireCancellable(job: JobRecord): void {
    if (!CANCELLABLE.includes(job.jobStatus)) throw refuse(job, 'cancel', CANCELLABLE)
  }

  #touch(job: JobRecord, userUid: string | null): void {
    job.modifiedDate = this.#deps.now()
    if (userUid !== null) job.modifiedByUserUid = userUid
  }

  #addLocaleIds(job: JobRecord, localeIds: readonly string[]): void {
    for (const l of localeIds) {
      if (!job.targetLocaleIds.includes(l)) job.targetLocaleIds.push(l)
      job.content[l] ??= []
    }
  }

  /**
   * Adds strings for locales (unlisted locales extend the job). A pair held by another job is
   * skipped, or moved here with `moveEnabled`. A string counts as a success when it ends up in this
   * job for every requested locale. New content sends the job (back) to AWAITING_AUTHORIZATION.
   */
  addContent(
    job: JobRecord,
    hashcodes: readonly string[],
    localeIds: readonly string[],
    moveEnabled: boolean,
    userUid: string | null,
  ): CountResult {
    this.requireOpen(job, 'adding content')
    this.#addLocaleIds(job, localeIds)
    const result: CountResult = { successCount: 0, failCount: 0 }
    // Pairs taken from other jobs, released per job and locale at the end (one pass over each list).
    const movedFrom = new Map<JobRecord, Map<string, string[]>>()
    const addedTo = new Set<string>()
    for (const hashcode of new Set(hashcodes)) {
      let whole = true
      for (const localeId of localeIds) {
        const key = pairKey(job.projectId, hashcode, localeId)
        const holderUid = this.#holders.get(key)
        if (holderUid === job.translationJobUid) continue
        if (holderUid !== undefined) {
          if (!moveEnabled) {
            whole = false
            continue
          }
          const other = this.#jobs.get(holderUid)!
          const pairs = movedFrom.get(other) ?? new Map<string, string[]>()
          movedFrom.set(other, pairs)
          const list = pairs.get(localeId) ?? []
          pairs.set(localeId, list)
          list.push(hashcode)
        }
        job.content[localeId]!.push(hashcode)
        this.#holders.set(key, job.translationJobUid)
        const waiting = this.#unpublishedIn(job, localeId, false)
        if (waiting && !this.#published(job, hashcode, localeId)) waiting.add(hashcode)
        addedTo.add(localeId)
      }
      if (whole) result.successCount++
      else result.failCount++
    }
    for (const [other, pairs] of movedFrom) this.#release(other, pairs, false, job.translationJobUid)
    if (addedTo.size > 0) {
      job.completedLocaleIds = job.completedLocaleIds.filter((l) => !addedTo.has(l))
      if (job.jobStatus !== 'AWAITING_AUTHORIZATION') job.jobStatus = 'AWAITING_AUTHORIZATION'
    }
    this.#touch(job, userUid)
    for (const other of movedFrom.keys()) this.#settle(other)
    this.#deps.onChange()
    return result
  }

  /**
   * Takes strings out of the job for locales (null: all its locales); the pairs removed become
   * unauthorized. A string counts as a success when it was in the job for one of the locales.
   */
  removeContent(
    job: JobRecord,
    hashcodes: readonly string[],
    localeIds: readonly string[] | null,
    userUid: string | null,
  ): CountResult {
    this.requireOpen(job, 'removing content')
    const locales = localeIds ?? job.targetLocaleIds
    const result: CountResult = { successCount: 0, failCount: 0 }
    const removed = new Map<string, string[]>()
    for (const hashcode of new Set(hashcodes)) {
      let any = false
      for (const localeId of locales) {
        if (this.#holders.get(pairKey(job.projectId, hashcode, localeId)) !== job.translationJobUid) continue
        any = true
        const list = removed.get(localeId) ?? []
        removed.set(localeId, list)
        list.push(hashcode)
      }
      if (any) result.successCount++
      else result.failCount++
    }
    this.#release(job, removed, true)
    this.#touch(job, userUid)
    this.#settle(job)
    this.#deps.onChange()
    return result
  }

  /**
   * Frees pairs from the job; `unauthorize` also withdraws their authorization (not on close).
   * `movedTo`: the job that now holds the pairs, whose holder entries stay.
   */
  #release(job: JobRecord, pairs: Map<string, string[]>, unauthorize: boolean, movedTo?: string): void {
    for (const [localeId, hashcodes] of pairs) {
      const gone = new Set(hashcodes)
      job.content[localeId] = (job.content[localeId] ?? []).filter((h) => !gone.has(h))
      const waiting = this.#unpublishedIn(job, localeId, false)
      for (const h of hashcodes) {
        waiting?.delete(h)
        if (movedTo === undefined) this.#holders.delete(pairKey(job.projectId, h, localeId))
      }
      if (unauthorize && hashcodes.length > 0) {
        this.#deps.strings.unauthorize(job.projectId, hashcodes, [localeId])
      }
    }
  }

  #allPairs(job: JobRecord): Map<string, string[]> {
    return new Map(Object.entries(job.content).map(([l, list]) => [l, [...list]]))
  }

  contentSize(job: JobRecord): number {
    return Object.values(job.content).reduce((n, list) => n + list.length, 0)
  }

  /** After content left the job: an empty job is a DRAFT again; an active one may now be complete. */
  #settle(job: JobRecord): void {
    if (!OPEN_STATES.includes(job.jobStatus)) return
    if (this.contentSize(job) === 0) {
      job.jobStatus = 'DRAFT'
      job.completedLocaleIds = []
      return
    }
    this.#checkCompletion(job)
  }

  addLocale(job: JobRecord, localeId: string, syncContent: boolean, userUid: string): void {
    this.requireOpen(job, 'adding a locale')
    if (job.targetLocaleIds.includes(localeId)) return
    this.#addLocaleIds(job, [localeId])
    this.#touch(job, userUid)
    this.#deps.onChange()
    const hashcodes = this.hashcodes(job)
    if (syncContent && hashcodes.length > 0) this.addContent(job, hashcodes, [localeId], false, userUid)
  }

  removeLocale(job: JobRecord, localeId: string, userUid: string): void {
    this.requireOpen(job, 'removing a locale')
    this.#release(job, new Map([[localeId, job.content[localeId] ?? []]]), true)
    job.targetLocaleIds = job.targetLocaleIds.filter((l) => l !== localeId)
    delete job.content[localeId]
    this.#unpublished.get(job.translationJobUid)?.delete(localeId)
    job.completedLocaleIds = job.completedLocaleIds.filter((l) => l !== localeId)
    this.#touch(job, userUid)
    this.#settle(job)
    this.#deps.onChange()
  }

  addFile(job: JobRecord, fileUri: string): void {
    if (!job.fileUris.includes(fileUri)) job.fileUris.push(fileUri)
    this.#deps.onChange()
  }

  removeFile(job: JobRecord, fileUri: string): void {
    job.fileUris = job.fileUris.filter((f) => f !== fileUri)
    this.#deps.onChange()
  }

  /** Authorizes every string of the job in each of its locales, which starts the translators. */
  authorize(job: JobRecord, userUid: string): void {
    if (job.jobStatus !== 'AWAITING_AUTHORIZATION') throw refuse(job, 'authorize', ['AWAITING_AUTHORIZATION'])
    if (this.contentSize(job) === 0) {
      throw invalidInput('translationJobUid', `job ${job.translationJobUid} has no content to authorize`)
    }
    // IN_PROGRESS first: an auto-translator with no delay publishes inside authorize(), and those
    // publications must be able to complete the job.
    job.jobStatus = 'IN_PROGRESS'
    this.#touch(job, userUid)
    for (const [localeId, hashcodes] of Object.entries(job.content)) {
      if (hashcodes.length > 0) this.#deps.strings.authorize(job.projectId, hashcodes, [localeId])
    }
    this.#checkCompletion(job)
    this.#deps.onChange()
  }

  /** Removes all content (unauthorized again) and ends the job; sends `job.cancelled`. */
  cancel(job: JobRecord, reason: string | null, userUid: string): void {
    this.requireCancellable(job)
    this.#release(job, this.#allPairs(job), true)
    job.jobStatus = 'CANCELLED'
    job.cancelReason = reason
    job.completedLocaleIds = []
    this.#touch(job, userUid)
    this.#deps.onChange()
    this.#deps.notify(job, 'job.cancelled', { ts: isoDate(this.#deps.now()) })
  }

  /** Ends a complete job; its strings leave it but keep their authorization and translations. */
  close(job: JobRecord, userUid: string): void {
    if (job.jobStatus !== 'COMPLETE') throw refuse(job, 'close', ['COMPLETE'])
    this.#release(job, this.#allPairs(job), false)
    job.jobStatus = 'CLOSED'
    this.#touch(job, userUid)
    this.#deps.onChange()
  }

  /** A translation was published: the job holding that pair may have finished a locale or all. */
  onPublished(projectId: string, hashcode: string, localeId: string): void {
    const job = this.holder(projectId, hashcode, localeId)
    if (!job) return
    const waiting = this.#unpublishedIn(job, localeId, false)
    if (waiting) {
      waiting.delete(hashcode)
      // Nothing left waiting can still be a locale not done: a published translation edited since.
      if (waiting.size > 0) return
    }
    if (job.jobStatus === 'IN_PROGRESS') this.#checkCompletion(job)
  }

  #published(job: JobRecord, hashcode: string, localeId: string): boolean {
    const state = this.#deps.strings.get(job.projectId, hashcode)?.translations[localeId]
    return workflowStepOf(state) === 'PUBLISH'
  }

  /**
   * The job's unpublished hashcodes in a locale; `build` walks the locale's content once when the
   * set is not known yet (otherwise undefined: nothing to keep up to date).
   */
  #unpublishedIn(job: JobRecord, localeId: string, build: true): Set<string>
  #unpublishedIn(job: JobRecord, localeId: string, build: boolean): Set<string> | undefined
  #unpublishedIn(job: JobRecord, localeId: string, build: boolean): Set<string> | undefined {
    let byLocale = this.#unpublished.get(job.translationJobUid)
    let waiting = byLocale?.get(localeId)
    if (waiting || !build) return waiting
    waiting = new Set((job.content[localeId] ?? []).filter((h) => !this.#published(job, h, localeId)))
    if (!byLocale) {
      byLocale = new Map()
      this.#unpublished.set(job.translationJobUid, byLocale)
    }
    byLocale.set(localeId, waiting)
    return waiting
  }

  /**
   * Every string of the locale published. The set says so in O(1); when it is empty, one walk
   * confirms it, since a translation edited after its publication (a save without publishing) is
   * not announced: the walk puts such strings back in the set.
   */
  #localeDone(job: JobRecord, localeId: string): boolean {
    const waiting = this.#unpublishedIn(job, localeId, true)
    if (waiting.size > 0) return false
    for (const h of job.content[localeId] ?? []) if (!this.#published(job, h, localeId)) waiting.add(h)
    return waiting.size === 0
  }

  #checkCompletion(job: JobRecord): void {
    if (job.jobStatus !== 'IN_PROGRESS') return
    let all = true
    for (const localeId of job.targetLocaleIds) {
      if ((job.content[localeId] ?? []).length === 0) continue
      if (job.completedLocaleIds.includes(localeId)) continue
      if (!this.#localeDone(job, localeId)) {
        all = false
        continue
      }
      job.completedLocaleIds.push(localeId)
      this.#deps.onChange()
      this.#deps.notify(job, 'job.localeCompleted', { localeId })
    }
    if (!all || this.contentSize(job) === 0) return
    const now = this.#deps.now()
    job.jobStatus = 'COMPLETE'
    job.firstCompletedDate ??= now
    job.lastCompletedDate = now
    job.modifiedDate = now
    this.#deps.onChange()
    this.#deps.notify(job, 'job.completed', {})
  }

  openProcess(job: JobRecord): JobProcessRecord {
    const now = this.#deps.now()
    const record: JobProcessRecord = {
      processUid: randomUUID(),
      translationJobUid: job.translationJobUid,
      projectId: job.projectId,
      processState: 'IN_PROGRESS',
      createdDate: now,
      modifiedDate: now,
    }
    this.#processes.set(record.processUid, record)
    this.#deps.onChange()
    return record
  }

  finishProcess(record: JobProcessRecord, state: 'COMPLETED' | 'FAILED'): void {
    record.processState = state
    record.modifiedDate = this.#deps.now()
    this.#deps.onChange()
  }

  /** The process, unless unknown, of another job, or finished more than `ttlMs` ago. */
  findProcess(job: JobRecord, processUid: string, ttlMs: number): JobProcessRecord | undefined {
    const record = this.#processes.get(processUid)
    if (!record || record.translationJobUid !== job.translationJobUid) return undefined
    if (record.processState !== 'IN_PROGRESS' && record.modifiedDate + ttlMs <= this.#deps.now()) {
      this.#processes.delete(processUid)
      this.#deps.onChange()
      return undefined
    }
    return record
  }

  snapshot(): JobsSnapshot {
    return { jobs: [...this.#jobs.values()], processes: [...this.#processes.values()] }
  }

  restore(data: unknown): void {
    const snap = data as Partial<JobsSnapshot> | null
    if (Array.isArray(snap?.jobs)) {
      this.#jobs = new Map(snap.jobs.map((j) => [j.translationJobUid, j]))
      this.#holders.clear()
      this.#unpublished.clear()
      for (const job of this.#jobs.values()) {
        for (const [localeId, list] of Object.entries(job.content)) {
          for (const h of list) this.#holders.set(pairKey(job.projectId, h, localeId), job.translationJobUid)
        }
      }
    }
    if (Array.isArray(snap?.processes)) {
      for (const record of snap.processes) {
        // Work still running when the emulator stopped was lost with it.
        if (record.processState === 'IN_PROGRESS') record.processState = 'FAILED'
        this.#processes.set(record.processUid, record)
      }
    }
  }

  reset(): void {
    this.#jobs.clear()
    this.#processes.clear()
    this.#holders.clear()
    this.#unpublished.clear()
  }
}
