import type { IssueTypeCode } from '../model/wire'

export type { IssueTypeCode }

/** The spec's issue types and the subtypes each allows (an issue's subtype must belong to its type). */

export const ISSUE_SUBTYPES: Readonly<Record<IssueTypeCode, readonly string[]>> = {
  SOURCE: ['CLARIFICATION', 'MISSPELLING'],
  TRANSLATION: [
    'POOR_TRANSLATION',
    'DOES_NOT_FIT_SPACE',
    'PLACEHOLDER_ISSUE',
    'GENERAL_ISSUE',
    'REVIEW_TRANSLATION',
  ],
}
