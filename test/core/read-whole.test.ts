import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readWhole } from '../../src/core/read-whole'

/** readWhole: a file's bytes as `readFile` gives them, in one read on libuv's threads. */

const dir = mkdtempSync(join(tmpdir(), 'tms-read-whole-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a file of several megabytes reads byte for byte', async () => {
  const bytes = randomBytes(5 * 1024 * 1024 + 17)
  writeFileSync(join(dir, 'big.bin'), bytes)
  const read = await readWhole(join(dir, 'big.bin'))
  expect(read.length).toBe(bytes.length)
  expect(read.equals(bytes)).toBe(true)
})

test('an empty file reads as no bytes', async () => {
  writeFileSync(join(dir, 'empty.bin'), '')
  expect((await readWhole(join(dir, 'empty.bin'))).length).toBe(0)
})

test('a missing file rejects as readFile does', async () => {
  await expect(readWhole(join(dir, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT' })
})

test('a directory rejects as readFile does', async () => {
  await expect(readWhole(dir)).rejects.toMatchObject({ code: 'EISDIR' })
})
