import { cloneElement, isValidElement, type ReactElement } from 'react'
import type { Formatted, Values } from 'unplugin-tms/runtime'

/**
 * React elements as the values of a `<T msg>` (`values={{ name: <strong>{name}</strong> }}`, as
 * react-intl's `<FormattedMessage>` takes them): the runtime inserts values as text, so each element
 * goes through it as a marker and comes back as itself where the marker landed, in the message's
 * text and in the chunks its tag functions receive.
 */

const MARK = /\u0000(\d+)\u0000/

/** `format` with the element values of `values` shown as the elements; other values as given. */
export function withElementValues(
  values: Values | undefined,
  format: (values?: Values) => Formatted,
): Formatted {
  if (!values || Array.isArray(values)) return format(values)
  const elements: ReactElement[] = []
  const marked: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    if (isValidElement(value)) {
      marked[name] = `\u0000${elements.length}\u0000`
      elements.push(value)
    } else marked[name] = value
  }
  if (elements.length === 0) return format(values)
  let made = 0
  const restore = (parts: unknown): unknown[] =>
    (Array.isArray(parts) ? parts : [parts]).flatMap((part) =>
      typeof part === 'string'
        ? part
            .split(MARK)
            .map((piece, i) =>
              i % 2 ? cloneElement(elements[Number(piece)]!, { key: `v${made++}` }) : piece,
            )
            .filter((piece) => piece !== '')
        : [part],
    )
  for (const [name, value] of Object.entries(marked))
    if (typeof value === 'function')
      marked[name] = (chunks: unknown, ...rest: unknown[]) => value(restore(chunks), ...rest)
  return restore(format(marked))
}
