import type { UnpluginMessage, UnpluginOptions } from 'unplugin'
import { escapeRegex } from '../core/escape-regex'
import { REACT_MODULE } from '../core/extract/jsx'
import { MESSAGE_COMPONENT_MENTION } from '../core/extract/vue'
import type { Options } from '../options'
import { type Framework, isRollupLike, isWebpackLike, PLUGIN_NAME, type PluginContext } from './context'
import { toEsbuildMessage } from './esbuild'
import { type Problem, toRollupLog, toText, vitePrinter } from './problems'
import { RUNTIME_SPECIFIER } from './virtual-plugin'
import { staticTransformRule } from './webpack-rule'

/**
 * The transform: each included module's message calls become catalog lookups (`TmsSession.transform`,
 * `src/plugin/transform.ts`), its problems handed to the bundler in its own shape.
 */

const SCRIPT_MODULE = /\.(?:[cm]?[jt]sx?|vue|svelte|astro)(?:\?|$)/
const NODE_MODULES = /[\\/]node_modules[\\/]/

/**
 * The transform's code filter: a mention of a keyword's last name before `(`, a backtick, `<` or
 * `?.`, or of the runtime module or the React binding's (`<T>`). Modules without one never reach the handler (on rolldown and vite
 * the test runs natively). Keywords set in a tms.config file are not known yet here: then only the
 * id filter applies and the handler's own check decides.
 */
export function codeFilter(raw: Options | undefined, hasConfigFile: boolean): RegExp | undefined {
  if (!raw?.keywords && hasConfigFile) return undefined
  const names = [...new Set((raw?.keywords ?? ['t']).map((k) => k.split(':')[0]!.split('.').pop()!))]
  const alternatives = names.map((n) => (/^[\w]/.test(n) ? `\\b${escapeRegex(n)}` : escapeRegex(n)))
  // Vue's `<T msg="...">` and React's `<T>` hold a message without any call.
  return new RegExp(
    `(?:${alternatives.join('|')})\\s*(?:\\(|\`|<|\\?\\.)|${escapeRegex(RUNTIME_SPECIFIER)}|${MESSAGE_COMPONENT_MENTION.source}|${escapeRegex(REACT_MODULE)}`,
  )
}

/** A problem in the shape the bundler's `this.warn` / `this.error` takes. */
function toMessage(
  framework: Framework,
  p: Problem,
  vite: { ctx: unknown; command: 'build' | 'serve' },
): string | UnpluginMessage {
  if (isRollupLike(framework)) {
    const printer =
      framework === 'vite' && p.severity === 'warning' ? vitePrinter(vite.ctx, vite.command) : 'fields'
    return toRollupLog(p, printer)
  }
  if (framework === 'esbuild') {
    const m = toEsbuildMessage(p)
    return {
      message: m.text ?? p.message,
      loc: p.line === undefined ? undefined : { file: p.file, line: p.line, column: (p.column ?? 1) - 1 },
    }
  }
  return toText(p)
}

export function transformPlugin(plugins: PluginContext): UnpluginOptions {
  const { session, framework } = plugins
  const code = codeFilter(plugins.raw, plugins.hasConfigFile)
  const plugin: UnpluginOptions = {
    name: PLUGIN_NAME,
    // Before other transforms: the call sites found at build start are positions in the original text.
    enforce: 'pre',
    // esbuild: only script files cross into JavaScript (its Go filter has no exclusion: node_modules
    // is left out by the id filter below).
    esbuild: { onLoadFilter: SCRIPT_MODULE },
    transform: {
      filter: { id: { include: SCRIPT_MODULE, exclude: NODE_MODULES }, ...(code ? { code } : {}) },
      async handler(source, id) {
        await session.ready()
        const result = session.transform(source, id)
        if (!result) return null
        for (const p of result.problems) {
          const message = toMessage(framework, p, { ctx: this, command: session.command })
          if (p.severity === 'error') this.error(message)
          else this.warn(message)
        }
        if (result.code === source) return null
        // A dev server's rewrite that moved no character returned no map (kept-positions.ts).
        if (result.map === null) plugins.keptSources?.set(id, { source, code: result.code })
        return { code: result.code, map: result.map }
      },
    },
  }
  if (isWebpackLike(framework)) {
    // unplugin has just put the transform's rule first: the same rule, static (webpack-rule.ts).
    const ownRule = (compiler: { options: { module?: { rules?: unknown[] } } }): void =>
      staticTransformRule(compiler.options.module?.rules, plugin, SCRIPT_MODULE, NODE_MODULES)
    plugin.webpack = ownRule
    plugin.rspack = ownRule
  }
  return plugin
}
