import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { assignIds, longId, messageId } from '../../src/plugin/ids'
import { TmsSession } from '../../src/plugin/session'

/**
 * Ids are 6 characters, and the keys of a group sharing those get 8. The two keys below are real:
 * found by hashing `Save 0`, `Save 1`, ... until two SHA-256s started with the same 6 base64url
 * characters (`cCit94`).
 */
const SAVE_A = '\u0000\u0000Save 37347'
const SAVE_B = '\u0000\u0000Save 206714'
const CANCEL = '\u0000\u0000Cancel'
const CLOSE = '\u0000\u0000Close'

test('the two keys share 6 characters and not 8', () => {
  expect([messageId(SAVE_A), messageId(SAVE_B)]).toEqual(['cCit94', 'cCit94'])
  expect([longId(SAVE_A), longId(SAVE_B)]).toEqual(['cCit948R', 'cCit94Ps'])
  expect([messageId(CANCEL), messageId(CLOSE)]).toEqual(['vNxsBQ', 'TPH3iM'])
  // A site's re-spelling of the placeholders keeps 8 characters, so it never meets a message's 6.
  expect(messageId(CANCEL, ['{user}'])).toHaveLength(8)
})

test('each key of a group sharing a short id gets its long one, whatever the order', () => {
  const expected = new Map([
    [SAVE_A, 'cCit948R'],
    [SAVE_B, 'cCit94Ps'],
    [CANCEL, 'vNxsBQ'],
  ])
  expect(assignIds([SAVE_A, CANCEL, SAVE_B])).toEqual(expected)
  expect(assignIds([SAVE_B, SAVE_A, CANCEL])).toEqual(expected)
})

test('adding an unrelated message changes no id', () => {
  const before = assignIds([SAVE_A, SAVE_B, CANCEL])
  const after = assignIds([SAVE_A, SAVE_B, CANCEL, CLOSE])
  expect([...after].filter(([key]) => key !== CLOSE)).toEqual([...before])
  expect(after.get(CLOSE)).toBe('TPH3iM')
  // Without the collision too.
  expect(assignIds([SAVE_A, CANCEL, CLOSE]).get(SAVE_A)).toBe('cCit94')
})

test('a key keeps the id of the previous build; the key new to it takes the long one', () => {
  const first = assignIds([SAVE_A, CANCEL])
  expect(first.get(SAVE_A)).toBe('cCit94')
  const second = assignIds([SAVE_A, CANCEL, SAVE_B], first)
  expect(second).toEqual(
    new Map([
      [SAVE_A, 'cCit94'],
      [CANCEL, 'vNxsBQ'],
      [SAVE_B, 'cCit94Ps'],
    ]),
  )
})

test('two keys with one long id fail naming both', () => {
  // The only way to two equal 8-character ids short of 2^24 hashes: a kept id that is another key's.
  const previous = new Map([[CANCEL, 'cCit948R']])
  expect(() => assignIds([CANCEL, SAVE_A, SAVE_B], previous)).toThrow(
    '[unplugin-tms] two messages share the catalog id cCit948R: "\\u0000\\u0000Cancel" and "\\u0000\\u0000Save 37347"; change one text slightly',
  )
})

test('the id length is the pure function argument', () => {
  // 1 character: `Cancel` and `Close` differ, `Save 37347` and `Save 206714` share `c`.
  expect(assignIds([SAVE_A, SAVE_B, CANCEL, CLOSE], undefined, 1)).toEqual(
    new Map([
      [SAVE_A, 'cCit948R'],
      [SAVE_B, 'cCit94Ps'],
      [CANCEL, 'v'],
      [CLOSE, 'T'],
    ]),
  )
})

let root: string | undefined
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true })
  root = undefined
})

/** A project whose modules each hold one message (no namespace, so the keys are the ones above). */
function project(files: Record<string, string>): { root: string; file(name: string): string } {
  root = mkdtempSync(join(tmpdir(), 'tms-ids-'))
  const dir = root
  writeFileSync(join(dir, 'package.json'), '{"name":"ids"}')
  for (const [name, text] of Object.entries(files)) write(dir, name, text)
  return { root: dir, file: (name) => join(dir, 'src', name) }
}

function write(dir: string, name: string, text: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true })
  writeFileSync(
    join(dir, 'src', name),
    `import { t } from 'unplugin-tms/runtime'\nexport default t('${text}')\n`,
  )
}

function session(dir: string): TmsSession {
  return new TmsSession({ root: dir, locales: ['fr-FR'], cache: 'offline', push: false, namespace: null })
}

/** The line a module's message call became. */
function transformed(s: TmsSession, file: string): string {
  const out = s.transform(readFileSync(file, 'utf8'), file)?.code ?? ''
  return out.split('\n').at(-2) ?? ''
}

test('a build gives the colliding keys their long ids whichever module is transformed first', async () => {
  const p = project({ 'a.js': 'Save 37347', 'b.js': 'Save 206714', 'c.js': 'Cancel' })
  for (const order of [
    ['a.js', 'b.js', 'c.js'],
    ['c.js', 'b.js', 'a.js'],
  ]) {
    const s = session(p.root)
    await s.start('build')
    const lines = Object.fromEntries(order.map((name) => [name, transformed(s, p.file(name))]))
    expect(lines).toEqual({
      'a.js': `export default __tms_l("cCit948R", 'Save 37347')`,
      'b.js': `export default __tms_l("cCit94Ps", 'Save 206714')`,
      'c.js': `export default __tms_l("vNxsBQ", 'Cancel')`,
    })
  }
})

test('a watch rebuild keeps the ids of the last build; a message new to it takes the long id', async () => {
  const p = project({ 'a.js': 'Save 37347', 'c.js': 'Cancel' })
  const s = session(p.root)
  await s.start('serve')
  expect(transformed(s, p.file('a.js'))).toBe(`export default __tms_l("cCit94", 'Save 37347')`)
  // Added while the build runs (a dev server's module changed): a is transformed already.
  write(p.root, 'c.js', 'Save 206714')
  expect(transformed(s, p.file('c.js'))).toBe(`export default __tms_l("cCit94Ps", 'Save 206714')`)
  // The next build start of the watch (a's module kept by the bundler's cache) keeps a's id.
  s.release()
  write(p.root, 'b.js', 'Save 206714')
  write(p.root, 'c.js', 'Cancel')
  await s.start('serve')
  expect(s.build.plainIds).toEqual(
    new Map([
      [CANCEL, 'vNxsBQ'],
      [SAVE_B, 'cCit94Ps'],
      [SAVE_A, 'cCit94'],
    ]),
  )
  // A new process starts from the keys alone.
  const fresh = session(p.root)
  await fresh.start('serve')
  expect(fresh.build.plainIds.get(SAVE_A)).toBe('cCit948R')
})
