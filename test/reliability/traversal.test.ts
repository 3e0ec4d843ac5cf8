import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { DiskCache } from '../../src/core/cache'
import { type RunningEmulator, startEmulator } from '../../src/emulator/index'
import { resolveOptions } from '../../src/options'
import { control } from '../helpers/sync'
import { CREDS, filesBelow, makeApp, PROJECT, SECRET, tms, USER } from './helpers'

/**
 * Locale ids and file names that try to leave their directory: in the options, the CLI flags, the
 * disk cache, the emulator's routes and its files API (with a data file on disk). Each is refused
 * with a message naming it, or kept as an opaque name; afterwards no file exists where the `..` would
 * have led, and the sandbox holds only what it should.
 */

const TAG = `escape-${randomBytes(4).toString('hex')}`
const HOSTILE = [`../../${TAG}`, `../${TAG}`, `/tmp/${TAG}`, `..\\..\\${TAG}`, `fr-FR/../../${TAG}`]

let sandbox: string
let emu: RunningEmulator
let client: TmsClient

/** Every place a `..` could have reached from where the work happened. */
function expectNothingEscaped(): void {
  const bases = [
    process.cwd(),
    sandbox,
    join(sandbox, 'data'),
    join(sandbox, 'app', '.tms-cache', 'locales'),
    tmpdir(),
  ]
  for (const base of bases) {
    for (const up of ['', '..', '../..', '../../..']) {
      const dir = resolve(base, up)
      if (!existsSync(dir)) continue
      const hits = readdirSync(dir).filter((f) => f.includes(TAG))
      expect(hits, dir).toEqual([])
    }
  }
}

beforeAll(async () => {
  sandbox = mkdtempSync(join(tmpdir(), 'tms-traversal-'))
  mkdirSync(join(sandbox, 'data'))
  emu = await startEmulator({ dataFile: join(sandbox, 'data', 'state.json') })
  client = createClient({ baseUrl: emu.url, userIdentifier: USER, userSecret: SECRET })
})
afterAll(async () => {
  await client?.close()
  await emu?.close()
})

describe('locale ids', () => {
  it.each(HOSTILE)('%s is refused by the options, naming the option', (locale) => {
    expect(() => resolveOptions({ locales: [locale] }, { command: 'build', env: {} })).toThrow(
      `[unplugin-tms] locales has ${JSON.stringify(locale)}, which is not a locale id like "fr-FR"`,
    )
    expect(() =>
      resolveOptions({ locales: ['fr-FR'], sourceLocale: locale }, { command: 'build', env: {} }),
    ).toThrow('sourceLocale has')
  })

  it('the disk cache never turns one into a file name', async () => {
    const cache = new DiskCache(join(sandbox, 'app', '.tms-cache'), PROJECT)
    for (const locale of HOSTILE) {
      await expect(cache.writeLocale(locale, 'published', { a: 'b' })).rejects.toThrow(
        `[unplugin-tms] refusing locale id ${JSON.stringify(locale)} as a cache file name`,
      )
      await expect(cache.readLocale(locale, 'published')).rejects.toThrow('refusing locale id')
    }
    expectNothingEscaped()
  })

  it('tms pull --locales with one: exit 1 and the message, nothing written', async () => {
    const root = makeApp({ 'src/App.js': "t('Hello')\n" }, { locales: ['fr-FR'], baseUrl: emu.url })
    const run = await tms(root, ['pull', '--locales', `fr-FR,../../${TAG}`], CREDS)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`locales has "../../${TAG}", which is not a locale id like "fr-FR"`)
    expect([...filesBelow(root).keys()].some((f) => f.includes(TAG))).toBe(false)
    expectNothingEscaped()
  })

  it('the emulator refuses them in the spec routes and keeps them as opaque keys in the dashboard', async () => {
    const [created] = (
      await client.strings.create(PROJECT, {
        strings: [{ stringText: 'Traversal probe' }],
        namespace: 'traversal',
      })
    ).items
    for (const locale of HOSTILE) {
      const error = await client.strings
        .translationsPage(PROJECT, { targetLocaleId: locale, hashcodes: [created!.hashcode] })
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
      const res = await fetch(
        `${emu.url}/strings-api/v2/projects/${PROJECT}/translations?targetLocaleId=${encodeURIComponent(locale)}`,
      )
      expect(res.status).toBeGreaterThanOrEqual(400)
      await control(emu, 'POST', `/_emulator/projects/${PROJECT}/translations`, {
        hashcode: created!.hashcode,
        localeId: locale,
        translation: 'x',
      }).catch(() => undefined)
    }
    expectNothingEscaped()
  })
})

describe('file names in the emulator files API', () => {
  it('uploads, renames and downloads under hostile URIs stay in memory and in the data file', async () => {
    for (const [i, uri] of HOSTILE.entries()) {
      await client.files.upload(PROJECT, {
        file: `{"k${i}": "Value ${i}"}`,
        fileUri: `${uri}.json`,
        fileType: 'json',
      })
    }
    await client.files.rename(PROJECT, `${HOSTILE[0]}.json`, `../../../renamed-${TAG}.json`)
    const original = await client.files.downloadOriginal(PROJECT, `${HOSTILE[1]}.json`)
    // The client keeps the header's last segment only: saving under it cannot leave a directory.
    expect(original.fileName).toBe(`${TAG}.json`)
    const translated = await client.files.downloadTranslated(PROJECT, 'fr-FR', {
      fileUri: `../../../renamed-${TAG}.json`,
    })
    expect(translated.fileName).toBe(`renamed-${TAG}.json`)

    // `..` segments are dropped in the archive, so some of the URIs would collide there: three that do not.
    const fileUris = [HOSTILE[1], HOSTILE[2], HOSTILE[4]].map((u) => `${u}.json`)
    await expect(
      client.files.downloadZip(PROJECT, { fileUris, localeIds: ['fr-FR'], zipFileName: `../../${TAG}.zip` }),
    ).rejects.toThrow('400 VALIDATION_ERROR: zipFileName: must be a file name without folders')
    for (const fileNameMode of ['UNCHANGED', 'LOCALE_LAST'] as const) {
      const zip = await client.files.downloadZip(PROJECT, { fileUris, localeIds: ['fr-FR'], fileNameMode })
      const entries = Object.keys(unzipSync(zip.body))
      expect(entries).toHaveLength(3)
      for (const entry of entries) {
        expect(entry.split('/')).not.toContain('..')
        expect(entry.startsWith('/')).toBe(false)
        expect(entry).not.toContain('\\')
      }
    }
    await client.close()
    await emu.close()
    // The data file is the only thing the emulator wrote.
    expect(readdirSync(join(sandbox, 'data'))).toEqual(['state.json'])
    expectNothingEscaped()
    emu = await startEmulator({ dataFile: join(sandbox, 'data', 'state.json') })
    client = createClient({ baseUrl: emu.url, userIdentifier: USER, userSecret: SECRET })
    const listed = []
    for await (const f of client.files.list(PROJECT)) listed.push(f.fileUri)
    expect(listed.sort()).toEqual(
      [...HOSTILE.slice(1).map((u) => `${u}.json`), `../../../renamed-${TAG}.json`].sort(),
    )
  })
})
