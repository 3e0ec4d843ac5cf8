import * as nodeFs from 'node:fs/promises'
import { join } from 'node:path'
import { CACHE_SCHEMA, type CacheFs } from '.'

/**
 * The project a cache directory's manifest belongs to, or undefined when there is no readable manifest
 * of this schema with a project. An offline build with no project id (a fork's pull request, a laptop
 * without TMS_PROJECT_ID) reads the committed cache of that one project rather than none.
 */
export async function projectOfCache(
  cacheDir: string,
  fs: Pick<CacheFs, 'readFile'> = nodeFs,
): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await fs.readFile(join(cacheDir, 'manifest.json'), 'utf8')) as {
      schema?: unknown
      projectId?: unknown
    }
    if (manifest?.schema !== CACHE_SCHEMA) return undefined
    return typeof manifest.projectId === 'string' && manifest.projectId !== ''
      ? manifest.projectId
      : undefined
  } catch {
    return undefined
  }
}
