import type { AstNode } from '../extract/nodes'
import type { FileState } from './file-state'
import { type ImportResult, importEdits, type OldImport, oldImports } from './imports'
import { convertPluralElement, convertTransElement, jsxName } from './lingui-jsx'
import {
  type Built,
  type Choice,
  callText,
  choiceText,
  failed,
  metadataText,
  objectProperties,
  templateText,
  Values,
  valueName,
} from './message'
import { findHookScopes, type HookScope, patternNames, scopeOf, settleScope } from './scopes'
import { memberPath, staticString, walk } from './walk'

/**
 * Lingui's macros and components into ours: `t` and `msg`/`defineMessage` (tagged or with a
 * descriptor), `plural`/`select`/`selectOrdinal`, `<Trans>`, `<Plural>`, `<Select>`,
 * `<SelectOrdinal>`, and `useLingui()`'s `t`. The providers and `i18n` setup are listed, not removed.
 */

const MACROS = new Set(['@lingui/macro', '@lingui/core/macro', '@lingui/react/macro'])
const RUNTIME = new Set(['@lingui/react', '@lingui/core'])
const CONVERTIBLE = new Set([
  't',
  'msg',
  'defineMessage',
  'plural',
  'select',
  'selectOrdinal',
  'Trans',
  'Plural',
  'Select',
  'SelectOrdinal',
  'useLingui',
])
const CHOICE_KIND: Record<string, Choice['kind']> = {
  plural: 'plural',
  select: 'select',
  selectOrdinal: 'selectordinal',
}

export function migrateLingui(state: FileState): ImportResult {
  const imports = oldImports(state, (s) => MACROS.has(s) || RUNTIME.has(s))
  const macro = new Map<string, string>()
  for (const imp of imports) if (MACROS.has(imp.source)) macro.set(imp.local, imp.imported)
  const hookLocals = new Set(imports.filter((i) => i.imported === 'useLingui').map((i) => i.local))
  const scopes = findHookScopes(
    state,
    (callee) => callee.type === 'Identifier' && hookLocals.has(callee.name),
    (pattern, call) => {
      const source = imports.find((i) => i.local === call.callee.name)!.source
      if (source !== '@lingui/react/macro')
        return {
          problem: `useLingui from ${source} gives the runtime i18n object, which has no counterpart; rewrite its uses by hand`,
        }
      return patternNames(pattern, ['t'])
    },
  )
  const ctx: Ctx = { state, macro, scopes, imports, readsDescriptors: readsDescriptors(state) }
  for (const unit of state.units) walk(unit.program, (node, ancestors) => visit(ctx, node, ancestors))
  for (const scope of scopes) {
    settleScope(state, scope, 'useLingui')
  }
  return importEdits(state, imports, (imp) => MACROS.has(imp.source) && CONVERTIBLE.has(imp.imported))
}

interface Ctx {
  state: FileState
  macro: Map<string, string>
  scopes: HookScope[]
  imports: OldImport[]
  /** The file hands descriptors to Lingui's runtime (`i18n._(...)`), which cannot read ours. */
  readsDescriptors: boolean
}

/** True when a file calls `x._(...)`, Lingui's runtime lookup of a descriptor. */
function readsDescriptors(state: FileState): boolean {
  let found = false
  for (const unit of state.units)
    walk(unit.program, (node) => {
      if (
        node.type === 'CallExpression' &&
        node.callee.type === 'MemberExpression' &&
        !node.callee.computed &&
        node.callee.property.name === '_'
      )
        found = true
      return !found
    })
  return found
}

const READ_BY_LINGUI =
  "this file hands descriptors to Lingui's i18n._(...), which cannot read an unplugin-tms descriptor; convert those calls (descriptor() where it is rendered) and this msg together by hand"

/** What a local name stands for here: a macro by its Lingui name, useLingui's `t`, or nothing of Lingui. */
function roleOf(
  ctx: Ctx,
  name: string,
  ancestors: readonly AstNode[],
): { role: string; scope?: HookScope } | null {
  const scope = scopeOf(ctx.scopes, name, ancestors)
  if (scope) return { role: scope.locals.get(name)!, scope }
  const imported = ctx.macro.get(name)
  return imported ? { role: imported } : null
}

function visit(ctx: Ctx, node: AstNode, ancestors: readonly AstNode[]): boolean | undefined {
  const { state } = ctx
  if (node.type === 'JSXElement') {
    const name = jsxName(node.openingElement.name)
    if (name === null) return
    const lingui = ctx.imports.find((i) => i.local === name)
    if (!lingui) return
    if (lingui.imported === 'I18nProvider')
      state.noteSetup(node, `<${name}> from ${lingui.source}: remove it (unplugin-tms needs no provider)`)
    if (!MACROS.has(lingui.source)) {
      if (lingui.imported === 'Trans')
        state.leave(
          node,
          ancestors,
          `<${name}> from @lingui/react renders a catalog id; write its text with <T> (docs/migrating.md)`,
        )
      return
    }
    if (lingui.imported === 'Trans') return convertTransElement(state, node, ancestors, name, ctx.imports)
    if (lingui.imported in JSX_CHOICES)
      return convertPluralElement(state, node, ancestors, name, JSX_CHOICES[lingui.imported]!)
    return
  }
  if (node.type === 'TaggedTemplateExpression' && node.tag.type === 'Identifier') {
    const found = roleOf(ctx, node.tag.name, ancestors)
    if (!found || !['t', 'msg', 'defineMessage'].includes(found.role)) return
    return settle(
      ctx,
      node,
      ancestors,
      found,
      taggedTemplate(ctx, node, found.role),
      `${found.role === 't' ? 't' : 'msg'} macro`,
    )
  }
  if (node.type === 'CallExpression') {
    const callee = node.callee
    if (callee.type === 'MemberExpression') return setupCall(ctx, node)
    if (callee.type !== 'Identifier') return
    const found = roleOf(ctx, callee.name, ancestors)
    if (!found) return
    if (found.role === 't' || found.role === 'msg' || found.role === 'defineMessage')
      return settle(
        ctx,
        node,
        ancestors,
        found,
        descriptorCall(ctx, node, found.role),
        `${found.role === 't' ? 't' : 'msg'} macro`,
      )
    if (found.role in CHOICE_KIND)
      return settle(ctx, node, ancestors, found, choiceCall(ctx, node), found.role)
  }
}

const JSX_CHOICES: Record<string, Choice['kind']> = {
  Plural: 'plural',
  Select: 'select',
  SelectOrdinal: 'selectordinal',
}

/** Applies a conversion now, or hands it to its hook's scope; a refusal leaves a TODO (or waits for the scope). */
function settle(
  ctx: Ctx,
  node: AstNode,
  ancestors: readonly AstNode[],
  found: { scope?: HookScope },
  result: Built<() => void>,
  construct: string,
): false {
  const local = node.type === 'TaggedTemplateExpression' ? node.tag.name : node.callee.name
  if (found.scope) {
    const wrapped = failed(result)
      ? result
      : () => {
          result()
          consumeChoices(ctx, node)
        }
    found.scope.attempts.push({ node, ancestors: [...ancestors], result: wrapped, construct })
    return false
  }
  if (failed(result)) ctx.state.leave(node, ancestors, result.problem)
  else {
    result()
    consumeChoices(ctx, node)
    ctx.state.count(construct)
    ctx.state.replacedRef(local)
  }
  return false
}

/** `i18n.activate(...)`, `i18n.load(...)`: listed for the user; `i18n._(descriptor)`: the descriptor called. */
function setupCall(ctx: Ctx, node: AstNode): undefined {
  const path = memberPath(node.callee)
  if (path?.length !== 2) return
  const owner = ctx.imports.find((i) => i.local === path[0] && i.source === '@lingui/core')
  if (!owner) return
  if (['activate', 'load', 'loadAndActivate'].includes(path[1]!))
    ctx.state.noteSetup(
      node,
      `${path.join('.')}(...) from @lingui/core: replace with setLocale(locale) from unplugin-tms/runtime`,
    )
}

/** The message text and values of a Lingui template; `${plural(...)}` and friends become ICU inside it. */
function templateMessage(ctx: Ctx, tpl: AstNode, values: Values): Built<string> {
  const expression = (e: AstNode): Built<string> => {
    if (e.type === 'CallExpression' && e.callee.type === 'Identifier') {
      const kind = CHOICE_KIND[ctx.macro.get(e.callee.name) ?? '']
      if (kind) {
        const choice = readChoiceCall(e, kind)
        return failed(choice) ? choice : choiceText(choice, ctx.state.code, values, expression)
      }
    }
    const named = valueName(e, ctx.state.code)
    if (failed(named)) return named
    const clash = values.add(named.name, named.expression)
    return clash ? { problem: clash } : `{${named.name}}`
  }
  return templateText(tpl, values, expression)
}

function readChoiceCall(call: AstNode, kind: Choice['kind']): Built<Choice> {
  const [value, forms] = call.arguments
  const props = forms && objectProperties(forms)
  if (!value || !props) return { problem: `its ${kind} forms are not an object literal` }
  if (props.has('offset'))
    return {
      problem: `its ${kind} has an offset, which this migration does not convert; write the ICU text by hand`,
    }
  const branches: [string, AstNode][] = []
  for (const [key, body] of props) branches.push([/^\d+$/.test(key) ? `=${key}` : key, body])
  return { kind, value, branches }
}

/** `` t`Hello ${name}` ``: our tagged template reads plain names alike; a choice inside needs the call form. */
function taggedTemplate(ctx: Ctx, node: AstNode, role: string): Built<() => void> {
  if (role !== 't' && ctx.readsDescriptors) return { problem: READ_BY_LINGUI }
  const simple = node.quasi.expressions.every((e: AstNode) => e.type === 'Identifier')
  const fn = role === 't' ? 't' : 'msg'
  if (simple) {
    return () => {
      ctx.state.need(fn)
      ctx.state.replace(node.tag.start, node.tag.end, (n) => n[fn])
    }
  }
  const values = new Values()
  const text = templateMessage(ctx, node.quasi, values)
  if (failed(text)) return text
  return () => {
    ctx.state.need(fn)
    ctx.state.replace(node.start, node.end, (n) => callText(n[fn], text, values, null))
  }
}

/** `t({ id, message, context, comment })`, `msg(...)`, `defineMessage(...)`, or `t(descriptor)`. */
function descriptorCall(ctx: Ctx, node: AstNode, role: string): Built<() => void> {
  const { state } = ctx
  const arg = node.arguments[0]
  if (!arg || node.arguments.length > 1) return { problem: 'this call form of the macro is not converted' }
  if (role !== 't' && ctx.readsDescriptors) return { problem: READ_BY_LINGUI }
  const fn = role === 't' ? 't' : 'msg'
  const path = memberPath(arg)
  if (role === 't' && path) {
    // `t(descriptor)` translates a message defined elsewhere with msg: ours is the descriptor called.
    return () => state.replace(node.start, node.end, () => `${state.code.slice(arg.start, arg.end)}()`)
  }
  const text = staticString(arg)
  if (text !== null)
    return () => {
      state.need(fn)
      state.replace(node.callee.start, node.callee.end, (n) => n[fn])
    }
  const props = objectProperties(arg)
  if (!props) return { problem: 'its argument is not a message descriptor written in place' }
  for (const key of props.keys())
    if (!['id', 'message', 'context', 'comment', 'values'].includes(key))
      return { problem: `its descriptor has ${key}, which this migration does not convert` }
  const message = props.get('message')
  if (!message)
    return {
      problem:
        'it has only an id; the message text is in the catalog: write it with its text (tms import maps the catalog)',
    }
  const values = new Values()
  let body = staticString(message)
  if (body === null) {
    if (message.type !== 'TemplateLiteral') return { problem: 'its message is not a literal text' }
    const built = templateMessage(ctx, message, values)
    if (failed(built)) return built
    body = built
  }
  const meta: { variant?: string; instruction?: string } = {}
  for (const [key, field] of [
    ['context', 'variant'],
    ['comment', 'instruction'],
  ] as const) {
    const v = props.get(key)
    if (v === undefined) continue
    const s = staticString(v)
    if (s === null) return { problem: `its ${key} is not a literal text` }
    meta[field] = s
  }
  const given = props.get('values')
  if (given) {
    const extra = objectProperties(given)
    if (!extra) return { problem: 'its values are not an object literal' }
    for (const [name, v] of extra) {
      const clash = values.add(name, state.code.slice(v.start, v.end))
      if (clash) return { problem: clash }
    }
  }
  const final = body
  return () => {
    state.need(fn)
    state.replace(node.start, node.end, (n) => callText(n[fn], final, values, metadataText(meta)))
  }
}

/** A `plural(count, {...})` on its own: a translated text, so ours is `t` with the ICU text. */
function choiceCall(ctx: Ctx, node: AstNode): Built<() => void> {
  const kind = CHOICE_KIND[ctx.macro.get(node.callee.name)!]!
  const choice = readChoiceCall(node, kind)
  if (failed(choice)) return choice
  const values = new Values()
  const text = choiceText(choice, ctx.state.code, values, (e) => {
    const named = valueName(e, ctx.state.code)
    if (failed(named)) return named
    const clash = values.add(named.name, named.expression)
    return clash ? { problem: clash } : `{${named.name}}`
  })
  if (failed(text)) return text
  return () => {
    ctx.state.need('t')
    ctx.state.replace(node.start, node.end, (n) => callText(n.t, text, values, null))
  }
}

/** The `plural`/`select` macros inside a converted message went with it. */
function consumeChoices(ctx: Ctx, node: AstNode): void {
  walk(node, (n) => {
    if (
      n !== node &&
      n.type === 'CallExpression' &&
      n.callee.type === 'Identifier' &&
      CHOICE_KIND[ctx.macro.get(n.callee.name) ?? '']
    )
      ctx.state.replacedRef(n.callee.name)
  })
}
