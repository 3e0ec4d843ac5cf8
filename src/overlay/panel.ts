import type { Api } from './api'
import { h } from './dom'
import { ISSUE_TYPES, type Issue, type LocaleState, type MessageInfo, type Settings } from './types'

/**
 * The panel of one message: what it is, where it is used (with a link that opens the editor there),
 * its string on the service, where each locale stands, and its issues, with forms to report and
 * discuss. Every action answers with the string's issues, which the panel shows again.
 */

export interface PanelContext {
  api: Api
  settings: Settings
  locale: () => string
  onLocaleChange: (fn: (locale: string) => void) => () => void
}

/** Renders the panel; returns what stops it following the page's locale (call it when the panel goes). */
export function renderPanel(
  panel: HTMLElement,
  info: MessageInfo,
  ctx: PanelContext,
  close: () => void,
): () => void {
  const title = h('h2', { id: 'tms-panel-title' }, 'Message')
  const closeButton = h(
    'button',
    { type: 'button', class: 'close', 'aria-label': 'Close the message panel' },
    '×',
  )
  closeButton.addEventListener('click', close)
  const issues = h('section', { 'data-tms': 'issues', 'aria-live': 'polite' })
  const form = issueForm(info, ctx, (next) => showIssues(issues, info, next, ctx))
  panel.replaceChildren(
    closeButton,
    title,
    details(info, ctx.settings),
    h('h3', {}, 'Locales'),
    localeTable(info),
    h('h3', {}, 'Issues'),
    issues,
    form.element,
  )
  showIssues(issues, info, { issues: info.issues, issuesError: info.issuesError }, ctx)
  return ctx.onLocaleChange(form.localeChanged)
}

function details(info: MessageInfo, settings: Settings): HTMLElement {
  const locations = h(
    'ul',
    { 'data-tms': 'locations' },
    ...info.locations.map((l) => {
      const href = `${settings.openInEditor}${encodeURIComponent(l.open)}`
      const link = h('a', { href, 'data-tms': 'location' }, `${l.file}:${l.line}:${l.column}`)
      // The dev server opens the editor and answers with nothing to show: stay on the page.
      link.addEventListener('click', (event) => {
        event.preventDefault()
        void fetch(href)
      })
      return h('li', {}, link)
    }),
  )
  const length = info.text.length
  const over = info.maxLength !== null && length > info.maxLength
  return h(
    'dl',
    {},
    h('dt', {}, 'Source'),
    h('dd', { 'data-tms': 'source', lang: info.sourceLocale }, info.text),
    h('dt', {}, 'Length'),
    h('dd', { 'data-tms': 'length', class: over ? 'over' : undefined }, lengthText(length, info.maxLength)),
    h('dt', {}, 'Variant'),
    h('dd', { 'data-tms': 'variant' }, info.variant ?? '—'),
    h('dt', {}, 'Instruction'),
    h('dd', { 'data-tms': 'instruction' }, info.instruction ?? '—'),
    h('dt', {}, 'Used at'),
    h('dd', {}, locations),
    h('dt', {}, 'Hashcode'),
    h('dd', { 'data-tms': 'hashcode' }, info.hashcode ?? 'not on the service yet (tms push)'),
  )
}

function lengthText(length: number, max: number | null): string {
  return max === null ? `${length}` : `${length} / ${max}${length > max ? ' (too long)' : ''}`
}

function localeTable(info: MessageInfo): HTMLElement {
  const rows = info.locales.map((s) => localeRow(s, info.maxLength))
  return h(
    'div',
    {},
    info.statesError ? h('p', { class: 'error' }, info.statesError) : null,
    h(
      'table',
      { 'data-tms': 'locales' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Locale'), h('th', {}, 'State'), h('th', {}, 'Text'), h('th', {}, 'Length')),
      ),
      h('tbody', {}, ...rows),
    ),
  )
}

function localeRow(s: LocaleState, max: number | null): HTMLElement {
  const state = s.state === 'rejected' ? `rejected (${s.of}): ${s.reason}` : s.state
  const over = max !== null && s.length !== undefined && s.length > max
  return h(
    'tr',
    { 'data-locale': s.locale, 'data-state': s.state },
    h('td', {}, s.locale),
    h('td', { class: `state-${s.state}` }, state),
    h('td', { lang: s.locale }, s.text ?? ''),
    h('td', { class: over ? 'over' : undefined }, s.length === undefined ? '' : lengthText(s.length, max)),
  )
}

type IssuesAnswer = { issues: Issue[] | null; issuesError?: string }

function showIssues(section: HTMLElement, info: MessageInfo, answer: IssuesAnswer, ctx: PanelContext): void {
  if (!answer.issues) {
    section.replaceChildren(
      h('p', { class: 'error' }, `Issues unavailable: ${answer.issuesError ?? 'unknown reason'}`),
    )
    return
  }
  if (answer.issues.length === 0) {
    section.replaceChildren(h('p', { 'data-tms': 'no-issues' }, 'No issues.'))
    return
  }
  const refresh = (next: IssuesAnswer): void => showIssues(section, info, next, ctx)
  section.replaceChildren(h('ul', {}, ...answer.issues.map((issue) => issueItem(issue, info, ctx, refresh))))
}

function issueItem(
  issue: Issue,
  info: MessageInfo,
  ctx: PanelContext,
  refresh: (a: IssuesAnswer) => void,
): HTMLElement {
  const open = issue.issueStateCode === 'OPENED'
  const error = h('p', { class: 'error', role: 'alert' })
  const toggle = h('button', { type: 'button', 'data-tms': 'toggle-state' }, open ? 'Resolve' : 'Reopen')
  toggle.addEventListener('click', () =>
    act(error, () =>
      ctx.api<IssuesAnswer>('state', {
        id: info.id,
        issueUid: issue.issueUid,
        issueStateCode: open ? 'RESOLVED' : 'OPENED',
      }),
    ).then((next) => next && refresh(next)),
  )
  const commentId = `tms-comment-${issue.issueUid}`
  const comment = h('textarea', { id: commentId, rows: '2', 'data-tms': 'comment-text' })
  const form = h(
    'form',
    { 'data-tms': 'comment-form' },
    h('label', { for: commentId }, 'Comment'),
    comment,
    h('button', { type: 'submit' }, 'Add comment'),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const commentText = comment.value
    void act(error, () =>
      ctx.api<IssuesAnswer>('comment', { id: info.id, issueUid: issue.issueUid, commentText }),
    ).then((next) => next && refresh(next))
  })
  return h(
    'li',
    { class: 'issue', 'data-issue-uid': issue.issueUid, 'data-state': issue.issueStateCode },
    h(
      'div',
      { 'data-tms': 'issue-head' },
      `${issue.issueTypeCode} · ${issue.issueSubTypeCode} · ${issue.string.localeId ?? '—'} · ${issue.issueStateCode}`,
    ),
    h('div', { 'data-tms': 'issue-text' }, issue.issueText),
    h(
      'ul',
      { 'data-tms': 'comments' },
      ...issue.comments.map((c) => h('li', { 'data-tms': 'comment' }, c.commentText)),
    ),
    form,
    toggle,
    error,
  )
}

/** The form that reports an issue; `localeChanged` keeps what it says and what it files on the page's locale. */
function issueForm(
  info: MessageInfo,
  ctx: PanelContext,
  refresh: (a: IssuesAnswer) => void,
): { element: HTMLElement; localeChanged: () => void } {
  const type = h(
    'select',
    { id: 'tms-issue-type', 'data-tms': 'issue-type' },
    ...Object.keys(ISSUE_TYPES).map((t) => h('option', { value: t }, t)),
  )
  const subtype = h('select', { id: 'tms-issue-subtype', 'data-tms': 'issue-subtype' })
  const fillSubtypes = (): void => {
    subtype.replaceChildren(...ISSUE_TYPES[type.value]!.map((s) => h('option', { value: s }, s)))
  }
  type.value = 'TRANSLATION'
  fillSubtypes()
  type.addEventListener('change', fillSubtypes)
  const text = h('textarea', {
    id: 'tms-issue-text',
    rows: '3',
    'data-tms': 'issue-text-input',
    required: '',
  })
  const localeNote = h('p', { 'data-tms': 'issue-locale' })
  const error = h('p', { class: 'error', role: 'alert' })
  const form = h(
    'form',
    { 'data-tms': 'issue-form', 'aria-labelledby': 'tms-issue-heading' },
    h('h3', { id: 'tms-issue-heading' }, 'Report an issue'),
    localeNote,
    h('label', { for: 'tms-issue-type' }, 'Type'),
    type,
    h('label', { for: 'tms-issue-subtype' }, 'Subtype'),
    subtype,
    h('label', { for: 'tms-issue-text' }, 'Description'),
    text,
    h('button', { type: 'submit', disabled: info.hashcode ? undefined : '' }, 'Create issue'),
    error,
  )
  // A SOURCE issue is about the source text; a TRANSLATION issue about the locale on the page. The
  // note says the locale the issue is filed for, kept in step with the page's (see renderPanel).
  let shown = info.sourceLocale
  const showLocale = (): void => {
    shown = type.value === 'SOURCE' ? info.sourceLocale : ctx.locale() || info.sourceLocale
    localeNote.textContent = type.value === 'SOURCE' ? `On the source text (${shown})` : `For locale ${shown}`
  }
  showLocale()
  type.addEventListener('change', showLocale)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void act(error, () =>
      ctx.api<IssuesAnswer>('issue', {
        id: info.id,
        locale: shown,
        issueTypeCode: type.value,
        issueSubTypeCode: subtype.value,
        issueText: text.value,
      }),
    ).then((next) => {
      if (!next) return
      text.value = ''
      refresh(next)
    })
  })
  return { element: form, localeChanged: showLocale }
}

/** Runs an endpoint call, showing its error in `where`; undefined when it failed. */
async function act<T>(where: HTMLElement, call: () => Promise<T>): Promise<T | undefined> {
  where.textContent = ''
  try {
    return await call()
  } catch (error) {
    where.textContent = (error as Error).message
    return undefined
  }
}
