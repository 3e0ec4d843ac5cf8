/**
 * Where a build's main thread spends its time, from a `node --cpu-prof` profile: self time by owner
 * (unplugin-tms, vite and the rest of node_modules, Node itself, idle, garbage collection) and the
 * plugin's functions by inclusive time (a function's own time and its callees', counted once per
 * sample however deep its recursion).
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface ProfileSummary {
  /** Milliseconds of the profile. */
  total: number
  /** Self milliseconds per owner, largest first. */
  owners: [string, number][]
  /** The plugin's functions, `name (file:line)`, by inclusive milliseconds, largest first. */
  plugin: [string, number][]
}

function ownerOf(url: string, functionName: string, pluginDir: string): string {
  if (url.startsWith(`file://${pluginDir}`) || url.startsWith(pluginDir)) return 'unplugin-tms'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] === 'rolldown' || pkg[1]!.startsWith('@rolldown') ? 'rolldown (JS side)' : pkg[1]!
  if (functionName === '(idle)') return 'idle (waiting on rolldown threads, I/O)'
  if (functionName === '(garbage collector)') return 'garbage collection'
  if (functionName === '(program)') return 'Node/V8 (program)'
  if (url.startsWith('node:') || url === '') return 'Node built-ins'
  return 'other'
}

/** Summarises the profile at `file`; `pluginDir` is the plugin's built code (dist/, absolute). */
export function summarizeProfile(file: string, pluginDir: string): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const owners = new Map<string, number>()
  const plugin = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000
    total += dt
    const node = byId.get(id)!
    const owner = ownerOf(node.callFrame.url, node.callFrame.functionName, pluginDir)
    owners.set(owner, (owners.get(owner) ?? 0) + dt)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame
      if (ownerOf(url, functionName, pluginDir) !== 'unplugin-tms') continue
      const name = `${functionName || '(anonymous)'} (${url.split('/').pop()}:${lineNumber + 1})`
      if (seen.has(name)) continue
      seen.add(name)
      plugin.set(name, (plugin.get(name) ?? 0) + dt)
    }
  })
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
  return { total, owners: sorted(owners), plugin: sorted(plugin) }
}
