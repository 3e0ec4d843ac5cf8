/**
 * A vite dev server's TypeScript module rewritten without moving a character (src/plugin/kept-positions.ts):
 * the page shows its messages in Chromium, in the source locale and after a switch, and the module is
 * served with one map whose content is the module's source and whose positions after a rewritten call
 * are the source's.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type DevPage, openDevPage } from './dev-page'
import { FRENCH_TEXT, type Project, SOURCE_TEXT } from './helpers'

let dev: DevPage

/** The fixture's cart module as TypeScript: a tagged template and a call with a variant. */
function cartAsTypeScript(project: Project): void {
  const src = join(project.root, 'src')
  renameSync(join(src, 'cart.js'), join(src, 'cart.ts'))
  const main = join(src, 'main.js')
  writeFileSync(main, readFileSync(main, 'utf8').replace("'./cart.js'", "'./cart.ts'"))
}

beforeAll(async () => {
  dev = await openDevPage(undefined, 'vite', cartAsTypeScript)
}, 60_000)

afterAll(async () => {
  await dev?.close()
})

test('the page shows the module messages, in the source locale and after a switch', async () => {
  expect(await dev.shown()).toBe(SOURCE_TEXT.join('\n'))
  await dev.page.evaluate(() =>
    (window as unknown as { app: { setLocale(l: string): Promise<void> } }).app.setLocale('fr-FR'),
  )
  await dev.waitForText(FRENCH_TEXT.join('\n'))
})

test('the module is served with one map: the source as its content, positions after a call the source ones', async () => {
  const source = readFileSync(join(dev.project.root, 'src/cart.ts'), 'utf8')
  const served = await dev.page.evaluate(async () => (await fetch('/src/cart.ts')).text())
  // The tag is a one-letter name, the lookup a function after the module's last line.
  expect(served).toMatch(/=> [a-z]`You have \$\{count\} items in your cart`/)
  const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(served)
  const map = JSON.parse(Buffer.from(inline![1]!, 'base64').toString())
  expect(map.sourcesContent).toEqual([source])
  // The options object follows the call's text on its line: it maps to where the source has it.
  const trace = new TraceMap(map)
  const lines = served.split('\n')
  const line = lines.findIndex((l) => l.includes('{ variant'))
  const original = originalPositionFor(trace, { line: line + 1, column: lines[line]!.indexOf('{ variant') })
  const sourceLines = source.split('\n')
  const sourceLine = sourceLines.findIndex((l) => l.includes('{ variant'))
  expect(original).toMatchObject({
    line: sourceLine + 1,
    column: sourceLines[sourceLine]!.indexOf('{ variant'),
  })
})
