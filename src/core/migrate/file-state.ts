import MagicString from 'magic-string'
import type { AstNode } from '../extract/nodes'
import type { FileMigration, FormatsFound, LeftOver, MigrateOptions, SetupNote } from './types'
import { enclosingStatement } from './walk'

/** A name the rewritten code takes from our packages. */
export type OurName = 't' | 'msg' | 'T' | 'useLocale' | 'setLocale' | 'getLocale'

/** The local names our imports get: the plain name, or an alias where the file still binds it. */
export type Names = Readonly<Record<OurName, string>>

/** Where a unit's code sits: a script (JS comments) or an expression of a template's markup. */
export type UnitKind = 'script' | 'markup'

/** One program oxc-parser read from the file: the whole file, a script block, or a markup expression. */
export interface Unit {
  program: AstNode
  kind: UnitKind
}

/** The framework whose bindings the file's components use. */
export type Framework = 'react' | 'vue' | 'svelte'

/**
 * Everything one file's migration accumulates: its edits (made at the end, once the names our
 * imports take are known), the conversions, what was left and why, the setup to remove by hand.
 */
export class FileState {
  readonly file: string
  readonly code: string
  readonly options: MigrateOptions
  readonly framework: Framework
  readonly units: Unit[] = []
  readonly conversions: Record<string, number> = {}
  readonly left: LeftOver[] = []
  readonly setup: SetupNote[] = []
  readonly formats: FormatsFound[] = []
  readonly needed: Set<OurName> = new Set()
  /** References of each imported local name that a conversion replaced. */
  readonly replacedRefs: Map<string, number> = new Map()
  /** Statements a conversion replaced whole: their names no longer take our names' place. */
  readonly replacedStatements: Set<AstNode> = new Set()
  private readonly edits: { start: number; end: number; make: (names: Names) => string }[] = []
  private readonly todos = new Map<number, string[]>()
  private lineStarts: number[] | undefined

  constructor(file: string, code: string, options: MigrateOptions, framework: Framework) {
    this.file = file
    this.code = code
    this.options = options
    this.framework = framework
  }

  count(construct: string): void {
    this.conversions[construct] = (this.conversions[construct] ?? 0) + 1
  }

  /** Replaces `start..end` with the text `make` writes once our names are known. */
  replace(start: number, end: number, make: (names: Names) => string): void {
    this.edits.push({ start, end, make })
  }

  /** A reference to an imported name that the conversion took away. */
  replacedRef(local: string): void {
    this.replacedRefs.set(local, (this.replacedRefs.get(local) ?? 0) + 1)
  }

  need(...names: OurName[]): void {
    for (const n of names) this.needed.add(n)
  }

  position(offset: number): { line: number; column: number } {
    if (!this.lineStarts) {
      this.lineStarts = [0]
      for (let i = 0; i < this.code.length; i++) if (this.code[i] === '\n') this.lineStarts.push(i + 1)
    }
    let lo = 0
    let hi = this.lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 }
  }

  /**
   * Leaves a construct as it is, with a `TODO(tms)` comment on the line before it (a JSX comment
   * among JSX children, an HTML comment in markup, a line comment in front of its statement
   * elsewhere, where a comment is sure to be code and not text).
   */
  leave(node: AstNode, ancestors: readonly AstNode[], reason: string): void {
    const kind = this.units.find((u) => u.program === ancestors[0])?.kind ?? 'script'
    this.left.push({ file: this.file, ...this.position(node.start), reason })
    const holder = kind === 'markup' ? node : enclosingStatement(node, ancestors)
    const inJsx = holder.type.startsWith('JSX')
    const at = holder.start
    const lineStart = this.code.lastIndexOf('\n', at - 1) + 1
    const indent = /^[ \t]*/.exec(this.code.slice(lineStart))![0]
    const startsLine = this.code.slice(lineStart, at).trim() === ''
    const comment =
      kind === 'markup'
        ? `<!-- TODO(tms): ${reason.replace(/--/g, '- -')} -->`
        : inJsx
          ? `{/* TODO(tms): ${reason.replace(/\*\//g, '* /')} */}`
          : `// TODO(tms): ${reason.replace(/\n/g, ' ')}`
    // A second run finds its own comment on the line above and adds nothing.
    const above = this.code.slice(this.code.lastIndexOf('\n', lineStart - 2) + 1, lineStart)
    if (above.includes(comment) || this.code.slice(lineStart, at).includes(comment)) return
    const insertAt = startsLine || !inJsx ? lineStart : at
    const list = this.todos.get(insertAt) ?? []
    if (list.includes(comment)) return
    list.push(startsLine || !inJsx ? `${indent}${comment}\n` : `${comment}`)
    this.todos.set(insertAt, list)
  }

  /** A provider or setup call of the old library, listed for the user; the code stays. */
  noteSetup(node: AstNode, what: string): void {
    const place = this.position(node.start)
    if (this.setup.some((s) => s.line === place.line && s.what === what)) return
    this.setup.push({ file: this.file, ...place, what })
  }

  /** Applies the edits and comments with the names our imports took. */
  finish(names: Names, importEdits: { start: number; end: number; text: string }[]): FileMigration {
    const s = new MagicString(this.code)
    for (const e of this.edits) s.overwrite(e.start, e.end, e.make(names))
    for (const e of importEdits) {
      if (e.start === e.end) s.appendLeft(e.start, e.text)
      else s.overwrite(e.start, e.end, e.text)
    }
    for (const [at, comments] of this.todos) s.prependLeft(at, comments.join(''))
    const code = s.toString()
    return {
      file: this.file,
      code,
      changed: code !== this.code,
      conversions: this.conversions,
      left: this.left,
      setup: this.setup,
      formats: this.formats,
    }
  }
}
