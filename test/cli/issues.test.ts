import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClient, type TmsClient } from '../../src/client/index'
import { DiskCache } from '../../src/core/cache'
import { DEMO_CREDENTIALS, tms } from '../helpers/cli'
import { useEmulator } from '../helpers/emulator'
import { PROJECT } from '../helpers/sync'

/** `tms issues` against the emulator: the open issues per message with file:line and comments. */

const emu = useEmulator({ reset: false })
let client: TmsClient
let root: string
let other: string
const hashcodes = new Map<string, string>()

async function app(name: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tms-issues-'))
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name }))
  await writeFile(
    join(dir, 'tms.config.json'),
    JSON.stringify({ locales: ['fr-FR', 'de-DE'], projectId: PROJECT, baseUrl: emu.url }),
  )
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true })
    await writeFile(join(dir, file), text)
  }
  const pushed = await tms(dir, ['push'], DEMO_CREDENTIALS)
  if (pushed.code !== 0) throw new Error(pushed.stderr)
  const manifest = await new DiskCache(join(dir, '.tms-cache'), PROJECT).readManifest()
  if (!manifest.hit) throw new Error('no manifest after tms push')
  for (const entry of Object.values(manifest.value.entries)) hashcodes.set(entry.parsed, entry.hashcode)
  return dir
}

beforeAll(async () => {
  client = createClient({ baseUrl: emu.url, userIdentifier: 'demo-user', userSecret: 'demo-secret' })
  root = await app('issues-app', {
    'src/a.js': "import { t } from 'unplugin-tms/runtime'\nexport const a = () => t('Hello {0}!', ['Ada'])\n",
    'src/b.js':
      "import { t } from 'unplugin-tms/runtime'\n\nexport const b = () => [t('Save', undefined, { variant: 'menu' }), t('Quiet')]\nexport const c = () => t('Hello {0}!', ['Bob'])\n",
  })
  other = await app('another-app', {
    'src/x.js': "import { t } from 'unplugin-tms/runtime'\nexport const x = () => t('Only elsewhere')\n",
  })
  const issue = (text: string, type: string, subtype: string, localeId: string | null, issueText: string) =>
    client.issues.create(PROJECT, {
      issueText,
      issueTypeCode: type,
      issueSubTypeCode: subtype,
      string: { hashcode: hashcodes.get(text)!, localeId },
    })
  const hello = await issue(
    'Hello {0}!',
    'TRANSLATION',
    'POOR_TRANSLATION',
    'fr-FR',
    'Missing space before !',
  )
  await client.issues.createComment(PROJECT, hello.issueUid, 'Which one?')
  await client.issues.createComment(PROJECT, hello.issueUid, 'The first')
  await issue('Save', 'SOURCE', 'CLARIFICATION', null, 'Save what?')
  const done = await issue('Quiet', 'SOURCE', 'MISSPELLING', null, 'Quite?')
  await client.issues.setState(PROJECT, done.issueUid, 'RESOLVED')
  await issue('Only elsewhere', 'TRANSLATION', 'GENERAL_ISSUE', 'de-DE', 'Too formal')
}, 120_000)

afterAll(async () => {
  await client?.close()
})

it('lists the open issues per message with file:line:col and comments; resolved ones are left out', async () => {
  const out = await tms(root, ['issues'], DEMO_CREDENTIALS)
  expect(out.stderr).toBe('')
  expect(out.code).toBe(0)
  const uid = (await client.issues.findPage(PROJECT, { limit: 50 })).items
  const of = (text: string) => uid.find((i) => i.string.hashcode === hashcodes.get(text))!.issueUid
  expect(out.stdout).toBe(
    [
      `src/a.js:2:24, src/b.js:4:24  "Hello {0}!"  ${hashcodes.get('Hello {0}!')}`,
      `  TRANSLATION/POOR_TRANSLATION fr-FR (${of('Hello {0}!')}): Missing space before !`,
      '    - Which one?',
      '    - The first',
      `src/b.js:3:25  "Save" [menu]  ${hashcodes.get('Save')}`,
      `  SOURCE/CLARIFICATION (${of('Save')}): Save what?`,
      `(no message of this app)  ${hashcodes.get('Only elsewhere')}`,
      `  TRANSLATION/GENERAL_ISSUE de-DE (${of('Only elsewhere')}): Too formal`,
      '3 open issues on 3 strings',
      '',
    ].join('\n'),
  )
  expect(other).toBeTruthy()
})

it('--json gives the same, with dates', async () => {
  const out = await tms(root, ['issues', '--json'], DEMO_CREDENTIALS)
  expect(out.code).toBe(0)
  const result = JSON.parse(out.stdout) as {
    messages: {
      text: string
      variant: string | null
      hashcode: string
      locations: unknown[]
      issues: { state: string; comments: { text: string }[] }[]
    }[]
    other: { hashcode: string }[]
  }
  expect(result.messages.map((m) => [m.text, m.variant, m.hashcode, m.locations])).toEqual([
    [
      'Hello {0}!',
      null,
      hashcodes.get('Hello {0}!'),
      [
        { file: 'src/a.js', line: 2, column: 24 },
        { file: 'src/b.js', line: 4, column: 24 },
      ],
    ],
    ['Save', 'menu', hashcodes.get('Save'), [{ file: 'src/b.js', line: 3, column: 25 }]],
  ])
  expect(result.messages[0]!.issues[0]).toMatchObject({
    type: 'TRANSLATION',
    subtype: 'POOR_TRANSLATION',
    locale: 'fr-FR',
    state: 'OPENED',
    text: 'Missing space before !',
    createdDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    comments: [{ text: 'Which one?' }, { text: 'The first' }],
  })
  expect(result.other.map((o) => o.hashcode)).toEqual([hashcodes.get('Only elsewhere')])
})

it('without credentials it fails and names the variables to set', async () => {
  const out = await tms(root, ['issues'])
  expect(out.code).toBe(1)
  expect(out.stdout).toBe('')
  expect(out.stderr).toBe(
    '[unplugin-tms] tms issues asks the service, and no credentials: set TMS_USER_IDENTIFIER and TMS_USER_SECRET\n',
  )
})
