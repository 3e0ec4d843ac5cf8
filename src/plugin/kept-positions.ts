import type { CallSite } from '../core/extract/index'
import type { KeywordSpec } from '../core/extract/keywords'
import { jsString } from '../core/js-string'
import { LOOKUP_LOCAL, type SiteLookup } from './lookup'

/**
 * A vite dev server's rewrite that moves no character of the module, so it returns no source map: the
 * server then serves the module with one map, its TypeScript/JSX transform's, as it does without the
 * plugin, instead of combining two for every module it serves (BENCHMARKS.md's dev loop: the server's
 * CPU to the first page).
 *
 *   t('Hi {name}', { name })   ->  c('Hi {name}', { name })
 *   t`Hi ${name}`              ->  d`Hi ${name}`
 *   ... the module's code, then, after its last line:
 *   ;import { _l as __tms_l } from "unplugin-tms/runtime";function c(a,v){return __tms_l("<id>",a,v)}...
 *
 * Each message's lookup is a function declaration at the end of the module, named by one lowercase
 * letter that is no one-letter word of the module (so no name of the app's; lowercase, so React Fast
 * Refresh takes none for a component; ASCII, as a module's text in one byte a character is cheaper for
 * every tool after). Its callee becomes that name and blanks (a line break stays one), so every other
 * character keeps its line and column; type arguments stay, for TypeScript to drop. Declarations and
 * imports are hoisted, so a module-level message finds its lookup. The options argument stays, and the
 * lookup ignores it as the usual rewrite drops it. The map the server serves then holds the rewritten
 * code as the module's content: the dev plugin's last transform puts the source there (dev-plugin.ts).
 *
 * Only the default API's calls and tagged templates take this form: a module with any other site (`<T>`,
 * `msg`, a keyword with argument positions, a call in a template), with more messages than free
 * letters, or that could spell a name with an escape is rewritten as usual, with its map.
 */

/** The names a lookup may take. */
const NAMES = 'abcdefghijklmnopqrstuvwxyz'

/** A one-character word of the code, in a string or a comment too: a name the module may use. */
const ONE_CHARACTER_WORD = /(?<![\w$])[A-Za-z_$](?![\w$])/g

/** An escape outside a word, which could spell a name (`\u0061`): the module keeps the usual rewrite. */
const ESCAPED_NAME = /(?<![\w$\\])\\u/

/** The names no one-character word of the module is: undefined when the module may spell one escaped. */
function freeNames(code: string): string[] | undefined {
  if (ESCAPED_NAME.test(code)) return undefined
  const used = new Set(code.match(ONE_CHARACTER_WORD))
  return [...NAMES].filter((name) => !used.has(name))
}

/**
 * The modules vite's own TypeScript/JSX transform compiles (its default include): its map is the one
 * the dev plugin gives the module's source as content. A plain `.js` module, which vite serves with a
 * map of the code it is given, keeps the usual rewrite and its map; so do CommonJS and the frameworks'
 * single-file components.
 */
const PLAIN_MODULE = /\.(?:m?ts|[jt]sx)$/i

export interface KeptInput {
  code: string
  /** The module's path, without a query. */
  path: string
  calls: readonly CallSite[]
  lookup: (site: CallSite) => SiteLookup | undefined
  specs: ReadonlyMap<string, KeywordSpec>
  /** The runtime's import statement (`import { _l as __tms_l } from "..."`). */
  runtimeImport: string
}

export interface KeptResult {
  code: string
  ids: string[]
}

/** The rewrite, or undefined when a site or the module does not allow it (null: nothing to rewrite). */
export function keptPositionsRewrite(input: KeptInput): KeptResult | null | undefined {
  const { code, calls } = input
  if (!PLAIN_MODULE.test(input.path)) return undefined
  const free = freeNames(code)
  if (!free) return undefined
  // Every site and the names are checked before any site is looked up: the usual rewrite, if it
  // must write the module, looks the sites up itself.
  const ranges = calls.map((site) => calleeRange(code, site, input.specs))
  if (ranges.some((range) => range === undefined)) return undefined
  if (new Set(calls.map(lookupKind)).size > free.length) return undefined
  const edits: { start: number; end: number; name: string }[] = []
  const names = new Map<string, string>()
  const definitions: string[] = []
  const ids: string[] = []
  for (const [i, site] of calls.entries()) {
    const found = input.lookup(site)
    if (!found) continue
    // One function per distinct lookup: sites of one message share it.
    const body = lookupBody(found, site)
    let name = names.get(body)
    if (name === undefined) {
      name = free[names.size]
      if (name === undefined) return undefined
      names.set(body, name)
      definitions.push(`function ${name}${body}`)
    }
    edits.push({ ...ranges[i]!, name })
    ids.push(found.id)
  }
  if (edits.length === 0) return null
  edits.sort((a, b) => a.start - b.start)
  let out = ''
  let last = 0
  for (const e of edits) {
    out += code.slice(last, e.start) + e.name + blanked(code.slice(e.start + 1, e.end))
    last = e.end
  }
  // After a line break, so a last line that is a comment does not hold it; `;` ends a last statement
  // written without one.
  out += `${code.slice(last)}\n;${input.runtimeImport}${definitions.join('')}`
  return { code: out, ids }
}

/** The range a site's name takes, its callee (or tag); undefined for a site this rewrite does not take. */
function calleeRange(
  code: string,
  site: CallSite,
  specs: ReadonlyMap<string, KeywordSpec>,
): { start: number; end: number } | undefined {
  if (site.markup !== undefined || site.descriptor) return undefined
  if (site.kind !== 'call' && site.kind !== 'tagged') return undefined
  if (site.kind === 'call' && site.args.length === 0) return undefined
  const spec = specs.get(code.slice(site.callee.start, site.callee.end))
  if (spec && !spec.defaultApi) return undefined
  return site.callee
}

/**
 * What a site's lookup function depends on besides its message's id and compiled form, which its key
 * gives: sites of one kind look a message up alike.
 */
function lookupKind(site: CallSite): string {
  const names = (site.expressions ?? []).map((e) => e.name)
  return [site.kind, site.messageKey, ...site.placeholders, '', ...names].join('\0')
}

/** Every character but line breaks as a blank: the rest of the callee after the name. */
function blanked(text: string): string {
  return text.replace(/[^\r\n]/g, ' ')
}

/** The parameters and body of the function a site's name calls: a call's arguments, a template's values. */
function lookupBody(found: SiteLookup, site: CallSite): string {
  const open = `${LOOKUP_LOCAL}(${jsString(found.id)},`
  if (site.kind === 'tagged') {
    const values = (site.expressions ?? []).map((e, i) => `${jsString(e.name)}:x[${i}]`)
    const text = found.form ?? jsString(found.text)
    return `(s,...x){return ${open}${text}${values.length > 0 ? `,{${values.join(',')}}` : ''})}`
  }
  return `(a,v){return ${open}${found.form ?? 'a'},v)}`
}
