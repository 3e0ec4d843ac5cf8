/**
 * What every scanner asks of oxc-parser alike: its options per kind of program, and its errors turned
 * into a file's warning.
 */
import type { ParserOptions } from 'oxc-parser'
import type { FileContext } from './file-context'
import type { ParseUnit } from './sources'

type UnitKind = `${ParseUnit['lang']}:${ParseUnit['sourceType']}`
const lazyParseOptions = new Map<UnitKind, ParserOptions>()
const jsonParseOptions = new Map<UnitKind, ParserOptions>()

/**
 * Parser options per language and source type, built once: for raw transfer with the lazy visitor
 * (`lazy`), or for an AST as one JSON string.
 */
export function parserOptions(unit: ParseUnit, lazy: boolean): ParserOptions {
  const table = lazy ? lazyParseOptions : jsonParseOptions
  const kind: UnitKind = `${unit.lang}:${unit.sourceType}`
  let options = table.get(kind)
  if (options === undefined) {
    options = { lang: unit.lang, sourceType: unit.sourceType, preserveParens: false }
    // `experimentalLazy` is read by oxc-parser's JS wrapper; its type declarations do not list it.
    if (lazy) Object.assign(options, { experimentalLazy: true })
    else options.astType = 'js'
    table.set(kind, options)
  }
  return options
}

/** Reports the first parse error as the file's warning; true when there was one (nothing is extracted). */
// biome-ignore lint/suspicious/noExplicitAny: oxc's error objects in both flavours.
export function reportParseErrors(ctx: FileContext, errors: ArrayLike<any>): boolean {
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i]
    if (error.severity !== 'Error') continue
    const label = error.labels?.[0]
    ctx.report(
      'warning',
      'parse-error',
      typeof label?.start === 'number' ? label.start : null,
      `does not parse (${error.message}); its messages are not extracted`,
    )
    return true
  }
  return false
}
