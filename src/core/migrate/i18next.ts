import type { AstNode } from '../extract/nodes'
import { i18nextText } from '../import/convert-i18next'
import type { FileState } from './file-state'
import { dropPropsT, findHocScopes, replaceHoc } from './i18next-hoc'
import { type I18nextCtx, sourceText } from './i18next-keys'
import { i18nextTrans } from './i18next-trans'
import { type ImportResult, importEdits, oldImports } from './imports'
import { type Built, callText, failed, objectProperties, Values } from './message'
import { findHookScopes, type HookScope, patternNames, scopeOf, settleScope } from './scopes'
import { memberPath, staticString, walk } from './walk'

/**
 * i18next's keys into our texts: `t('key')`, `t('key', { count, context, name })` and `<Trans
 * i18nKey>` become the source locale's text of the key in our form (plural suffixes and contexts as
 * ICU, read by src/core/import/), from `useTranslation()` (react-i18next, i18next-vue), the
 * `i18next` instance and i18next-vue's `$t` in templates. A key the catalog lacks is left with a TODO.
 */

const SOURCES = new Set(['react-i18next', 'i18next', 'i18next-vue'])
const CONVERTIBLE = new Set(['useTranslation', 'Trans', 'withTranslation'])
const T_OPTIONS_REFUSED = [
  'returnObjects',
  'lng',
  'lngs',
  'keyPrefix',
  'interpolation',
  'joinArrays',
  'postProcess',
  'replace',
]

export function migrateI18next(state: FileState): ImportResult {
  const imports = oldImports(state, (s) => SOURCES.has(s))
  const hooks = new Set(imports.filter((i) => i.imported === 'useTranslation').map((i) => i.local))
  const namespaces = new Map<HookScope, string | undefined>()
  const scopes = findHookScopes(
    state,
    (callee) => callee.type === 'Identifier' && hooks.has(callee.name),
    (pattern, call) => {
      const [ns, options] = call.arguments
      if (options) return { problem: 'its options (keyPrefix, ...) are not converted' }
      if (
        ns &&
        staticString(ns) === null &&
        !(ns.type === 'ArrayExpression' && ns.elements.every((e: AstNode) => staticString(e) !== null))
      )
        return { problem: 'its namespace is not a literal' }
      return patternNames(pattern, ['t', 'i18n'])
    },
  )
  for (const scope of scopes) {
    const call = scope.statement.declarations[0].init
    const ns = call.arguments[0]
    namespaces.set(scope, ns ? (staticString(ns) ?? staticString(ns.elements?.[0]) ?? undefined) : undefined)
  }
  const hocs = findHocScopes(state, imports)
  const hocScopes = new Set<HookScope>()
  for (const hoc of hocs)
    for (const scope of hoc.problem ? [] : hoc.scopes) {
      scopes.push(scope)
      hocScopes.add(scope)
      namespaces.set(scope, hoc.namespace)
    }
  const ctx: I18nextCtx = { state, imports, scopes, namespaces }
  for (const unit of state.units) walk(unit.program, (node, ancestors) => visit(ctx, node, ancestors))
  for (const scope of scopes) if (!hocScopes.has(scope)) settleScope(state, scope, 'useTranslation')
  for (const hoc of hocs) {
    if (hoc.problem) {
      state.leave(hoc.call, hoc.ancestors, hoc.problem)
      continue
    }
    // The wrapper goes only when its component's every `t` converted, as a hook does.
    const settled = hoc.scopes.map((scope) =>
      settleScope(state, scope, 'the t from withTranslation', (statement) => dropPropsT(state, statement)),
    )
    if (settled.every(Boolean)) replaceHoc(state, hoc)
    else
      state.leave(
        hoc.call,
        hoc.ancestors,
        'withTranslation stays: its component keeps the t it passes (TODOs there)',
      )
  }
  // The i18next instance's import goes where every use was converted; its setup stays in its own module.
  return importEdits(state, imports, (imp) => CONVERTIBLE.has(imp.imported) || imp.source === 'i18next')
}

/** The i18next instance imported from 'i18next' (default or namespace import), by local name. */
function isInstance(ctx: I18nextCtx, name: string): boolean {
  return ctx.imports.some(
    (i) => i.local === name && i.source === 'i18next' && (i.imported === 'default' || i.imported === '*'),
  )
}

function visit(ctx: I18nextCtx, node: AstNode, ancestors: readonly AstNode[]): boolean | undefined {
  const { state } = ctx
  if (node.type === 'JSXElement' && node.openingElement.name.type === 'JSXIdentifier') {
    const name = node.openingElement.name.name
    const imp = ctx.imports.find((i) => i.local === name && i.source === 'react-i18next')
    if (imp?.imported === 'I18nextProvider')
      state.noteSetup(node, `<${name}> from react-i18next: remove it (unplugin-tms needs no provider)`)
    if (imp?.imported === 'Trans') return i18nextTrans(ctx, node, ancestors, name)
    return
  }
  if (node.type !== 'CallExpression') return
  const callee = node.callee
  if (callee.type === 'Identifier') {
    if (callee.name === '$t' && state.framework === 'vue') return globalT(ctx, node, ancestors)
    // withTranslation()(Component) is settled with its component's scopes (i18next-hoc.ts).
    if (ctx.imports.some((i) => i.local === callee.name && i.imported === 'withTranslation')) return false
    const scope = scopeOf(ctx.scopes, callee.name, ancestors)
    if (scope?.locals.get(callee.name) !== 't') return
    scope.attempts.push({
      node,
      ancestors: [...ancestors],
      result: tCall(ctx, node, ctx.namespaces.get(scope)),
      construct: 't(key)',
    })
    return false
  }
  const path = memberPath(callee)
  if (path?.length !== 2) return
  const [owner, method] = path as [string, string]
  const scope = scopeOf(ctx.scopes, owner, ancestors)
  if (scope && scope.locals.get(owner) === 'i18n') {
    scope.attempts.push({
      node,
      ancestors: [...ancestors],
      result: instanceCall(ctx, node, method),
      construct: `i18n.${method}`,
    })
    return false
  }
  if (!isInstance(ctx, owner)) return
  if (method === 't') {
    const result = tCall(ctx, node, undefined)
    if (failed(result)) state.leave(node, ancestors, result.problem)
    else {
      result()
      state.replacedRef(owner)
      state.count('i18next.t(key)')
    }
    return false
  }
  if (['init', 'use', 'changeLanguage', 'addResourceBundle', 'loadNamespaces'].includes(method))
    state.noteSetup(
      node,
      `${owner}.${method}(...) from i18next: remove the i18next setup (locales come from tms.config; switch with setLocale)`,
    )
}

/** i18next-vue's `$t('key')` in a template: our `t`, imported in `<script setup>`. */
function globalT(ctx: I18nextCtx, node: AstNode, ancestors: readonly AstNode[]): false {
  const { state } = ctx
  if (!/<script\b[^>]*\bsetup\b/.test(state.code)) {
    state.leave(
      node,
      ancestors,
      '$t in a component without <script setup>: import t from unplugin-tms/vue where the template can see it',
    )
    return false
  }
  const result = tCall(ctx, node, undefined)
  if (failed(result)) state.leave(node, ancestors, result.problem)
  else {
    result()
    state.count('$t(key)')
  }
  return false
}

/** `i18n.changeLanguage(l)` and `i18n.language` from useTranslation: ours are setLocale and getLocale. */
function instanceCall(ctx: I18nextCtx, node: AstNode, method: string): Built<() => void> {
  if (method !== 'changeLanguage' || node.arguments.length !== 1)
    return { problem: `i18n.${method}(...) has no counterpart in unplugin-tms; rewrite it by hand` }
  return () => {
    ctx.state.need('setLocale')
    ctx.state.replace(node.callee.start, node.callee.end, (n) => n.setLocale)
  }
}

/** `t('key', options)` as `t('Source text', values)`; a refusal when the key or an option cannot be read. */
function tCall(ctx: I18nextCtx, node: AstNode, hookNs: string | undefined): Built<() => void> {
  const { state } = ctx
  const [keyNode, second, third] = node.arguments
  const key = staticString(keyNode)
  if (key === null)
    return {
      problem: 'its key is not a literal, so its text cannot be looked up; write the text with t by hand',
    }
  const values = new Values()
  let ns = hookNs
  let fallback: string | null = null
  const options = second && staticString(second) !== null ? third : second
  if (second && staticString(second) !== null) fallback = staticString(second)
  if (options) {
    const props = objectProperties(options)
    if (!props) return { problem: 'its options are not an object literal' }
    for (const [name, value] of props) {
      if (T_OPTIONS_REFUSED.includes(name))
        return { problem: `its option ${name} has no counterpart in unplugin-tms` }
      if (name === 'ns') {
        ns = staticString(value) ?? undefined
        if (ns === undefined) return { problem: 'its ns is not a literal' }
      } else if (name === 'defaultValue') fallback = staticString(value)
      else {
        const clash = values.add(name, state.code.slice(value.start, value.end))
        if (clash) return { problem: clash }
      }
    }
  }
  let text = sourceText(ctx, key, ns, values.entries.has('context'))
  if (text === undefined && fallback !== null) {
    const built = i18nextText(fallback, false)
    if ('problem' in built) return { problem: `its defaultValue: ${built.problem}` }
    text = built.text
  }
  if (text === undefined)
    return {
      problem: `the key ${key}${ns ? ` (namespace ${ns})` : ''} has no text in the source locale's catalog`,
    }
  const final = text
  return () => {
    state.need('t')
    state.replace(node.start, node.end, (n) => callText(n.t, final, values, null))
  }
}
