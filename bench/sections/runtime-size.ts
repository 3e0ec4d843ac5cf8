import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { transform } from 'esbuild'
import type { BenchSection } from '../run'

const BUDGET = 1024

/** min+gzip size of the browser runtime as a bundler would ship it. */
export async function run(): Promise<BenchSection> {
  const source = await readFile(new URL('../../dist/runtime.mjs', import.meta.url), 'utf8')
  const { code } = await transform(source, { minify: true, format: 'esm', target: 'es2020' })
  const gzip = gzipSync(code, { level: 9 }).length
  return {
    title: 'Runtime size',
    markdown: [
      '| figure | value | target |',
      '| --- | --- | --- |',
      `| \`unplugin-tms/runtime\` minified | ${code.length} B | |`,
      `| \`unplugin-tms/runtime\` min+gzip | ${gzip} B | <= ${BUDGET} B ${gzip <= BUDGET ? '(met)' : '(MISSED)'} |`,
    ].join('\n'),
  }
}
