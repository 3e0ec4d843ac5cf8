import { fileURLToPath } from 'node:url'
import { isIcuSource } from '../../src/core/check/message'
import { extractFromCode, resolveExtractOptions } from '../../src/core/extract/index'
import { MessageForms } from '../../src/core/icu/forms'
import { messageId } from '../../src/plugin/ids'
import { rewriteMessageCalls } from '../../src/plugin/transform'

/**
 * `<T>` rewritten as the plugin does, with fixed ids (`I` and 3 characters of the message's id):
 * runtime mode, or inline mode for a file named `inline.tsx`. Shared by the transform's fixture test
 * and the render test, which renders its own rewrite of the same input rather than the fixture file.
 */

const options = resolveExtractOptions({
  cwd: fileURLToPath(new URL('../fixtures/transform-react/', import.meta.url)),
  namespace: null,
})
const specs = new Map(options.keywords.map((k) => [k.name, k]))
const forms = new MessageForms()

export function rewrite(code: string, file: string, sourcemap = true): string | null {
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
