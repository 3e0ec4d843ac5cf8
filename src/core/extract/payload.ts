/**
 * A file's extraction as the extraction cache stores it: compact JSON of its messages, call sites and
 * diagnostics (positional arrays, not objects), decoded only when something reads that file's result.
 * A warm build reads thousands of these and most are never looked at, so decoding waits for the first
 * read (`storedExtraction`), and a one-off read keeps nothing (`transientExtraction`).
 */
import { type StoredText, textOf } from '../stored-text'
import {
  type CallSite,
  type Diagnostic,
  type FileExtraction,
  type JsxSite,
  type Markup,
  type Message,
  messageKey,
} from './types'

export type EncodedMessage = [
  text: string,
  parsed: string | 0,
  variant: string | null,
  instruction: string | 0,
  maxLength: number | 0,
  placeholders: string[],
  /** per-file payload: line, column, ...; merged: fileIndex, line, column, ... */
  where: number[],
]

type EncodedCall = [
  /** call 0, tagged 1, attribute 2, jsx 3; plus 4 for a descriptor, 8 for a module-level call */
  kind: number,
  start: number,
  end: number,
  calleeStart: number,
  calleeEnd: number,
  line: number,
  column: number,
  message: number,
  plural: number,
  /** call: start, end of each argument; tagged: start, end of each expression */
  ranges: number[],
  /** tagged: the placeholder name of each expression */
  names: string[] | 0,
  /** 0 when equal to the message's placeholders */
  placeholders: string[] | 0,
  pluralPlaceholders: string[] | 0,
  /** absent, or the site's markup (Vue templates); 0 when a `<T>` element's data follows */
  markup?: Markup | 0,
  /** React's `<T>` elements: the opening element and the pieces, as found */
  jsx?: JsxSite,
]

interface EncodedFile {
  m: EncodedMessage[]
  c: EncodedCall[]
  d: Diagnostic[]
}

export function encodeMessage(m: Message, where: number[]): EncodedMessage {
  return [
    m.text,
    m.parsed === m.text ? 0 : m.parsed,
    m.variant,
    m.instruction ?? 0,
    m.maxLength ?? 0,
    m.placeholders,
    where,
  ]
}

export function decodeMessage(e: EncodedMessage, namespace: string | null): Omit<Message, 'locations'> {
  const parsed = e[1] === 0 ? e[0] : e[1]
  const m: Omit<Message, 'locations'> = {
    key: messageKey(parsed, e[2], namespace),
    text: e[0],
    parsed,
    placeholders: e[5],
    variant: e[2],
    namespace,
  }
  if (e[3] !== 0) m.instruction = e[3]
  if (e[4] !== 0) m.maxLength = e[4]
  return m
}

function sameList(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((x, i) => x === b[i])
}

export function encodeFile(result: FileExtraction): string {
  const index = new Map<string, number>()
  const m = result.messages.map((msg, i) => {
    index.set(msg.key, i)
    const where: number[] = []
    for (const l of msg.locations) where.push(l.line, l.column)
    return encodeMessage(msg, where)
  })
  const c = result.calls.map((call) => {
    const mi = index.get(call.messageKey) ?? -1
    const pi = call.pluralKey === undefined ? -1 : (index.get(call.pluralKey) ?? -1)
    const ranges: number[] = []
    for (const r of call.kind === 'tagged' ? (call.expressions ?? []) : call.args) ranges.push(r.start, r.end)
    const encoded: EncodedCall = [
      (call.kind === 'tagged' ? 1 : call.kind === 'attribute' ? 2 : call.kind === 'jsx' ? 3 : 0) +
        (call.descriptor ? 4 : 0) +
        (call.moduleLevel ? 8 : 0),
      call.start,
      call.end,
      call.callee.start,
      call.callee.end,
      call.line,
      call.column,
      mi,
      pi,
      ranges,
      call.kind === 'tagged' ? (call.expressions ?? []).map((e) => e.name) : 0,
      sameList(call.placeholders, result.messages[mi]?.placeholders) ? 0 : call.placeholders,
      call.pluralPlaceholders === undefined ? 0 : call.pluralPlaceholders,
    ]
    if (call.markup !== undefined || call.jsx) encoded.push(call.markup ?? 0)
    if (call.jsx) encoded.push(call.jsx)
    return encoded
  })
  return JSON.stringify({ m, c, d: result.diagnostics } satisfies EncodedFile)
}

function decodeFile(
  file: string,
  payload: StoredText,
  namespace: string | null,
): Pick<FileExtraction, 'messages' | 'calls' | 'diagnostics'> {
  const data = JSON.parse(textOf(payload)) as EncodedFile
  const messages = decodeMessages(file, data.m, namespace)
  const calls: CallSite[] = new Array(data.c.length)
  for (let k = 0; k < data.c.length; k++) calls[k] = decodeCall(data.c[k]!, messages)
  return { messages, calls, diagnostics: data.d }
}

function decodeMessages(
  file: string,
  encoded: readonly EncodedMessage[],
  namespace: string | null,
): Message[] {
  // Plain loops and objects made whole: a build decodes every module's record as it transforms it.
  const messages: Message[] = new Array(encoded.length)
  for (let k = 0; k < encoded.length; k++) {
    const e = encoded[k]!
    const where = e[6]
    const locations = new Array(where.length >> 1)
    for (let i = 0; i < where.length; i += 2)
      locations[i >> 1] = { file, line: where[i]!, column: where[i + 1]! }
    const m = decodeMessage(e, namespace) as Message
    m.locations = locations
    messages[k] = m
  }
  return messages
}

function decodeCall(e: EncodedCall, messages: readonly Message[]): CallSite {
  const message = messages[e[7]]!
  const kind = e[0] & 3
  const r = e[9]
  const ranges: { start: number; end: number }[] = new Array(r.length >> 1)
  for (let i = 0; i < r.length; i += 2) ranges[i >> 1] = { start: r[i]!, end: r[i + 1]! }
  const site: CallSite = {
    messageKey: message.key,
    kind: kind === 1 ? 'tagged' : kind === 2 ? 'attribute' : kind === 3 ? 'jsx' : 'call',
    start: e[1],
    end: e[2],
    callee: { start: e[3], end: e[4] },
    args: kind === 0 || kind === 2 ? ranges : [],
    placeholders: e[11] === 0 ? message.placeholders.slice() : e[11],
    line: e[5],
    column: e[6],
  }
  if (e[0] & 4) site.descriptor = true
  if (e[0] & 8) site.moduleLevel = true
  if (kind === 1) {
    const names = e[10] === 0 ? [] : e[10]
    site.expressions = ranges.map((range, i) => ({ start: range.start, end: range.end, name: names[i]! }))
  }
  if (e[8] >= 0) site.pluralKey = messages[e[8]]!.key
  if (e[12] !== 0) site.pluralPlaceholders = e[12]
  if (e[13] !== undefined && e[13] !== 0) site.markup = e[13]
  if (e[14] !== undefined) site.jsx = e[14]
  return site
}

/** The stored results whose payload no one has decoded yet. */
const undecoded = new WeakMap<FileExtraction, { payload: StoredText; namespace: string | null }>()

/**
 * A file's result for one use that keeps nothing of it: a stored result not decoded yet is decoded into
 * a new object, and the stored one stays undecoded. A build's transform reads each module's sites once;
 * kept, its thousands of small objects would outlive the young generation and make every scavenge
 * copy them.
 */
export function transientExtraction(result: FileExtraction): FileExtraction {
  const stored = undecoded.get(result)
  if (stored === undefined) return result
  const { file, hash } = result
  return { file, hash, ...decodeFile(file, stored.payload, stored.namespace) }
}

/**
 * A file's messages and diagnostics for a merge. A stored result not decoded yet has only those decoded,
 * into new objects that nothing else keeps (`owned`: the merge may take them as its own), and stays
 * undecoded: a merge never reads the call sites, and decoded they would stay with the result for the
 * process's life (an app's every call, some 10 MiB at 2,000 modules, in a dev server started after an
 * edit).
 */
export function mergeableExtraction(
  result: FileExtraction,
): Pick<FileExtraction, 'messages' | 'diagnostics'> & { owned: boolean } {
  const stored = undecoded.get(result)
  if (stored === undefined)
    return { messages: result.messages, diagnostics: result.diagnostics, owned: false }
  const data = JSON.parse(textOf(stored.payload)) as EncodedFile
  return { messages: decodeMessages(result.file, data.m, stored.namespace), diagnostics: data.d, owned: true }
}

/**
 * A file's result read from disk: `messages`, `calls` and `diagnostics` are decoded together on first
 * access, then are plain data properties.
 */
export function storedExtraction(
  file: string,
  hash: string,
  payload: StoredText,
  namespace: string | null,
): FileExtraction {
  // Accessors of an object literal (enumerable, configurable, as defineProperty made them before):
  // thousands of stored results are made at each build start, and a literal is made from a template.
  const result: FileExtraction = {
    file,
    hash,
    get messages() {
      decode()
      return result.messages
    },
    get calls() {
      decode()
      return result.calls
    },
    get diagnostics() {
      decode()
      return result.diagnostics
    },
  }
  undecoded.set(result, { payload, namespace })
  const decode = (): void => {
    undecoded.delete(result)
    const decoded = decodeFile(file, payload, namespace)
    for (const key of ['messages', 'calls', 'diagnostics'] as const) {
      Object.defineProperty(result, key, {
        value: decoded[key],
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
  }
  return result
}
