import { readFileSync } from 'node:fs'
import { DEMO_SEED } from './demo-seed'
import type { EmulatorSeed, EmulatorSeedUser } from './types'

/** A seed that cannot be used; the message names the file and the field. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SeedError'
  }
}

function fail(where: string, path: string, message: string): never {
  throw new SeedError(`[unplugin-tms] emulator seed ${where}: ${path} ${message}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function expectArray(where: string, path: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) fail(where, path, 'must be an array')
  return value
}

function expectString(where: string, path: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') fail(where, path, 'must be a non-empty string')
  return value
}

/** Checks a seed's shape and uniqueness rules; `where` names its origin in messages. */
export function validateSeed(input: unknown, where: string): EmulatorSeed {
  if (!isObject(input)) fail(where, 'the seed', 'must be a JSON object')
  const users: EmulatorSeedUser[] = expectArray(where, 'users', input.users).map((u, i) => {
    if (!isObject(u)) fail(where, `users[${i}]`, 'must be an object')
    const user: EmulatorSeedUser = {
      userIdentifier: expectString(where, `users[${i}].userIdentifier`, u.userIdentifier),
      userSecret: expectString(where, `users[${i}].userSecret`, u.userSecret),
    }
    if (u.accountUids === undefined) return user
    const accountUids = expectArray(where, `users[${i}].accountUids`, u.accountUids).map((a, j) =>
      expectString(where, `users[${i}].accountUids[${j}]`, a),
    )
    return { ...user, accountUids }
  })
  const seenUsers = new Set<string>()
  users.forEach((u, i) => {
    if (seenUsers.has(u.userIdentifier)) fail(where, `users[${i}].userIdentifier`, 'is a duplicate')
    seenUsers.add(u.userIdentifier)
  })
  const seenProjects = new Set<string>()
  const seenAccounts = new Set<string>()
  const accounts = expectArray(where, 'accounts', input.accounts).map((a, i) => {
    if (!isObject(a)) fail(where, `accounts[${i}]`, 'must be an object')
    const accountUid = expectString(where, `accounts[${i}].accountUid`, a.accountUid)
    if (seenAccounts.has(accountUid)) fail(where, `accounts[${i}].accountUid`, 'is a duplicate')
    seenAccounts.add(accountUid)
    const projects = expectArray(where, `accounts[${i}].projects`, a.projects).map((p, j) => {
      const at = `accounts[${i}].projects[${j}]`
      if (!isObject(p)) fail(where, at, 'must be an object')
      const projectId = expectString(where, `${at}.projectId`, p.projectId)
      if (seenProjects.has(projectId)) fail(where, `${at}.projectId`, 'is a duplicate')
      seenProjects.add(projectId)
      const sourceLocaleId = expectString(where, `${at}.sourceLocaleId`, p.sourceLocaleId)
      const targetLocaleIds = expectArray(where, `${at}.targetLocaleIds`, p.targetLocaleIds).map((l, k) =>
        expectString(where, `${at}.targetLocaleIds[${k}]`, l),
      )
      return { projectId, sourceLocaleId, targetLocaleIds }
    })
    return { accountUid, projects }
  })
  for (const [i, u] of users.entries()) {
    for (const [j, a] of (u.accountUids ?? []).entries()) {
      if (!seenAccounts.has(a)) fail(where, `users[${i}].accountUids[${j}]`, `names an unknown account ${a}`)
    }
  }
  const seed: EmulatorSeed = { users, accounts }
  if (input.translationMemory !== undefined) {
    seed.translationMemory = expectArray(where, 'translationMemory', input.translationMemory).map((e, i) => {
      if (!isObject(e)) fail(where, `translationMemory[${i}]`, 'must be an object')
      return {
        localeId: expectString(where, `translationMemory[${i}].localeId`, e.localeId),
        source: expectString(where, `translationMemory[${i}].source`, e.source),
        target: expectString(where, `translationMemory[${i}].target`, e.target),
      }
    })
  }
  return seed
}

/** The seed of an option: DEMO_SEED, an object, or a JSON file read now. */
export function loadSeed(seed: EmulatorSeed | string | undefined): EmulatorSeed {
  if (seed === undefined) return DEMO_SEED
  if (typeof seed !== 'string') return validateSeed(seed, '(object)')
  let text: string
  try {
    text = readFileSync(seed, 'utf8')
  } catch (error) {
    throw new SeedError(`[unplugin-tms] cannot read emulator seed ${seed}: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new SeedError(`[unplugin-tms] emulator seed ${seed} is not valid JSON: ${(error as Error).message}`)
  }
  return validateSeed(json, seed)
}
