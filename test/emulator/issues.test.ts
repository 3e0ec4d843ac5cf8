import { describe, expect, it } from 'vitest'
import { DEMO_SEED } from '../../src/emulator/index'
import { errorOf, ISO_DATE, PROJECT, useEmulator } from './helpers'

const t = useEmulator({
  seed: {
    ...DEMO_SEED,
    users: [...DEMO_SEED.users, { userIdentifier: 'second-user', userSecret: 'second-secret' }],
    accounts: [
      ...DEMO_SEED.accounts,
      {
        accountUid: 'other-account',
        projects: [{ projectId: 'other-project', sourceLocaleId: 'en-US', targetLocaleIds: ['es-ES'] }],
      },
    ],
  },
})

const I = `/issues-api/v2/projects/${PROJECT}/issues`
const W = '/issues-api/v2/accounts/demo-account/watchers'

async function secondUser(): Promise<string> {
  const r = await t.call('POST', '/auth-api/v2/authenticate', {
    body: { userIdentifier: 'second-user', userSecret: 'second-secret' },
  })
  return r.body.response.data.accessToken
}

async function newIssue(hashcode: string, extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', I, {
    issueText: 'Is "file" a verb here?',
    issueTypeCode: 'SOURCE',
    issueSubTypeCode: 'CLARIFICATION',
    string: { hashcode, localeId: null },
    ...extra,
  })
  if (r.status !== 200) throw new Error(JSON.stringify(r.body))
  return r.body.response.data
}

describe('dictionaries', () => {
  const TYPES = [
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

  it('issue types, issue states and the account issue types', async () => {
    expect((await t.api('GET', '/issues-api/v2/dictionary/issue-types')).body.response.data).toEqual({
      totalCount: 2,
      items: TYPES,
    })
    expect((await t.api('GET', '/issues-api/v2/dictionary/issue-states')).body.response.data).toEqual({
      totalCount: 2,
      items: [
        { issueStateCode: 'OPENED', description: 'Opened' },
        { issueStateCode: 'RESOLVED', description: 'Resolved' },
      ],
    })
    const account = await t.api('GET', '/issues-api/v2/accounts/demo-account/issue-types')
    expect(account.body.response.data).toEqual({ totalCount: 2, items: TYPES })
    expect(errorOf(await t.api('GET', '/issues-api/v2/accounts/nope/issue-types')).status).toBe(404)
    expect(errorOf(await t.call('GET', '/issues-api/v2/dictionary/issue-states')).status).toBe(401)
  })
})

describe('create', () => {
  it('creates an OPENED issue with the spec fields; details return it', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    expect(issue).toEqual({
      issueUid: expect.stringMatching(/^[a-z0-9]{12}$/),
      projectId: PROJECT,
      string: { hashcode: h, localeId: null },
      issueText: 'Is "file" a verb here?',
      issueTypeCode: 'SOURCE',
      issueSubTypeCode: 'CLARIFICATION',
      issueStateCode: 'OPENED',
      reportedByUserUid: expect.stringMatching(/^[0-9a-f]{12}$/),
      resolvedByUserUid: null,
      createdDate: expect.stringMatching(ISO_DATE),
      resolvedDate: null,
      issueTextModifiedDate: null,
      answered: false,
    })
    expect((await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data).toEqual(issue)
    expect(errorOf(await t.api('GET', `${I}/unknown`))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND_ERROR',
      key: 'issue_not_found',
    })
  })

  it('keeps issue text exactly as given: plain text, never markup', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const text = '<b>bold</b> & <script>alert(1)</script>\n  &amp; "quotes" \u{1F600}'
    const issue = await newIssue(h, { issueText: text })
    expect(issue.issueText).toBe(text)
    expect((await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data.issueText).toBe(text)
  })

  it('a TRANSLATION issue needs a target locale of the project', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const base = { issueTypeCode: 'TRANSLATION', issueSubTypeCode: 'POOR_TRANSLATION' }
    const ok = await newIssue(h, { ...base, string: { hashcode: h, localeId: 'fr-FR' } })
    expect(ok.string).toEqual({ hashcode: h, localeId: 'fr-FR' })
    for (const localeId of [null, 'es-ES']) {
      const r = await t.api('POST', I, { ...base, issueText: 'x', string: { hashcode: h, localeId } })
      expect(errorOf(r)).toMatchObject({ status: 400, field: 'string.localeId' })
    }
    const source = await t.api('POST', I, {
      issueText: 'x',
      issueTypeCode: 'SOURCE',
      issueSubTypeCode: 'MISSPELLING',
      string: { hashcode: h, localeId: 'fr-FR' },
    })
    expect(errorOf(source)).toMatchObject({ status: 400, field: 'string.localeId' })
  })

  it('validates type/subtype pairs, the text limit and the hashcode', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const body = {
      issueText: 'x',
      issueTypeCode: 'SOURCE',
      issueSubTypeCode: 'CLARIFICATION',
      string: { hashcode: h, localeId: null },
    }
    const fieldOf = async (patch: Record<string, unknown>) =>
      errorOf(await t.api('POST', I, { ...body, ...patch }))
    expect(await fieldOf({ issueTypeCode: 'STYLE' })).toMatchObject({ status: 400, field: 'issueTypeCode' })
    expect(await fieldOf({ issueSubTypeCode: 'POOR_TRANSLATION' })).toMatchObject({
      field: 'issueSubTypeCode',
    })
    expect(await fieldOf({ issueSubTypeCode: undefined })).toMatchObject({ field: 'issueSubTypeCode' })
    expect(await fieldOf({ issueText: '' })).toMatchObject({ field: 'issueText' })
    expect(await fieldOf({ issueText: 'x'.repeat(4001) })).toMatchObject({ field: 'issueText' })
    expect(await fieldOf({ string: { hashcode: 'f'.repeat(32), localeId: null } })).toMatchObject({
      field: 'string.hashcode',
    })
    expect(await fieldOf({ string: undefined })).toMatchObject({ field: 'string' })
    // 4000 characters counted as a person counts them: 4000 emoji pass.
    expect((await t.api('POST', I, { ...body, issueText: '\u{1F600}'.repeat(4000) })).status).toBe(200)
    expect((await t.api('POST', I, { ...body, issueText: 'x'.repeat(4000) })).status).toBe(200)
  })
})

describe('edit, state, answered', () => {
  it('only the author edits the text; the modified date is set', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    const other = await t.call('PUT', `${I}/${issue.issueUid}/issueText`, {
      body: { issueText: 'hijacked' },
      token: await secondUser(),
    })
    expect(errorOf(other)).toMatchObject({ status: 401, code: 'AUTHORIZATION_ERROR', key: 'not_author' })
    const r = await t.api('PUT', `${I}/${issue.issueUid}/issueText`, { issueText: 'Is it a noun?' })
    expect(r.body.response.data).toEqual({
      issueText: 'Is it a noun?',
      issueTextModifiedDate: expect.stringMatching(ISO_DATE),
    })
    const details = (await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data
    expect(details).toMatchObject({ issueText: 'Is it a noun?', issueTextModifiedDate: expect.any(String) })
    expect(
      errorOf(await t.api('PUT', `${I}/${issue.issueUid}/issueText`, { issueText: 'y'.repeat(4001) })),
    ).toMatchObject({ field: 'issueText' })
    expect(errorOf(await t.api('PUT', `${I}/${issue.issueUid}/issueText`, {}))).toMatchObject({
      field: 'issueText',
    })
  })

  it('closes (RESOLVED) and reopens (OPENED) an issue', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    const state = (code: string) => t.api('PUT', `${I}/${issue.issueUid}/state`, { issueStateCode: code })
    expect((await state('RESOLVED')).body.response.data).toEqual({ issueStateCode: 'RESOLVED' })
    const resolved = (await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data
    expect(resolved).toMatchObject({
      issueStateCode: 'RESOLVED',
      resolvedByUserUid: issue.reportedByUserUid,
      resolvedDate: expect.stringMatching(ISO_DATE),
    })
    expect((await state('OPENED')).body.response.data).toEqual({ issueStateCode: 'OPENED' })
    expect((await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data).toMatchObject({
      issueStateCode: 'OPENED',
      resolvedByUserUid: null,
      resolvedDate: null,
    })
    expect(errorOf(await state('CLOSED'))).toMatchObject({ status: 400, field: 'issueStateCode' })
    expect(errorOf(await t.api('PUT', `${I}/nope/state`, { issueStateCode: 'OPENED' })).status).toBe(404)
  })

  it('sets answered', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    const r = await t.api('PUT', `${I}/${issue.issueUid}/answered`, { answered: true })
    expect(r.body.response.data).toEqual({ answered: true })
    expect((await t.api('GET', `${I}/${issue.issueUid}`)).body.response.data.answered).toBe(true)
    expect(errorOf(await t.api('PUT', `${I}/${issue.issueUid}/answered`, { answered: 'yes' }))).toMatchObject(
      {
        field: 'answered',
      },
    )
    expect(errorOf(await t.api('PUT', `${I}/${issue.issueUid}/answered`, {}))).toMatchObject({
      field: 'answered',
    })
  })
})

describe('find and count', () => {
  it('returns 30 issues without a limit, pages with limit and offset, counts all', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const uids: string[] = []
    for (let i = 0; i < 35; i++) uids.push((await newIssue(h, { issueText: `n${i}` })).issueUid)
    const first = (await t.api('POST', `${I}/list`, {})).body.response.data
    expect(first.totalCount).toBe(35)
    expect(first.items.map((i: { issueUid: string }) => i.issueUid)).toEqual(uids.slice(0, 30))
    const page = (await t.api('POST', `${I}/list`, { limit: 10, offset: 30 })).body.response.data
    expect(page.items.map((i: { issueUid: string }) => i.issueUid)).toEqual(uids.slice(30))
    expect((await t.api('POST', `${I}/count`, {})).body.response.data).toEqual({ count: 35 })
    expect(errorOf(await t.api('POST', `${I}/list`, { limit: 0 }))).toMatchObject({ field: 'limit' })
    expect(errorOf(await t.api('POST', `${I}/list`, { offset: -1 }))).toMatchObject({ field: 'offset' })
  })

  it('applies every filter, in find and in count', async () => {
    const [h1, h2] = await t.createStrings([{ stringText: 'File' }, { stringText: 'Edit' }])
    const a = await newIssue(h1, { issueText: 'a' })
    await t.control('POST', '/clock', { advanceMs: 10_000 })
    const b = await newIssue(h2, {
      issueText: 'b',
      issueTypeCode: 'TRANSLATION',
      issueSubTypeCode: 'DOES_NOT_FIT_SPACE',
      string: { hashcode: h2, localeId: 'de-DE' },
    })
    await t.control('POST', '/clock', { advanceMs: 10_000 })
    const c = await t.call('POST', I, {
      token: await secondUser(),
      body: {
        issueText: 'c',
        issueTypeCode: 'TRANSLATION',
        issueSubTypeCode: 'POOR_TRANSLATION',
        string: { hashcode: h1, localeId: 'fr-FR' },
      },
    })
    const cIssue = c.body.response.data
    await t.api('PUT', `${I}/${b.issueUid}/state`, { issueStateCode: 'RESOLVED' })
    await t.api('PUT', `${I}/${cIssue.issueUid}/answered`, { answered: true })
    const bResolved = (await t.api('GET', `${I}/${b.issueUid}`)).body.response.data.resolvedDate

    const find = async (filter: Record<string, unknown>) => {
      const found = (await t.api('POST', `${I}/list`, filter)).body.response.data
      const counted = (await t.api('POST', `${I}/count`, filter)).body.response.data.count
      const texts = found.items.map((i: { issueText: string }) => i.issueText)
      expect(counted).toBe(texts.length)
      return texts
    }
    expect(await find({ issueStateCodes: ['RESOLVED'] })).toEqual(['b'])
    expect(await find({ issueStateCodes: ['OPENED'] })).toEqual(['a', 'c'])
    expect(await find({ issueTypeCodes: ['TRANSLATION'] })).toEqual(['b', 'c'])
    expect(await find({ issueSubTypeCodes: ['CLARIFICATION', 'POOR_TRANSLATION'] })).toEqual(['a', 'c'])
    expect(await find({ answered: true })).toEqual(['c'])
    expect(await find({ answered: false })).toEqual(['a', 'b'])
    expect(await find({ reportedByUserUid: cIssue.reportedByUserUid })).toEqual(['c'])
    expect(await find({ reportedByUserUid: a.reportedByUserUid })).toEqual(['a', 'b'])
    expect(await find({ stringFilter: { hashcodes: [h1] } })).toEqual(['a', 'c'])
    expect(await find({ stringFilter: { localeIds: ['fr-FR', 'de-DE'] } })).toEqual(['b', 'c'])
    expect(await find({ stringFilter: { hashcodes: [h1], localeIds: ['fr-FR'] } })).toEqual(['c'])
    expect(await find({ createdDateAfter: a.createdDate })).toEqual(['b', 'c'])
    expect(await find({ createdDateBefore: cIssue.createdDate })).toEqual(['a', 'b'])
    expect(await find({ createdDateAfter: a.createdDate, createdDateBefore: cIssue.createdDate })).toEqual([
      'b',
    ])
    const later = new Date(Date.parse(bResolved) + 1000).toISOString()
    expect(await find({ resolvedDateBefore: later })).toEqual(['b'])
    expect(await find({ resolvedDateAfter: later })).toEqual([])
    expect(errorOf(await t.api('POST', `${I}/list`, { createdDateAfter: 'yesterday' }))).toMatchObject({
      field: 'createdDateAfter',
    })
    expect(errorOf(await t.api('POST', `${I}/count`, { issueStateCodes: ['DONE'] }))).toMatchObject({
      field: 'issueStateCodes[0]',
    })
    expect(errorOf(await t.api('POST', `${I}/list`, { stringFilter: { hashcodes: 'x' } }))).toMatchObject({
      field: 'stringFilter.hashcodes',
    })
  })

  it('sorts by the sortBy items, ties in order of creation', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const a = await newIssue(h, { issueText: 'a', issueSubTypeCode: 'MISSPELLING' })
    await t.control('POST', '/clock', { advanceMs: 5000 })
    await newIssue(h, { issueText: 'b' })
    await t.control('POST', '/clock', { advanceMs: 5000 })
    await newIssue(h, { issueText: 'c', issueSubTypeCode: 'MISSPELLING' })
    await t.api('PUT', `${I}/${a.issueUid}/answered`, { answered: true })
    const sorted = async (items: unknown[]) =>
      (await t.api('POST', `${I}/list`, { sortBy: { items } })).body.response.data.items.map(
        (i: { issueText: string }) => i.issueText,
      )
    expect(await sorted([{ fieldName: 'createdDate', direction: 'DESC' }])).toEqual(['c', 'b', 'a'])
    expect(await sorted([{ fieldName: 'createdDate', direction: 'asc' }])).toEqual(['a', 'b', 'c'])
    expect(
      await sorted([
        { fieldName: 'issueSubTypeCode', direction: 'DESC' },
        { fieldName: 'createdDate', direction: 'DESC' },
      ]),
    ).toEqual(['c', 'a', 'b'])
    expect(await sorted([{ fieldName: 'answered', direction: 'DESC' }])).toEqual(['a', 'b', 'c'])
    expect(
      errorOf(await t.api('POST', `${I}/list`, { sortBy: { items: [{ fieldName: 'color' }] } })),
    ).toMatchObject({
      field: 'sortBy.items[0].fieldName',
    })
    expect(
      errorOf(
        await t.api('POST', `${I}/list`, {
          sortBy: { items: [{ fieldName: 'createdDate', direction: 'UP' }] },
        }),
      ),
    ).toMatchObject({ field: 'sortBy.items[0].direction' })
  })
})

describe('comments', () => {
  it('creates, lists, reads and (author only) edits comments, text kept as given', async () => {
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    const C = `${I}/${issue.issueUid}/comments`
    const text = 'It is a <em>noun</em> & a verb'
    const created = (await t.api('POST', C, { commentText: text })).body.response.data
    expect(created).toEqual({
      issueCommentUid: expect.stringMatching(/^[a-z0-9]{12}$/),
      commentText: text,
      createdByUserUid: issue.reportedByUserUid,
      createdDate: expect.stringMatching(ISO_DATE),
      commentTextModifiedDate: null,
    })
    const second = (await t.call('POST', C, { body: { commentText: 'Thanks' }, token: await secondUser() }))
      .body.response.data
    expect((await t.api('GET', C)).body.response.data).toEqual({ totalCount: 2, items: [created, second] })
    expect((await t.api('GET', `${C}/${created.issueCommentUid}`)).body.response.data).toEqual(created)

    const other = await t.call('POST', `${C}/${created.issueCommentUid}`, {
      body: { commentText: 'x' },
      token: await secondUser(),
    })
    expect(errorOf(other)).toMatchObject({ status: 401, key: 'not_author' })
    const edited = (await t.api('POST', `${C}/${created.issueCommentUid}`, { commentText: 'A noun.' })).body
      .response.data
    expect(edited).toEqual({
      ...created,
      commentText: 'A noun.',
      commentTextModifiedDate: expect.stringMatching(ISO_DATE),
    })
    expect((await t.api('GET', `${C}/${created.issueCommentUid}`)).body.response.data).toEqual(edited)
    expect(errorOf(await t.api('POST', C, { commentText: 'z'.repeat(4001) }))).toMatchObject({
      field: 'commentText',
    })
    expect(errorOf(await t.api('POST', C, {}))).toMatchObject({ field: 'commentText' })
    expect(errorOf(await t.api('GET', `${C}/nope`))).toMatchObject({ status: 404, key: 'comment_not_found' })
    expect(errorOf(await t.api('GET', `${I}/nope/comments`))).toMatchObject({
      status: 404,
      key: 'issue_not_found',
    })
  })
})

describe('watchers', () => {
  it('creates and lists watchers, filtered by e-mail and paged', async () => {
    const created = (await t.api('POST', W, { email: 'ann@example.com', name: 'Ann' })).body.response.data
    expect(created).toEqual({
      uid: expect.any(String),
      email: 'ann@example.com',
      name: 'Ann',
      enabled: true,
      created: expect.stringMatching(ISO_DATE),
      modified: expect.stringMatching(ISO_DATE),
    })
    await t.api('POST', W, { email: 'bob@example.com', name: 'Bob', enabled: false })
    await t.api('POST', W, { email: 'cy@example.com' })
    const list = (await t.api('GET', W)).body.response.data
    expect(list.totalCount).toBe(3)
    expect(list.items.map((w: { email: string }) => w.email)).toEqual([
      'ann@example.com',
      'bob@example.com',
      'cy@example.com',
    ])
    expect((await t.api('GET', `${W}?email=ANN@example.com`)).body.response.data).toEqual({
      totalCount: 1,
      items: [created],
    })
    const page = (await t.api('GET', `${W}?limit=1&offset=1`)).body.response.data
    expect(page.totalCount).toBe(3)
    expect(page.items.map((w: { name: string }) => w.name)).toEqual(['Bob'])
    expect((await t.api('GET', '/issues-api/v2/accounts/other-account/watchers')).body.response.data).toEqual(
      {
        totalCount: 0,
        items: [],
      },
    )
  })

  it('rejects a bad or duplicate e-mail', async () => {
    await t.api('POST', W, { email: 'ann@example.com' })
    expect(errorOf(await t.api('POST', W, { email: 'Ann@Example.com' }))).toMatchObject({
      status: 400,
      key: 'duplicate_watcher',
      field: 'email',
    })
    expect(errorOf(await t.api('POST', W, { email: 'not an address' }))).toMatchObject({ field: 'email' })
    expect(errorOf(await t.api('POST', W, {}))).toMatchObject({ field: 'email' })
    expect(errorOf(await t.api('POST', W, { email: 'x@y.z', enabled: 'no' }))).toMatchObject({
      field: 'enabled',
    })
  })

  it("an issue's watchers are the account's enabled watchers; they hear of opening, comments and closing", async () => {
    await t.api('POST', W, { email: 'ann@example.com', name: 'Ann' })
    await t.api('POST', W, { email: 'off@example.com', enabled: false })
    const [h] = await t.createStrings([{ stringText: 'File' }])
    const issue = await newIssue(h)
    const path = `/issues-api/v2/accounts/demo-account/projects/${PROJECT}/issues/${issue.issueUid}/watchers`
    const watchers = (await t.api('GET', path)).body.response.data
    expect(watchers.items.map((w: { email: string }) => w.email)).toEqual(['ann@example.com'])
    expect(
      errorOf(
        await t.api(
          'GET',
          `/issues-api/v2/accounts/other-account/projects/${PROJECT}/issues/${issue.issueUid}/watchers`,
        ),
      ),
    ).toMatchObject({ status: 404 })
    await t.api('POST', `${I}/${issue.issueUid}/comments`, { commentText: 'c' })
    await t.api('PUT', `${I}/${issue.issueUid}/state`, { issueStateCode: 'RESOLVED' })
    await t.api('PUT', `${I}/${issue.issueUid}/state`, { issueStateCode: 'RESOLVED' })
    const sent = (await t.control('GET', '/notifications')).body.response.data.items
    expect(
      sent.map((n: { email: string; event: string; issueUid: string }) => [n.email, n.event, n.issueUid]),
    ).toEqual([
      ['ann@example.com', 'issue.opened', issue.issueUid],
      ['ann@example.com', 'issue.commented', issue.issueUid],
      ['ann@example.com', 'issue.resolved', issue.issueUid],
    ])
  })
})
