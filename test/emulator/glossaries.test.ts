import { describe, expect, it } from 'vitest'
import { DEMO_SEED } from '../../src/emulator/index'
import { errorOf, ISO_DATE, useEmulator } from './helpers'

const t = useEmulator({
  seed: {
    ...DEMO_SEED,
    users: [
      ...DEMO_SEED.users,
      { userIdentifier: 'other-user', userSecret: 'other-secret', accountUids: ['other-account'] },
    ],
    accounts: [
      ...DEMO_SEED.accounts,
      {
        accountUid: 'other-account',
        projects: [{ projectId: 'other-project', sourceLocaleId: 'en-US', targetLocaleIds: ['es-ES'] }],
      },
    ],
  },
})

const G = '/glossary-api/v2/accounts/demo-account/glossaries'
const FIELDS = { name: 'Web terms', description: 'Terms of the web app', sourceLocaleId: 'en-US' }

async function create(fields: Record<string, unknown> = FIELDS): Promise<string> {
  const r = await t.api('POST', G, fields)
  expect(r.status).toBe(200)
  return r.body.response.data.glossaryUid
}

describe('create and details', () => {
  it('creates a glossary and returns it with the spec fields; details return the same', async () => {
    const r = await t.api('POST', G, FIELDS)
    expect(r.status).toBe(200)
    expect(r.body.response.code).toBe('SUCCESS')
    const glossary = r.body.response.data
    expect(glossary).toEqual({
      glossaryUid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Web terms',
      description: 'Terms of the web app',
      sourceLocaleId: 'en-US',
      createdByUserUid: expect.stringMatching(/^[0-9a-f]{12}$/),
      createdDate: expect.stringMatching(ISO_DATE),
    })
    expect(glossary.createdByUserUid).not.toContain('demo-user')
    const details = await t.api('GET', `${G}/${glossary.glossaryUid}`)
    expect(details.body.response.data).toEqual(glossary)
  })

  it('requires all three fields, each named in the error', async () => {
    for (const field of ['name', 'description', 'sourceLocaleId'] as const) {
      const { [field]: _, ...rest } = FIELDS
      expect(errorOf(await t.api('POST', G, rest))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        key: 'invalid_parameter',
        field,
      })
      expect(errorOf(await t.api('POST', G, { ...FIELDS, [field]: '  ' })).field).toBe(field)
      expect(errorOf(await t.api('POST', G, { ...FIELDS, [field]: 7 })).field).toBe(field)
    }
    expect((await t.api('GET', G)).body.response.data).toEqual({ totalCount: 0, items: [] })
  })

  it('requires a valid locale and suggests the canonical spelling', async () => {
    expect(errorOf(await t.api('POST', G, { ...FIELDS, sourceLocaleId: 'english' }))).toMatchObject({
      status: 400,
      field: 'sourceLocaleId',
    })
    const r = await t.api('POST', G, { ...FIELDS, sourceLocaleId: 'fr-fr' })
    expect(r.body.response.errors[0].message).toBe(
      'sourceLocaleId: "fr-fr" is not a locale id; did you mean fr-FR?',
    )
    expect((await t.api('POST', G, { ...FIELDS, sourceLocaleId: 'zh-Hans-CN' })).status).toBe(200)
  })

  it('refuses a well-formed locale that names no language or region (zz, zz-ZZ, und, fr-ZZ), on create and edit', async () => {
    const messages = []
    for (const sourceLocaleId of ['zz', 'zz-ZZ', 'und', 'fr-ZZ']) {
      const r = await t.api('POST', G, { ...FIELDS, sourceLocaleId })
      messages.push([r.status, r.body.response.errors?.[0]?.message])
    }
    expect(messages).toEqual([
      [400, 'sourceLocaleId: "zz" is not a valid locale: no such language or region'],
      [400, 'sourceLocaleId: "zz-ZZ" is not a valid locale: no such language or region'],
      [400, 'sourceLocaleId: "und" is not a valid locale: no such language or region'],
      [400, 'sourceLocaleId: "fr-ZZ" is not a valid locale: no such language or region'],
    ])
    const uid = await create()
    expect(errorOf(await t.api('PUT', `${G}/${uid}`, { ...FIELDS, sourceLocaleId: 'zz-ZZ' }))).toMatchObject({
      status: 400,
      field: 'sourceLocaleId',
    })
    for (const known of ['en-XA', 'es-419', 'sr-Latn', 'fil-PH'])
      expect((await t.api('POST', G, { ...FIELDS, name: known, sourceLocaleId: known })).status).toBe(200)
  })

  it('unknown glossary, other account and unknown account are 404; no token is 401', async () => {
    expect(errorOf(await t.api('GET', `${G}/nope`))).toMatchObject({ status: 404, code: 'NOT_FOUND_ERROR' })
    const uid = await create()
    expect(
      errorOf(await t.api('GET', `/glossary-api/v2/accounts/other-account/glossaries/${uid}`)),
    ).toMatchObject({ status: 404, key: 'glossary_not_found' })
    expect(errorOf(await t.api('GET', '/glossary-api/v2/accounts/nobody/glossaries'))).toMatchObject({
      status: 404,
      key: 'account_not_found',
    })
    expect(errorOf(await t.call('GET', G))).toMatchObject({ status: 401, code: 'AUTHENTICATION_ERROR' })
    const other = await t.call('POST', '/auth-api/v2/authenticate', {
      body: { userIdentifier: 'other-user', userSecret: 'other-secret' },
    })
    const token = other.body.response.data.accessToken
    expect(errorOf(await t.call('GET', `${G}/${uid}`, { token }))).toMatchObject({
      status: 401,
      code: 'AUTHORIZATION_ERROR',
    })
  })
})

describe('list', () => {
  it('filters by name with a case-insensitive LIKE', async () => {
    await create({ ...FIELDS, name: 'Web terms' })
    await create({ ...FIELDS, name: 'Mobile WEB' })
    await create({ ...FIELDS, name: 'Legal' })
    const names = async (query: string) =>
      (await t.api('GET', `${G}${query}`)).body.response.data.items.map((g: { name: string }) => g.name)
    expect(await names('')).toEqual(['Web terms', 'Mobile WEB', 'Legal'])
    expect(await names('?name=web')).toEqual(['Web terms', 'Mobile WEB'])
    expect(await names('?name=W%25terms')).toEqual(['Web terms'])
    expect(await names('?name=L_gal')).toEqual(['Legal'])
    expect(await names('?name=.*')).toEqual([])
    const r = await t.api('GET', `${G}?name=mobile`)
    expect(r.body.response.data.totalCount).toBe(1)
  })

  it('filters by glossaryUids, comma separated or repeated, at most 100', async () => {
    const a = await create({ ...FIELDS, name: 'A' })
    const b = await create({ ...FIELDS, name: 'B' })
    await create({ ...FIELDS, name: 'C' })
    const names = async (query: string) =>
      (await t.api('GET', `${G}?${query}`)).body.response.data.items.map((g: { name: string }) => g.name)
    expect(await names(`glossaryUids=${a},${b}`)).toEqual(['A', 'B'])
    expect(await names(`glossaryUids=${b}&glossaryUids=${a}`)).toEqual(['A', 'B'])
    expect(await names(`glossaryUids[]=${b}`)).toEqual(['B'])
    expect(await names(`glossaryUids=${a}&name=b`)).toEqual([])
    const hundred = Array.from({ length: 99 }, (_, i) => `x${i}`).concat(a)
    expect(await names(`glossaryUids=${hundred.join(',')}`)).toEqual(['A'])
    const over = errorOf(await t.api('GET', `${G}?glossaryUids=${[...hundred, b].join(',')}`))
    expect(over).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'invalid_parameter',
      field: 'glossaryUids',
    })
  })
})

describe('edit', () => {
  it('replaces the three fields wholesale: an omitted or blank field is cleared', async () => {
    const uid = await create()
    const r = await t.api('PUT', `${G}/${uid}`, { name: 'Renamed', description: '' })
    expect(r.status).toBe(200)
    expect(r.body.response.data).toMatchObject({ name: 'Renamed', description: null, sourceLocaleId: null })
    const again = await t.api('PUT', `${G}/${uid}`, { ...FIELDS, sourceLocaleId: 'de-DE' })
    expect(again.body.response.data).toMatchObject({ ...FIELDS, sourceLocaleId: 'de-DE', glossaryUid: uid })
    expect((await t.api('GET', `${G}/${uid}`)).body.response.data.sourceLocaleId).toBe('de-DE')
  })

  it('rejects a bad locale or a non-string field and leaves the glossary as it was', async () => {
    const uid = await create()
    expect(errorOf(await t.api('PUT', `${G}/${uid}`, { ...FIELDS, sourceLocaleId: 'xx_' }))).toMatchObject({
      field: 'sourceLocaleId',
    })
    expect(errorOf(await t.api('PUT', `${G}/${uid}`, { ...FIELDS, name: 3 }))).toMatchObject({
      field: 'name',
    })
    expect((await t.api('GET', `${G}/${uid}`)).body.response.data).toMatchObject(FIELDS)
    expect(errorOf(await t.api('PUT', `${G}/unknown`, FIELDS))).toMatchObject({ status: 404 })
  })
})

describe('delete', () => {
  it('deletes a glossary', async () => {
    const uid = await create()
    const r = await t.api('DELETE', `${G}/${uid}`)
    expect(r.status).toBe(200)
    expect(r.body.response).toMatchObject({ code: 'SUCCESS', data: null })
    expect(errorOf(await t.api('GET', `${G}/${uid}`)).status).toBe(404)
    expect(errorOf(await t.api('DELETE', `${G}/${uid}`)).status).toBe(404)
  })

  it('refuses while the glossary is assigned to a linguistic package', async () => {
    const uid = await create()
    const assigned = await t.control('PUT', `/glossaries/${uid}/linguistic-package`, {
      linguisticPackageUid: 'lp-1',
    })
    expect(assigned.body.response.data).toEqual({ glossaryUid: uid, linguisticPackageUid: 'lp-1' })
    expect(errorOf(await t.api('DELETE', `${G}/${uid}`))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      key: 'glossary_assigned',
      field: 'glossaryUid',
    })
    await t.control('PUT', `/glossaries/${uid}/linguistic-package`, { linguisticPackageUid: null })
    expect((await t.api('DELETE', `${G}/${uid}`)).status).toBe(200)
  })
})
