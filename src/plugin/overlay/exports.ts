import { escapeRegex } from '../../core/escape-regex'

/**
 * The local name a bundled module's last `export { ... }` clause gives an export (`_l`, or `a as _l`
 * after a rename), when that local is a function declaration the code appended to the module may
 * call or reassign; undefined otherwise.
 */
export function exportedFunction(code: string, name: string): string | undefined {
  const clause = [...code.matchAll(/\bexport\s*\{([^}]*)\}/g)].pop()
  if (!clause) return undefined
  for (const part of clause[1]!.split(',')) {
    const [local, exported = local] = part.trim().split(/\s+as\s+/)
    if (exported !== name || !local) continue
    return new RegExp(`\\bfunction\\s+${escapeRegex(local)}\\s*\\(`).test(code) ? local : undefined
  }
  return undefined
}
