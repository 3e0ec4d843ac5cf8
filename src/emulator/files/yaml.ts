import { Composer, CST, type Document, isMap, isScalar, isSeq, LineCounter, Parser, type Scalar } from 'yaml'
import {
  type FileFormat,
  FileParseError,
  type ParseContext,
  type SourceUnit,
  type WriteTarget,
} from './format'

interface Leaf {
  key: string
  node: Scalar
  afterKey: boolean
  inFlow: boolean
}

interface ParsedYaml {
  tokens: CST.Token[]
  leaves: Leaf[]
  /** The Rails-style root key naming the source locale (`en:`), when the file has one. */
  localeRoot: Scalar | null
}

function languageOf(localeId: string): string {
  return localeId.split(/[-_]/)[0]!
}

/**
 * Parses with source tokens kept, so values can be replaced in the CST and the file printed back
 * with its comments, quoting and layout untouched.
 */
function parseYaml(text: string, sourceLocaleId: string): ParsedYaml {
  const lineCounter = new LineCounter()
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)]
  const docs = [...new Composer({ keepSourceTokens: true }).compose(tokens)] as Document.Parsed[]
  for (const doc of docs) {
    const error = doc.errors[0]
    if (error) throw new FileParseError(lineCounter.linePos(error.pos[0]).line, error.message.split('\n')[0]!)
  }
  if (docs.length > 1) {
    throw new FileParseError(
      lineCounter.linePos(docs[1]!.range[0]).line,
      'only one YAML document per file is supported',
    )
  }
  const leaves: Leaf[] = []
  let localeRoot: Scalar | null = null
  let root = docs[0]?.contents ?? null
  if (isMap(root) && root.items.length === 1 && isScalar(root.items[0]!.key)) {
    const key = root.items[0]!.key as Scalar
    const name = String(key.value)
    if (name === sourceLocaleId || name === languageOf(sourceLocaleId)) {
      localeRoot = key
      root = root.items[0]!.value as typeof root
    }
  }
  const walk = (node: unknown, path: string[], afterKey: boolean, inFlow: boolean): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
        walk(pair.value, [...path, key], true, inFlow || Boolean(node.flow))
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        walk(item, [...path, String(i)], false, inFlow || Boolean(node.flow))
      })
    } else if (isScalar(node) && typeof node.value === 'string' && node.srcToken) {
      leaves.push({ key: path.join('.'), node, afterKey, inFlow })
    }
  }
  walk(root, [], false, false)
  return { tokens, leaves, localeRoot }
}

function unitOf(leaf: Leaf): SourceUnit {
  return { key: leaf.key, text: leaf.node.value as string, variant: null, instruction: null }
}

/**
 * YAML: every string scalar is a text keyed by its dotted path. A Rails-style root key naming the
 * source locale (`en:` or `en-US:`) is not part of the keys and becomes the target locale (in the
 * same form) in downloads.
 */
export const yamlFormat: FileFormat = {
  fileType: 'yaml',
  mediaType: 'application/yaml',
  placeholders: { format: 'yaml' },
  honoursIncludeOriginalStrings: false,
  parse(content: string, context: ParseContext): SourceUnit[] {
    return parseYaml(content, context.sourceLocaleId).leaves.map(unitOf)
  },
  write(content, render, target: WriteTarget) {
    const { tokens, leaves, localeRoot } = parseYaml(content, target.sourceLocaleId)
    leaves.forEach((leaf, i) => {
      const text = render(unitOf(leaf), i)
      if (text === leaf.node.value) return
      CST.setScalarValue(leaf.node.srcToken!, text, { afterKey: leaf.afterKey, inFlow: leaf.inFlow })
    })
    if (localeRoot && target.localeId !== null) {
      const languageOnly = !/[-_]/.test(String(localeRoot.value))
      const name = languageOnly ? languageOf(target.localeId) : target.localeId
      CST.setScalarValue(localeRoot.srcToken!, name, { implicitKey: true })
    }
    return tokens.map((t) => CST.stringify(t)).join('')
  },
}
