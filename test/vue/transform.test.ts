import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compileScript, compileTemplate, parse } from '@vue/compiler-sfc'
import { describe, expect, test } from 'vitest'
import * as vue from 'vue'
import { renderToString } from 'vue/server-renderer'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { jsString } from '../../src/core/js-string'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'
import { forMarkup, templateProblem } from '../../src/plugin/vue-sfc'
import { compileText } from '../../src/runtime/parse'
import * as binding from '../../src/vue/index'
import { expectFixture } from '../helpers/fixture'

/**
 * The rewrite of .vue files: one directory per case under test/fixtures/vue-transform with input.vue
 * and the exact output.vue (checked as every fixture is: test/helpers/fixture.ts). Each output is fed back
 * in and must come out unchanged, and must compile with Vue's own compiler with the lookup bound to
 * the `<script setup>` import, never read off the component (`_ctx`).
 */

const root = fileURLToPath(new URL('../fixtures/vue-transform/', import.meta.url))
const cases = readdirSync(root).sort()
const options = resolveExtractOptions({ cwd: root, namespace: null })
const specs = new Map(options.keywords.map((k) => [k.name, k]))

/** `leave`: a message whose sites stay as written, as when its lookup is not found. */
function rewrite(code: string, file: string, inline = false, leave?: string): string | null {
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
      if (message.text === leave) return undefined
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

  test('rewrites every call of the template and scripts to the exact output', async () => {
    expect(output).not.toBeNull()
    await expectFixture(output!, expectedFile)
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

test('code written into markup: single-quoted strings in "-quoted attributes, no `}}` inside an interpolation', () => {
  const out = readFileSync(join(root, 'setup', 'output.vue'), 'utf8')
  expect(out).toContain(`:title="__tms_l('${messageId('\u0000\u0000Close')}', 'Close')"`)
  expect(out).not.toMatch(/&quot;|&amp;/)
  expect(forMarkup(`__tms_l("id", ["a\\"b & it's \\\\"], x)`, 'double')).toBe(
    `__tms_l('id', ['a\\x22b \\x26 it\\'s \\\\'], x)`,
  )
  expect(out).toContain(`{{ __tms_l(${jsString(messageId('\u0000button\u0000Save'))}, 'Save', undefined) }}`)
  expect(forMarkup('["a}}", {"b":{}}]', 'text')).toBe('["a}\\u007d", {"b":{} }]')
  expect(forMarkup('__tms_l("id", ["a > b, c"], x)', 'unquoted')).toBe(
    '__tms_l("id",["a\\u0020\\u003e\\u0020b,\\u0020c"],x)',
  )
})

/**
 * The component of a .vue file as Vue compiles it (script and template in one module), its imports
 * taken from `modules`: a module Vue's own output can be run from, without a bundler.
 */
function component(code: string, file: string, modules: Record<string, unknown>): vue.Component {
  const { descriptor } = parse(code, { filename: file })
  const module = compileScript(descriptor, { id: 'c', inlineTemplate: true })
    .content.replace(
      /\bimport \{([^}]*)\} from (["'])(.+?)\2;?/g,
      (_, names: string, _q, from: string) =>
        `const {${names.replace(/ as /g, ': ')}} = modules[${JSON.stringify(from)}];`,
    )
    .replace('export default', 'return')
  return new Function('modules', module)(modules) as vue.Component
}

test('<T msg> in a "-quoted attribute: Vue renders the message as written, and a second extraction reads the template', async () => {
  const file = join(root, 'Quotes.vue')
  // Every character that needs care in a "-quoted attribute and in a JS string: " & ' \\
  const code = `<template>
  <T tag="p" msg="Say &quot;hi&quot; &amp; it's <b>{name}</b> \\ done" :values="{ name }">
    <template #b="{ chunks }"><b>{{ chunks }}</b></template>
  </T>
  <p :title="t('Left as written')">{{ t('Looked up') }}</p>
</template>

<script setup>
import { T } from 'unplugin-tms/vue'
const name = 'Ann'
</script>
`
  const out = rewrite(code, file, false, 'Left as written')!
  const id = messageId(extractFromCode(file, code, options).messages[0]!.key)
  expect(out).toContain(
    `<T tag="p" :msg="(values) => __tms_l('${id}', ['Say \\x22hi\\x22 \\x26 it\\'s ',['b',6,[['name']]],' \\\\ done'], values)" :values="{ name }">`,
  )
  const app = vue.createSSRApp(component(out, file, { vue, 'unplugin-tms/vue': binding }))
  app.config.globalProperties.t = (text: string) => text
  expect(await renderToString(app)).toBe(
    '<!--[--><p>Say &quot;hi&quot; &amp; it&#39;s <b>Ann</b> \\ done</p><p title="Left as written">Looked up</p><!--]-->',
  )
  // The template still parses as written: the message left as it was is found again, with no warning.
  const again = extractFromCode(file, out, options)
  expect(again.diagnostics).toEqual([])
  expect(again.messages.map((m) => m.text)).toEqual(['Left as written'])
})

test('inline mode: each template message is a function of <script setup> holding the lookup the copies replace', async () => {
  const file = join(root, 'setup', 'input.vue')
  const input = readFileSync(file, 'utf8')
  const out = rewrite(input, file, true)!
  await expectFixture(out, join(root, 'setup', 'output-inline.vue'))
  expect(rewrite(out, file, true)).toBeNull()
  const template = out.slice(0, out.indexOf('</template>'))
  expect(template).not.toMatch(/\bt\(|\bt`|\smsg="|__tms_l/)
  const { descriptor, errors } = parse(out, { filename: file })
  expect(errors).toEqual([])
  for (const inlineTemplate of [false, true]) {
    const script = compileScript(descriptor, { id: 'setup', inlineTemplate })
    const render = inlineTemplate
      ? script.content
      : compileTemplate({
          source: descriptor.template!.content,
          filename: file,
          id: 'setup',
          compilerOptions: { bindingMetadata: script.bindings },
        }).code
    // The template's functions are the component's bindings; the lookup itself stays a free global.
    expect(render).toMatch(/__tms_v10/)
    expect(render).not.toMatch(/_ctx\.__tms_/)
    expect(script.content).not.toMatch(/_ctx\.__tms_|\$setup\.__tms_l/)
  }
  expect(templateProblem(extractFromCode(file, input, options), input, root)).toBeUndefined()
})

test('a plain <script> with a setup() option and no <script setup>: the template is left as written, and the build says why', () => {
  const file = join(root, 'Legacy.vue')
  const code =
    "<template>\n  <p>{{ t('Legacy') }} {{ x }}</p>\n</template>\n\n<script>\nexport default { setup() { return { x: 1, label: t('Script') } } }\n</script>\n"
  const out = rewrite(code, file)!
  expect(out).toBe(
    `<template>\n  <p>{{ t('Legacy') }} {{ x }}</p>\n</template>\n\n<script>\nimport { _l as __tms_l } from "unplugin-tms/vue";export default { setup() { return { x: 1, label: __tms_l(${jsString(messageId('\u0000\u0000Script'))}, 'Script') } } }\n</script>\n`,
  )
  const problem = templateProblem(extractFromCode(file, code, options), code, root)!
  expect(`${problem.code}: ${problem.message}`).toBe(
    'vue-template-setup: Legacy.vue:2:9: the template cannot be given the lookup: its <script> has a setup() option and there is no <script setup>: the 1 message of this template shows the source text in every locale (the <script> messages are translated); move setup() into <script setup>, or call t in the script and render the result',
  )
})
