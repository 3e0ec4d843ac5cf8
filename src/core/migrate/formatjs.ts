import type { AstNode } from '../extract/nodes'
import { isRelativeImport } from './app-module'
import type { FileState } from './file-state'
import { readCreateIntlFormats, readProviderFormats } from './formatjs-formats'
import { convertFormattedElement } from './formatjs-jsx'
import { type ImportResult, importEdits, type OldImport, oldImports } from './imports'
import { type Built, callText, failed, jsString, metadataText, objectProperties, Values } from './message'
import { findHookScopes, type HookScope, patternNames, scopeOf, settleScope } from './scopes'
import { memberPath, staticString, walk } from './walk'

/**
 * react-intl into ours: `<FormattedMessage>` (its `defaultMessage` is ICU, as ours; rich-text values
 * are tag functions, as ours), `defineMessages`/`defineMessage` into `msg` descriptors,
 * `intl.formatMessage` from `useIntl()` into `t` or a descriptor called, `<FormattedNumber>` and
 * `<FormattedDate>` into a message with one argument. `IntlProvider` and `createIntl` are listed.
 */

const SOURCES = new Set(['react-intl'])
const CONVERTIBLE = new Set([
  'FormattedMessage',
  'FormattedNumber',
  'FormattedDate',
  'defineMessages',
  'defineMessage',
  'useIntl',
])

export interface FormatjsCtx {
  state: FileState
  imports: OldImport[]
  scopes: HookScope[]
  /** Local names bound to descriptors this file converted (`const messages = defineMessages(...)`). */
  descriptors: Set<string>
}

export function migrateFormatjs(state: FileState): ImportResult {
  const imports = oldImports(state, (s) => SOURCES.has(s))
  const hooks = new Set(imports.filter((i) => i.imported === 'useIntl').map((i) => i.local))
  const scopes = findHookScopes(
    state,
    (callee) => callee.type === 'Identifier' && hooks.has(callee.name),
    (pattern) => patternNames(pattern, ['formatMessage']),
  )
  const ctx: FormatjsCtx = { state, imports, scopes, descriptors: new Set() }
  for (const unit of state.units) walk(unit.program, (node, ancestors) => visit(ctx, node, ancestors))
  for (const scope of scopes) {
    settleScope(state, scope, 'useIntl')
  }
  return importEdits(state, imports, (imp) => CONVERTIBLE.has(imp.imported))
}

function importedAs(ctx: FormatjsCtx, local: string): string | undefined {
  return ctx.imports.find((i) => i.local === local)?.imported
}

function visit(ctx: FormatjsCtx, node: AstNode, ancestors: readonly AstNode[]): boolean | undefined {
  const { state } = ctx
  if (node.type === 'JSXElement' && node.openingElement.name.type === 'JSXIdentifier') {
    const name = node.openingElement.name.name
    const imported = importedAs(ctx, name)
    if (imported === 'IntlProvider') {
      state.noteSetup(node, `<${name}> from react-intl: remove it (unplugin-tms needs no provider)`)
      readProviderFormats(state, node, name)
    }
    if (imported === 'FormattedMessage' || imported === 'FormattedNumber' || imported === 'FormattedDate')
      return convertFormattedElement(state, node, ancestors, name, imported)
    if (imported?.startsWith('Formatted')) {
      state.leave(
        node,
        ancestors,
        `<${name}> is not converted; write it as an ICU argument in a message (docs/messages-icu.md)`,
      )
      return false
    }
    return
  }
  if (
    node.type === 'VariableDeclarator' &&
    node.id.type === 'Identifier' &&
    node.init?.type === 'CallExpression'
  ) {
    const callee = node.init.callee
    if (
      callee.type === 'Identifier' &&
      ['defineMessages', 'defineMessage'].includes(importedAs(ctx, callee.name) ?? '')
    )
      ctx.descriptors.add(node.id.name)
    return
  }
  if (node.type !== 'CallExpression') return
  const callee = node.callee
  if (callee.type === 'Identifier') {
    const imported = importedAs(ctx, callee.name)
    if (imported === 'defineMessages' || imported === 'defineMessage') {
      const result = imported === 'defineMessages' ? defineMessages(state, node) : defineMessage(state, node)
      if (failed(result)) {
        state.leave(node, ancestors, result.problem)
        // A descriptor left as react-intl's is not ours to call.
        const decl = ancestors[ancestors.length - 1]
        if (decl?.type === 'VariableDeclarator') ctx.descriptors.delete(decl.id.name)
      } else {
        result()
        state.replacedRef(callee.name)
        state.count(imported)
      }
      return false
    }
    if (imported === 'injectIntl' || imported === 'createIntl') {
      if (imported === 'createIntl') readCreateIntlFormats(state, node, callee.name)
      state.noteSetup(
        node,
        `${callee.name}(...) from react-intl: ${imported === 'injectIntl' ? 'its intl prop has no counterpart; call t in the component' : 'remove it'}`,
      )
      return
    }
    const scope = scopeOf(ctx.scopes, callee.name, ancestors)
    if (scope?.locals.get(callee.name) === 'formatMessage') {
      scope.attempts.push({
        node,
        ancestors: [...ancestors],
        result: formatMessage(ctx, node, ancestors),
        construct: 'formatMessage',
      })
      return false
    }
    return
  }
  const path = memberPath(callee)
  if (path?.length !== 2) return
  const scope = scopeOf(ctx.scopes, path[0]!, ancestors)
  if (scope?.locals.get(path[0]!) !== '*') return
  const result: Built<() => void> =
    path[1] === 'formatMessage'
      ? formatMessage(ctx, node, ancestors)
      : { problem: `intl.${path[1]}(...) is not converted; write it as an ICU argument of a message` }
  scope.attempts.push({ node, ancestors: [...ancestors], result, construct: 'formatMessage' })
  return false
}

/** A react-intl descriptor written in place, as our message text and metadata. */
export function readDescriptor(
  state: FileState,
  node: AstNode,
): Built<{ text: string; meta: string | null }> {
  const props = objectProperties(node)
  if (!props) return { problem: 'its descriptor is not an object literal' }
  const text = staticString(props.get('defaultMessage'))
  if (text === null)
    return props.has('defaultMessage')
      ? { problem: 'its defaultMessage is not a literal text' }
      : {
          problem:
            'it has only an id; the message text is in the catalog: write it with its defaultMessage (tms import maps the catalog)',
        }
  const meta: { instruction?: string } = {}
  for (const key of props.keys())
    if (!['id', 'defaultMessage', 'description'].includes(key))
      return { problem: `its descriptor has ${key}, which is not converted` }
  const description = props.get('description')
  if (description) {
    const d = staticString(description)
    if (d === null)
      return { problem: 'its description is not a literal text (an object description is not converted)' }
    meta.instruction = d
  }
  if (props.has('id')) state.count('explicit id dropped')
  return { text, meta: metadataText(meta) }
}

function defineMessage(state: FileState, node: AstNode): Built<() => void> {
  const d =
    node.arguments.length === 1
      ? readDescriptor(state, node.arguments[0])
      : { problem: 'its arguments are not one descriptor' }
  if (failed(d)) return d
  return () => {
    state.need('msg')
    state.replace(node.start, node.end, (n) => callText(n.msg, d.text, new Values(), d.meta))
  }
}

function defineMessages(state: FileState, node: AstNode): Built<() => void> {
  const arg = node.arguments[0]
  const props = arg && node.arguments.length === 1 && objectProperties(arg)
  if (!props) return { problem: 'its argument is not an object literal of descriptors' }
  const edits: [AstNode, { text: string; meta: string | null }][] = []
  for (const value of props.values()) {
    const d = readDescriptor(state, value)
    if (failed(d)) return d
    edits.push([value, d])
  }
  return () => {
    state.need('msg')
    // `defineMessages({ ... })` becomes the object itself, each descriptor a msg(...).
    state.replace(node.start, arg.start, () => '')
    state.replace(arg.end, node.end, () => '')
    for (const [value, d] of edits)
      state.replace(value.start, value.end, (n) => callText(n.msg, d.text, new Values(), d.meta))
  }
}

/** `formatMessage({ defaultMessage }, values)` -> `t(text, values)`; `formatMessage(messages.x, v)` -> `messages.x(v)`. */
function formatMessage(ctx: FormatjsCtx, node: AstNode, _ancestors: readonly AstNode[]): Built<() => void> {
  const { state } = ctx
  const [descriptor, values, ...rest] = node.arguments
  if (!descriptor || rest.length > 0)
    return { problem: 'formatMessage with these arguments is not converted' }
  const valuesText = values ? state.code.slice(values.start, values.end) : undefined
  const path = memberPath(descriptor)
  if (path) {
    const root = path[0]!
    const fromModule = isRelativeImport(state, root)
    if (!ctx.descriptors.has(root) && !fromModule)
      return {
        problem: `${path.join('.')} is not a descriptor this migration converted; call it as a msg descriptor by hand`,
      }
    return () => state.replace(node.start, node.end, () => `${path.join('.')}(${valuesText ?? ''})`)
  }
  const d = readDescriptor(state, descriptor)
  if (failed(d)) return d
  return () => {
    state.need('t')
    state.replace(node.start, node.end, (n) => {
      const args = [jsString(d.text)]
      if (valuesText || d.meta) args.push(valuesText ?? 'undefined')
      if (d.meta) args.push(d.meta)
      return `${n.t}(${args.join(', ')})`
    })
  }
}
