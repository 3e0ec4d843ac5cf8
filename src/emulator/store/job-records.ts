import type { JobProcessState, JobStatus } from '../../core/model/wire'

export type { JobProcessState, JobStatus }

/** The records of the jobs part: a job, its fields and its processes, as the store keeps them. */

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
