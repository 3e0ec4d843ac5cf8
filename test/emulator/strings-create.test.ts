import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { errorOf, eventually, ISO_DATE, PROJECT, STRINGS, sleep, useEmulator } from './helpers'

const t = useEmulator()

const md5 = (s: string) => createHash('md5').update(s).digest('hex')

async function state() {
  const r = await t.control('GET', '/state')
  return r.body.response.data.projects.find((p: { projectId: string }) => p.projectId === PROJECT)
}

describe('create strings', () => {
  it('answers 200 with the items, hashcodes per DESIGN.md and a closed process', async () => {
    const r = await t.api('POST', STRINGS, {
      placeholderFormatCustom: String.raw`\{\w+\}`,
      strings: [
        { stringText: 'Hello {name}, you have {count} new messages' },
        { stringText: 'Save', variant: 'button' },
      ],
    })
    expect(r.status).toBe(200)
    expect(r.body.response.code).toBe('SUCCESS')
    const data = r.body.response.data
    expect(data.stringCount).toBe(2)
    expect(data.wordCount).toBe(6)
    expect(data.processUid).toMatch(/^[0-9a-f-]{36}$/)
    expect(data.items).toEqual([
      {
        variant: null,
        stringText: 'Hello {name}, you have {count} new messages',
        parsedStringText: 'Hello {0}, you have {1} new messages',
        hashcode: md5('svc.strings-api.default.namespace\u0000\u0000Hello {0}, you have {1} new messages'),
        overWritten: false,
      },
      {
        variant: 'button',
        stringText: 'Save',
        parsedStringText: 'Save',
        hashcode: md5('svc.strings-api.default.namespace\u0000button\u0000Save'),
        overWritten: false,
      },
    ])
    const process = await t.api('GET', `${STRINGS}/processes/${data.processUid}`)
    expect(process.body.response.data).toMatchObject({
      processUid: data.processUid,
      processState: 'closed',
      processStatistics: { requested: 2, processed: 2, errored: 0, skipped: 0 },
    })
    expect(process.body.response.data.createdDate).toMatch(ISO_DATE)
    expect(process.body.response.data.modifiedDate).toMatch(ISO_DATE)
  })

  it('puts the namespace into the identity: default, custom, and null as empty', async () => {
    const hash = async (extra: Record<string, unknown>) =>
      (await t.createStrings([{ stringText: 'Hi' }], extra))[0]
    expect(await hash({})).toBe(md5('svc.strings-api.default.namespace\u0000\u0000Hi'))
    expect(await hash({ namespace: 'my-app' })).toBe(md5('my-app\u0000\u0000Hi'))
    expect(await hash({ namespace: null })).toBe(md5('\u0000\u0000Hi'))
    expect(
      errorOf(await t.api('POST', STRINGS, { namespace: 3, strings: [{ stringText: 'Hi' }] })),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'namespace',
    })
  })

  it('parses each named placeholder format; a custom regex wins over the format', async () => {
    const parsed = async (stringText: string, extra: Record<string, unknown>) => {
      const r = await t.api('POST', STRINGS, { strings: [{ stringText }], ...extra })
      return r.body.response.data.items[0].parsedStringText
    }
    expect(await parsed('%s has %1$d%% of %.2f', { placeholderFormat: 'c' })).toBe(
      '{0} has {1}% of {2}'.replace('%', '%%'),
    )
    expect(await parsed('%@ and %1$@', { placeholderFormat: 'ios' })).toBe('{0} and {1}')
    expect(await parsed('%(name)s {user}', { placeholderFormat: 'python' })).toBe('{0} {1}')
    expect(await parsed('{0} of {1,number}', { placeholderFormat: 'java' })).toBe('{0} of {1}')
    expect(await parsed('Hi %{name}', { placeholderFormat: 'yaml' })).toBe('Hi {0}')
    expect(await parsed('%1 of %L2', { placeholderFormat: 'qt' })).toBe('{0} of {1}')
    expect(await parsed('{0:N2} {1,-10}', { placeholderFormat: 'resx' })).toBe('{0} {1}')
    expect(await parsed('%s {x}', { placeholderFormat: 'none' })).toBe('%s {x}')
    expect(await parsed('%s {x}', {})).toBe('%s {x}')
    expect(
      await parsed('%s [[x]]', { placeholderFormat: 'c', placeholderFormatCustom: String.raw`\[\[\w+\]\]` }),
    ).toBe('%s {0}')
  })

  it('rejects an unknown placeholder format and a custom regex that does not compile', async () => {
    expect(
      errorOf(await t.api('POST', STRINGS, { placeholderFormat: 'perl', strings: [{ stringText: 'a' }] })),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'placeholderFormat',
    })
    expect(
      errorOf(
        await t.api('POST', STRINGS, { placeholderFormatCustom: '([a-z', strings: [{ stringText: 'a' }] }),
      ),
    ).toMatchObject({ status: 400, field: 'placeholderFormatCustom' })
    expect(
      errorOf(
        await t.api('POST', STRINGS, { placeholderFormatCustom: 'x*', strings: [{ stringText: 'a' }] }),
      ),
    ).toMatchObject({ status: 400, field: 'placeholderFormatCustom' })
  })

  it('accepts 100 strings and rejects 101 with VALIDATION_ERROR, creating none of them', async () => {
    const many = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ stringText: `${prefix} ${i}` }))
    const ok = await t.api('POST', STRINGS, { strings: many(100, 'ok') })
    expect(ok.status).toBe(200)
    expect(ok.body.response.data.items).toHaveLength(100)
    const tooMany = await t.api('POST', STRINGS, { strings: many(101, 'no') })
    expect(errorOf(tooMany)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field: 'strings' })
    expect(tooMany.body.response.errors[0].message).toBe('strings: has 101 items; at most 100 per request')
    expect((await state()).strings).toHaveLength(100)
  })

  it('accepts 10000 characters (code points) and rejects 10001, naming the item', async () => {
    expect((await t.api('POST', STRINGS, { strings: [{ stringText: 'a'.repeat(10_000) }] })).status).toBe(200)
    expect((await t.api('POST', STRINGS, { strings: [{ stringText: '😀'.repeat(10_000) }] })).status).toBe(
      200,
    )
    const r = await t.api('POST', STRINGS, {
      strings: [{ stringText: 'ok' }, { stringText: 'b'.repeat(10_001) }],
    })
    expect(errorOf(r)).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'strings[1].stringText',
    })
    expect((await state()).strings).toHaveLength(2)
  })

  it('validates every item field, naming it', async () => {
    const field = async (item: unknown, extra: Record<string, unknown> = {}) =>
      errorOf(await t.api('POST', STRINGS, { strings: [item], ...extra })).field
    expect(await field({})).toBe('strings[0].stringText')
    expect(await field({ stringText: '' })).toBe('strings[0].stringText')
    expect(await field({ stringText: 5 })).toBe('strings[0].stringText')
    expect(await field('text')).toBe('strings[0]')
    expect(await field({ stringText: 'a', variant: 1 })).toBe('strings[0].variant')
    expect(await field({ stringText: 'a', instruction: [] })).toBe('strings[0].instruction')
    expect(await field({ stringText: 'a', maxLength: 0 })).toBe('strings[0].maxLength')
    expect(await field({ stringText: 'a', maxLength: 2.5 })).toBe('strings[0].maxLength')
    expect(await field({ stringText: 'a', maxLength: '10' })).toBe('strings[0].maxLength')
    expect(await field({ stringText: 'a', format: false })).toBe('strings[0].format')
    expect(await field({ stringText: 'a', callbackUrl: 'not a url' })).toBe('strings[0].callbackUrl')
    expect(await field({ stringText: 'a', callbackUrl: 'ftp://127.0.0.1/x' })).toBe('strings[0].callbackUrl')
    expect(await field({ stringText: 'a', callbackUrl: 'http://127.0.0.1/x', callbackMethod: 'PUT' })).toBe(
      'strings[0].callbackMethod',
    )
    expect(errorOf(await t.api('POST', STRINGS, {})).field).toBe('strings')
    expect(errorOf(await t.api('POST', STRINGS, { strings: 'a' })).field).toBe('strings')
    expect((await state()).strings).toHaveLength(0)
  })

  it('keeps item metadata: instruction, maxLength, format, callback', async () => {
    await t.createStrings([
      {
        stringText: 'Title',
        instruction: 'Page heading',
        maxLength: 20,
        format: 'plain_text',
        callbackUrl: 'http://127.0.0.1:9/cb',
        callbackMethod: 'post',
      },
    ])
    expect((await state()).strings[0]).toMatchObject({
      instruction: 'Page heading',
      maxLength: 20,
      format: 'plain_text',
      callbackUrl: 'http://127.0.0.1:9/cb',
      callbackMethod: 'POST',
    })
  })

  it('overwrites a string with the same parsed text, variant and namespace', async () => {
    const spec = { placeholderFormatCustom: String.raw`\{\w+\}` }
    const [first] = await t.createStrings(
      [{ stringText: 'Hi {name}', instruction: 'old', maxLength: 10 }],
      spec,
    )
    await t.control('POST', `/projects/${PROJECT}/strings/authorize`, { localeIds: ['fr-FR'] })
    const r = await t.api('POST', STRINGS, {
      ...spec,
      strings: [{ stringText: 'Hi {user}', instruction: 'new' }],
    })
    expect(r.body.response.data.items[0]).toMatchObject({
      hashcode: first,
      overWritten: true,
      parsedStringText: 'Hi {0}',
    })
    const strings = (await state()).strings
    expect(strings).toHaveLength(1)
    expect(strings[0]).toMatchObject({
      stringText: 'Hi {user}',
      instruction: 'new',
      maxLength: null,
      authorizedLocaleIds: ['fr-FR'],
    })
    // A different variant or namespace is a different string.
    const [other] = await t.createStrings([{ stringText: 'Hi {name}', variant: 'v2' }], spec)
    expect(other).not.toBe(first)
  })

  it('reactivates an inactive string on overwrite', async () => {
    const [hashcode] = await t.createStrings([{ stringText: 'Old' }])
    await t.control('POST', `/projects/${PROJECT}/strings/deactivate`, { hashcodes: [hashcode] })
    expect((await state()).strings[0].active).toBe(false)
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'Old' }] })
    expect(r.body.response.data.items[0].overWritten).toBe(true)
    expect((await state()).strings[0].active).toBe(true)
  })

  it('writes a string repeated within one request once and counts the copies as skipped', async () => {
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'Same' }, { stringText: 'Same' }] })
    const items = r.body.response.data.items
    expect(items[0].hashcode).toBe(items[1].hashcode)
    const process = await t.api('GET', `${STRINGS}/processes/${r.body.response.data.processUid}`)
    expect(process.body.response.data.processStatistics).toEqual({
      requested: 2,
      processed: 1,
      errored: 0,
      skipped: 1,
    })
  })

  it('rejects a create on an unknown project and without a token', async () => {
    expect(errorOf(await t.api('POST', '/strings-api/v2/projects/nope', { strings: [] }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND_ERROR',
    })
    expect(errorOf(await t.call('POST', STRINGS, { body: { strings: [] } }))).toMatchObject({
      status: 401,
      code: 'AUTHENTICATION_ERROR',
    })
  })
})

describe('asynchronous create (202) and process status', () => {
  it('answers 202 ACCEPTED with the hashcodes when processing exceeds the window, then closes the process', async () => {
    // The work ends a minute of the emulator's clock later: the test moves it, whatever the machine's speed.
    await t.control('POST', '/config', { syncWindowMs: 20, processingMs: 60_000 })
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'Later' }] })
    expect(r.status).toBe(202)
    expect(r.body.response.code).toBe('ACCEPTED')
    const data = r.body.response.data
    expect(data.items[0]).toMatchObject({
      hashcode: md5('svc.strings-api.default.namespace\u0000\u0000Later'),
      overWritten: false,
    })
    const open = await t.api('GET', `${STRINGS}/processes/${data.processUid}`)
    expect(open.body.response.data.processState).toBe('open')
    expect((await state()).strings).toHaveLength(0)
    await t.control('POST', '/clock', { advanceMs: 60_000 })
    const closed = (await t.api('GET', `${STRINGS}/processes/${data.processUid}`)).body.response.data
    expect(closed).toMatchObject({
      processState: 'closed',
      processStatistics: { requested: 1, processed: 1 },
    })
    expect((await state()).strings).toHaveLength(1)
  })

  it('answers 202 at once with syncWindowMs 0', async () => {
    await t.control('POST', '/config', { syncWindowMs: 0 })
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'Now' }] })
    expect(r.status).toBe(202)
    await eventually(async () => ((await state()).strings.length === 1 ? true : undefined))
  })

  it('answers 200 while processing stays within the window', async () => {
    await t.control('POST', '/config', { syncWindowMs: 500, processingMs: 30 })
    expect((await t.api('POST', STRINGS, { strings: [{ stringText: 'Quick' }] })).status).toBe(200)
  })

  it('reports failed for a process that fails, with nothing created', async () => {
    await t.control('POST', '/config', { syncWindowMs: 0 })
    await t.control('POST', '/faults', { processFailRate: 1 })
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'Doomed' }, { stringText: 'Too' }] })
    const failed = await eventually(async () => {
      const p = await t.api('GET', `${STRINGS}/processes/${r.body.response.data.processUid}`)
      return p.body.response.data.processState === 'open' ? undefined : p.body.response.data
    })
    expect(failed).toMatchObject({
      processState: 'failed',
      processStatistics: { requested: 2, processed: 0, errored: 2, skipped: 0 },
    })
    expect((await state()).strings).toHaveLength(0)
  })

  it('expires a finished process after processTtlMs: NOT_FOUND_ERROR', async () => {
    await t.control('POST', '/config', { processTtlMs: 60_000 })
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'x' }] })
    const path = `${STRINGS}/processes/${r.body.response.data.processUid}`
    await t.control('POST', '/clock', { advanceMs: 59_000 })
    expect((await t.api('GET', path)).status).toBe(200)
    await t.control('POST', '/clock', { advanceMs: 1_000 })
    expect(errorOf(await t.api('GET', path))).toEqual({
      status: 404,
      code: 'NOT_FOUND_ERROR',
      key: 'process_not_found',
      field: undefined,
    })
  })

  it('does not know an unknown process or one of another project', async () => {
    expect((await t.api('GET', `${STRINGS}/processes/00000000-0000-0000-0000-000000000000`)).status).toBe(404)
    await t.control('POST', '/reset', {
      seed: {
        users: [{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }],
        accounts: [
          {
            accountUid: 'a',
            projects: [
              { projectId: PROJECT, sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR'] },
              { projectId: 'p2', sourceLocaleId: 'en-US', targetLocaleIds: ['fr-FR'] },
            ],
          },
        ],
      },
    })
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'x' }] })
    const uid = r.body.response.data.processUid
    expect((await t.api('GET', `/strings-api/v2/projects/p2/processes/${uid}`)).status).toBe(404)
  })

  it('keeps processes across a short wait (no real-time expiry within the ttl)', async () => {
    const r = await t.api('POST', STRINGS, { strings: [{ stringText: 'y' }] })
    await sleep(20)
    expect((await t.api('GET', `${STRINGS}/processes/${r.body.response.data.processUid}`)).status).toBe(200)
  })
})
