import { CONTEXT_READING } from '../import/convert-i18next'
import type { FileState } from './file-state'
import type { OldImport } from './imports'
import type { HookScope } from './scopes'

/** What the i18next conversions share: the file, its i18next imports and hooks, and the keys' texts. */

export interface I18nextCtx {
  state: FileState
  imports: OldImport[]
  scopes: HookScope[]
  namespaces: Map<HookScope, string | undefined>
}

/**
 * The source text of `key` in our form, with the namespace written in the key (`ns:key`) first. With
 * a `context` the key's context family as one select when the catalog has one (`friend`,
 * `friend_male`), else the key's own text, as i18next falls back to the bare key.
 */
export function sourceText(
  ctx: I18nextCtx,
  key: string,
  ns: string | undefined,
  context = false,
): string | undefined {
  return (context ? lookUp(ctx, key + CONTEXT_READING, ns) : undefined) ?? lookUp(ctx, key, ns)
}

function lookUp(ctx: I18nextCtx, key: string, ns: string | undefined): string | undefined {
  const texts = ctx.state.options.sourceTexts
  if (!texts) return undefined
  let namespace = ns ?? ctx.state.options.defaultNamespace ?? 'translation'
  let k = key
  const colon = key.indexOf(':')
  if (colon > 0 && texts.has(key.slice(0, colon))) {
    namespace = key.slice(0, colon)
    k = key.slice(colon + 1)
  }
  return (
    texts.get(namespace)?.get(k) ?? (texts.size === 1 && !ns ? [...texts.values()][0]!.get(k) : undefined)
  )
}
