import type { Message } from '../extract/types'
import type { PlaceholderSpec } from '../model/placeholders'
import { bySpec } from '../sync/push'
import type { MatchedTranslation } from './match'
import { ImportProgress } from './progress'

/**
 * The translations into the service through the spec's files API: the matched messages in batches,
 * each batch one gettext file uploaded under the app's namespace and placeholder format (so its
 * strings are the ones push created, same hashcodes), then each locale's translations of the batch
 * imported into it. gettext rather than JSON: its msgctxt carries a message's variant, which is part
 * of the string's identity, and it needs no `source_key_paths` directive. Requests run one after
 * another: the spec allows 10 file operations at once per project and locks a file while one runs.
 * A message with a placeholder spec of its own (an ICU message whose one-word branch body the app's
 * regex would take for a placeholder, see `../icu/placeholders.ts`) goes in a file of that spec, as
 * push sends it in a request of its own: a file carries one spec.
 */

/** The files calls an import makes; `src/service.ts` hands it the API client's. */
export interface ImportFilesClient {
  upload(
    projectId: string,
    request: {
      file: string
      fileUri: string
      fileType: string
      namespace?: string
      directives?: Record<string, string>
    },
  ): Promise<unknown>
  importTranslations(
    projectId: string,
    localeId: string,
    request: {
      file: string
      fileUri: string
      fileType: string
      translationState: 'PUBLISHED' | 'POST_TRANSLATION'
      overwrite?: boolean
    },
  ): Promise<{ stringCount: number; translationImportErrors: unknown[] }>
}

export interface UploadPlan {
  projectId: string
  namespace: string
  placeholder: PlaceholderSpec
  sourceLocale: string
  state: 'published' | 'pending'
  overwrite: boolean
  batchSize: number
  /** Folder of the uploaded files' URIs. */
  uriPrefix: string
}

export interface UploadOutcome {
  /** Per locale: translations the service took. */
  imported: Record<string, number>
  /** What the service refused, as it said it. */
  serviceErrors: { locale: string; fileUri: string; error: string }[]
  requests: { uploads: number; imports: number; skipped: number }
}

/** A step that failed: the outcome so far and the request that did not finish. */
export class ImportStepError extends Error {
  readonly outcome: UploadOutcome
  readonly step: string
  constructor(step: string, cause: unknown, outcome: UploadOutcome) {
    super(`${step} failed: ${(cause as Error).message ?? String(cause)}`)
    this.name = 'ImportStepError'
    this.step = step
    this.outcome = outcome
  }
}

const quote = (text: string): string =>
  `"${text.replace(/[\\"\n\t\r]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c]!)}"`

/** One gettext file of a batch: msgstr empty for the source file, the translation for a locale's. */
export function gettextOf(
  messages: readonly Message[],
  locale: string,
  translation: (m: Message) => string,
): string {
  const lines = [
    'msgid ""',
    'msgstr ""',
    quote('Content-Type: text/plain; charset=UTF-8\n'),
    quote(`Language: ${locale}\n`),
    '',
  ]
  for (const m of messages) {
    if (m.variant !== null) lines.push(`msgctxt ${quote(m.variant)}`)
    lines.push(`msgid ${quote(m.text)}`, `msgstr ${quote(translation(m))}`, '')
  }
  return lines.join('\n')
}

// Long because the loop is one sequence a rerun resumes: each batch's upload, then its imports,
// each skipped when the progress record has it and recorded as soon as the service answered.
export async function uploadTranslations(
  client: ImportFilesClient,
  plan: UploadPlan,
  matched: readonly MatchedTranslation[],
  progress: ImportProgress,
): Promise<UploadOutcome> {
  const outcome: UploadOutcome = {
    imported: {},
    serviceErrors: [],
    requests: { uploads: 0, imports: 0, skipped: 0 },
  }
  // One text per message and locale: the first catalog that gave one wins (a later duplicate is a
  // second catalog of the same locale saying the same thing, or a conflict the report shows).
  const byMessage = new Map<string, { message: Message; texts: Map<string, string> }>()
  for (const t of matched) {
    let entry = byMessage.get(t.message.key)
    if (!entry) {
      entry = { message: t.message, texts: new Map() }
      byMessage.set(t.message.key, entry)
    }
    if (!entry.texts.has(t.locale)) entry.texts.set(t.locale, t.text)
  }
  const locales = [...new Set(matched.map((t) => t.locale))].sort()
  const translationState = plan.state === 'published' ? 'PUBLISHED' : 'POST_TRANSLATION'
  const groups = bySpec(
    [...byMessage.values()].map((b) => ({ ...b, text: b.message.text })),
    plan.placeholder,
  )
  const files = groups.flatMap(({ spec, messages: all }) => {
    const directives: Record<string, string> = spec.custom
      ? { placeholder_format_custom: spec.custom }
      : { placeholder_format: spec.format ?? 'none' }
    const batches: { directives: Record<string, string>; batch: typeof all }[] = []
    for (let first = 0; first < all.length; first += plan.batchSize)
      batches.push({ directives, batch: all.slice(first, first + plan.batchSize) })
    return batches
  })
  for (const [i, { directives, batch }] of files.entries()) {
    const fileUri = `${plan.uriPrefix}/batch-${String(i + 1).padStart(4, '0')}.po`
    const source = gettextOf(
      batch.map((b) => b.message),
      plan.sourceLocale,
      () => '',
    )
    const uploadStep = ImportProgress.digest(
      'upload',
      plan.projectId,
      fileUri,
      plan.namespace,
      JSON.stringify(directives),
      source,
    )
    if (progress.has(uploadStep)) outcome.requests.skipped++
    else {
      try {
        await client.upload(plan.projectId, {
          file: source,
          fileUri,
          fileType: 'gettext',
          namespace: plan.namespace,
          directives,
        })
      } catch (error) {
        throw new ImportStepError(`the upload of ${fileUri}`, error, outcome)
      }
      outcome.requests.uploads++
      await progress.record(uploadStep)
    }
    for (const locale of locales) {
      const inLocale = batch.filter((b) => b.texts.has(locale))
      if (inLocale.length === 0) continue
      const file = gettextOf(
        inLocale.map((b) => b.message),
        locale,
        (m) => byMessage.get(m.key)!.texts.get(locale)!,
      )
      const step = ImportProgress.digest(
        'import',
        uploadStep,
        locale,
        translationState,
        String(plan.overwrite),
        file,
      )
      if (progress.has(step)) {
        outcome.requests.skipped++
        continue
      }
      let answer: Awaited<ReturnType<ImportFilesClient['importTranslations']>>
      try {
        answer = await client.importTranslations(plan.projectId, locale, {
          file,
          fileUri,
          fileType: 'gettext',
          translationState,
          overwrite: plan.overwrite,
        })
      } catch (error) {
        throw new ImportStepError(`the import of ${locale} into ${fileUri}`, error, outcome)
      }
      outcome.requests.imports++
      outcome.imported[locale] = (outcome.imported[locale] ?? 0) + answer.stringCount
      for (const e of answer.translationImportErrors)
        outcome.serviceErrors.push({ locale, fileUri, error: typeof e === 'string' ? e : JSON.stringify(e) })
      await progress.record(step)
    }
  }
  return outcome
}
