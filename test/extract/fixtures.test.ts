/**
 * One directory per case under test/fixtures/extract: source files, an optional options.json and the
 * expected.json this test compares the whole extraction with (messages, call sites as source slices,
 * diagnostics). Every case runs through each scanner (src/core/extract/scan.ts), so the lazy visitor (Node >= 22), the
 * JSON scan and the scope-aware walk are held to the same output, checked as every fixture is
 * (test/helpers/fixture.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { clearExtractionMemory, type ExtractOptions, extractMessages } from '../../src/core/extract/index'
import { availableScanners } from '../../src/core/extract/scan'
import { expectFixture } from '../helpers/fixture'
import { describeExtraction } from './harness'

const root = fileURLToPath(new URL('../fixtures/extract/', import.meta.url))
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'expected.json')))
  .map((d) => d.name)
  .sort()
const scanners = availableScanners()

describe.each(cases)('fixture %s', (name) => {
  const dir = join(root, name)
  const optionsFile = join(dir, 'options.json')
  const options = (
    existsSync(optionsFile) ? JSON.parse(readFileSync(optionsFile, 'utf8')) : {}
  ) as ExtractOptions
  const expectedFile = join(dir, 'expected.json')

  it.each(scanners)('matches expected.json with the %s scanner', async (scanner) => {
    clearExtractionMemory()
    const result = await extractMessages({
      include: ['**/*'],
      exclude: [],
      workers: 0,
      ...options,
      cwd: dir,
      scanner,
    })
    const actual = describeExtraction(result, dir)
    await expectFixture(`${JSON.stringify(actual, null, 2)}\n`, expectedFile)
  })
})

it('has a fixture for every case directory', () => {
  const dirs = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())
  expect(cases).toHaveLength(dirs.length)
})
