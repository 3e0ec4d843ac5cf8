// Keeps package-lock.json complete for `npm ci` on every platform.
//
// The registry these machines reach serves only the linux-x64 builds of packages that ship one
// optional package per platform (biome, rspack, oxc-parser, rolldown, esbuild ...). npm then writes a
// lock without the other platforms' entries, and `npm ci` refuses it ("Missing: @biomejs/cli-darwin-x64@
// from lock file"). This adds each missing optional platform package as an optional lock entry with the
// version its parent pins; npm ci skips it on a platform it does not fit (or tolerates its failure as an
// optional dependency). Run it after `npm install`: `node scripts/lock-optional.mjs`.
import { readFileSync, writeFileSync } from 'node:fs'

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
let added = 0
for (const [path, entry] of Object.entries(packages)) {
  if (!path.startsWith('node_modules/') || !entry.optionalDependencies) continue
  for (const [name, version] of Object.entries(entry.optionalDependencies)) {
    // Resolved like node would: next to the parent, else hoisted to the top.
    const nested = `${path}/node_modules/${name}`
    const top = `node_modules/${name}`
    if (packages[nested]) continue
    if (!/^\d+\.\d+\.\d+(?:-[\w.]+)?$/.test(version)) continue
    if (packages[top]?.version === version) continue
    // Hoisted when the top slot is free; nested under its parent when another version holds it.
    packages[packages[top] ? nested : top] = { version, optional: true }
    added++
  }
}
if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  )
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
}
console.log(`package-lock.json: ${added} optional platform entries added`)
