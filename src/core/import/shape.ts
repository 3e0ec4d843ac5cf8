import { renameIcu } from './icu-text'

/**
 * A message's shape: its text with every argument and tag name replaced by its rank of first
 * appearance (`Read <0>the docs</0>, {name}` and `Read <a>the docs</a>, {user}` have one shape), so
 * an imported message meets ours whatever the other library called its values and elements. The
 * names in order give the renaming from one side to the other. Self-closing tags are opened
 * (`<0/>` as `<0></0>`), as our extraction writes an empty element.
 */
export interface MessageShape {
  /** The text with names replaced; equal shapes are the same message modulo spelling. */
  key: string
  /** Tag names in order of first appearance. */
  tags: string[]
  /** Argument names (simple, plural, select...) in order of first appearance. */
  args: string[]
}

/** A record that answers every name with its rank, noting the names in order. */
function ranking(prefix: string, seen: string[]): Record<string, string> {
  return new Proxy(
    {},
    {
      get: (_target, name) => {
        if (typeof name !== 'string') return undefined
        let rank = seen.indexOf(name)
        if (rank < 0) rank = seen.push(name) - 1
        return `${prefix}${rank}`
      },
    },
  )
}

export function shapeOf(text: string): MessageShape {
  const tags: string[] = []
  const args: string[] = []
  const { text: key } = renameIcu(text, { tags: ranking('t', tags), arguments: ranking('a', args) })
  return { key, tags, args }
}

/** The renaming of `from`'s names into `to`'s, by rank; only the names that differ. */
export function renamingBetween(
  from: MessageShape,
  to: MessageShape,
): { tags: Record<string, string>; arguments: Record<string, string> } {
  const pairs = (a: string[], b: string[]): Record<string, string> =>
    Object.fromEntries(a.map((name, i) => [name, b[i]!]))
  return { tags: pairs(from.tags, to.tags), arguments: pairs(from.args, to.args) }
}
