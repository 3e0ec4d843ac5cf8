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

test('two keys with one long id fail naming both', () => {
  // 2 characters for the long id: `Save 62` and `Save 113` share `9z` (8 would take 2^24 tries).
  expect(() =>
    assignIds([CANCEL, '\u0000\u0000Save 62', '\u0000\u0000Save 113'], { short: 1, long: 2 }),
  ).toThrow(
    '[unplugin-tms] two messages share the catalog id 9z: "\\u0000\\u0000Save 62" and "\\u0000\\u0000Save 113"; change one text slightly',
  )
})

test('the id lengths are the pure function argument', () => {
  // 1 character: `Cancel` and `Close` differ, `Save 37347` and `Save 206714` share `c`.
  expect(assignIds([SAVE_A, SAVE_B, CANCEL, CLOSE], { short: 1, long: 8 })).toEqual(
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
  return new TmsSession({
    root: dir,
    locales: ['fr-FR'],
    pseudo: true,
    cache: 'offline',
    push: false,
    namespace: null,
  })
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
    // A production build's default: the sites hold their ids only (the source catalog has the texts).
    expect(lines).toEqual({
      'a.js': 'export default __tms_l("cCit948R")',
      'b.js': 'export default __tms_l("cCit94Ps")',
      'c.js': 'export default __tms_l("vNxsBQ")',
    })
    // Its sync and memo writes done before the next session, and before afterEach removes the
    // directory they write into.
    await s.synced()
    await s.memosWritten()
    s.release()
  }
})

test('a message met after a dev server started takes the long id when a served key has the short one', async () => {
  const p = project({ 'a.js': 'Save 37347', 'c.js': 'Cancel' })
  const s = session(p.root)
  await s.start('serve')
  expect(transformed(s, p.file('a.js'))).toBe(`export default __tms_l("cCit94", 'Save 37347')`)
  write(p.root, 'c.js', 'Save 206714')
  expect(transformed(s, p.file('c.js'))).toBe(`export default __tms_l("cCit94Ps", 'Save 206714')`)
  // Its sync and memo writes done before afterEach removes the directory they write into.
  await s.synced()
  await s.memosWritten()
  s.release()
})

test('the next build start gives both keys long ids; a module the bundler kept finds the short one too', async () => {
  const p = project({ 'a.js': 'Save 37347', 'c.js': 'Cancel' })
  const s = session(p.root)
  await s.start('serve')
  expect(transformed(s, p.file('a.js'))).toBe(`export default __tms_l("cCit94", 'Save 37347')`)
  // A watch rebuild after b.js was added: the bundler keeps a.js's code from the build before.
  s.release()
  write(p.root, 'b.js', 'Save 206714')
  await s.start('serve')
  expect(transformed(s, p.file('b.js'))).toBe(`export default __tms_l("cCit94Ps", 'Save 206714')`)
  expect(s.build.plainIds.get(SAVE_A)).toBe('cCit948R')
  await s.synced()
  const catalog = s.build.catalogFor('en-XA', [p.file('a.js'), p.file('b.js')])
  expect([...catalog.keys()].sort()).toEqual(['cCit94', 'cCit948R', 'cCit94Ps'])
  expect(catalog.get('cCit94')).toEqual(catalog.get('cCit948R'))
  await s.memosWritten()
  s.release()
})
