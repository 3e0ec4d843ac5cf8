/**
 * A kebab-case boolean flag (`--allow-stale`, `--dry-run`, `--overwrite`) never takes the argument
 * after it as its value, on any command: the argument stays an argument (a file of `tms migrate`), or
 * is refused as one where the command takes none (`tms pull`), instead of vanishing into the flag.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { tms } from '../helpers/cli'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tms-kebab-flags-'))
  dirs.push(dir)
  return dir
}

test.each(['push', 'pull', 'status'])(
  'tms %s --allow-stale fr-FR refuses fr-FR as an argument, with one line',
  async (command) => {
    const root = temp()
    writeFileSync(join(root, 'package.json'), '{ "name": "kebab" }')
    expect(await tms(root, [command, '--allow-stale', 'fr-FR'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: unexpected argument fr-FR for tms ${command} (tms ${command} --help lists its usage)\n`,
    })
  },
)

test('tms migrate --dry-run FILE keeps FILE as the file to migrate', async () => {
  const root = temp()
  cpSync(fileURLToPath(new URL('../fixtures/migrate/lingui', import.meta.url)), root, { recursive: true })
  const before = readFileSync(join(root, 'src/App.jsx'), 'utf8')
  const result = await tms(root, ['migrate', '--dry-run', 'src/App.jsx', '--from', 'lingui'])
  expect(result.stderr).toBe('')
  expect(result.stdout.split('\n')[0]).toBe(
    'tms migrate --from lingui: 1 of 1 files would change (dry run: nothing written)',
  )
  expect(readFileSync(join(root, 'src/App.jsx'), 'utf8')).toBe(before)
})
