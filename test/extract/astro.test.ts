/**
 * An .astro template's expressions are read with Astro's own parser (@astrojs/compiler-rs, from the
 * project's Astro): a `t(...)` written in the template is a message like one in the frontmatter, at
 * its place in the file, and the transform rewrites it there. Without Astro in the project, a warning
 * says what to do, and the frontmatter is still read.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { rewriteMessageCalls } from '../../src/plugin/transform'

const page = [
  '---',
  "import { t } from 'unplugin-tms/runtime'",
  "import { setLocale as tr } from 'unplugin-tms/runtime'",
  "const title = t('Welcome')",
  '---',
  "<Page title={t('Caf\u00e9 {name}', { name: 'Ada' })}>",
  "  <h1>{t('Hello 😀')}</h1>",
  "  {[1, 2].map((i) => <li data-n={i}>{t('Row {i}', { i })}</li>)}",
  "  <Island client:load {...{ label: t('Save') }} />",
  "  {/* t('Not a call: a comment') */}",
  "  <p>{tr('en-US')}</p>",
  "  <script>console.log(t('A script of its own'))</script>",
  '</Page>',
  '',
].join('\n')

// Inside the repository, so that astro (and its parser) resolves from the project directory.
const repo = fileURLToPath(new URL('../../', import.meta.url))
const FILE = join(repo, 'src/pages/index.astro')
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

it('finds the calls of the frontmatter and of the template, each at its place in the file', () => {
  const fx = extractFromCode(FILE, page, resolveExtractOptions({ cwd: repo }))
  expect(fx.calls.map((c) => [page.slice(c.start, c.end), c.line, c.column])).toEqual([
    ["t('Welcome')", 4, 15],
    ["t('Caf\u00e9 {name}', { name: 'Ada' })", 6, 14],
    ["t('Hello 😀')", 7, 8],
    ["t('Row {i}', { i })", 8, 38],
    ["t('Save')", 9, 36],
  ])
  expect(fx.messages.map((m) => m.text)).toEqual([
    'Welcome',
    'Caf\u00e9 {name}',
    'Hello 😀',
    'Row {i}',
    'Save',
  ])
  // The <script>'s call is a module of its own for Astro: a warning at its place, no message.
  expect(fx.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
    [
      'warning',
      'astro-script-message',
      'src/pages/index.astro:12:23: a message in a <script> of an .astro file is not extracted: it shows the source text in every locale; move this code into a .ts module the script imports (a module of `include` is extracted and rewritten)',
    ],
  ])
})

it('rewrites the template calls in place: Astro then compiles the lookups', () => {
  const fx = extractFromCode(FILE, page, resolveExtractOptions({ cwd: repo }))
  const ids = new Map(fx.calls.map((c, i) => [c, `id${i}`]))
  const out = rewriteMessageCalls({
    code: page,
    id: FILE,
    calls: fx.calls,
    lookup: (site) => ({ id: ids.get(site)!, text: page.slice(site.start, site.end) }),
    specs: new Map(),
    runtimeModule: 'unplugin-tms/runtime',
    sourcemap: false,
  })!
  const template = out.code.slice(out.code.indexOf('<Page'))
  expect(template).toContain('<h1>{__tms_l("id2", ')
  expect(template).toContain('<li data-n={i}>{__tms_l("id3", ')
  expect(template).toContain('{...{ label: __tms_l("id4", ')
  expect(template).toContain("<script>console.log(t('A script of its own'))</script>")
  // The lookup's import is in the frontmatter, which the template's expressions see.
  expect(out.code.split('---')[1]).toContain('__tms_l')
})

it('without Astro in the project: a warning naming the fix, and the frontmatter still read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tms-astro-missing-'))
  dirs.push(dir)
  const file = join(dir, 'src/pages/index.astro')
  const fx = extractFromCode(file, page, resolveExtractOptions({ cwd: dir }))
  expect(fx.calls.map((c) => page.slice(c.start, c.end))).toEqual(["t('Welcome')"])
  expect(
    fx.diagnostics.map((d) => [d.severity, d.code, d.message.replace(/\(Cannot find[^)]*\)/, '(...)')]),
  ).toEqual([
    [
      'warning',
      'astro-missing',
      `src/pages/index.astro: the template is not read because Astro's parser (@astrojs/compiler-rs, Astro 7) cannot be loaded from ${dir} (...); its messages show the source text in every locale: install Astro 7 in the project, or call t in the frontmatter and render the result`,
    ],
  ])
})
