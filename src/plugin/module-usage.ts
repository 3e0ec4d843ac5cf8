import { usedIds } from '../core/catalog/index'
import type { FileExtraction } from '../core/extract/index'

/**
 * Which module of a build uses which ids: set by the transform, else looked up from the build start's
 * extraction when a catalog first asks (a module a bundler's disk cache kept never reaches the
 * transform). The ids of a list of modules are kept while no transform changed any module's.
 */
export class ModuleUsage {
  /** File -> ids its calls use. */
  readonly fileIds: Map<string, Set<string>> = new Map()
  /** The build start's extraction of each file, whose ids are looked up when first needed. */
  private readonly startFiles: ReadonlyMap<string, FileExtraction>
  /** The ids of a build-start extraction's calls (registering what each site looks up). */
  private readonly idsOf: (fx: FileExtraction) => Set<string>
  /** Whether every file of the build start has its ids (a catalog of every id needs them all). */
  private allRegistered = false
  /** The ids of the last list of modules asked for, while no transform changed a module's. */
  private lastUsed: { files: Iterable<string>; transforms: number; used: Set<string> } | undefined
  /**
   * The file of each transform that set a module's ids, in turn, from transform number `forgotten`
   * on: the ones before the lowest mark a reader keeps are dropped ({@link forgetBefore}).
   */
  private transformed: string[] = []
  private forgotten = 0
  /** The last answer of {@link transformedSince}: every locale's catalog asks for the same. */
  private lastSince: { since: number; transforms: number; files: ReadonlySet<string> } | undefined
  /**
   * File -> the content hash under which the transform memo keeps its ids with this build's stamp
   * (see `TransformMemo`): the ids are a function of the two.
   */
  private readonly remembered = new Map<string, string>()
  /** The last answer of {@link rememberedKey}, as {@link lastUsed}. */
  private lastKey: { files: Iterable<string>; transforms: number; key: string | undefined } | undefined

  constructor(startFiles: ReadonlyMap<string, FileExtraction>, idsOf: (fx: FileExtraction) => Set<string>) {
    this.startFiles = startFiles
    this.idsOf = idsOf
  }

  /** The ids a module's calls use: the transform's, else those of its build-start extraction. */
  idsOfFile(file: string): ReadonlySet<string> | undefined {
    let ids = this.fileIds.get(file)
    if (ids === undefined) {
      const fx = this.startFiles.get(file)
      if (fx === undefined) return undefined
      ids = this.idsOf(fx)
      this.fileIds.set(file, ids)
    }
    return ids
  }

  /**
   * What a transform found a module to use; `remembered`: the content hash under which the transform
   * memo keeps these ids with this build's stamp.
   */
  setFileIds(file: string, ids: Set<string>, remembered?: string): void {
    this.fileIds.set(file, ids)
    if (remembered === undefined) this.remembered.delete(file)
    else this.remembered.set(file, remembered)
    this.transformed.push(file)
  }

  /** How many times a transform set a module's ids: a mark for {@link transformedSince}. */
  get transforms(): number {
    return this.forgotten + this.transformed.length
  }

  /** The files whose ids a transform set since mark `since` (once each); undefined once forgotten. */
  transformedSince(since: number): ReadonlySet<string> | undefined {
    if (since < this.forgotten) return undefined
    const last = this.lastSince
    if (last?.since === since && last.transforms === this.transforms) return last.files
    const files = new Set(this.transformed.slice(since - this.forgotten))
    this.lastSince = { since, transforms: this.transforms, files }
    return files
  }

  /** Drops the transforms before mark `mark`: no reader asks for them any more. */
  forgetBefore(mark: number): void {
    const drop = Math.min(mark, this.transforms) - this.forgotten
    if (drop <= 0) return
    this.transformed = this.transformed.slice(drop)
    this.forgotten += drop
  }

  /** Every file of the build start with its ids: before a catalog of every id (dev server, no module list). */
  registerAll(): void {
    if (this.allRegistered) return
    for (const file of this.startFiles.keys()) this.idsOfFile(file)
    this.allRegistered = true
  }

  /**
   * The ids of the given modules named without their union (see {@link rememberedKeyOf}); kept for
   * the same list object as {@link usedIds}'s answer.
   */
  rememberedKey(files: Iterable<string>): string | undefined {
    const last = this.lastKey
    if (last?.files === files && last.transforms === this.transforms) return last.key
    const key = rememberedKeyOf(files, {
      remembered: this.remembered,
      fileIds: this.fileIds,
      calledAtStart: (file) => (this.startFiles.get(file)?.calls.length ?? 0) > 0,
    })
    this.lastKey = { files, transforms: this.transforms, key }
    return key
  }

  /**
   * The ids the given modules use. The answer for the same list object is kept: the bundler layers
   * pass one list, once every module is transformed, for all locales' catalogs.
   */
  usedIds(files: Iterable<string>): Set<string> {
    const last = this.lastUsed
    if (last?.files === files && last.transforms === this.transforms) return last.used
    const used = usedIds({ get: (file) => this.idsOfFile(file) }, files, stripQuery)
    this.lastUsed = { files, transforms: this.transforms, used }
    return used
  }
}

/**
 * What names the ids of the given modules without reading them, with the build's stamp: each module
 * by its file and the content hash under which the transform memo keeps its ids, sorted (a bundler
 * may list its modules in another order each build). Undefined when a module's ids are not in the
 * memo (a module changed since the build start, the build start's extraction of a module no
 * transform met): only their union tells them then. A module with no call site adds nothing.
 */
export function rememberedKeyOf(
  files: Iterable<string>,
  usage: {
    remembered: ReadonlyMap<string, string>
    fileIds: ReadonlyMap<string, ReadonlySet<string>>
    /** Whether the build start's extraction of the file has call sites. */
    calledAtStart: (file: string) => boolean
  },
): string | undefined {
  const parts: string[] = []
  for (const id of files) {
    const file = stripQuery(id)
    const hash = usage.remembered.get(file)
    if (hash !== undefined) {
      parts.push(`${file}\u0000${hash}`)
      continue
    }
    const ids = usage.fileIds.get(file)
    if (ids ? ids.size > 0 : usage.calledAtStart(file)) return undefined
  }
  return parts.length > 0 ? parts.sort().join('\n') : undefined
}

/** The file of a module id: the id without its query (`App.vue?vue&type=script` -> `App.vue`). */
export function stripQuery(id: string): string {
  const q = id.indexOf('?')
  return q < 0 ? id : id.slice(0, q)
}
