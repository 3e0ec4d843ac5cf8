import { describe, expect, it } from 'vitest'
import { errorOf, ISO_DATE, PROJECT, STRINGS, useEmulator } from './helpers'

const t = useEmulator()
const CUSTOM = { placeholderFormatCustom: String.raw`\{\w+\}` }

const authorize = (body: Record<string, unknown> = {}) =>
  t.control('POST', `/projects/${PROJECT}/strings/authorize`, body)
const translate = (hashcode: string, localeId: string, translation: string, published: boolean) =>
  t.control('POST', `/projects/${PROJECT}/translations`, { hashcode, localeId, translation, published })

async function createMany(n: number): Promise<string[]> {
  const hashcodes: string[] = []
  for (let start = 0; start < n; start += 100) {
    const batch = Array.from({ length: Math.min(100, n - start) }, (_, i) => ({
      stringText: `Message ${start + i}`,
    }))
    hashcodes.push(...(await t.createStrings(batch)))
  }
  return hashcodes
}

describe('source strings', () => {
  it('returns the DESIGN.md item shape for the requested hashcodes', async () => {
    const [h] = await t.createStrings(
      [{ stringText: 'Hi {name}', variant: 'v', instruction: 'greeting', maxLength: 30 }],
      CUSTOM,
    )
    const r = await t.api('GET', `${STRINGS}/source-strings?hashcodes[]=${h}`)
    expect(r.status).toBe(200)
    expect(r.body.response.data).toEqual({
      totalCount: 1,
      items: [
        {
          hashcode: h,
          stringText: 'Hi {name}',
          parsedStringText: 'Hi {0}',
          stringVariant: 'v',
          maxLength: 30,
          stringInstructions: ['greeting'],
          keys: [],
        },
      ],
    })
  })

  it('returns nothing when neither hashcodes nor fileUri is given', async () => {
    await t.createStrings([{ stringText: 'a' }])
    const r = await t.api('GET', `${STRINGS}/source-strings`)
    expect(r.body.response.data).toEqual({ totalCount: 0, items: [] })
  })

  it('reads arrays as repeated name= and name[]= (mixed), with or without a trailing ?', async () => {
    const [a, b, c] = await t.createStrings([{ stringText: 'a' }, { stringText: 'b' }, { stringText: 'c' }])
    const hashes = async (query: string) =>
      (await t.api('GET', `${STRINGS}/source-strings${query}`)).body.response.data.items.map(
        (i: { hashcode: string }) => i.hashcode,
      )
    expect(await hashes(`?hashcodes=${a}&hashcodes=${c}`)).toEqual([a, c])
    expect(await hashes(`?hashcodes[]=${b}&hashcodes[]=${c}`)).toEqual([b, c])
    expect(await hashes(`?hashcodes%5B%5D=${a}&hashcodes=${b}`)).toEqual([a, b])
    expect(await hashes(`?hashcodes[]=${a}`)).toEqual([a])
    expect(await hashes(`?hashcodes=${b}&`)).toEqual([b])
    expect((await t.api('GET', `${STRINGS}/source-strings?`)).status).toBe(200)
    expect(await hashes(`?hashcodes=unknown`)).toEqual([])
  })

  it('pages with limit and offset; totalCount counts every match', async () => {
    const all = await createMany(7)
    const query = all.map((h) => `hashcodes=${h}`).join('&')
    const page = async (q: string) =>
      (await t.api('GET', `${STRINGS}/source-strings?${query}${q}`)).body.response.data
    const hashes = (data: { items: { hashcode: string }[] }) => data.items.map((i) => i.hashcode)
    expect(hashes(await page(''))).toEqual(all)
    expect(hashes(await page('&limit=500'))).toEqual(all)
    const small = await page('&limit=2&offset=3')
    expect(hashes(small)).toEqual([all[3], all[4]])
    expect(small.totalCount).toBe(7)
    expect(hashes(await page('&offset=6'))).toEqual([all[6]])
    expect(hashes(await page('&offset=7'))).toEqual([])
  })

  it('rejects limit above 500 or below 1, a negative offset and non-integers, naming the parameter', async () => {
    for (const [query, field] of [
      ['limit=501', 'limit'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
    ]) {
      const r = await t.api('GET', `${STRINGS}/source-strings?hashcodes=x&${query}`)
      expect(errorOf(r)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', field })
    }
  })
})

describe('translations', () => {
  const url = (query: string) => `${STRINGS}/translations?targetLocaleId=fr-FR&${query}`

  it('returns only authorized and active strings, with [] when not yet translated', async () => {
    const [authorized, unauthorized, inactive, otherLocale] = await t.createStrings([
      { stringText: 'one' },
      { stringText: 'two' },
      { stringText: 'three' },
      { stringText: 'four' },
    ])
    await authorize({ hashcodes: [authorized, inactive], localeIds: ['fr-FR'] })
    await authorize({ hashcodes: [otherLocale], localeIds: ['de-DE'] })
    await t.control('POST', `/projects/${PROJECT}/strings/deactivate`, { hashcodes: [inactive] })
    const query = [authorized, unauthorized, inactive, otherLocale].map((h) => `hashcodes[]=${h}`).join('&')
    const r = await t.api('GET', url(query))
    expect(r.body.response.data).toEqual({
      totalCount: 1,
      items: [
        {
          hashcode: authorized,
          stringText: 'one',
          parsedStringText: 'one',
          stringVariant: null,
          targetLocaleId: 'fr-FR',
          workflowStepUid: expect.stringMatching(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          ),
          translations: [],
        },
      ],
    })
  })

  it('restores the original placeholders, or keeps {N} with showPlaceholderValues=false', async () => {
    const [h] = await t.createStrings([{ stringText: 'Hello {name}, {count} new' }], CUSTOM)
    await authorize()
    await translate(h, 'fr-FR', 'Bonjour {0}, {1} nouveaux', true)
    const restored = await t.api('GET', url(`hashcodes=${h}`))
    const item = restored.body.response.data.items[0]
    expect(item.translations).toEqual([
      {
        translation: 'Bonjour {name}, {count} nouveaux',
        pluralForm: null,
        modifiedDate: expect.stringMatching(ISO_DATE),
      },
    ])
    const raw = await t.api('GET', url(`hashcodes=${h}&showPlaceholderValues=false`))
    expect(raw.body.response.data.items[0].translations[0].translation).toBe('Bonjour {0}, {1} nouveaux')
    expect(errorOf(await t.api('GET', url(`hashcodes=${h}&showPlaceholderValues=maybe`)))).toMatchObject({
      status: 400,
      field: 'showPlaceholderValues',
    })
  })

  it('separates published from pending translations (published by default)', async () => {
    const [h] = await t.createStrings([{ stringText: 'Save' }])
    await authorize()
    const text = async (query: string) =>
      (await t.api('GET', url(`hashcodes=${h}${query}`))).body.response.data.items[0].translations.map(
        (x: { translation: string }) => x.translation,
      )
    const step = async (query: string) =>
      (await t.api('GET', url(`hashcodes=${h}${query}`))).body.response.data.items[0].workflowStepUid
    const untranslatedStep = await step('')
    await translate(h, 'fr-FR', 'Sauver', false)
    const pendingStep = await step('')
    expect(await text('')).toEqual([])
    expect(await text('&retrievalType=published')).toEqual([])
    expect(await text('&retrievalType=pending')).toEqual(['Sauver'])
    await translate(h, 'fr-FR', 'Enregistrer', true)
    expect(await text('')).toEqual(['Enregistrer'])
    const publishedStep = await step('')
    await translate(h, 'fr-FR', 'Sauvegarder', false)
    expect(await text('')).toEqual(['Enregistrer'])
    expect(await text('&retrievalType=pending')).toEqual(['Sauvegarder'])
    expect(new Set([untranslatedStep, pendingStep, publishedStep]).size).toBe(3)
    expect(await step('')).toBe(pendingStep)
  })

  it('requires a valid targetLocaleId and retrievalType', async () => {
    expect(errorOf(await t.api('GET', `${STRINGS}/translations?hashcodes=x`))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      field: 'targetLocaleId',
    })
    expect(
      errorOf(await t.api('GET', `${STRINGS}/translations?hashcodes=x&targetLocaleId=xx-XX`)),
    ).toMatchObject({
      status: 400,
      field: 'targetLocaleId',
    })
    expect(errorOf(await t.api('GET', url('hashcodes=x&retrievalType=pseudo')))).toMatchObject({
      status: 400,
      field: 'retrievalType',
    })
    expect(errorOf(await t.api('GET', url('hashcodes=x&limit=501')))).toMatchObject({
      status: 400,
      field: 'limit',
    })
  })

  it('returns nothing without hashcodes or fileUri', async () => {
    await t.createStrings([{ stringText: 'x' }])
    await authorize()
    expect((await t.api('GET', url(''))).body.response.data).toEqual({ totalCount: 0, items: [] })
  })

  it('pages with limit and offset', async () => {
    const all = await createMany(5)
    await authorize({ localeIds: ['fr-FR'] })
    const query = all.map((h) => `hashcodes[]=${h}`).join('&')
    const page = (await t.api('GET', url(`${query}&limit=2&offset=2`))).body.response.data
    expect(page.totalCount).toBe(5)
    expect(page.items.map((i: { hashcode: string }) => i.hashcode)).toEqual([all[2], all[3]])
  })
})
