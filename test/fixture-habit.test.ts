/**
 * One fixture habit (test/helpers/fixture.ts): every in/out fixture goes through `expectFixture`; a
 * missing expected file fails instead of being written, and only `vitest -u` writes one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { expect, it } from 'vitest'
import { expectFixture } from './helpers/fixture'

const test = new URL('.', import.meta.url).pathname

it('a missing expected file fails with its name and how to write it, and is not written', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'tms-fixture-')), 'case.out.ts')
  await expect(expectFixture('export const a = 1\n', file)).rejects.toThrow(
    /case\.out\.ts is missing: `npx vitest run -u` on this test writes it/,
  )
  expect(existsSync(file)).toBe(false)
})

it('an expected file equal to the output passes and stays as it is', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'tms-fixture-')), 'case.out.ts')
  writeFileSync(file, 'export const a = 1\n')
  await expectFixture('export const a = 1\n', file)
  expect(readFileSync(file, 'utf8')).toBe('export const a = 1\n')
})

it('no test writes expected files its own way: the update code lives in the helper alone', () => {
  const own: string[] = []
  for (const entry of readdirSync(test, { recursive: true, encoding: 'utf8' })) {
    const name = entry.split(sep).join('/')
    if (!/\.(?:ts|mjs)$/.test(name) || name.startsWith('fixtures/') || name === 'helpers/fixture.ts') continue
    if (name === 'fixture-habit.test.ts') continue
    const code = readFileSync(join(test, entry), 'utf8')
    if (/UPDATE_FIXTURES|toMatchFileSnapshot|writeFileSync\(expectedFile/.test(code)) own.push(name)
  }
  expect(own).toEqual([])
})
