// Static generation: every page in every locale to its own HTML file (`<locale>/<page>/index.html`,
// with `<html lang dir>`), beside the client's assets, from the built bundles of `node build.mjs`.
// `node prerender.mjs` writes dist/static, which any static file host serves as it is.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pageHtml } from './server.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

/** Writes the pages into `into` and returns their paths, relative to it. */
export async function prerender({ outDir = join(root, 'dist'), into = join(outDir, 'static') } = {}) {
  const entry = await import(join(outDir, 'server/entry-server.js'))
  const template = await readFile(join(outDir, 'client/index.html'), 'utf8')
  await cp(join(outDir, 'client/assets'), join(into, 'assets'), { recursive: true })
  const written = []
  // One locale after the other; the pages of a locale at once (each render is in its own locale anyway).
  for (const locale of entry.LOCALES) {
    await Promise.all(
      entry.PAGES.map(async (page) => {
        const file = join(locale, page, 'index.html')
        await mkdir(join(into, locale, page), { recursive: true })
        await writeFile(join(into, file), pageHtml(template, await entry.render(page, locale)))
        written.push(file)
      }),
    )
  }
  return written.sort()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await prerender()
  console.log(`${files.length} pages written:\n  ${files.join('\n  ')}`)
}
