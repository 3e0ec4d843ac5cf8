import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type Built,
  buildEsbuild,
  buildRolldown,
  buildRollup,
  buildRspack,
  buildVite,
  buildWebpack,
  launchChromium,
  outputFiles,
  renderInChromium,
} from './bundlers'
import {
  FRENCH,
  type Project,
  PSEUDO_TEXT,
  rendered,
  renderInNode,
  SOURCE_TEXT,
  setupProject,
} from './helpers'

/**
 * Translations written to break out of their string literal: quotes of every kind, backslashes (one at
 * the very end), `${`, `</script >`, U+2028/U+2029 and a newline, plus one with a placeholder the source
 * does not have. Every bundler's output must show them as plain text, run none of them, and use the
 * source text for the rejected one.
 */

const HOSTILE: Record<string, string> = {
  'Welcome to the shop': `Quote ' double " backtick \` backslash \\ end \\`,
  // `</script >` ends a script element as `</script>` does; `</script>` itself reads as a rich-text tag
  // the source lacks, and that translation is rejected (test/icu/rich-text.test.ts).
  'You have {count} items in your cart':
    '${(globalThis.pwned = 1)} {count} </script ><script >globalThis.pwned = 2</script >',
  Open: 'Line\u2028separator\u2029paragraph\nnewline */ //',
  // The service could return this; the source has {name}, so it must be rejected.
  'Hello {name}!': 'Bonjour {nom} !',
  'This text is never shipped': FRENCH['This text is never shipped']!,
}

const EXPECTED_FR = rendered((s) => (s === 'Hello {name}!' ? s : HOSTILE[s]!))

let project: Project
let browser: Browser

beforeAll(async () => {
  project = await setupProject(HOSTILE)
  browser = await launchChromium()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await project?.close()
})

const REJECTED =
  /translation of [0-9a-f]{32} for fr-FR rejected: it has the placeholder \{nom\}, which the source does not; the source text "Hello \{name\}!" \(src\/greet\.js:5:\d+\) is used/

function expectRejectionWarned(built: Built): void {
  expect(built.warnings.filter((w) => REJECTED.test(w))).toHaveLength(1)
}

const NODE_BUILDS = {
  rollup: (p: Project) => buildRollup(p.root, p.options()),
  rolldown: (p: Project) => buildRolldown(p.root, p.options()),
  esbuild: (p: Project) => buildEsbuild(p.root, p.options()),
  webpack: (p: Project) => buildWebpack(p.root, p.options()),
  'webpack (development, eval devtool)': (p: Project) => buildWebpack(p.root, p.options(), 'development'),
  rspack: (p: Project) => buildRspack(p.root, p.options()),
}

describe.each(Object.entries(NODE_BUILDS))('%s', (_name, build) => {
  test('hostile translations come out as text; the wrong placeholder falls back to the source', async () => {
    const built = await build(project)
    expect(await renderInNode(built.entry!)).toEqual({
      source: SOURCE_TEXT,
      fr: EXPECTED_FR,
      pseudo: PSEUDO_TEXT,
      pwned: false,
    })
    expectRejectionWarned(built)
  })
})

test('the generated catalog chunk escapes what could end a script element or a line', async () => {
  // rollup does not minify: the chunk shows the plugin's own literal, as JSON in a single-quoted string.
  const built = await buildRollup(project.root, project.options())
  const fr = [...outputFiles(built.outDir)].find(([file]) => file.includes('tms-fr-FR'))![1]
  const quoted = (json: string): string => json.replace(/[\\']/g, '\\$&')
  expect(fr).toContain("JSON.parse('{")
  expect(fr).not.toMatch(/<\/script/i)
  expect(fr).not.toMatch(/[\u2028\u2029]/)
  expect(fr).toContain(quoted('\\u003c/script >\\u003cscript >globalThis.pwned = 2\\u003c/script >'))
  expect(fr).toContain(quoted('"Line\\u2028separator\\u2029paragraph\\nnewline */ //"'))
  expect(fr).toContain(quoted('"Quote \' double \\" backtick ` backslash \\\\ end \\\\"'))
})

test('vite: the page in Chromium shows the hostile text and runs none of it', async () => {
  const built = await buildVite(project.root, project.options())
  expect(await renderInChromium(browser, built.outDir)).toEqual({
    source: SOURCE_TEXT,
    fr: EXPECTED_FR,
    pseudo: PSEUDO_TEXT,
    pwned: false,
  })
  expectRejectionWarned(built)
})
