/**
 * What the dev server gives the overlay: its settings (with the per-server token of the endpoints)
 * and, from the runtime, its view of the lookups. The endpoints' answers are written here a second
 * time: the page code imports nothing from the plugin, which runs in Node.
 */

export interface Settings {
  token: string
  endpoint: string
  /** The dev server's open-in-editor URL up to the file's value, which the link appends encoded. */
  openInEditor: string
  sourceLocale: string
  pseudo: string[]
}

export interface RuntimeBridge {
  /** Looked-up text -> the catalog ids that gave it, the latest first. */
  seen: Map<string, string[]>
  getLocale(): string
  onLocaleChange(fn: (locale: string) => void): () => void
}

export interface LocaleState {
  locale: string
  state: 'published' | 'pending' | 'missing' | 'rejected' | 'pseudo'
  text?: string
  reason?: string
  of?: 'published' | 'pending'
  length?: number
}

export interface Comment {
  issueCommentUid: string
  commentText: string
  createdDate: string
}

export interface Issue {
  issueUid: string
  string: { hashcode: string; localeId: string | null }
  issueText: string
  issueTypeCode: string
  issueSubTypeCode: string
  issueStateCode: string
  createdDate: string
  comments: Comment[]
}

export interface MessageInfo {
  id: string
  text: string
  variant: string | null
  namespace: string | null
  instruction: string | null
  maxLength: number | null
  locations: { file: string; line: number; column: number; open: string }[]
  hashcode: string | null
  sourceLocale: string
  locales: LocaleState[]
  statesError?: string
  issues: Issue[] | null
  issuesError?: string
}

/** The spec's issue types and their subtypes. */
export const ISSUE_TYPES: Record<string, string[]> = {
  SOURCE: ['CLARIFICATION', 'MISSPELLING'],
  TRANSLATION: [
    'POOR_TRANSLATION',
    'DOES_NOT_FIT_SPACE',
    'PLACEHOLDER_ISSUE',
    'GENERAL_ISSUE',
    'REVIEW_TRANSLATION',
  ],
}
