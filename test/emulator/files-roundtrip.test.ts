import { describe, expect, it } from 'vitest'
import { readInstrumentedTexts } from '../../src/emulator/files/instrument'
import { filesApi, fixture, q } from './files-helpers'
import { PROJECT, useEmulator } from './helpers'

const t = useEmulator()
const f = filesApi(t)

interface Case {
  fileType: string
  source: string
  fileUri: string
  expected: string | null
  /** Translations in `{0}` form, by key. */
  fr: Record<string, string>
  /** What the strings API lists for the file: key -> parsedStringText. */
  strings: Record<string, string>
  mediaType: string
}

const CASES: Case[] = [
  {
    fileType: 'json',
    source: 'json/app.json',
    fileUri: 'i18n/app.json',
    expected: 'json/app.fr-FR.json',
    fr: { 'nav.home': 'Accueil', 'nav.greeting': 'Bonjour {0} !', '10': 'Dix', 'items.0': 'Premier' },
    strings: {
      'nav.home': 'Home',
      'nav.greeting': 'Hello {0}!',
      '10': 'Ten',
      '2': 'Two',
      'items.0': 'First',
      'items.1': 'Second "quoted"',
    },
    mediaType: 'application/json; charset=UTF-8',
  },
  {
    fileType: 'javaProperties',
    source: 'javaProperties/app.properties',
    fileUri: 'res/app.properties',
    expected: 'javaProperties/app.fr-FR.properties',
    fr: {
      'app.title': 'Mon application',
      greeting: 'Bonjour {0}, vous avez {1} messages',
      'multi.line': 'Une longue valeur\nsur deux lignes',
      unicode: 'Café crème',
    },
    strings: {
      'app.title': 'My App',
      greeting: 'Hello {0}, you have {1} messages',
      'multi.line': 'This is a long value over two lines',
      'escaped key': 'Tab\there',
      unicode: 'Café',
    },
    mediaType: 'text/x-java-properties; charset=UTF-8',
  },
  {
    fileType: 'gettext',
    source: 'gettext/messages.pot',
    fileUri: 'locale/messages.pot',
    expected: 'gettext/messages.fr-FR.po',
    fr: {
      'Welcome, %s!': 'Bienvenue, {0} !',
      Open: 'Ouvrir',
      'One file': 'Un fichier',
      '%d files': '{0} fichiers',
    },
    strings: {
      'Welcome, %s!': 'Welcome, {0}!',
      Open: 'Open',
      'One file': 'One file',
      '%d files': '{0} files',
      'A long text over lines': 'A long text over lines',
    },
    mediaType: 'text/x-gettext-translation; charset=UTF-8',
  },
  {
    fileType: 'csv',
    source: 'csv/strings.csv',
    fileUri: 'strings.csv',
    expected: 'csv/strings.fr-FR.csv',
    fr: { welcome: 'Bienvenue, {0}', quote: 'Il a dit "salut"' },
    strings: { welcome: 'Welcome, {0}', bye: 'Goodbye', quote: 'He said "hi"' },
    mediaType: 'text/csv; charset=UTF-8',
  },
  {
    fileType: 'yaml',
    source: 'yaml/en.yml',
    fileUri: 'config/locales/en.yml',
    expected: null,
    fr: {
      title: 'Bienvenue',
      greeting: 'Bonjour {0}',
      'nested.0': 'Premier élément',
      note: 'Ligne un\nLigne deux\n',
    },
    strings: {
      title: 'Welcome',
      greeting: 'Hello {0}',
      'nested.0': 'First item',
      'nested.1': 'Second: item',
      note: 'Line one\nLine two\n',
    },
    mediaType: 'application/yaml; charset=UTF-8',
  },
  {
    fileType: 'plain_text',
    source: 'plain_text/notes.txt',
    fileUri: 'docs/notes.txt',
    expected: 'plain_text/notes.fr-FR.txt',
    fr: { '1': "Bienvenue dans l'application", '3': 'Ligne indentée' },
    strings: { '1': 'Welcome to the app', '3': 'Indented line', '4': 'Last line' },
    mediaType: 'text/plain; charset=UTF-8',
  },
]

const YAML_FR = `# Rails locale file
fr:
  title: Bienvenue
  greeting: "Bonjour %{name}"
  nested:
    - Premier élément
    - 'Second: item'
  count: 3
  note: |
    Ligne un
    Ligne deux
`

describe.each(CASES)('$fileType round trip', (c) => {
  it('parses the upload into strings with keys, null stringText and {N} placeholders', async () => {
    const result = await f.put(c.fileUri, c.fileType, fixture(c.source))
    expect(result.overWritten).toBe(false)
    expect(result.stringCount).toBe(Object.keys(c.strings).length)
    const listed = await f.sourceStrings(c.fileUri)
    expect(Object.fromEntries(listed.map((s) => [s.keys[0], s.parsedStringText]))).toEqual(c.strings)
    expect(listed.every((s) => s.stringText === null && /^[0-9a-f]{32}$/.test(s.hashcode))).toBe(true)
  })

  it('downloads the original as uploaded, and the translation with its placeholders in place', async () => {
    await f.put(c.fileUri, c.fileType, fixture(c.source))
    await f.translate(c.fileUri, 'fr-FR', c.fr)
    const original = await f.download(`/file?fileUri=${q(c.fileUri)}`)
    expect(original.status).toBe(200)
    expect(original.text).toBe(fixture(c.source).toString('utf8'))
    const translated = await f.download(`/locales/fr-FR/file?fileUri=${q(c.fileUri)}`)
    expect(translated.status).toBe(200)
    expect(translated.headers.get('content-type')).toBe(c.mediaType)
    expect(translated.text).toBe(c.expected ? fixture(c.expected).toString('utf8') : YAML_FR)
  })

  it('keeps unpublished translations out of published downloads and in pending ones', async () => {
    await f.put(c.fileUri, c.fileType, fixture(c.source))
    await f.translate(c.fileUri, 'de-DE', c.fr, false)
    const published = await f.download(`/locales/de-DE/file?fileUri=${q(c.fileUri)}&retrievalType=published`)
    const pending = await f.download(`/locales/de-DE/file?fileUri=${q(c.fileUri)}&retrievalType=pending`)
    // ja-JP has no translation at all: what a download without translations looks like.
    const untranslated = await f.download(`/locales/ja-JP/file?fileUri=${q(c.fileUri)}`)
    const expected = c.expected ? fixture(c.expected).toString('utf8') : YAML_FR
    // Only the Language header (gettext) or the locale root (yaml) name the locale.
    const as = (text: string, from: string, to: string) =>
      text
        .replace(`Language: ${from}`, `Language: ${to}`)
        .replace(new RegExp(`^${from.slice(0, 2)}:`, 'm'), `${to.slice(0, 2)}:`)
    expect(published.text).toBe(as(untranslated.text, 'ja-JP', 'de-DE'))
    expect(published.text).not.toBe(pending.text)
    expect(pending.text).toBe(as(expected, 'fr-FR', 'de-DE'))
  })

  it('wraps every text in context markers that carry its hashcode', async () => {
    await f.put(c.fileUri, c.fileType, fixture(c.source))
    const listed = await f.sourceStrings(c.fileUri)
    const d = await f.download(
      `/locales/ja-JP/file?fileUri=${q(c.fileUri)}&retrievalType=contextMatchingInstrumented`,
    )
    expect(d.status).toBe(200)
    const marked = readInstrumentedTexts(d.text)
    const byHash = new Map(listed.map((s) => [s.hashcode, s.parsedStringText]))
    // Every string of the file is marked, and each marker names the string it wraps.
    expect(new Set(marked.map((m) => m.hashcode))).toEqual(new Set(byHash.keys()))
    for (const m of marked) expect(byHash.has(m.hashcode)).toBe(true)
  })
})

describe('retrieval types and options', () => {
  it('pseudo keeps placeholders and expands the text', async () => {
    await f.put('app.json', 'json', '{"greeting": "Hello {name}!", "n": "Save"}')
    const d = await f.download(`/locales/fr-FR/file?fileUri=app.json&retrievalType=pseudo`)
    const data = JSON.parse(d.text)
    expect(data.greeting).toContain('{name}')
    expect(data.greeting).not.toBe('Hello {name}!')
    expect(data.greeting.length).toBeGreaterThan('Hello {name}!'.length)
    expect(data.n).toMatch(/^\[.*\]$/)
  })

  it('includeOriginalStrings=false empties untranslated texts of json, properties and gettext only', async () => {
    await f.put('a.json', 'json', '{"a": "One", "b": "Two"}')
    await f.put('a.csv', 'csv', 'key,text\na,One\nb,Two\n')
    await f.put('a.properties', 'javaProperties', 'a=One\nb=Two\n')
    await f.put('a.po', 'gettext', 'msgid "One"\nmsgstr ""\n\nmsgid "Two"\nmsgstr ""\n')
    await f.translate('a.json', 'fr-FR', { a: 'Un' })
    await f.translate('a.csv', 'fr-FR', { a: 'Un' })
    await f.translate('a.properties', 'fr-FR', { a: 'Un' })
    await f.translate('a.po', 'fr-FR', { One: 'Un' })
    const get = async (uri: string, include: boolean) =>
      (await f.download(`/locales/fr-FR/file?fileUri=${q(uri)}&includeOriginalStrings=${include}`)).text
    expect(await get('a.json', false)).toBe('{"a": "Un", "b": ""}')
    expect(await get('a.json', true)).toBe('{"a": "Un", "b": "Two"}')
    expect(await get('a.properties', false)).toBe('a=Un\nb=\n')
    expect(await get('a.po', false)).toBe('msgid "One"\nmsgstr "Un"\n\nmsgid "Two"\nmsgstr ""\n')
    expect(await get('a.po', true)).toBe('msgid "One"\nmsgstr "Un"\n\nmsgid "Two"\nmsgstr "Two"\n')
    // csv is not in the spec's list: the original stays.
    expect(await get('a.csv', false)).toBe('key,text\na,Un\nb,Two\n')
  })

  it('returns a .pot as .po, names the file after the last segment of its URI, and rejects an unknown retrievalType', async () => {
    await f.put('locale/app.pot', 'gettext', 'msgid "Hi"\nmsgstr ""\n')
    const original = await f.download('/file?fileUri=locale%2Fapp.pot')
    expect(original.headers.get('content-disposition')).toBe(
      `attachment; filename="app.po"; filename*=UTF-8''app.po`,
    )
    const translated = await f.download('/locales/fr-FR/file?fileUri=locale%2Fapp.pot')
    expect(translated.headers.get('content-disposition')).toBe(
      `attachment; filename="app.po"; filename*=UTF-8''app.po`,
    )
    await f.put('../..\\up/../.bashrc', 'plain_text', 'Hi\n')
    const climbing = await f.download(`/file?fileUri=${encodeURIComponent('../..\\up/../.bashrc')}`)
    expect(climbing.headers.get('content-disposition')).toBe(
      `attachment; filename=".bashrc"; filename*=UTF-8''.bashrc`,
    )
    const bad = await f.download('/locales/fr-FR/file?fileUri=locale%2Fapp.pot&retrievalType=draft')
    expect(bad.status).toBe(400)
    expect(bad.json.response.errors[0].details.field).toBe('retrievalType')
  })

  it('answers 404 with no file for an unknown URI, and 400 for a locale outside the project', async () => {
    const missing = await f.download('/file?fileUri=nope.json')
    expect(missing.status).toBe(404)
    expect(missing.json.response.code).toBe('NOT_FOUND_ERROR')
    expect(missing.headers.get('content-disposition')).toBeNull()
    await f.put('a.json', 'json', '{"a": "One"}')
    const badLocale = await f.download('/locales/xx-XX/file?fileUri=a.json')
    expect(badLocale.status).toBe(400)
    expect(badLocale.json.response.errors[0].details.field).toBe('localeId')
  })
})

describe('character sets', () => {
  const json = '{"title": "Café", "n": "Ünïcode ✓"}'

  it('detects UTF-16 with a byte order mark and returns UTF-16 (same order, same mark)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')])
    await f.put('u16.json', 'json', bytes)
    await f.translate('u16.json', 'fr-FR', { title: 'Café crème' })
    const original = await f.download('/file?fileUri=u16.json')
    expect(original.headers.get('content-type')).toBe('application/json; charset=UTF-16LE')
    expect(original.bytes.equals(bytes)).toBe(true)
    const translated = await f.download('/locales/fr-FR/file?fileUri=u16.json')
    expect(translated.headers.get('content-type')).toBe('application/json; charset=UTF-16LE')
    const expected = '{"title": "Café crème", "n": "Ünïcode ✓"}'
    expect(
      translated.bytes.equals(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(expected, 'utf16le')])),
    ).toBe(true)
  })

  it('detects big-endian UTF-16 without a byte order mark from its zero bytes', async () => {
    const bytes = Buffer.from(json, 'utf16le').swap16()
    await f.put('be.json', 'json', bytes)
    expect((await f.sourceStrings('be.json')).map((s) => s.parsedStringText)).toEqual(['Café', 'Ünïcode ✓'])
    const original = await f.download('/file?fileUri=be.json')
    expect(original.headers.get('content-type')).toBe('application/json; charset=UTF-16BE')
    expect(original.bytes.equals(bytes)).toBe(true)
  })

  it('decodes svc.file_charset and returns UTF-8; the charset cannot change on re-upload', async () => {
    const latin1 = Buffer.from('title=Caf\xe9\n', 'latin1')
    await f.put('l1.properties', 'javaProperties', latin1, { 'svc.file_charset': 'ISO-8859-1' })
    expect((await f.sourceStrings('l1.properties'))[0]!.parsedStringText).toBe('Café')
    const original = await f.download('/file?fileUri=l1.properties')
    expect(original.headers.get('content-type')).toBe('text/x-java-properties; charset=UTF-8')
    expect(original.text).toBe('title=Café\n')
    // Re-upload without the field keeps the charset; another one is refused.
    await f.put('l1.properties', 'javaProperties', latin1)
    expect((await f.sourceStrings('l1.properties'))[0]!.parsedStringText).toBe('Café')
    const changed = await f.upload(
      { fileUri: 'l1.properties', fileType: 'javaProperties', 'svc.file_charset': 'UTF-8' },
      { content: 'title=x\n' },
    )
    expect(changed.status).toBe(400)
    expect(changed.body.response.errors[0].details.field).toBe('svc.file_charset')
  })

  it('reads the charset of the request Content-Type', async () => {
    const form = new FormData()
    form.append('file', new Blob([Buffer.from('{"a": "\xe9t\xe9"}', 'latin1')]), 'a.json')
    form.append('fileUri', 'ct.json')
    form.append('fileType', 'json')
    // Serialise the form to set the request's own Content-Type with a charset parameter.
    const request = new Request('http://x', { method: 'POST', body: form })
    const body = Buffer.from(await request.arrayBuffer())
    const type = `${request.headers.get('content-type')}; charset=ISO-8859-1`
    const r = await f.send('POST', `/files-api/v2/projects/${PROJECT}/file`, body as unknown as string, {
      'content-type': type,
    })
    expect(r.status).toBe(200)
    expect((await f.sourceStrings('ct.json'))[0]!.parsedStringText).toBe('été')
  })

  it('rejects bytes that are not UTF-8 when no charset is named, and an unknown charset name', async () => {
    const bad = await f.upload(
      { fileUri: 'b.json', fileType: 'json' },
      { content: Buffer.from('{"a": "\xe9"}', 'latin1') },
    )
    expect(bad.status).toBe(400)
    expect(bad.body.response.errors[0].message).toContain('svc.file_charset')
    const unknown = await f.upload(
      { fileUri: 'b.json', fileType: 'json', 'svc.file_charset': 'klingon-8' },
      { content: '{}' },
    )
    expect(unknown.status).toBe(400)
    expect(unknown.body.response.errors[0].details.field).toBe('svc.file_charset')
  })
})
