/** The spec's issue types and the subtypes each allows (an issue's subtype must belong to its type). */

export type IssueTypeCode = 'SOURCE' | 'TRANSLATION'

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
