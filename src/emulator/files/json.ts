import { APP_PLACEHOLDER_SOURCE } from '../../core/model/placeholders'
import { type FileFormat, FileParseError, lineAt, type SourceUnit } from './format'

interface StringLeaf {
  key: string
  value: string
  start: number
  end: number
}

/**
 * Finds every string value of a JSON text with its key path (`nav.home`, `items.0`) and its exact
 * span, so a writer can replace values in place: key order, duplicate keys, spacing and escapes of
 * the rest stay as written (a JSON.parse + stringify round trip would reorder integer-like keys).
 */
function scanJson(text: string): StringLeaf[] {
  const leaves: StringLeaf[] = []
  let at = 0
  const fail = (message: string): never => {
    throw new FileParseError(lineAt(text, at), message)
  }
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++
  }
  const stringToken = (): { value: string; start: number; end: number } => {
    const start = at
    at++
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++
      else if (text.charCodeAt(at) < 0x20) fail('control character in a string')
      at++
    }
    if (at >= text.length) fail('unterminated string')
    at++
    try {
      return { value: JSON.parse(text.slice(start, at)) as string, start, end: at }
    } catch {
      return fail(`invalid escape in string ${text.slice(start, Math.min(at, start + 40))}`)
    }
  }
  const value = (path: string[]): void => {
    space()
    const c = text[at]
    if (c === '{') {
      at++
      space()
      if (text[at] === '}') {
        at++
        return
      }
      for (;;) {
        space()
        if (text[at] !== '"') fail(`expected a property name, found ${describe(text[at])}`)
        const key = stringToken().value
        space()
        if (text[at] !== ':') fail(`expected ':' after property ${JSON.stringify(key)}`)
        at++
        value([...path, key])
        space()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === '}') {
          at++
          return
        }
        fail(`expected ',' or '}', found ${describe(text[at])}`)
      }
    }
    if (c === '[') {
      at++
      space()
      if (text[at] === ']') {
        at++
        return
      }
      for (let i = 0; ; i++) {
        value([...path, String(i)])
        space()
        if (text[at] === ',') {
          at++
          continue
        }
        if (text[at] === ']') {
          at++
          return
        }
        fail(`expected ',' or ']', found ${describe(text[at])}`)
      }
    }
    if (c === '"') {
      const token = stringToken()
      leaves.push({ key: path.join('.'), ...token })
      return
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(at, at + 400),
    )
    if (!literal) fail(`unexpected ${describe(c)}`)
    at += literal![0].length
  }
  if (text.charCodeAt(0) === 0xfeff) at = 1
  value([])
  space()
  if (at < text.length) fail(`unexpected ${describe(text[at])} after the end of the document`)
  return leaves
}

function describe(c: string | undefined): string {
  return c === undefined ? 'end of file' : JSON.stringify(c)
}

/** Every string value is a text; its key is the dotted path of object keys and array indexes. */
export const jsonFormat: FileFormat = {
  fileType: 'json',
  mediaType: 'application/json',
  placeholders: { custom: APP_PLACEHOLDER_SOURCE },
  honoursIncludeOriginalStrings: true,
  parse(content: string): SourceUnit[] {
    return scanJson(content).map((leaf) => ({
      key: leaf.key,
      text: leaf.value,
      variant: null,
      instruction: null,
    }))
  },
  write(content, render) {
    let out = ''
    let last = 0
    scanJson(content).forEach((leaf, i) => {
      const text = render({ key: leaf.key, text: leaf.value, variant: null, instruction: null }, i)
      // An unchanged text keeps its original escapes.
      out +=
        content.slice(last, leaf.start) +
        (text === leaf.value ? content.slice(leaf.start, leaf.end) : JSON.stringify(text))
      last = leaf.end
    })
    return out + content.slice(last)
  },
}
