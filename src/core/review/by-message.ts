import { relative, sep } from 'node:path'
import { DiskCache } from '../cache'
import { extractMessages } from '../extract/index'
import type { ResolvedOptions } from '../model/options'
import { extractOptionsOf } from '../pipeline'
import {
  type IssueWithComments,
  type ReviewConnector,
  ReviewService,
  ReviewUnavailableError,
} from './service'

/**
 * The open issues of a project grouped by the app's messages, each with where it is used
 * (`tms issues`). Hashcodes come from the cache's manifest (what `tms push` or a build recorded); an
 * issue on a string this app does not use (any more) is listed by its hashcode alone.
 */

export interface IssueSummary {
  issueUid: string
  type: string
  subtype: string
  locale: string | null
  state: string
  text: string
  createdDate: string
  comments: { text: string; createdDate: string }[]
}

export interface MessageIssues {
  text: string
  variant: string | null
  hashcode: string
  /** Files relative to the root, with `/`. */
  locations: { file: string; line: number; column: number }[]
  issues: IssueSummary[]
}

export interface IssuesByMessage {
  messages: MessageIssues[]
  /** Issues on strings no message of the app has (another app's, or a removed text). */
  other: { hashcode: string; issues: IssueSummary[] }[]
}

export async function openIssuesByMessage(
  options: ResolvedOptions,
  connect: ReviewConnector,
): Promise<IssuesByMessage> {
  const service = new ReviewService(options, connect)
  const why = service.unavailable
  if (why) throw new ReviewUnavailableError(`[unplugin-tms] tms issues asks the service, and ${why}`)
  try {
    const [extraction, manifest, issues] = await Promise.all([
      extractMessages(extractOptionsOf(options)),
      new DiskCache(options.cacheDir, options.projectId).readManifest(),
      service.issuesOf(undefined, { open: true }),
    ])
    const byHashcode = new Map<string, IssueSummary[]>()
    for (const issue of issues) {
      const list = byHashcode.get(issue.string.hashcode) ?? []
      list.push(summary(issue))
      byHashcode.set(issue.string.hashcode, list)
    }
    const records = manifest.hit ? manifest.value.entries : {}
    const messages: MessageIssues[] = []
    for (const m of extraction.messages) {
      const hashcode = records[m.key]?.hashcode
      const found = hashcode === undefined ? undefined : byHashcode.get(hashcode)
      if (!found) continue
      byHashcode.delete(hashcode!)
      messages.push({
        text: m.text,
        variant: m.variant,
        hashcode: hashcode!,
        locations: m.locations.map((l) => ({
          file: relative(options.root, l.file).split(sep).join('/'),
          line: l.line,
          column: l.column,
        })),
        issues: found,
      })
    }
    const other = [...byHashcode].map(([hashcode, list]) => ({ hashcode, issues: list }))
    return { messages, other }
  } finally {
    await service.close()
  }
}

function summary(issue: IssueWithComments): IssueSummary {
  return {
    issueUid: issue.issueUid,
    type: issue.issueTypeCode,
    subtype: issue.issueSubTypeCode,
    locale: issue.string.localeId,
    state: issue.issueStateCode,
    text: issue.issueText,
    createdDate: issue.createdDate,
    comments: issue.comments.map((c) => ({ text: c.commentText, createdDate: c.createdDate })),
  }
}

/** The text form: a message per block, its first location first, each issue and its comments indented. */
export function formatIssues(result: IssuesByMessage): string {
  const lines: string[] = []
  const issueLines = (list: IssueSummary[]): void => {
    for (const i of list) {
      lines.push(`  ${i.type}/${i.subtype}${i.locale ? ` ${i.locale}` : ''} (${i.issueUid}): ${i.text}`)
      for (const c of i.comments) lines.push(`    - ${c.text}`)
    }
  }
  for (const m of result.messages) {
    const at = m.locations.map((l) => `${l.file}:${l.line}:${l.column}`).join(', ')
    const variant = m.variant === null ? '' : ` [${m.variant}]`
    lines.push(`${at}  ${JSON.stringify(m.text)}${variant}  ${m.hashcode}`)
    issueLines(m.issues)
  }
  for (const o of result.other) {
    lines.push(`(no message of this app)  ${o.hashcode}`)
    issueLines(o.issues)
  }
  const count = [...result.messages, ...result.other].reduce((n, m) => n + m.issues.length, 0)
  lines.push(
    count === 0
      ? 'no open issues'
      : `${count} open issue${count === 1 ? '' : 's'} on ${result.messages.length + result.other.length} string${result.messages.length + result.other.length === 1 ? '' : 's'}`,
  )
  return lines.join('\n')
}
