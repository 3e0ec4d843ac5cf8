/**
 * `tms extract` as a user runs it: a real process (the CLI entry from the sources, through tsx) in a
 * project directory, its stdout, stderr and exit code.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitKeywordList } from '../../src/cli/extract'

const cliEntry = fileURLToPath(new URL('../../src/cli/index.ts', import.meta.url))
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/esm/index.mjs', import.meta.url))
let project: string

function tms(args: string[], cwd = project): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', tsx, cliEntry, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

function write(rel: string, code: string): void {
  const file = join(project, rel)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, code)
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'tms-extract-cli-'))
  write(
    'src/app.tsx',
    [
      "import { t } from 'unplugin-tms/runtime'",
      'declare const name: string',
      "export const A = () => <p title={t('Save', undefined, { variant: 'button' })}>{t('Hello {name}!', { name })}</p>",
      "export const b = t('Save')",
      'export const c = t`Bye ${name}`',
      "export const d = _x('Open', 'menu')",
    ].join('\n'),
  )
  write('src/lib/util.ts', "import { t } from 'unplugin-tms/runtime'\nexport const e = t('Save')\n")
  write('src/app.test.ts', "export const f = t('Excluded by default: a test file')\n")
  write('other/extra.js', "export const g = t('Outside src')\n")
})

afterAll(() => rmSync(project, { recursive: true, force: true }))

describe('tms extract', () => {
  it('--json prints every message with locations relative to the working directory', async () => {
    const { code, stdout, stderr } = await tms(['extract', '--json', '--no-cache'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      messages: [
        {
          text: 'Bye {name}',
          variant: null,
          placeholders: ['{name}'],
          locations: [{ file: 'src/app.tsx', line: 5, column: 18 }],
        },
        {
          text: 'Hello {name}!',
          variant: null,
          placeholders: ['{name}'],
          locations: [{ file: 'src/app.tsx', line: 3, column: 80 }],
        },
        {
          text: 'Save',
          variant: null,
          placeholders: [],
          locations: [
            { file: 'src/app.tsx', line: 4, column: 18 },
            { file: 'src/lib/util.ts', line: 2, column: 18 },
          ],
        },
        {
          text: 'Save',
          variant: 'button',
          placeholders: [],
          locations: [{ file: 'src/app.tsx', line: 3, column: 34 }],
        },
      ],
    })
  })

  it('prints paths relative to where it runs, not to the project root', async () => {
    const { stdout } = await tms(['extract', '--json', '--no-cache', '--root', '..'], join(project, 'src'))
    const files = (JSON.parse(stdout) as { messages: { locations: { file: string }[] }[] }).messages.flatMap(
      (m) => m.locations.map((l) => l.file),
    )
    expect([...new Set(files)].sort()).toEqual(['app.tsx', 'lib/util.ts'])
  })

  it('takes repeated --include / --exclude globs and a --keywords list with argument positions', async () => {
    const { code, stdout } = await tms([
      'extract',
      '--json',
      '--no-cache',
      '--include',
      'src/**/*.tsx',
      '--include',
      'other/**/*.js',
      '--exclude',
      '**/lib/**',
      '--keywords',
      't,_x:1,2c',
    ])
    expect(code).toBe(0)
    const messages = (JSON.parse(stdout) as { messages: { text: string; variant: string | null }[] }).messages
    expect(messages.map((m) => [m.text, m.variant])).toEqual([
      ['Bye {name}', null],
      ['Hello {name}!', null],
      ['Open', 'menu'],
      ['Outside src', null],
      ['Save', null],
      ['Save', 'button'],
    ])
  })

  it('prints a readable list, and a summary on stderr, without --json', async () => {
    const { code, stdout, stderr } = await tms(['extract', '--no-cache', '--include', 'src/lib/*.ts'])
    expect(code).toBe(0)
    expect(stdout).toBe('"Save"\n  src/lib/util.ts:2:18\n')
    expect(stderr).toBe('1 messages in 1 files (1 parsed, 0 from cache)\n')
  })

  it('reports problems on stderr and exits 1 on an error (text over 10000 characters)', async () => {
    write('bad/long.ts', `export const x = t('${'x'.repeat(10001)}')\nexport const y = t(name)\n`)
    const { code, stdout, stderr } = await tms(['extract', '--json', '--no-cache', '--include', 'bad/**'])
    expect(code).toBe(1)
    expect(JSON.parse(stdout)).toEqual({ messages: [] })
    expect(stderr).toBe(
      [
        'error: bad/long.ts:1:20: the text of t() has 10001 characters; the service takes at most 10000 [text-too-long]',
        'warning: bad/long.ts:2:20: the text of t() is not a string literal, so it cannot be extracted; the call is skipped [non-literal-text]',
        '',
      ].join('\n'),
    )
  })

  it('names the option when a keyword spec is wrong', async () => {
    const { code, stderr } = await tms(['extract', '--keywords', 't,_x:0'])
    expect(code).toBe(1)
    expect(stderr).toBe(
      '[unplugin-tms] keywords: "_x:0" has a bad argument "0"; use 1-based positions such as 1, 2 or 2c\n',
    )
  })

  it('answers a second run from the disk cache in .tms-cache', async () => {
    const first = await tms(['extract', '--include', 'src/**'])
    expect(first.stderr).toBe('4 messages in 2 files (2 parsed, 0 from cache)\n')
    const second = await tms(['extract', '--include', 'src/**'])
    expect(second.stderr).toBe('4 messages in 2 files (0 parsed, 2 from cache)\n')
    expect(second.stdout).toBe(first.stdout)
  })

  it('--help shows --no-cache without a default that reads as if the cache were off', async () => {
    const { code, stdout } = await tms(['extract', '--help'])
    expect(code).toBe(0)
    const line = stdout.split('\n').find((l) => l.includes('--no-cache'))
    expect(line?.trimEnd()).toBe('  --no-cache         Neither read nor write the extraction cache')
  })
})

it('splits a keyword list on commas that separate specs, not argument positions', () => {
  expect(splitKeywordList('t,_x:1,2c,_n:1,2, __ ,_nx:1,2,4c')).toEqual([
    't',
    '_x:1,2c',
    '_n:1,2',
    '__',
    '_nx:1,2,4c',
  ])
})
