import { segmentPseudoMessage } from '../../core/model/pseudo'
import type { EmulatorSeed, EmulatorSeedProject } from '../types'

/** An ICU plural, selectordinal or select argument. */
const BRANCHING = /\{\s*[\w$]+\s*,\s*(?:plural|selectordinal|select)\s*,/

/** Each literal segment through the memory (its surrounding spaces kept); undefined when one is missing. */
function recallSegments(memory: ReadonlyMap<string, string>, parsed: string): string | undefined {
  let out = ''
  for (const segment of segmentPseudoMessage(parsed)) {
    const core = segment.value.trim()
    if (segment.kind === 'keep' || core === '') {
      out += segment.value
      continue
    }
    const target = memory.get(core)
    if (target === undefined) return undefined
    const at = segment.value.indexOf(core)
    out += segment.value.slice(0, at) + target + segment.value.slice(at + core.length)
  }
  return out
}

export interface ProjectRecord extends EmulatorSeedProject {
  accountUid: string
}

export interface UserRecord {
  userIdentifier: string
  userSecret: string
  /** null: every account. */
  accountUids: string[] | null
}

/**
 * What the seed defines and the API cannot change: users, accounts, projects with their locales,
 * and the translation memory (keyed by locale, then by parsed source text).
 */
export class Directory {
  readonly users: ReadonlyMap<string, UserRecord>
  readonly projects: ReadonlyMap<string, ProjectRecord>
  readonly accountUids: ReadonlySet<string>
  readonly memory: ReadonlyMap<string, ReadonlyMap<string, string>>

  constructor(seed: EmulatorSeed) {
    this.users = new Map(
      seed.users.map((u) => [
        u.userIdentifier,
        { userIdentifier: u.userIdentifier, userSecret: u.userSecret, accountUids: u.accountUids ?? null },
      ]),
    )
    const projects = new Map<string, ProjectRecord>()
    for (const account of seed.accounts) {
      for (const p of account.projects) projects.set(p.projectId, { ...p, accountUid: account.accountUid })
    }
    this.projects = projects
    this.accountUids = new Set(seed.accounts.map((a) => a.accountUid))
    const memory = new Map<string, Map<string, string>>()
    for (const entry of seed.translationMemory ?? []) {
      const forLocale = memory.get(entry.localeId) ?? new Map<string, string>()
      memory.set(entry.localeId, forLocale)
      forLocale.set(entry.source, entry.target)
    }
    this.memory = memory
  }

  /**
   * The memory's target for a parsed source text, if any. An ICU message the memory does not hold
   * whole is translated literal segment by segment (the text of each plural or select branch), its
   * syntax kept, when the memory holds every segment.
   */
  recall(localeId: string, parsedSource: string): string | undefined {
    const memory = this.memory.get(localeId)
    const whole = memory?.get(parsedSource)
    if (whole !== undefined || !memory || !BRANCHING.test(parsedSource)) return whole
    return recallSegments(memory, parsedSource)
  }
}
