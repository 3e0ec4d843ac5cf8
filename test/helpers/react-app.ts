import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import * as esbuild from 'esbuild'
import { rollup } from 'rollup'
import type { Options } from '../../src/options'
import tmsRollup from '../../src/rollup'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

/** React and react-dom stay out of a test app's bundle: the repo's own copy renders it. */
export const REACT: RegExp = /^react(?:-dom)?(?:\/|$)/

/** The JSX left after the plugin's transform, compiled by esbuild (a loader for webpack, a plugin for rollup). */
export function compileJsx(code: string): string {
  return esbuild.transformSync(code, { loader: 'jsx', jsx: 'automatic', format: 'esm' }).code
}

/**
 * A React app built by rollup with the plugin: `unplugin-tms/react` from the built package (what
 * @rollup/plugin-node-resolve does for this one import: the package's `exports`), the JSX compiled by
 * esbuild, React external. Returns the entry chunk's path.
 */
export async function rollupReactApp(input: string, outDir: string, options: Options): Promise<string> {
  const bundle = await rollup({
    input,
    external: (id) => REACT.test(id),
    plugins: [
      tmsRollup(options),
      {
        name: 'resolve-binding',
        resolveId: (id) => (id === 'unplugin-tms/react' ? join(REPO, 'dist/react.mjs') : null),
      },
      { name: 'jsx', transform: (code, id) => (id.endsWith('.jsx') ? compileJsx(code) : null) },
    ],
  })
  await bundle.write({ dir: outDir, format: 'es' })
  await bundle.close()
  return join(outDir, 'main.js')
}

/** The page before and after `render('fr-FR')`, rendered by the app's `render` in a fresh Node process. */
export async function renderPages(file: string): Promise<{ source: string; fr: string }> {
  const script = `
    const app = await import(${JSON.stringify(pathToFileURL(file).href)})
    const source = await app.render()
    const fr = await app.render('fr-FR')
    process.stdout.write(JSON.stringify({ source, fr }))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    timeout: 60_000,
  })
  return JSON.parse(stdout)
}
