/**
 * Writes the fresh-process section's unplugin-tms app once, with its warm cache and a vite config per
 * mode, so that one build can be run (and profiled, or timed as a whole process) by hand:
 *
 *   npx tsx bench/fresh-one.ts [dir] [modules]
 *   cd <dir> && node ../../node_modules/vite/bin/vite.js build --config vite.config.tms-runtime.mjs
 *
 * `dir` (default bench/.corpus/one) must be inside a checkout of this package, whose built dist/ the
 * configs import as `unplugin-tms/vite`; `modules` defaults to the 2000.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { freshMessages, writeFreshApp } from './fresh-app'
import { repo, seedCache } from './fresh-runner'
import { OFFLINE, react, TMS_OPTIONS, tmsConfig } from './fresh-variants'

const root = resolve(process.argv[2] ?? join(repo, 'bench', '.corpus', 'one'))
const modules = Number(process.argv[3] ?? 2000)
// The section's options (bench/fresh-variants.ts), offline on its warm cache.
const options = { ...TMS_OPTIONS, ...OFFLINE }
const tms = (extra: Record<string, unknown>): string => tmsConfig({ ...OFFLINE, ...extra })

writeFreshApp(root, 'tms', freshMessages(modules))
const seeded = await seedCache(root, join(root, '.tms-cache'), options)
writeFileSync(join(root, 'vite.config.plain.mjs'), `${react}export default { plugins: [react()] }\n`)
writeFileSync(join(root, 'vite.config.tms-runtime.mjs'), tms({}))
writeFileSync(join(root, 'vite.config.tms-inline.mjs'), tms({ mode: 'inline' }))
console.log(`fresh-one: ${modules} components, ${seeded} messages at ${root}`)
