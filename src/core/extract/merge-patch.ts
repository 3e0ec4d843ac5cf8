import { type CacheFileContents, patchedLine } from './cache'
import { filesDigest } from './files-digest'
import { compareDiagnostics, Merger } from './merge'
import { mergeableExtraction } from './payload'
import { compareMessages, type Diagnostic, type FileExtraction, type Message } from './types'

/**
 * {@link patchMerge} of the merge the cache file holds, when it was made of the files the cache file
 * lists (a file a run could not keep, unreadable say, is merged but not listed); undefined otherwise,
 * or when its line does not read back. With the merged line to write (`line`): the stored one's
 * entries of the messages the patch kept, as they were, and the others encoded (`patchedLine`);
 * none when a file it names is gone (the whole encode then leaves it out).
 */
export function patchStoredMerge(
  disk: CacheFileContents,
  results: readonly FileExtraction[],
  cwd: string,
): { messages: Message[]; diagnostics: Diagnostic[]; line?: string } | undefined {
  const last = disk.merged
  const files = [...disk.files.values()]
  if (last === null || last.from !== filesDigest(files)) return undefined
  let stored: ReturnType<typeof last.decoded>
  try {
    stored = last.decoded()
  } catch {
    return undefined
  }
  const before = new Map(files.map((f) => [f.result.file, f.result]))
  const patch = patchMerge({ messages: stored.messages, diagnostics: last.diagnostics }, before, results, cwd)
  if (patch === undefined) return undefined
  const present = new Set(results.map((r) => r.file))
  const line = patchedLine(stored.line, patch.messages, patch.kept, (file) => present.has(file))
  const { messages, diagnostics } = patch
  return line === undefined ? { messages, diagnostics } : { messages, diagnostics, line }
}

/**
 * The last merge brought up to date with the files that changed since, so that a run after an edit
 * merges what the edit touched instead of every file's messages again: the messages of the keys that
 * no changed file holds, before or now, are the last merge's as they are (every file they come from is
 * unchanged); each other key is merged again from the files that hold it, in file order, as a whole
 * merge would (the first spelling and metadata met win). The outcome is the one {@link Merger} gives
 * fed every file (`test/extract/merge-patch.test.ts` holds them equal over random edits).
 *
 * The last merge's conflicting-metadata warnings are told apart by the occurrence each names: those of
 * the other keys stay, those of the keys merged again are made again by that merge.
 *
 * Undefined (merge every file instead) when the last merge cannot be patched alike: a message located
 * in a file that is not among `before`, a diagnostic of such a file, a warning at no message's
 * occurrence (or at two), or more than a quarter of the files changed (the whole merge then costs
 * about as much).
 *
 * `last`: the last merge, its messages objects of this run's own (decoded from the cache file), which
 * the outcome takes over; `before`: the files it was made of, by path; `results`: this run's files in
 * file order. `kept`: for each message of the outcome, its index in `last.messages` when it is that
 * message as it was, else -1.
 */
export function patchMerge(
  last: { messages: Message[]; diagnostics: readonly Diagnostic[] },
  before: ReadonlyMap<string, FileExtraction>,
  results: readonly FileExtraction[],
  cwd: string,
): { messages: Message[]; diagnostics: Diagnostic[]; kept: number[] } | undefined {
  const order = new Map<string, number>()
  for (const [i, r] of results.entries()) order.set(r.file, i)
  const changed = new Set<string>()
  for (const r of results) if (before.get(r.file)?.hash !== r.hash) changed.add(r.file)
  for (const file of before.keys()) if (!order.has(file)) changed.add(file)
  if (changed.size > results.length / 4) return undefined
  // Each conflicting-metadata warning's position -> the key of the message occurring there.
  const warned = new Map<string, string | undefined>()
  for (const d of last.diagnostics) {
    if (!before.has(d.file)) return undefined
    if (d.code === CONFLICT) warned.set(positionOf(d), undefined)
  }

  // Every key a changed file held or holds now, and each changed file's part as it is now.
  const affected = new Set<string>()
  const parts = new Map<number, ReturnType<typeof mergeableExtraction>>()
  for (const file of changed) {
    const was = before.get(file)
    if (was !== undefined) for (const m of mergeableExtraction(was).messages) affected.add(m.key)
    const at = order.get(file)
    if (at === undefined) continue
    const part = mergeableExtraction(results[at]!)
    for (const m of part.messages) affected.add(m.key)
    parts.set(at, part)
  }

  // The last merge's messages of other keys stay; the unchanged files that hold an affected key join
  // the changed ones in its merge.
  const kept: number[] = []
  const holders = new Set<number>(parts.keys())
  for (const [i, m] of last.messages.entries()) {
    const touched = affected.has(m.key)
    if (!touched) kept.push(i)
    for (const l of m.locations) {
      if (!before.has(l.file)) return undefined
      const at = order.get(l.file)
      if (touched && at !== undefined && !changed.has(l.file)) holders.add(at)
      if (warned.size === 0) continue
      const position = positionOf(l)
      if (!warned.has(position)) continue
      if (warned.get(position) !== undefined) return undefined
      warned.set(position, m.key)
    }
  }
  if ([...warned.values()].includes(undefined)) return undefined
  const merger = new Merger(cwd)
  for (const at of [...holders].sort((a, b) => a - b)) {
    const part = parts.get(at) ?? mergeableExtraction(results[at]!)
    const messages = part.messages.filter((m) => affected.has(m.key))
    merger.add({ messages, diagnostics: [] }, part.owned)
  }
  const remade = merger.finish()

  const diagnostics = last.diagnostics.filter(
    (d) => !changed.has(d.file) && (d.code !== CONFLICT || !affected.has(warned.get(positionOf(d))!)),
  )
  for (const part of parts.values()) for (const d of part.diagnostics) diagnostics.push(d)
  for (const d of remade.diagnostics) diagnostics.push(d)
  // Stable: at one position, a file's own diagnostics stay before the merge's warnings, as in a whole merge.
  diagnostics.sort(compareDiagnostics)
  return { ...mergeSorted(last.messages, kept, remade.messages), diagnostics }
}

const CONFLICT = 'conflicting-metadata'

function positionOf(at: { file: string; line?: number; column?: number }): string {
  return `${at.file}\u0000${at.line}\u0000${at.column}`
}

/**
 * The messages of `last` at `kept` (in order) and `remade`, each sorted by {@link compareMessages}, as
 * one sorted list, with each one's index in `last` (-1: remade).
 */
function mergeSorted(
  last: readonly Message[],
  kept: readonly number[],
  remade: readonly Message[],
): { messages: Message[]; kept: number[] } {
  const messages = new Array<Message>(kept.length + remade.length)
  const from = new Array<number>(messages.length)
  let i = 0
  let j = 0
  for (let k = 0; k < messages.length; k++) {
    if (j < remade.length && (i === kept.length || compareMessages(remade[j]!, last[kept[i]!]!) < 0)) {
      messages[k] = remade[j++]!
      from[k] = -1
    } else {
      messages[k] = last[kept[i]!]!
      from[k] = kept[i++]!
    }
  }
  return { messages, kept: from }
}
