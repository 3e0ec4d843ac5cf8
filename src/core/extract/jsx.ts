/**
 * `<T>` of `unplugin-tms/react`: a message written as JSX children, extracted as one message.
 *
 *   <T>Hello <b>{name}</b>, see <a href="/docs">the docs</a></T>
 *     -> `Hello <b>{name}</b>, see <a>the docs</a>`: a placeholder and two tags
 *
 * This file finds the elements: the local names `T` has in a program, then each element of one of
 * them. `jsx-element.ts` reads one element into its message, `jsx-text.ts` its text as React renders it.
 *
 * The file is parsed a second time, into a whole ESTree, only when its text names the binding's module:
 * the call scanners (scan.ts) read calls only, and most files import no `<T>`.
 */
import type { FileContext } from './file-context'
import { TElement, writtenName } from './jsx-element'
import type { AstNode } from './nodes'
import { oxcParser } from './oxc'
import type { ParseUnit } from './sources'

/** The module `<T>` comes from. */
export const REACT_MODULE = 'unplugin-tms/react'

/** Whether a file may hold `<T>` messages: its text names the binding's module. */
export function mentionsJsxMessages(code: string): boolean {
  return code.includes(REACT_MODULE)
}

/** The local names of `T` in a program: `import { T }`, `import { T as Trans }`, `import * as i18n` (`i18n.T`). */
function localNames(imports: Iterable<AstNode>): Set<string> {
  const names = new Set<string>()
  for (const record of imports) {
    if (record.moduleRequest.value !== REACT_MODULE) continue
    for (const entry of record.entries) {
      if (entry.isType) continue
      const kind = entry.importName.kind
      if (kind === 'Name' && entry.importName.name === 'T') names.add(entry.localName.value)
      else if (kind === 'NamespaceObject') names.add(`${entry.localName.value}.T`)
    }
  }
  return names
}

/** Finds the `<T>` elements of one program and adds their messages to `ctx`. */
export function scanJsx(ctx: FileContext, unit: ParseUnit): void {
  if (unit.lang === 'ts') return
  const result = oxcParser().parseSync(unit.parseName, unit.code, {
    lang: unit.lang,
    sourceType: unit.sourceType,
    // The TS flavour keeps an element's type arguments (`<List<Item>`), after which a `key` goes.
    astType: unit.lang === 'tsx' ? 'ts' : 'js',
    preserveParens: false,
  })
  // A file that does not parse was reported by the call scan already.
  if (result.errors.some((e) => e.severity === 'Error')) return
  const names = localNames(result.module.staticImports as unknown as AstNode[])
  if (names.size === 0) return
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (node === null || typeof node !== 'object') return
    const n = node as AstNode
    if (n.type === 'JSXElement' && names.has(writtenName(n.openingElement.name))) {
      new TElement(ctx, n, names).extract()
    }
    for (const key in n) if (key !== 'parent') visit(n[key])
  }
  visit(result.program)
}
