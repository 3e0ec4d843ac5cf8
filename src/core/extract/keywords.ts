import { ExtractOptionsError } from './errors'

/**
 * xgettext-style keyword specs. `name` alone is the default API: `t(text, values?, options?)` and the
 * tagged template. `name:1,2c` lists argument positions (1-based) the way xgettext does: the first plain
 * number is the text, a second one the plural, and the one suffixed `c` the context (sent as the
 * variant). A dotted name (`i18n.t`) matches a member call.
 */
export interface KeywordSpec {
  /** As configured, e.g. `_nx:1,2,4c`. */
  source: string
  /** `t`, `__`, `i18n.t` */
  name: string
  /** The callee path: `['i18n', 't']`. */
  path: string[]
  /** 0-based argument index of the text. */
  text: number
  /** 0-based argument index of the plural text, or null. */
  plural: number | null
  /** 0-based argument index of the context (variant), or null. */
  context: number | null
  /** True for a bare name: options object as 3rd argument, tagged templates allowed. */
  defaultApi: boolean
  /** The runtime's `msg`: the call makes a lazy message descriptor, formatted when it is called. */
  descriptor?: true
}

const SPEC = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?::(.*))?$/

function specError(source: string, why: string): ExtractOptionsError {
  return new ExtractOptionsError('keywords', `keywords: "${source}" ${why}`)
}

/** Parses one keyword spec; throws an error naming the `keywords` option and the bad spec. */
export function parseKeywordSpec(source: string): KeywordSpec {
  if (typeof source !== 'string') throw specError(String(source), 'is not a string')
  const match = SPEC.exec(source.trim())
  if (!match) {
    throw specError(source, 'is not a keyword spec; write "t", "_x:1,2c", "_n:1,2" or "i18n.t"')
  }
  const name = match[1]!
  const path = name.split('.')
  if (match[2] === undefined) {
    return { source, name, path, text: 0, plural: null, context: null, defaultApi: true }
  }
  const plain: number[] = []
  let context: number | null = null
  for (const part of match[2].split(',')) {
    const arg = /^\s*(\d+)(c?)\s*$/.exec(part)
    if (!arg || Number(arg[1]) < 1) {
      throw specError(source, `has a bad argument "${part}"; use 1-based positions such as 1, 2 or 2c`)
    }
    const index = Number(arg[1]) - 1
    if (plain.includes(index) || context === index) {
      throw specError(source, `uses argument ${index + 1} twice`)
    }
    if (arg[2] === 'c') {
      if (context !== null) throw specError(source, 'has more than one context argument')
      context = index
    } else {
      plain.push(index)
    }
  }
  if (plain.length === 0) throw specError(source, 'names no text argument')
  if (plain.length > 2) throw specError(source, 'names more than two text arguments (text and plural)')
  return {
    source,
    name,
    path,
    text: plain[0]!,
    plural: plain[1] ?? null,
    context,
    defaultApi: false,
  }
}

/** The default API spec, used for the runtime's `t` under whatever local name it is imported. */
export const RUNTIME_T_SPEC: KeywordSpec = {
  source: 't',
  name: 't',
  path: ['t'],
  text: 0,
  plural: null,
  context: null,
  defaultApi: true,
}

/** The runtime's `msg` (a lazy message descriptor), under whatever local name it is imported: `t`'s API. */
export const RUNTIME_MSG_SPEC: KeywordSpec = {
  ...RUNTIME_T_SPEC,
  source: 'msg',
  name: 'msg',
  path: ['msg'],
  descriptor: true,
}

/** The runtime's exports that are message functions, by exported name. */
export const RUNTIME_MESSAGE_EXPORTS: ReadonlyMap<string, KeywordSpec> = new Map([
  ['t', RUNTIME_T_SPEC],
  ['msg', RUNTIME_MSG_SPEC],
])
