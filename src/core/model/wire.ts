/**
 * The spec's wire types that both sides speak: the API client (`src/client/`) reads them, the emulator
 * (`src/emulator/`) writes them. Written once here, below both. Closed unions list what the spec
 * names; the client widens them (`| (string & {})`) where the service may grow the list. Beside them,
 * the one reading of a record that core makes in more than one place (`singularTranslation`).
 */

/** A translation job's state (the spec's state machine). */
export type JobStatus =
  | 'DRAFT'
  | 'AWAITING_AUTHORIZATION'
  | 'IN_PROGRESS'
  | 'COMPLETE'
  | 'CLOSED'
  | 'CANCELLED'

/** An item of list jobs; `Status` is the client's widened union. */
export interface JobSummary<Status extends string = JobStatus> {
  translationJobUid: string
  jobName: string
  targetLocaleIds: string[]
  description: string | null
  dueDate: string | null
  referenceNumber: string | null
  createdDate: string
  jobStatus: Status
}

/** The job record of create job (the spec does not show get-a-job's shape; it is read as the same). */
export interface Job<Status extends string = JobStatus> extends JobSummary<Status> {
  callbackUrl?: string | null
  callbackMethod?: 'GET' | 'POST' | null
  modifiedDate?: string
  createdByUserUid?: string
  modifiedByUserUid?: string
  firstCompletedDate?: string | null
  lastCompletedDate?: string | null
  /** Not in the spec: the emulator tells why it cancelled a job (docs/emulator.md). */
  cancelReason?: string | null
}

/** The state of an operation a 202 answer left running. */
export type JobProcessState = 'IN_PROGRESS' | 'COMPLETED' | 'FAILED'

/** The steps of a workflow, in order. */
export type WorkflowStepType = 'TRANSLATION' | 'POST_TRANSLATION__EDIT' | 'PUBLISH'

export type IssueTypeCode = 'SOURCE' | 'TRANSLATION'

export type IssueStateCode = 'OPENED' | 'RESOLVED'

/** The answer of authenticate and of refresh. */
export interface TokenPair {
  accessToken: string
  refreshToken: string
  /** Seconds. */
  expiresIn: number
  /** Seconds. */
  refreshExpiresIn: number
  tokenType: 'Bearer' | (string & {})
}

export interface ProgressSummary {
  totalWordCount: number
  percentComplete: number
}

export interface WorkflowStepSummary {
  workflowStepUid: string
  workflowStepName: string
  stringCount: number
  wordCount: number
  workflowStepType: WorkflowStepType | (string & {})
}

/** A job's progress in one locale. */
export interface LocaleProgress {
  targetLocaleId: string
  targetLocaleDescription: string
  workflowProgressReportList: Array<{
    workflowUid: string
    workflowName: string
    workflowStepSummaryReportItemList: WorkflowStepSummary[]
  }>
  unauthorizedProgressReport: { stringCount: number; wordCount: number }
  progress: ProgressSummary
}

/** The answer of a job's progress. */
export interface ProgressReport {
  contentProgressReport: LocaleProgress[]
  progress: ProgressSummary
}

/** One translation of a string, as the translations call returns it (`pluralForm` null: no plural). */
export interface StringTranslation {
  translation: string
  pluralForm: string | null
  modifiedDate: string
}

/** The text of a string's translation list the app shows: the one with no plural form. */
export function singularTranslation(
  translations: readonly Pick<StringTranslation, 'translation' | 'pluralForm'>[],
): string | undefined {
  return translations.find((t) => t.pluralForm == null)?.translation
}
