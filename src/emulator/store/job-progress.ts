import { createHash } from 'node:crypto'
import type {
  LocaleProgress,
  ProgressReport,
  ProgressSummary,
  WorkflowStepSummary,
} from '../../core/model/wire'
import type { JobRecord } from './jobs'
import { describeLocale } from './locales'
import { type StringStore, type WorkflowStep, workflowStepOf, workflowStepUid } from './strings'

const STEPS: readonly { type: WorkflowStep; name: string }[] = [
  { type: 'TRANSLATION', name: 'Translation' },
  { type: 'POST_TRANSLATION__EDIT', name: 'Edit' },
  { type: 'PUBLISH', name: 'Published' },
]

/** The uid of the one workflow each emulated project has (its steps' uids come from strings.ts). */
export function workflowUid(projectId: string): string {
  const hex = createHash('md5').update(`${projectId}\u0000workflow`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

export const WORKFLOW_NAME = 'Translation and edit'

export type { LocaleProgress, ProgressReport, ProgressSummary, WorkflowStepSummary }

interface Tally {
  strings: number
  words: number
  doneStrings: number
  doneWords: number
}

/**
 * Share published, in whole percent (rounded down, so 100 means done). Weighted by words; content
 * with no words at all (only placeholders) is weighed by strings instead.
 */
function percent(t: Tally): number {
  if (t.words > 0) return Math.floor((t.doneWords * 100) / t.words)
  if (t.strings > 0) return Math.floor((t.doneStrings * 100) / t.strings)
  return 0
}

/**
 * The spec's progress report for a job: per locale, authorized strings by workflow step, the
 * unauthorized ones apart, and the share published. `only` narrows it to some strings (a file's).
 */
export function progressReport(
  job: JobRecord,
  strings: StringStore,
  countWords: (parsed: string) => number,
  localeIds: readonly string[],
  only?: ReadonlySet<string>,
): ProgressReport {
  const overall: Tally = { strings: 0, words: 0, doneStrings: 0, doneWords: 0 }
  const contentProgressReport = localeIds.map((localeId): LocaleProgress => {
    const steps = new Map(STEPS.map((s) => [s.type, { strings: 0, words: 0 }]))
    const unauthorized = { stringCount: 0, wordCount: 0 }
    const tally: Tally = { strings: 0, words: 0, doneStrings: 0, doneWords: 0 }
    for (const hashcode of job.content[localeId] ?? []) {
      if (only && !only.has(hashcode)) continue
      const s = strings.get(job.projectId, hashcode)
      if (!s) continue
      const words = countWords(s.parsedStringText)
      tally.strings++
      tally.words += words
      if (!s.authorizedLocaleIds.includes(localeId)) {
        unauthorized.stringCount++
        unauthorized.wordCount += words
        continue
      }
      const step = workflowStepOf(s.translations[localeId])
      const counts = steps.get(step)!
      counts.strings++
      counts.words += words
      if (step === 'PUBLISH') {
        tally.doneStrings++
        tally.doneWords += words
      }
    }
    for (const key of ['strings', 'words', 'doneStrings', 'doneWords'] as const) overall[key] += tally[key]
    return {
      targetLocaleId: localeId,
      targetLocaleDescription: describeLocale(localeId),
      workflowProgressReportList: [
        {
          workflowUid: workflowUid(job.projectId),
          workflowName: WORKFLOW_NAME,
          workflowStepSummaryReportItemList: STEPS.map((s) => ({
            workflowStepUid: workflowStepUid(job.projectId, s.type),
            workflowStepName: s.name,
            stringCount: steps.get(s.type)!.strings,
            wordCount: steps.get(s.type)!.words,
            workflowStepType: s.type,
          })),
        },
      ],
      unauthorizedProgressReport: unauthorized,
      progress: { totalWordCount: tally.words, percentComplete: percent(tally) },
    }
  })
  return {
    contentProgressReport,
    progress: { totalWordCount: overall.words, percentComplete: percent(overall) },
  }
}
