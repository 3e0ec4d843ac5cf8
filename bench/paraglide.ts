/**
 * Paraglide JS's compiled output for the runtime-size comparison: the message Paraglide's compiler
 * turns into `m.hello({ name })`, in English and French, with its runtime, written to a temporary
 * folder. The project is made in memory with the inlang SDK Paraglide depends on, so no plugin is
 * fetched and nothing leaves the machine.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { compileProject } from '@inlang/paraglide-js'
import { insertBundleNested, loadProjectInMemory, newProject } from '@inlang/sdk'

function text(value: string) {
  return { type: 'text' as const, value }
}

const name = { type: 'expression' as const, arg: { type: 'variable-reference' as const, name: 'name' } }

/** The folder holding `messages.js` and `runtime.js`. */
export async function paraglideOutput(): Promise<string> {
  const project = await loadProjectInMemory({
    blob: await newProject({ settings: { locales: ['en', 'fr'], baseLocale: 'en' } }),
  })
  const patterns = { en: [text('Hello '), name, text('!')], fr: [text('Bonjour '), name, text(' !')] }
  await insertBundleNested(project.db, {
    id: 'hello',
    declarations: [{ type: 'input-variable', name: 'name' }],
    messages: Object.entries(patterns).map(([locale, pattern]) => ({
      id: `hello_${locale}`,
      bundleId: 'hello',
      locale,
      selectors: [],
      variants: [{ id: `hello_${locale}_0`, messageId: `hello_${locale}`, matches: [], pattern }],
    })),
  })
  const files = await compileProject({ project, compilerOptions: { emitGitIgnore: false } })
  await project.close()
  const dir = mkdtempSync(join(tmpdir(), 'tms-paraglide-'))
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), content)
  }
  return dir
}
