import { randomUUID } from 'node:crypto'
import type { StorePart } from './part'

export interface GlossaryFields {
  /** null once an edit left the field out or blank (the spec's wholesale replace). */
  name: string | null
  description: string | null
  sourceLocaleId: string | null
}

export interface GlossaryRecord extends GlossaryFields {
  glossaryUid: string
  accountUid: string
  createdByUserUid: string
  createdDate: number
  /** Emulator extension: a glossary assigned to a linguistic package cannot be deleted. */
  linguisticPackageUid: string | null
}

/** Glossaries per account, in order of creation. */
export class GlossaryStore implements StorePart {
  readonly name = 'glossaries'
  #glossaries = new Map<string, GlossaryRecord>()
  readonly #onChange: () => void

  constructor(onChange: () => void) {
    this.#onChange = onChange
  }

  list(accountUid: string): GlossaryRecord[] {
    return [...this.#glossaries.values()].filter((g) => g.accountUid === accountUid)
  }

  get(accountUid: string, glossaryUid: string): GlossaryRecord | undefined {
    const found = this.#glossaries.get(glossaryUid)
    return found?.accountUid === accountUid ? found : undefined
  }

  create(accountUid: string, fields: GlossaryFields, createdByUserUid: string, now: number): GlossaryRecord {
    const record: GlossaryRecord = {
      glossaryUid: randomUUID(),
      accountUid,
      ...fields,
      createdByUserUid,
      createdDate: now,
      linguisticPackageUid: null,
    }
    this.#glossaries.set(record.glossaryUid, record)
    this.#onChange()
    return record
  }

  replace(record: GlossaryRecord, fields: GlossaryFields): void {
    Object.assign(record, fields)
    this.#onChange()
  }

  assign(record: GlossaryRecord, linguisticPackageUid: string | null): void {
    record.linguisticPackageUid = linguisticPackageUid
    this.#onChange()
  }

  delete(record: GlossaryRecord): void {
    this.#glossaries.delete(record.glossaryUid)
    this.#onChange()
  }

  snapshot(): GlossaryRecord[] {
    return [...this.#glossaries.values()]
  }

  restore(data: unknown): void {
    if (!Array.isArray(data)) return
    for (const g of data as GlossaryRecord[]) {
      if (typeof g?.glossaryUid === 'string') this.#glossaries.set(g.glossaryUid, g)
    }
  }

  reset(): void {
    this.#glossaries.clear()
  }
}
