import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'oxc-parser'
import { expect, test } from 'vitest'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { MessageForms } from '../../src/core/icu/forms'
import { isIcuSource } from '../../src/core/icu/translation'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'

/**
 * `<T>` rewritten as the plugin does (runtime mode, and inline mode for `inline.tsx`), compared whole
 * with `<name>.expected.tsx` (UPDATE_FIXTURES=1 rewrites them; review the diff), with and without a
 * source map; the output is TSX that parses, and transforming it again changes nothing.
 */

const dir = fileURLToPath(new URL('../fixtures/transform-react/', import.meta.url))
const inputs = readdirSync(dir).filter((f) => f.endsWith('.tsx') && !f.endsWith('.expected.tsx'))
const options = resolveExtractOptions({ cwd: dir, namespace: null })
const specs = new Map(options.keywords.map((k) => [k.name, k]))
const forms = new MessageForms()

function rewrite(code: string, file: string, sourcemap = true): string | null {
  const fx = extractFromCode(file, code, options)
  const result = rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    importRuntime: !file.endsWith('inline.tsx'),
    sourcemap,
    lookup: (site) => {
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      const form = isIcuSource(message) ? forms.literal(message.text, 'en-US') : undefined
      const id = `I${messageId(site.messageKey).slice(0, 3)}`
      return form === undefined ? { id, text: message.text } : { id, text: message.text, form }
    },
  })
  return result?.code ?? null
}

test.each(inputs)('%s: exact output, TSX that parses, and a second pass changes nothing', (name) => {
  const file = join(dir, name)
  const out = rewrite(readFileSync(file, 'utf8'), file)
  expect(out).not.toBeNull()
  const expectedFile = join(dir, name.replace(/\.tsx$/, '.expected.tsx'))
  if (process.env.UPDATE_FIXTURES) writeFileSync(expectedFile, out!)
  expect(out).toBe(readFileSync(expectedFile, 'utf8'))
  // Without a source map the edits are spliced into the text when they stand apart: the same output.
  expect(rewrite(readFileSync(file, 'utf8'), file, false)).toBe(out)
  expect(parseSync(name, out!, { lang: 'tsx' }).errors).toEqual([])
  expect(rewrite(out!, file)).toBeNull()
})
