/**
 * The rewrite of Svelte components and rune modules, one fixture per case in
 * test/fixtures/transform/svelte: `X.in.<ext>` is the source, `X.out.<ext>` the exact output. Each
 * output is transformed again and must come back unchanged (no call left, no second import).
 * An `X.options.json` with `idOnly: true` is a `sourceCatalog` case. Outputs are checked as every
 * fixture is (test/helpers/fixture.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compile } from 'svelte/compiler'
import { expect, it } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'
import { expectFixture } from '../helpers/fixture'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const dir = join(repo, 'test/fixtures/transform/svelte')
// The repository as the project: svelte/compiler resolves from it.
const options = resolveExtractOptions({ cwd: repo, namespace: null })
const specs = new Map(options.keywords.map((k) => [k.name, k]))

/** `X.options.json` with `idOnly: true`: the case of `sourceCatalog` (lookups hold only their ids). */
function idOnlyOf(name: string): boolean {
  const file = join(dir, name.replace(/\.in\.[^.]+$/, '.options.json'))
  return existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { idOnly?: boolean }).idOnly === true
}

function transform(file: string, code: string, idOnly = false): string | null {
  const fx = extractFromCode(file, code, options)
  expect(fx.diagnostics).toEqual([])
  const result = rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    sourcemap: false,
    idOnly,
    lookup: (site) => {
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      return { id: messageId(site.messageKey), text: message.text }
    },
  })
  return result?.code ?? null
}

const inputs = readdirSync(dir).filter((name) => name.includes('.in.') && !name.endsWith('.json'))

it('has cases', () => {
  expect(inputs.length).toBeGreaterThanOrEqual(5)
})

it.each(inputs)('%s', async (name) => {
  const file = join(repo, 'src', name.replace('.in.', '.'))
  const expectedFile = join(dir, name.replace('.in.', '.out.'))
  const idOnly = idOnlyOf(name)
  const out = transform(file, readFileSync(join(dir, name), 'utf8'), idOnly)
  expect(out).not.toBeNull()
  await expectFixture(out!, expectedFile)
  // Svelte's own compiler takes the output: the lookup's import is where the markup sees it.
  if (file.endsWith('.svelte')) {
    const { js } = compile(out!, { filename: file, generate: 'client' })
    expect(js.code).toContain('import { _l as __tms_l } from "unplugin-tms/svelte";')
  }
  // Idempotent: the output holds no message call any more.
  expect(transform(file, out!, idOnly)).toBeNull()
})
