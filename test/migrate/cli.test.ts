import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { tms } from '../helpers/cli'

/** `tms migrate` on bad input: one line naming the fix, exit 1, no stack; `--dry-run` writes nothing. */

const FIXTURES = fileURLToPath(new URL('../fixtures/migrate/', import.meta.url))
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function app(library: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tms-migrate-'))
  dirs.push(dir)
  cpSync(join(FIXTURES, library), dir, { recursive: true })
  return dir
}

test.each([
  [['migrate'], 'error: --from is required: one of lingui, formatjs, i18next\n'],
  [
    ['migrate', '--from', 'vue-i18n'],
    'error: --from vue-i18n is not a library tms migrate knows: use one of lingui, formatjs, i18next\n',
  ],
  [
    ['migrate', '--from', 'lingui', 'app'],
    "error: app: no such file or folder (tms migrate [paths...] takes the app's source files or folders)\n",
  ],
  [
    ['migrate', '--from', 'lingui', '--catalog', 'x.json'],
    "error: --catalog is for --from i18next (lingui's messages hold their text)\n",
  ],
  [
    ['migrate', '--from', 'i18next', '--catalog', 'nope.json'],
    'error: --catalog nope.json: no such file or folder\n',
  ],
])('tms %j fails with one line', async (args, stderr) => {
  const result = await tms(app('lingui'), args)
  expect(result).toEqual({ code: 1, stdout: '', stderr })
})

test('i18next without a catalog in the usual places names the places and the flags', async () => {
  const dir = app('i18next')
  rmSync(join(dir, 'public'), { recursive: true })
  const result = await tms(dir, ['migrate', '--from', 'i18next'])
  expect(result.code).toBe(1)
  expect(result.stdout).toBe('')
  expect(result.stderr).toMatch(
    /^error: no en catalog of i18next found \(looked in public\/locales\/en\/, .*\); pass --catalog <file or folder> and --source-locale <locale>\n$/,
  )
})

test('a catalog that is not JSON names its file and line', async () => {
  const dir = app('i18next')
  writeFileSync(join(dir, 'public/locales/en/translation.json'), '{\n  "a": "b",\n  oops\n}\n')
  const result = await tms(dir, ['migrate', '--from', 'i18next'])
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(/^error: public\/locales\/en\/translation\.json:3: .+\n$/)
})

test('--dry-run prints the summary and writes nothing', async () => {
  const dir = app('lingui')
  const before = readFileSync(join(dir, 'src/App.jsx'), 'utf8')
  const result = await tms(dir, ['migrate', '--from', 'lingui', '--dry-run', 'src/App.jsx'])
  expect(result.code).toBe(0)
  expect(result.stdout.split('\n')[0]).toBe(
    'tms migrate --from lingui: 1 of 1 files would change (dry run: nothing written)',
  )
  expect(readFileSync(join(dir, 'src/App.jsx'), 'utf8')).toBe(before)
})
