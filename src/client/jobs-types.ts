import type {
  LocaleProgress,
  ProgressReport,
  ProgressSummary,
  Job as WireJob,
  JobProcessState as WireJobProcessState,
  JobStatus as WireJobStatus,
  JobSummary as WireJobSummary,
  WorkflowStepSummary,
} from '../core/model/wire'
import type { Page } from './paging'
import type { CallbackMethod, PageRequest } from './strings-types'

/** The jobs area of the spec: its request and answer shapes and the API the client offers. */

export type { LocaleProgress, ProgressReport, ProgressSummary, WorkflowStepSummary }

/** The spec's states; the service may add more. */
export type JobStatus = WireJobStatus | (string & {})

/** An item of list jobs. */
export type JobSummary = WireJobSummary<JobStatus>

/** The job record of create job (the spec does not show get-a-job's shape; it is read as the same). */
export type Job = WireJob<JobStatus>

export interface CreateJobRequest {
  /** Unique in the project. */
  jobName: string
  targetLocaleIds?: string[]
  /** At most 2000 characters. */
  description?: string
  dueDate?: string
  referenceNumber?: string
  callbackUrl?: string
  callbackMethod?: CallbackMethod
}

export interface ListJobsQuery {
  /** LIKE match. */
  jobName?: string
  /**
   * At most 500 in one page request. `list` takes any number: it asks for them in runs that keep each
   * request line below the limit (and 500), one after another in the answer, each run in the order asked.
   */
  translationJobUids?: readonly string[]
  translationJobStatus?: readonly JobStatus[]
  sortBy?: string
  sortDirection?: string
}

export interface SearchJobsRequest {
  hashcodes?: string[]
  fileUris?: string[]
  translationJobUids?: string[]
}

export type JobProcessState = WireJobProcessState | (string & {})

export interface JobProcess {
  processUid: string
  translationJobUid: string
  processState: JobProcessState
  createdDate: string
  modifiedDate: string
}

/**
 * The outcome of an operation that may go asynchronous. Counts are summed over the synchronous answers;
 * an operation answered with 202 is followed to completion and listed in `processes` (the spec's
 * process record carries no counts).
 */
export interface JobCountResult {
  successCount: number
  failCount: number
  processes: JobProcess[]
}

export interface AddStringsRequest {
  /** Any number: sent in calls of at most 1000. */
  hashcodes: readonly string[]
  targetLocaleIds?: string[]
  moveEnabled?: boolean
}

export interface RemoveStringsRequest {
  hashcodes: readonly string[]
  localeIds?: string[]
}

export interface LocaleWorkflow {
  targetLocaleId: string
  workflowUid: string
}

export interface JobsApi {
  listPage(projectId: string, query?: ListJobsQuery & PageRequest): Promise<Page<JobSummary>>
  list(projectId: string, query?: ListJobsQuery): AsyncGenerator<JobSummary, void, undefined>
  /** The job whose name is exactly `jobName` (list jobs matches LIKE), or undefined. */
  findByName(projectId: string, jobName: string): Promise<JobSummary | undefined>
  create(projectId: string, request: CreateJobRequest): Promise<Job>
  /** The job named `request.jobName`, created when there is none. */
  findOrCreate(projectId: string, request: CreateJobRequest): Promise<JobSummary>
  get(projectId: string, translationJobUid: string): Promise<Job>
  search(projectId: string, request: SearchJobsRequest): Promise<Page<JobSummary>>
  filesPage(projectId: string, translationJobUid: string, page?: PageRequest): Promise<Page<{ uri: string }>>
  files(projectId: string, translationJobUid: string): AsyncGenerator<{ uri: string }, void, undefined>
  fileProgress(projectId: string, translationJobUid: string, fileUri: string): Promise<ProgressReport>
  progress(
    projectId: string,
    translationJobUid: string,
    query?: { targetLocaleId?: string },
  ): Promise<ProgressReport>
  addStrings(
    projectId: string,
    translationJobUid: string,
    request: AddStringsRequest,
  ): Promise<JobCountResult>
  removeStrings(
    projectId: string,
    translationJobUid: string,
    request: RemoveStringsRequest,
  ): Promise<JobCountResult>
  addFile(
    projectId: string,
    translationJobUid: string,
    request: { fileUri: string; targetLocaleIds?: string[] },
  ): Promise<JobCountResult>
  removeFile(
    projectId: string,
    translationJobUid: string,
    request: { fileUri: string },
  ): Promise<JobCountResult>
  addLocale(
    projectId: string,
    translationJobUid: string,
    localeId: string,
    query?: { syncContent?: boolean },
  ): Promise<JobProcess | null>
  removeLocale(projectId: string, translationJobUid: string, localeId: string): Promise<JobProcess | null>
  close(projectId: string, translationJobUid: string): Promise<void>
  cancel(
    projectId: string,
    translationJobUid: string,
    request?: { reason?: string },
  ): Promise<JobProcess | null>
  authorize(
    projectId: string,
    translationJobUid: string,
    request?: { localeWorkflows?: LocaleWorkflow[] },
  ): Promise<void>
  process(projectId: string, translationJobUid: string, processUid: string): Promise<JobProcess>
  /** Polls a job process until it leaves `IN_PROGRESS`; `FAILED` and an unknown process are errors. */
  waitForProcess(projectId: string, translationJobUid: string, processUid: string): Promise<JobProcess>
}
