import { cp, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DiskCache } from '../../src/core/cache'
import {
  APP_PLACEHOLDER_SOURCE,
  parsePlaceholders,
  restorePlaceholders,
} from '../../src/core/model/placeholders'
import { DEMO_CREDENTIALS, tms } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { startProxy } from '../helpers/proxy'
import { control, PROJECT } from '../helpers/sync'

// `tms import` end to end: the built CLI against the emulator over HTTP, on small apps written for
// these tests (test/fixtures/import/<library>: the app as `tms migrate` leaves it, and the other
// library's catalogs in the source locale and two more), then `tms pull` reads back what arrived.

const emu = useEmulator()
const FIXTURES = join(import.meta.dirname, '../fixtures/import')

async function app(library: string, baseUrl: string = emu.url): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `tms-import-${library}-`))
  await cp(join(FIXTURES, library), root, { recursive: true })
  await writeFile(
    join(root, 'tms.config.json'),
    JSON.stringify({ locales: ['fr-FR', 'de-DE'], projectId: PROJECT, baseUrl }),
  )
  return root
}

/**
 * What `tms pull` cached, as the app gets it: per locale, each message's text -> its translation with
 * the message's placeholders put back (the cache keeps them as `{0}`, `{1}`, ...).
 */
async function pulled(root: string): Promise<Record<string, Record<string, string>>> {
  const extracted = JSON.parse((await tms(root, ['extract', '--json', '--no-cache'])).stdout) as {
    messages: { text: string }[]
  }
  const byParsed = new Map(
    extracted.messages.map((m) => {
      const { parsed, placeholders } = parsePlaceholders(m.text, { custom: APP_PLACEHOLDER_SOURCE })
      return [parsed, { text: m.text, placeholders }]
    }),
  )
  const cache = new DiskCache(join(root, '.tms-cache'), PROJECT)
  const manifest = await cache.readManifest()
  if (!manifest.hit) throw new Error('no manifest')
  const parsedOf = new Map(Object.values(manifest.value.entries).map((e) => [e.hashcode, e.parsed]))
  const out: Record<string, Record<string, string>> = {}
  for (const locale of ['fr-FR', 'de-DE']) {
    const read = await cache.readLocale(locale, 'published')
    const pairs = read.hit
      ? Object.entries(read.value.translations).map(([hashcode, translation]) => {
          const message = byParsed.get(parsedOf.get(hashcode)!)!
          return [message.text, restorePlaceholders(translation, message.placeholders)]
        })
      : []
    out[locale] = Object.fromEntries(pairs.sort(([a], [b]) => a!.localeCompare(b!)))
  }
  return out
}

async function importThenPull(root: string, args: string[]): Promise<Record<string, Record<string, string>>> {
  const imported = await tms(root, ['import', ...args], DEMO_CREDENTIALS)
  expect(imported.stderr).toBe('')
  expect(imported.code).toBe(0)
  const pull = await tms(root, ['pull'], DEMO_CREDENTIALS)
  expect(pull.code).toBe(0)
  return pulled(root)
}

const LINGUI = ['locales/en/messages.po', 'locales/fr/messages.po', 'locales/de/messages.po']

describe('tms import --from lingui', () => {
  it('matches .po catalogs to the app (explicit ids, contexts, numbered tags and values), imports them, and tms pull gets them', async () => {
    const root = await app('lingui')
    expect(await importThenPull(root, ['--from', 'lingui', ...LINGUI])).toEqual({
      'fr-FR': {
        'Hello {name}': 'Bonjour {name}',
        Open: 'Ouvrir',
        'Read <a>the docs</a> or <code>npm help</code>.':
          'Lisez <a>la documentation</a> ou <code>npm help</code>.',
        'Welcome back, {userName}': 'Bon retour, {userName}',
        '{count, plural, one {# new message} other {# new messages}}':
          '{count, plural, one {# nouveau message} many {# nouveaux messages} other {# nouveaux messages}}',
      },
      'de-DE': {
        'Hello {name}': 'Hallo {name}',
        Open: 'Öffnen',
        '{count, plural, one {# new message} other {# new messages}}':
          '{count, plural, one {# neue Nachricht} other {# neue Nachrichten}}',
      },
    })
  })

  it('prints what it would do on --dry-run, sending nothing', async () => {
    const root = await app('lingui')
    const run = await tms(root, ['import', '--from', 'lingui', '--dry-run', ...LINGUI], DEMO_CREDENTIALS)
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        '3 lingui catalog files read; 5 messages of this app matched',
        '  de-DE: would import 3 translations',
        '  fr-FR: would import 5 translations',
        "2 translations converted to this app's names or text",
        '5 strings to create on the service',
        '1 entry not translated in the catalogs',
        '1 translation matched no message of this app:',
        '  locales/fr/messages.po:30 (fr-FR): no message of this app has the text "Hello {name}!"; the nearest is "Hello {name}" at src/Inbox.tsx:9',
        '1 translation refused:',
        '  locales/de/messages.po:19 (de-DE): its translation "Lies <0>die Dokumentation</0> oder npm help." would be rejected against the source "Read <0>the docs</0> or <1>npm help</1>.": it drops the tag <1> [ours: src/Inbox.tsx:12]',
        '',
      ].join('\n'),
    })
    const log = (await control(emu, 'GET', '/_emulator/requests')) as { total: number }
    expect(log.total).toBe(0)
  })

  it('prints the report as JSON with --json', async () => {
    const root = await app('lingui')
    const run = await tms(
      root,
      ['import', '--from', 'lingui', '--dry-run', '--json', ...LINGUI],
      DEMO_CREDENTIALS,
    )
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      from: 'lingui',
      dryRun: true,
      files: [
        { file: 'locales/en/messages.po', fileLocale: 'en', locale: 'source', entries: 6 },
        { file: 'locales/fr/messages.po', fileLocale: 'fr', locale: 'fr-FR', entries: 6 },
        { file: 'locales/de/messages.po', fileLocale: 'de', locale: 'de-DE', entries: 5 },
      ],
      messages: 5,
      locales: { 'fr-FR': { matched: 5, imported: null }, 'de-DE': { matched: 3, imported: null } },
      created: 5,
      untranslated: 1,
      matched: [
        {
          text: 'Bonjour {name}',
          variant: null,
          locale: 'fr-FR',
          from: 'locales/fr/messages.po:6',
          ours: 'src/Inbox.tsx:9',
          converted: false,
        },
        {
          text: 'Bon retour, {userName}',
          variant: null,
          locale: 'fr-FR',
          from: 'locales/fr/messages.po:10',
          ours: 'src/Inbox.tsx:10',
          converted: true,
        },
        {
          text: '{count, plural, one {# nouveau message} many {# nouveaux messages} other {# nouveaux messages}}',
          variant: null,
          locale: 'fr-FR',
          from: 'locales/fr/messages.po:14',
          ours: 'src/Inbox.tsx:11',
          converted: false,
        },
        {
          text: 'Lisez <a>la documentation</a> ou <code>npm help</code>.',
          variant: null,
          locale: 'fr-FR',
          from: 'locales/fr/messages.po:21',
          ours: 'src/Inbox.tsx:12',
          converted: true,
        },
        {
          text: 'Ouvrir',
          variant: 'button',
          locale: 'fr-FR',
          from: 'locales/fr/messages.po:25',
          ours: 'src/Inbox.tsx:15',
          converted: false,
        },
        {
          text: 'Hallo {name}',
          variant: null,
          locale: 'de-DE',
          from: 'locales/de/messages.po:6',
          ours: 'src/Inbox.tsx:9',
          converted: false,
        },
        {
          text: '{count, plural, one {# neue Nachricht} other {# neue Nachrichten}}',
          variant: null,
          locale: 'de-DE',
          from: 'locales/de/messages.po:14',
          ours: 'src/Inbox.tsx:11',
          converted: false,
        },
        {
          text: 'Öffnen',
          variant: 'button',
          locale: 'de-DE',
          from: 'locales/de/messages.po:23',
          ours: 'src/Inbox.tsx:15',
          converted: false,
        },
      ],
      unmatched: [
        {
          from: 'locales/fr/messages.po:30',
          locale: 'fr-FR',
          source: 'Hello {name}!',
          reason:
            'no message of this app has the text "Hello {name}!"; the nearest is "Hello {name}" at src/Inbox.tsx:9',
          ours: 'src/Inbox.tsx:9',
        },
      ],
      refused: [
        {
          from: 'locales/de/messages.po:19',
          locale: 'de-DE',
          key: 'Read <0>the docs</0> or <1>npm help</1>.',
          reason:
            'its translation "Lies <0>die Dokumentation</0> oder npm help." would be rejected against the source "Read <0>the docs</0> or <1>npm help</1>.": it drops the tag <1>',
          ours: 'src/Inbox.tsx:12',
        },
      ],
      serviceErrors: [],
      requests: { total: 0, uploads: 0, imports: 0, skipped: 0 },
      diagnostics: [],
    })
  })

  it('stops at a refused request with one line, and a rerun does the rest without redoing what was done', async () => {
    let imports = 0
    // The service refuses the second import request (de-DE into the first batch).
    const proxy = await startProxy(emu.url, {
      refuse: (method, path) => method === 'POST' && path.endsWith('/file/import') && ++imports === 2,
    })
    try {
      const root = await app('lingui', proxy.url)
      const args = ['import', '--from', 'lingui', '--batch-size', '3', ...LINGUI]
      const first = await tms(root, args, DEMO_CREDENTIALS)
      expect(first.code).toBe(1)
      expect(first.stderr).toBe(
        `error: tms import stopped: the import of fr-FR into tms-import/lingui-inbox/batch-0001.po failed: POST /files-api/v2/projects/demo-project/locales/fr-FR/file/import failed: 400 VALIDATION_ERROR: refused by the test proxy. What was done is recorded in ${join(root, '.tms-cache', 'import', 'progress.json')}; run the same command again to do the rest\n`,
      )
      const second = await tms(root, args, DEMO_CREDENTIALS)
      expect(second.code).toBe(0)
      expect(second.stdout.split('\n').slice(-2)).toEqual([
        '5 requests made, 2 done by an earlier run and skipped',
        '',
      ])
      const third = await tms(root, args, DEMO_CREDENTIALS)
      expect(third.stdout.split('\n').slice(-2)).toEqual([
        '0 requests made, 6 done by an earlier run and skipped',
        '',
      ])
      expect((await tms(root, ['pull'], DEMO_CREDENTIALS)).code).toBe(0)
      expect(Object.keys((await pulled(root))['fr-FR']!)).toHaveLength(5)
      expect(Object.keys((await pulled(root))['de-DE']!)).toHaveLength(3)
    } finally {
      await proxy.close()
    }
  })
})

describe('tms import --from formatjs', () => {
  it('gives ids their defaultMessage, reads string and compiled-AST translations, renames tags, and tms pull gets them', async () => {
    const root = await app('formatjs')
    expect(
      await importThenPull(root, ['--from', 'formatjs', 'lang/en.json', 'lang/fr.json', 'lang/de.json']),
    ).toEqual({
      'fr-FR': {
        'Hello, {name}!': 'Bonjour, {name} !',
        'Pay now': 'Payer maintenant',
        'Read our <a>terms</a> before you pay.': 'Lisez nos <a>conditions</a> avant de payer.',
        '{count, plural, one {# item in your cart} other {# items in your cart}}':
          '{count, plural, one {# article dans votre panier} many {# d’articles dans votre panier} other {# articles dans votre panier}}',
      },
      'de-DE': {
        'Hello, {name}!': 'Hallo, {name}!',
        'Pay now': 'Jetzt zahlen',
        'Read our <a>terms</a> before you pay.': 'Lies unsere <a>Bedingungen</a>, bevor du zahlst.',
        // The compiled AST printed back to ICU by FormatJS's own printer, in its spelling.
        '{count, plural, one {# item in your cart} other {# items in your cart}}':
          '{count,plural,one{# Artikel im Warenkorb} other{# Artikel im Warenkorb}}',
      },
    })
  })
})

describe('tms import --from i18next', () => {
  it('turns keys into the source texts, plural suffixes and contexts into ICU, {{x}} into {x}, and tms pull gets them', async () => {
    const root = await app('i18next')
    const files = ['locales/en/profile.json', 'locales/fr/profile.json', 'locales/de/profile.json']
    expect(await importThenPull(root, ['--from', 'i18next', ...files])).toEqual({
      'fr-FR': {
        'Hello {name}': 'Bonjour {name}',
        'See <a>your settings</a>.': 'Voir <a>vos réglages</a>.',
        '{context, select, male {He is a friend} female {She is a friend} other {A friend}}':
          '{context, select, male {C’est un ami} female {C’est une amie} other {Un ami}}',
        '{count, plural, one {{count} follower} other {{count} followers}}':
          '{count, plural, one {{count} abonné} many {{count} d’abonnés} other {{count} abonnés}}',
      },
      'de-DE': {
        'Hello {name}': 'Hallo {name}',
        'See <a>your settings</a>.': 'Siehe <a>deine Einstellungen</a>.',
        '{context, select, male {He is a friend} female {She is a friend} other {A friend}}':
          '{context, select, male {Er ist ein Freund} female {Sie ist eine Freundin} other {Ein Freund}}',
        '{count, plural, one {{count} follower} other {{count} followers}}':
          '{count, plural, one {{count} Follower} other {{count} Follower}}',
      },
    })
  })

  it('lists a key whose text the app has under another variant, with both places', async () => {
    const root = await app('i18next')
    const run = await tms(root, [
      'import',
      '--from',
      'i18next',
      '--dry-run',
      'locales/en/profile.json',
      'locales/de/profile.json',
    ])
    expect(run.stdout.split('\n').slice(-3)).toEqual([
      '1 translation matched no message of this app:',
      '  locales/de/profile.json:11 (de-DE): no message of this app has the text "Settings saved"; "Settings saved" has the variant "toast" (a variant is part of a message\'s identity) [ours: src/Profile.tsx:15]',
      '',
    ])
  })
})

describe('tms import: bad input is one line and exit 1', () => {
  it.each([
    [
      ['--from', 'gettext', 'a.po'],
      'error: --from gettext is not a library tms import reads: use one of lingui, formatjs, i18next\n',
    ],
    [['locales/fr/messages.po'], 'error: tms import needs --from: one of lingui, formatjs, i18next\n'],
    [['--from', 'lingui', 'locales/pl/messages.po'], 'error: locales/pl/messages.po: no such file\n'],
    [
      ['--from', 'lingui', '--state', 'done', 'locales/fr/messages.po'],
      'error: --state done is not a translation state: use published (the default) or pending\n',
    ],
    [['--from', 'lingui', 'broken.po'], 'error: broken.po:3: expected a quoted string, found "Bonjour"\n'],
  ])('tms import %j', async (args, stderr) => {
    const root = await app('lingui')
    await writeFile(join(root, 'broken.po'), 'msgid "Hello"\n\nmsgstr Bonjour\n')
    expect(await tms(root, ['import', ...args])).toEqual({ code: 1, stdout: '', stderr })
  })
})
