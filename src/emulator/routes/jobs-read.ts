import type { Job, JobSummary } from '../../core/model/wire'
import { isoDate } from '../clock'
import { validationError } from '../http/envelope'
import {
  optionalString,
  optionalStringArray,
  type ProjectParams,
  type Query,
  queryString,
  requiredString,
} from '../http/params'
import type { ProjectRecord } from '../store'
import type { JobFields, JobRecord } from '../store/job-records'
import { characterCount } from '../store/matching'

/** What the jobs routes read from a request and write into an answer: limits, fields, orders, the job shapes. */

export const MAX_JOB_UIDS_FILTER = 500
export const MAX_HASHCODES_PER_ADD = 1000
export const MAX_DESCRIPTION = 2000
/** The spec states both 300 and 5000; the emulator holds clients to the lower one. */
export const MAX_FILES_PER_JOB = 300
export const MAX_PAGE = 500

export const SORT_FIELDS: Record<string, (j: JobRecord) => string | number | null> = {
  createdDate: (j) => j.createdDate,
  modifiedDate: (j) => j.modifiedDate,
  dueDate: (j) => j.dueDate,
  jobName: (j) => j.jobName.toLowerCase(),
  jobStatus: (j) => j.jobStatus,
  referenceNumber: (j) => j.referenceNumber,
}

export interface JobParams extends ProjectParams {
  translationJobUid: string
}

export function summarize(j: JobRecord): JobSummary {
  return {
    translationJobUid: j.translationJobUid,
    jobName: j.jobName,
    targetLocaleIds: [...j.targetLocaleIds],
    description: j.description,
    dueDate: j.dueDate === null ? null : isoDate(j.dueDate),
    referenceNumber: j.referenceNumber,
    createdDate: isoDate(j.createdDate),
    jobStatus: j.jobStatus,
  }
}

export function describeJob(j: JobRecord): Job {
  return {
    ...summarize(j),
    callbackUrl: j.callbackUrl,
    callbackMethod: j.callbackMethod,
    modifiedDate: isoDate(j.modifiedDate),
    createdByUserUid: j.createdByUserUid,
    modifiedByUserUid: j.modifiedByUserUid,
    firstCompletedDate: j.firstCompletedDate === null ? null : isoDate(j.firstCompletedDate),
    lastCompletedDate: j.lastCompletedDate === null ? null : isoDate(j.lastCompletedDate),
    cancelReason: j.cancelReason,
  }
}

/** Locales of a request: each a target locale of the project, duplicates dropped. */
export function projectLocales(
  project: ProjectRecord,
  localeIds: readonly string[],
  field: string,
): string[] {
  localeIds.forEach((l, i) => {
    if (!project.targetLocaleIds.includes(l)) {
      throw validationError(`${field}[${i}]`, `${l} is not a target locale of project ${project.projectId}`)
    }
  })
  return [...new Set(localeIds)]
}

export function readCallback(
  body: Record<string, unknown>,
): Pick<JobFields, 'callbackUrl' | 'callbackMethod'> {
  const raw = optionalString(body, 'callbackUrl')
  let callbackUrl: string | null = null
  if (raw !== null && raw !== '') {
    let url: URL | undefined
    try {
      url = new URL(raw)
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw validationError('callbackUrl', 'must be an absolute http or https URL')
    }
    callbackUrl = url.href
  }
  const method = optionalString(body, 'callbackMethod')
  const callbackMethod = method === null ? null : method.toUpperCase()
  if (callbackMethod !== null && callbackMethod !== 'GET' && callbackMethod !== 'POST') {
    throw validationError('callbackMethod', `must be GET or POST; got ${JSON.stringify(method)}`)
  }
  return { callbackUrl, callbackMethod: callbackMethod as 'GET' | 'POST' | null }
}

export function readJobFields(body: Record<string, unknown>, project: ProjectRecord): JobFields {
  const jobName = requiredString(body, 'jobName')
  const description = optionalString(body, 'description')
  if (description !== null && characterCount(description) > MAX_DESCRIPTION) {
    throw validationError(
      'description',
      `is ${characterCount(description)} characters long; at most ${MAX_DESCRIPTION}`,
    )
  }
  const due = optionalString(body, 'dueDate')
  let dueDate: number | null = null
  if (due !== null && due !== '') {
    dueDate = Date.parse(due)
    if (!/^\d{4}-\d{2}-\d{2}T/.test(due) || Number.isNaN(dueDate)) {
      throw validationError(
        'dueDate',
        `must be a date-time like 2030-01-31T17:00:00Z; got ${JSON.stringify(due)}`,
      )
    }
  }
  return {
    jobName,
    targetLocaleIds: projectLocales(
      project,
      optionalStringArray(body, 'targetLocaleIds') ?? [],
      'targetLocaleIds',
    ),
    description,
    dueDate,
    referenceNumber: optionalString(body, 'referenceNumber'),
    ...readCallback(body),
  }
}

export function readHashcodes(body: Record<string, unknown>, max: number | null): string[] {
  const hashcodes = optionalStringArray(body, 'hashcodes')
  if (hashcodes === null || hashcodes.length === 0)
    throw validationError('hashcodes', 'is required (a non-empty array)')
  if (max !== null && hashcodes.length > max) {
    throw validationError('hashcodes', `has ${hashcodes.length} items; at most ${max} per request`)
  }
  return hashcodes
}

export function jobOrder(query: Query): (a: JobRecord, b: JobRecord) => number {
  const sortBy = queryString(query, 'sortBy') || 'createdDate'
  const get = SORT_FIELDS[sortBy]
  if (!get)
    throw validationError(
      'sortBy',
      `must be one of ${Object.keys(SORT_FIELDS).join(', ')}; got ${JSON.stringify(sortBy)}`,
    )
  const direction = (queryString(query, 'sortDirection') || 'DESC').toUpperCase()
  if (direction !== 'ASC' && direction !== 'DESC') {
    throw validationError('sortDirection', `must be ASC or DESC; got ${JSON.stringify(direction)}`)
  }
  const sign = direction === 'DESC' ? -1 : 1
  return (a, b) => {
    const x = get(a)
    const y = get(b)
    if (x === y) return 0
    if (x === null) return -sign
    if (y === null) return sign
    return (x < y ? -1 : 1) * sign
  }
}
