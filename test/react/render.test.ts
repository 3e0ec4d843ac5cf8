import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { transformSync } from 'esbuild'
import { afterAll, expect, test, vi } from 'vitest'
import { compileMessage } from '../../src/core/icu/compile'
import { rewrite } from './rewrite'

/**
 * The transform's output for `<T>` (of test/fixtures/transform-react/rich.tsx, rewritten here with
 * fixed ids as the transform test does, not read from its expected file) rendered by React with the built binding and the server runtime: the source text with the
 * original elements, then a French catalog whose translations move the tags around, inside
 * runWithLocale. React's development build warns about any list child without a key: none may come.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
mkdirSync(join(REPO, '.tmp'), { recursive: true })
const dir = mkdtempSync(join(REPO, '.tmp', 'react-render-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FRENCH: Record<string, string> = {
  ICMU: 'Voir <a>la documentation</a>, <b>{name}</b>',
  IUh0: 'Livré à {city}.<br></br><Link>Lisez les <em><i>conditions</i></em></Link>',
  Ihxl: 'Texte simple',
  IIwj: '<code>{item}</code> : un article',
}

type Module = {
  Rich: (props: object) => unknown
  _r(source: string, loaders: Record<string, () => Promise<{ default: unknown }>>): void
  runWithLocale<R>(locale: string, fn: () => R): Promise<R>
  renderToStaticMarkup(node: unknown): string
  createElement(type: unknown, props: object): unknown
}

test('<T> renders the source with its elements, then a translation that reorders the tags, with keys', async () => {
  const input = join(REPO, 'test/fixtures/transform-react/rich.tsx')
  const source = rewrite(readFileSync(input, 'utf8'), input)!
  const { code } = transformSync(source, { loader: 'tsx', jsx: 'automatic', format: 'esm' })
  const file = join(dir, 'rich.mjs')
  writeFileSync(
    file,
    `${code}
export { _r, runWithLocale } from 'unplugin-tms/runtime'
export { renderToStaticMarkup } from 'react-dom/server'
export { createElement } from 'react'
`,
  )
  const m = (await import(pathToFileURL(file).href)) as Module
  const catalog = Object.fromEntries(
    Object.entries(FRENCH).map(([id, text]) => [id, compileMessage(text, 'fr-FR')]),
  )
  m._r('en-US', { 'fr-FR': async () => ({ default: catalog }) })
  const errors = vi.spyOn(console, 'error')
  const page = () =>
    m.renderToStaticMarkup(
      m.createElement(m.Rich, { name: 'Ada', user: { city: 'Lyon' }, items: ['x', 'y'] }),
    )

  expect(page()).toBe(
    '<main>Hello <b>Ada</b>, see <a href="/docs">the docs</a>' +
      'Ships to Lyon. <a href="/terms">Read the <em><i>terms</i></em></a><br/>' +
      'Plain text after<ul><li>Item <code>x</code></li><li>Item <code>y</code></li></ul></main>',
  )
  expect(await m.runWithLocale('fr-FR', page)).toBe(
    '<main>Voir <a href="/docs">la documentation</a>, <b>Ada</b>' +
      'Livré à Lyon.<br/><a href="/terms">Lisez les <em><i>conditions</i></em></a>' +
      'Texte simple after<ul><li><code>x</code> : un article</li><li><code>y</code> : un article</li></ul></main>',
  )
  expect(errors).not.toHaveBeenCalled()
  errors.mockRestore()
})
