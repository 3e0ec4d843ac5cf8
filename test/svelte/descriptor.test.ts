import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { compile } from 'svelte/compiler'
import { render } from 'svelte/server'
import { afterAll, expect, test } from 'vitest'

/**
 * A descriptor (`msg(...)`, in the form the build writes it) defined in a plain module and rendered by
 * Svelte (server rendering, the binding's own T.svelte compiled by the project's Svelte): a call in
 * markup and `<T message={label} values={...} />` give the current locale's text, before and after a switch.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url))
mkdirSync(join(REPO, '.tmp'), { recursive: true })
const dir = mkdtempSync(join(REPO, '.tmp', 'svelte-descriptor-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Compiles a component for the server into `dir`, its `.svelte` imports pointed at the compiled files. */
function compileTo(name: string, source: string): string {
  const { js } = compile(source, { generate: 'server', filename: `${name}.svelte` })
  const file = join(dir, `${name}.js`)
  writeFileSync(file, js.code.replace(/from '\.\/([\w]+)\.svelte'/g, "from './$1.js'"))
  return file
}

test('a descriptor called in markup and given to <T message> renders the current locale', async () => {
  compileTo('T', readFileSync(join(REPO, 'src/svelte/T.svelte'), 'utf8'))
  writeFileSync(
    join(dir, 'colors.js'),
    `import { _l, _m } from 'unplugin-tms/runtime'
export const red = _m((values) => _l('red', 'Red', values))
export const greet = _m((values) => _l('greet', 'Hello {name}!', values))
`,
  )
  const page = compileTo(
    'Page',
    `<script>
  import T from './T.svelte'
  import { greet, red } from './colors.js'
</script>
<p>{red()} <T message={greet} values={{ name: 'Ada' }} /></p>
`,
  )
  const runtime = (await import('unplugin-tms/runtime')) as typeof import('../../src/runtime/index')
  runtime._r('en', { fr: async () => ({ default: { red: 'Rouge', greet: 'Bonjour {name} !' } }) })
  const Page = (await import(pathToFileURL(page).href)).default
  const html = () => render(Page).body.replace(/<!--[^>]*-->/g, '')
  expect(html()).toBe('<p>Red Hello Ada!</p>')
  await runtime.setLocale('fr')
  expect(html()).toBe('<p>Rouge Bonjour Ada !</p>')
})
