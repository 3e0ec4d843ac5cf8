import { randomUUID } from 'node:crypto'
import type { IssueStateCode, IssueTypeCode } from '../../core/model/wire'
import { shortUid } from './ids'
import type { StorePart } from './part'

export type { IssueStateCode, IssueTypeCode }

/** The spec's issue types and their subtypes, with the dictionaries' descriptions. */
export const ISSUE_TYPES: readonly {
  issueTypeCode: IssueTypeCode
  description: string
  subTypes: readonly { issueSubTypeCode: string; description: string }[]
}[] = [
  {
    issueTypeCode: 'SOURCE',
    description: 'Source',
    subTypes: [
      { issueSubTypeCode: 'CLARIFICATION', description: 'Clarification' },
      { issueSubTypeCode: 'MISSPELLING', description: 'Misspelling' },
    ],
  },
  {
    issueTypeCode: 'TRANSLATION',
    description: 'Translation',
    subTypes: [
      { issueSubTypeCode: 'POOR_TRANSLATION', description: 'Poor translation' },
      { issueSubTypeCode: 'DOES_NOT_FIT_SPACE', description: 'Does not fit space' },
      { issueSubTypeCode: 'PLACEHOLDER_ISSUE', description: 'Placeholder issue' },
      { issueSubTypeCode: 'GENERAL_ISSUE', description: 'General issue' },
      { issueSubTypeCode: 'REVIEW_TRANSLATION', description: 'Review translation' },
    ],
  },
]

export const ISSUE_STATES: readonly { issueStateCode: IssueStateCode; description: string }[] = [
  { issueStateCode: 'OPENED', description: 'Opened' },
  { issueStateCode: 'RESOLVED', description: 'Resolved' },
]

export interface CommentRecord {
  issueCommentUid: string
  /** Plain text exactly as given. */
  commentText: string
  createdByUserUid: string
  createdDate: number
  commentTextModifiedDate: number | null
}

export interface IssueRecord {
  issueUid: string
  projectId: string
  string: { hashcode: string; localeId: string | null }
  /** Plain text exactly as given; never turned into markup. */
  issueText: string
  issueTypeCode: IssueTypeCode
  issueSubTypeCode: string
  issueStateCode: IssueStateCode
  reportedByUserUid: string
  resolvedByUserUid: string | null
  createdDate: number
  resolvedDate: number | null
  issueTextModifiedDate: number | null
  answered: boolean
  comments: CommentRecord[]
}

export interface WatcherRecord {
  uid: string
  accountUid: string
  email: string
  name: string
  enabled: boolean
  created: number
  modified: number
}

/** An e-mail the service would have sent to a watcher (kept for `GET /_emulator/notifications`). */
export interface WatcherNotification {
  email: string
  event: 'issue.opened' | 'issue.commented' | 'issue.resolved'
  projectId: string
  issueUid: string
  date: number
}

const KEPT_NOTIFICATIONS = 500

interface IssuesSnapshot {
  issues: IssueRecord[]
  watchers: WatcherRecord[]
}

/** Issues with their comments (per project), watchers (per account) and the notifications sent. */
export class IssueStore implements StorePart {
  readonly name = 'issues'
  #issues = new Map<string, IssueRecord>()
  #watchers = new Map<string, WatcherRecord>()
  #notifications: WatcherNotification[] = []
  readonly #onChange: () => void

  constructor(onChange: () => void) {
    this.#onChange = onChange
  }

  changed(): void {
    this.#onChange()
  }

  list(projectId: string): IssueRecord[] {
    return [...this.#issues.values()].filter((i) => i.projectId === projectId)
  }

  get(projectId: string, issueUid: string): IssueRecord | undefined {
    const found = this.#issues.get(issueUid)
    return found?.projectId === projectId ? found : undefined
  }

  add(issue: Omit<IssueRecord, 'issueUid' | 'comments'>): IssueRecord {
    const record: IssueRecord = { issueUid: shortUid(), ...issue, comments: [] }
    this.#issues.set(record.issueUid, record)
    this.#onChange()
    return record
  }

  addComment(issue: IssueRecord, commentText: string, createdByUserUid: string, now: number): CommentRecord {
    const comment: CommentRecord = {
      issueCommentUid: shortUid(),
      commentText,
      createdByUserUid,
      createdDate: now,
      commentTextModifiedDate: null,
    }
    issue.comments.push(comment)
    this.#onChange()
    return comment
  }

  watchers(accountUid: string): WatcherRecord[] {
    return [...this.#watchers.values()].filter((w) => w.accountUid === accountUid)
  }

  addWatcher(accountUid: string, email: string, name: string, enabled: boolean, now: number): WatcherRecord {
    const record: WatcherRecord = {
      uid: randomUUID(),
      accountUid,
      email,
      name,
      enabled,
      created: now,
      modified: now,
    }
    this.#watchers.set(record.uid, record)
    this.#onChange()
    return record
  }

  /** Records the e-mail each enabled watcher of the account would get. */
  notify(accountUid: string, event: WatcherNotification['event'], issue: IssueRecord, now: number): void {
    for (const w of this.watchers(accountUid)) {
      if (!w.enabled) continue
      this.#notifications.push({
        email: w.email,
        event,
        projectId: issue.projectId,
        issueUid: issue.issueUid,
        date: now,
      })
    }
    if (this.#notifications.length > KEPT_NOTIFICATIONS) {
      this.#notifications.splice(0, this.#notifications.length - KEPT_NOTIFICATIONS)
    }
  }

  get notifications(): readonly WatcherNotification[] {
    return this.#notifications
  }

  snapshot(): IssuesSnapshot {
    return { issues: [...this.#issues.values()], watchers: [...this.#watchers.values()] }
  }

  restore(data: unknown): void {
    const snap = data as Partial<IssuesSnapshot> | null
    if (Array.isArray(snap?.issues)) this.#issues = new Map(snap.issues.map((i) => [i.issueUid, i]))
    if (Array.isArray(snap?.watchers)) this.#watchers = new Map(snap.watchers.map((w) => [w.uid, w]))
  }

  reset(): void {
    this.#issues.clear()
    this.#watchers.clear()
    this.#notifications = []
  }
}
