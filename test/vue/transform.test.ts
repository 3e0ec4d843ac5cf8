import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileScript, compileTemplate, parse } from '@vue/compiler-sfc'
import { describe, expect, test } from 'vitest'
import { jsString } from '../../src/core/catalog'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'
import { forMarkup, templateProblem } from '../../src/plugin/vue-sfc'
import { compileText } from '../../src/runtime/parse'

/**
 * The rewrite of .vue files: one directory per case under test/fixtures/vue-transform with input.vue
 * and the exact output.vue (UPDATE_FIXTURES=1 rewrites them; review the diff). Each output is fed back
 * in and must come out unchanged, and must compile with Vue's own compiler with the lookup bound to
 * the `<script setup>` import, never read off the component (`_ctx`).
 */

const root = fileURLToPath(new URL('../fixtures/vue-transform/', import.meta.url))
const cases = readdirSync(root).sort()
const options = resolveExtractOptions({ cwd: root, namespace: null })
const specs = new Map(options.keywords.map((k) => [k.name, k]))

function rewrite(code: string, file: string, inline = false): string | null {
  const fx = extractFromCode(file, code, options)
  const result = rewriteMessageCalls({
    code,
    id: file,
    calls: fx.calls,
    specs,
    runtimeModule: 'unplugin-tms/runtime',
    importRuntime: !inline,
    lookup: (site) => {
      const message = fx.messages.find((m) => m.key === site.messageKey)!
      const compiled = compileText(message.text)
      // An ICU message's fallback is its compiled form, as the plugin writes it.
      const form = typeof compiled === 'string' ? {} : { form: JSON.stringify(compiled) }
      return { id: messageId(site.messageKey), text: message.text, ...form }
    },
  })
  return result?.code ?? null
}

describe.each(cases)('%s', (name) => {
  const file = join(root, name, 'input.vue')
  const expectedFile = join(root, name, 'output.vue')
  const input = readFileSync(file, 'utf8')
  const output = rewrite(input, file)

  test('rewrites every call of the template and scripts to the exact output', () => {
    if (process.env.UPDATE_FIXTURES || !existsSync(expectedFile)) writeFileSync(expectedFile, output ?? '')
    expect(output).toBe(readFileSync(expectedFile, 'utf8'))
    expect(output).not.toMatch(/\bt\(|\bt`|\smsg="/)
  })

  test('the output transformed again is unchanged', () => {
    expect(rewrite(output!, file)).toBeNull()
  })

  test('the output compiles, the template calling the imported lookup', () => {
    const { descriptor, errors } = parse(output!, { filename: file })
    expect(errors).toEqual([])
    for (const inlineTemplate of [false, true]) {
      const script = compileScript(descriptor, { id: name, inlineTemplate })
      expect(script.content).toContain('import { _l as __tms_l } from "unplugin-tms/vue"')
      const render = inlineTemplate
        ? script.content
        : compileTemplate({
            source: descriptor.template!.content,
            filename: file,
            id: name,
            compilerOptions: { bindingMetadata: script.bindings },
          }).code
      expect(render).not.toContain('_ctx.__tms_l')
      if (descriptor.template!.content.includes('__tms_l')) expect(render).toMatch(/__tms_l/)
    }
  })
})

test('code written into markup: quotes as entities in attributes, no `}}` inside an interpolation', () => {
  const out = readFileSync(join(root, 'setup', 'output.vue'), 'utf8')
  expect(out).toContain(`:title="__tms_l(&quot;${messageId('\u0000\u0000Close')}&quot;, 'Close')"`)
  expect(out).toContain(`{{ __tms_l(${jsString(messageId('\u0000button\u0000Save'))}, 'Save', undefined) }}`)
  expect(forMarkup('["a}}", {"b":{}}]', 'text')).toBe('["a}\\u007d", {"b":{} }]')
  expect(forMarkup('__tms_l("id", ["a > b, c"], x)', 'unquoted')).toBe(
    '__tms_l("id",["a\\u0020\\u003e\\u0020b,\\u0020c"],x)',
  )
})

test('inline mode leaves the template as written, rewrites the scripts, and says so once per file', () => {
  const file = join(root, 'setup', 'input.vue')
  const input = readFileSync(file, 'utf8')
  const out = rewrite(input, file, true)!
  const template = (code: string) => code.slice(0, code.indexOf('</template>\n\n<script'))
  expect(template(out)).toBe(template(input))
  expect(out).toContain(
    `const label = __tms_l(${jsString(messageId('\u0000\u0000From the script'))}, 'From the script')`,
  )
  expect(out).not.toContain('import { _l')
  const problem = templateProblem(extractFromCode(file, input, options), input, root, true)!
  expect(`${problem.severity} ${problem.code}: ${problem.message}`).toBe(
    "warning vue-template-inline: setup/input.vue:2:20: inline mode does not translate Vue templates: the 12 messages of this template show the source text in every locale (the <script> messages are translated); use mode 'runtime' for this app",
  )
  expect(templateProblem(extractFromCode(file, input, options), input, root, false)).toBeUndefined()
})

test('a plain <script> with a setup() option and no <script setup>: the template is left as written, and the build says why', () => {
  const file = join(root, 'Legacy.vue')
  const code =
    "<template>\n  <p>{{ t('Legacy') }} {{ x }}</p>\n</template>\n\n<script>\nexport default { setup() { return { x: 1, label: t('Script') } } }\n</script>\n"
  const out = rewrite(code, file)!
  expect(out).toBe(
    `<template>\n  <p>{{ t('Legacy') }} {{ x }}</p>\n</template>\n\n<script>\nimport { _l as __tms_l } from "unplugin-tms/vue";\nexport default { setup() { return { x: 1, label: __tms_l(${jsString(messageId('\u0000\u0000Script'))}, 'Script') } } }\n</script>\n`,
  )
  const problem = templateProblem(extractFromCode(file, code, options), code, root, false)!
  expect(`${problem.code}: ${problem.message}`).toBe(
    'vue-template-setup: Legacy.vue:2:9: the template cannot be given the lookup: its <script> has a setup() option and there is no <script setup>: the 1 message of this template shows the source text in every locale (the <script> messages are translated); move setup() into <script setup>, or call t in the script and render the result',
  )
})
